"""The service's pre-commitments to a first deck's secret (docs/API.md "Fairness").

``precommitments``: one row per ``POST /commitments``: the secret (hex, answered by no
request), when it was made and expires, and the match that used it (NULL until then). Rows
are deleted an hour after they expire (api/store/precommitments.py).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "precommitments",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_precommitments"),
    )
    op.create_index("ix_precommitments_expires_at", "precommitments", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_precommitments_expires_at", table_name="precommitments")
    op.drop_table("precommitments")
