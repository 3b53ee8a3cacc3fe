"""Matches of any game: the ``game`` they play, their options, a generic standing.

``game`` names the match's game in the registry (``domain.games``); every match before this
revision is a Cuccù match. ``options`` holds the game's creation options (Cuccù's
``starting_lives``; Cucco 21's ``starting_chips``, ``powers``, ``max_sets``), ``standing``
each seat's score in the game's own unit (lives, chips) and ``winners`` the winning seats.
Existing rows are filled from ``starting_lives``, ``lives`` and ``winner``.

Those three columns stay as they were (NOT NULL): relaxing a constraint on SQLite means
recreating ``matches``, and dropping the old table would cascade-delete every event. The store
keeps them as mirrors of the generic columns (``lives`` = ``standing``, ``winner`` = the single
winner, ``starting_lives`` = the option or 0), so older readers and a downgrade keep working.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JsonType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    # plain ADD COLUMNs (no table rebuild on SQLite: see the docstring)
    op.add_column(
        "matches", sa.Column("game", sa.String(32), nullable=False, server_default="cuccu")
    )
    for name, empty in (("options", "{}"), ("standing", "[]"), ("winners", "[]")):
        op.add_column("matches", sa.Column(name, JsonType, nullable=False, server_default=empty))
    conn = op.get_bind()
    matches = sa.table(
        "matches",
        sa.column("id", sa.String),
        sa.column("starting_lives", sa.Integer),
        sa.column("lives", JsonType),
        sa.column("winner", sa.Integer),
        sa.column("options", JsonType),
        sa.column("standing", JsonType),
        sa.column("winners", JsonType),
    )
    rows = conn.execute(
        sa.select(matches.c.id, matches.c.starting_lives, matches.c.lives, matches.c.winner)
    ).all()
    for row in rows:
        lives = json.loads(row.lives) if isinstance(row.lives, str) else row.lives
        conn.execute(
            matches.update()
            .where(matches.c.id == row.id)
            .values(
                options={"starting_lives": row.starting_lives},
                standing=list(lives or []),
                winners=[] if row.winner is None else [row.winner],
            )
        )


def downgrade() -> None:
    # Matches of other games mean nothing to revision 0003's code: they are removed (with
    # their events). Dropping columns rebuilds ``matches`` on SQLite: its foreign keys must
    # not cascade meanwhile, which a downgrade accepts only on PostgreSQL; on SQLite the
    # columns stay (0003's code ignores them).
    op.execute("DELETE FROM matches WHERE game <> 'cuccu'")
    if op.get_bind().dialect.name != "sqlite":
        for name in ("winners", "standing", "options", "game"):
            op.drop_column("matches", name)
