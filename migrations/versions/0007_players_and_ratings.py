"""Player accounts and their ratings: ``players``, ``player_ratings``, ``rated_matches``, and
an index of the events whose metadata names an account.

An account's API key is stored only as its SHA-256 (``api/players.py`` says why that is
enough for a 256-bit random key). Which account held which seat is not a table: a claim as an
account writes the account's id into the claim event's stored metadata (``meta.account``),
which the hash chain covers; ``ix_events_account`` finds those events without reading the
others (a partial index: every other event has no account). ``player_ratings`` and
``rated_matches`` (with ``rating_changes``, each rated account's rating after each match)
are a projection of finished matches that ``cuccu ratings rebuild`` makes
again from the events alone. ``queue_tickets``: the matchmaking queue (api/queue.py). New
tables only: a downgrade drops them, the log keeps its
accounts.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the expression each dialect indexes, exactly as the queries of api/store/players.py write it
ACCOUNT_EXPRESSION = {
    "postgresql": "(meta ->> 'account')",
    "sqlite": "json_extract(meta, '$.account')",
}


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("name_key", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("key_sha256", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
        sa.UniqueConstraint("key_sha256", name="uq_players_key_sha256"),
    )
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_player_ratings_player_id_players",
            ondelete="CASCADE",
        ),  # fmt: skip
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_player_ratings"),
    )
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name="fk_rated_matches_match_id_matches",
            ondelete="CASCADE",
        ),  # fmt: skip
        sa.PrimaryKeyConstraint("match_id", name="pk_rated_matches"),
    )
    op.create_index("ix_rated_matches_ended", "rated_matches", ["ended_at", "match_id"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["rated_matches.match_id"],
            name="fk_rating_changes_match_id_rated_matches",
            ondelete="CASCADE",
        ),  # fmt: skip
        sa.PrimaryKeyConstraint("match_id", "player_id", name="pk_rating_changes"),
    )
    op.create_index(
        "ix_rating_changes_player", "rating_changes", ["player_id", "game", "ended_at", "match_id"]
    )
    op.create_table(
        "queue_tickets",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("player_id", sa.String(36), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("bots_after", sa.Integer, nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("claim_key", sa.String(64), nullable=True),
        sa.Column("reserved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_queue_tickets_player_id_players",
            ondelete="CASCADE",
        ),  # fmt: skip
        sa.PrimaryKeyConstraint("id", name="pk_queue_tickets"),
    )
    op.create_index(
        "ix_queue_tickets_waiting", "queue_tickets", ["status", "game", "seats", "created_at"]
    )
    expression = ACCOUNT_EXPRESSION[op.get_bind().dialect.name]
    op.execute(
        f"CREATE INDEX ix_events_account ON events ({expression}, match_id) "
        f"WHERE {expression} IS NOT NULL"
    )


def downgrade() -> None:
    op.execute("DROP INDEX ix_events_account")
    op.drop_index("ix_queue_tickets_waiting", table_name="queue_tickets")
    op.drop_table("queue_tickets")
    op.drop_index("ix_rating_changes_player", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_rated_matches_ended", table_name="rated_matches")
    op.drop_table("rated_matches")
    op.drop_table("player_ratings")
    op.drop_table("players")
