"""Initial schema: matches, events (hash-chained), seat_tokens, idempotency_keys.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JsonType = sa.JSON().with_variant(JSONB(), "postgresql")
PositionType = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seats", JsonType, nullable=False),
        sa.Column("starting_lives", sa.Integer, nullable=False),
        sa.Column("lives", JsonType, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=False, server_default="0"),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_matches"),
    )
    op.create_index("ix_matches_created", "matches", ["created_at", "id"])
    op.create_index("ix_matches_status_created", "matches", ["status", "created_at", "id"])

    op.create_table(
        "events",
        sa.Column("position", PositionType, sa.Identity(), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("data", JsonType, nullable=False),
        sa.Column("meta", JsonType, nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("position", name="pk_events"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_events_match_id_matches", ondelete="CASCADE"
        ),
        sa.UniqueConstraint("match_id", "version", name="uq_events_match_id_version"),
    )

    op.create_table(
        "seat_tokens",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", name="pk_seat_tokens"),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name="fk_seat_tokens_match_id_matches",
            ondelete="CASCADE",
        ),
        sa.UniqueConstraint("token_sha256", name="uq_seat_tokens_token_sha256"),
    )

    op.create_table(
        "idempotency_keys",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("key", sa.String(255), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seat", "key", name="pk_idempotency_keys"),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name="fk_idempotency_keys_match_id_matches",
            ondelete="CASCADE",
        ),
    )


def downgrade() -> None:
    op.drop_table("idempotency_keys")
    op.drop_table("seat_tokens")
    op.drop_table("events")
    op.drop_index("ix_matches_status_created", table_name="matches")
    op.drop_index("ix_matches_created", table_name="matches")
    op.drop_table("matches")
