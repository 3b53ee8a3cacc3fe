"""Clocks and rematches: the due deadline of a match's clock, and the links of a rematch.

``deadline`` is the deadline of the decision a match's clock awaits (``domain.clock``), kept
beside the log that holds it (its ``decision_opened`` event) so that any API process's
sweeper finds the matches due with one indexed read; NULL when nothing is awaited or the match
has no clock. ``rematch_of`` and ``rematch`` link a rematch and the finished match it follows.

Plain ADD COLUMNs (no table rebuild on SQLite), all nullable.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("rematch_of", sa.String(36), nullable=True))
    op.add_column("matches", sa.Column("rematch", sa.String(36), nullable=True))
    op.create_index("ix_matches_deadline", "matches", ["deadline"])


def downgrade() -> None:
    op.drop_index("ix_matches_deadline", table_name="matches")
    op.drop_column("matches", "rematch")
    op.drop_column("matches", "rematch_of")
    op.drop_column("matches", "deadline")
