"""Idempotency records keep the versions a request produced, not its HTTP answer.

A retry is answered by re-reading the events between ``first_version`` and ``last_version``
and re-rendering them, so the record holds no status code and no body (the service layer
knows no HTTP). Existing records are converted from their stored answer: its ``version`` is the
last version, and the first is the version before its first event.

Revision ID: 0003
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _versions(body: str) -> tuple[int, int]:
    answer = json.loads(body)
    last = int(answer["version"])
    versions = [int(e["version"]) for e in answer.get("events") or []]
    return (min(versions) - 1 if versions else last), last


def upgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("first_version", sa.Integer, nullable=True))
        batch.add_column(sa.Column("last_version", sa.Integer, nullable=True))
    conn = op.get_bind()
    keys = sa.table(
        "idempotency_keys",
        sa.column("match_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("key", sa.String),
        sa.column("body", sa.Text),
        sa.column("first_version", sa.Integer),
        sa.column("last_version", sa.Integer),
    )
    rows = conn.execute(sa.select(keys.c.match_id, keys.c.seat, keys.c.key, keys.c.body)).all()
    for row in rows:
        first, last = _versions(row.body)
        conn.execute(
            keys.update()
            .where(keys.c.match_id == row.match_id, keys.c.seat == row.seat, keys.c.key == row.key)
            .values(first_version=first, last_version=last)
        )
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.alter_column("first_version", existing_type=sa.Integer, nullable=False)
        batch.alter_column("last_version", existing_type=sa.Integer, nullable=False)
        batch.drop_column("status_code")
        batch.drop_column("body")


def downgrade() -> None:
    # The answers cannot be rebuilt without the service: the records are dropped (a retry
    # after a downgrade applies its command again, as a request without a key would).
    op.execute("DELETE FROM idempotency_keys")
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("status_code", sa.Integer, nullable=False, server_default="200"))
        batch.add_column(sa.Column("body", sa.Text, nullable=False, server_default=""))
        batch.drop_column("first_version")
        batch.drop_column("last_version")
