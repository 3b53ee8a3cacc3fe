"""Idempotent creations: ``creation_keys``, one row per ``POST /matches`` sent with a key.

Each row names the match its creation made (reserved before the match is written, so no
foreign key), the fingerprint of the request, and the seat tokens it issued, encrypted under a
key derived from the Idempotency-Key; the Idempotency-Key itself is stored only as a keyed hash
(``api/creation_keys.py``). A plain new table: nothing to convert, and a downgrade drops it
(creations retried after a downgrade make new matches, as creations without a key do).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "creation_keys",
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("sealed_tokens", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_hash", name="pk_creation_keys"),
    )


def downgrade() -> None:
    op.drop_table("creation_keys")
