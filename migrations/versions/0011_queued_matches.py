"""A match the queue seated keeps its open seats for its waiters (docs/API.md "The queue").

``matches.queued``: true for a match the matchmaking queue created. Its waiters' seats are open
until each waiter takes its seat with its entropy, having seen the commitment to the first deck
(or until the queue takes it for them): the lobby does not list such a match, and a claim of
one of its seats other than the queue's is refused, as for a rematch's kept seats.

A plain ADD COLUMN with a constant default (no table rebuild on SQLite); every older match is
not a queued one waiting (the queue claimed its seats at once).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("queued", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("matches", "queued")
