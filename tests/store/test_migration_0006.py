"""Migration 0006: the transparency log starts empty, and the results sealed before it are
appended on the appender's first pass, oldest seal first; a downgrade drops the log only."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import create_engine
from api.store.migrate import downgrade, upgrade
from api.transparency.leaf import leaf_bytes
from api.transparency.note import NoteSigner
from api.transparency.store import ResultLog
from domain import merkle


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    try:
        yield eng
    finally:
        await eng.dispose()


async def test_results_sealed_before_the_log_are_appended_oldest_first(
    engine: AsyncEngine,
) -> None:
    await upgrade(engine, "0005")
    sealed = [("m-late", 3), ("m-early", 1), ("m-middle", 2)]  # (match, day it was sealed)
    async with engine.begin() as conn:
        for match_id, day in sealed:
            stamp = dt.datetime(2026, 11, day, tzinfo=dt.UTC)
            await conn.execute(
                sa.text(
                    "INSERT INTO matches (id, status, created_at, updated_at, seats,"
                    " starting_lives, lives, rounds, version) VALUES (:m, 'over', :t, :t, '[]',"
                    " 2, '[]', 3, 40)"
                ),
                {"m": match_id, "t": stamp},
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO match_seals (match_id, version, final_hash, key_id, signature,"
                    " signed_at) VALUES (:m, 40, :h, 'k', 's', :t)"
                ),
                {"m": match_id, "h": f"{day:064x}", "t": stamp},
            )
    await upgrade(engine)
    log = ResultLog(engine, NoteSigner("cuccu.test/log", Ed25519PrivateKey.generate()))
    tree = await log.tree()
    assert (tree.size, tree.root) == (0, merkle.EMPTY_ROOT)
    assert await log.append_pending() == 3
    order = ["m-early", "m-middle", "m-late"]
    assert [(await log.entry(m)).position for m in order] == [0, 1, 2]  # type: ignore[union-attr]
    leaves = [
        merkle.leaf_hash(leaf_bytes(m, 40, f"{day:064x}", "k", "s"))
        for m, day in sorted(sealed, key=lambda s: s[1])
    ]
    assert (await log.tree()).root == merkle.root(leaves)

    await downgrade(engine, "0005")
    async with engine.connect() as conn:
        tables = await conn.run_sync(lambda c: set(sa.inspect(c).get_table_names()))
        seals = (await conn.execute(sa.text("SELECT count(*) FROM match_seals"))).scalar_one()
    assert "log_leaves" not in tables and "log_tree" not in tables
    assert seals == 3
