"""The transparency log of signed results: ``log_leaves`` and the one-row ``log_tree``.

Each row of ``log_leaves`` is one signed result appended to the log (docs/API.md,
"Transparency log"): its place (``position``, from 0), the match, the leaf's bytes and its
RFC 9162 leaf hash. ``log_tree`` holds the tree's size, root and frontier (the roots of its
perfect subtrees, domain/merkle.py) after the last append; its row is also the lock appends
take (``SELECT … FOR UPDATE``), so appends from several processes are serialized.

No foreign key to ``matches``: the log keeps a leaf whatever becomes of its match. The
results sealed before this revision are appended by the service's appender on its first pass
(a migration that signs nothing), in the order they were sealed. A downgrade drops the log.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: SHA-256 of nothing: the root of the empty tree
EMPTY_ROOT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def upgrade() -> None:
    json_type = sa.JSON().with_variant(JSONB(), "postgresql")
    op.create_table(
        "log_leaves",
        sa.Column("position", sa.BigInteger, nullable=False, autoincrement=False),
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("leaf", sa.Text, nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
        sa.Column("logged_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("position", name="pk_log_leaves"),
        sa.UniqueConstraint("match_id", name="uq_log_leaves_match_id"),
    )
    tree = op.create_table(
        "log_tree",
        sa.Column("id", sa.SmallInteger, nullable=False, autoincrement=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("root_hash", sa.String(64), nullable=False),
        sa.Column("frontier", json_type, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_log_tree"),
        sa.CheckConstraint("id = 1", name="ck_log_tree_one_row"),
    )
    op.bulk_insert(tree, [{"id": 1, "size": 0, "root_hash": EMPTY_ROOT, "frontier": []}])


def downgrade() -> None:
    op.drop_table("log_tree")
    op.drop_table("log_leaves")
