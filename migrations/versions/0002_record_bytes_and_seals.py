"""Record bytes and envelopes on events; match seals.

``events.body`` holds each record exactly as hashed, ``events.envelope`` says which layout it
is (docs/API.md, "Hashes"). Rows written before this revision were hashed over the bare event
(envelope 1): their hashes are kept, not recomputed, and their ``body`` is filled with the
exact bytes that were hashed, rebuilt from ``data`` with the frozen legacy field order
(``domain.games.cuccu.legacy.legacy_body``; it reorders PostgreSQL's JSONB keys back). A row
whose data no longer hashes to its stored hash is kept as it is, and fails verification as it
should.

``match_seals`` holds the service's Ed25519 signature over each finished match's final hash.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

# the legacy layout is frozen by definition (it describes bytes hashed before this revision),
# so this import stays valid however the event classes evolve
from domain.games.cuccu.legacy import legacy_body

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JsonType = sa.JSON().with_variant(JSONB(), "postgresql")
PositionType = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

#: rows rebuilt per round trip
BATCH = 2000


def upgrade() -> None:
    op.add_column("events", sa.Column("body", sa.Text, nullable=True))
    op.add_column(
        "events", sa.Column("envelope", sa.SmallInteger, nullable=False, server_default="1")
    )
    _fill_legacy_bodies()
    with op.batch_alter_table("events") as batch:
        batch.alter_column("body", existing_type=sa.Text, nullable=False)

    op.create_table(
        "match_seals",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("final_hash", sa.String(64), nullable=False),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("signature", sa.Text, nullable=False),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("match_id", name="pk_match_seals"),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
            name="fk_match_seals_match_id_matches",
            ondelete="CASCADE",
        ),
    )


def _fill_legacy_bodies() -> None:
    events = sa.table(
        "events",
        sa.column("position", PositionType),
        sa.column("type", sa.String),
        sa.column("data", JsonType),
        sa.column("body", sa.Text),
    )
    bind = op.get_bind()
    after = -1
    while True:
        rows = bind.execute(
            sa.select(events.c.position, events.c.type, events.c.data)
            .where(events.c.position > after)
            .order_by(events.c.position)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        bind.execute(
            sa.update(events)
            .where(events.c.position == sa.bindparam("p"))
            .values(body=sa.bindparam("b")),
            [{"p": r.position, "b": legacy_body(r.type, r.data).decode("utf-8")} for r in rows],
        )
        after = rows[-1].position


def downgrade() -> None:
    op.drop_table("match_seals")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("envelope")
        batch.drop_column("body")
