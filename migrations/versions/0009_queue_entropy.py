"""The queue keeps each waiter's randomness for its match's first deck (docs/API.md "Fairness").

``queue_tickets.entropy``: the hex ``entropy`` of the join that made the ticket, contributed by
the claim that seats it and then set back to NULL (also when the ticket leaves the queue).

A plain nullable ADD COLUMN (no table rebuild on SQLite).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("queue_tickets", sa.Column("entropy", sa.String(128), nullable=True))


def downgrade() -> None:
    op.drop_column("queue_tickets", "entropy")
