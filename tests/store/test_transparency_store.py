"""The log's appender on both databases: every sealed result is appended once, in one
transaction with the tree it grows; a result sealed but not yet logged is appended on the next
pass; appenders racing on PostgreSQL leave one tree every checkpoint of which is consistent
with every earlier one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.ext.asyncio import AsyncEngine

from api.signing import Signer
from api.store import EventStore, MatchSummary, create_engine, upgrade
from api.store import tables as t
from api.transparency.leaf import leaf_bytes
from api.transparency.note import NoteSigner
from api.transparency.store import LogUnavailable, ResultLog
from domain import merkle
from tests.conftest import PgServer
from tests.store.test_store import new_match, opening

SIGNER = Signer(Ed25519PrivateKey.generate())
LOG_SIGNER = NoteSigner("cuccu.test/log", Ed25519PrivateKey.generate())


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await upgrade(eng)
    yield eng
    await eng.dispose()


async def finished_match(store: EventStore) -> str:
    """A match whose last commit ends it, sealed in that commit as the service seals."""
    match_id, state = await new_match(store)
    before = await store.load(match_id)
    await store.commit(
        match_id,
        expected_version=state.version,
        prev_hash=before[-1].hash,
        events=opening()[1][-1:],
        summary=MatchSummary("over", [1, 0, 0], [0], 1, state.version + 1),
        seal_with=SIGNER.sign,
    )
    return match_id


async def expected_leaves(engine: AsyncEngine) -> dict[str, bytes]:
    """Each sealed match's leaf hash, rebuilt from its seal row."""
    s = t.match_seals
    async with engine.connect() as conn:
        rows = (await conn.execute(sa.select(s))).all()
    return {
        r.match_id: merkle.leaf_hash(
            leaf_bytes(r.match_id, r.version, r.final_hash, r.key_id, r.signature)
        )
        for r in rows
    }


async def logged(engine: AsyncEngine) -> list[tuple[int, str, bytes]]:
    leaves = t.log_leaves
    async with engine.connect() as conn:
        rows = (await conn.execute(sa.select(leaves).order_by(leaves.c.position))).all()
    return [(r.position, r.match_id, bytes.fromhex(r.leaf_hash)) for r in rows]


async def test_sealed_results_are_appended_once_and_the_tree_is_their_tree(
    engine: AsyncEngine,
) -> None:
    store = EventStore(engine)
    log = ResultLog(engine, LOG_SIGNER)
    assert (await log.tree()).root == merkle.EMPTY_ROOT
    first = [await finished_match(store) for _ in range(3)]
    assert await log.append_pending() == 3
    assert await log.append_pending() == 0  # a second pass finds nothing: never twice
    more = [await finished_match(store) for _ in range(4)]
    # sealed but not yet logged (the process died after the commit): the next pass, of any
    # process, appends them after the others
    assert await log.append_pending(limit=3) == 3
    assert await log.append_pending() == 1

    rows = await logged(engine)
    assert [p for p, _, _ in rows] == list(range(7))
    assert [m for _, m, _ in rows[:3]] == first and {m for _, m, _ in rows[3:]} == set(more)
    leaves = await expected_leaves(engine)
    assert all(h == leaves[m] for _, m, h in rows)
    hashes = [h for _, _, h in rows]
    tree = await log.tree()
    assert (tree.size, tree.root) == (7, merkle.root(hashes))
    for _, match_id, h in rows:
        included = await log.inclusion(match_id)
        assert merkle.verify_inclusion(included.entry.position, 7, h, included.proof, tree.root)
    size, proof = await log.consistency(3)
    assert size == 7
    assert merkle.verify_consistency(3, 7, proof, merkle.root(hashes[:3]), tree.root)
    with pytest.raises(LogUnavailable, match="not in the log"):
        await log.inclusion("no-such-match")
    with pytest.raises(LogUnavailable) as refused:
        await log.inclusion(rows[5][1], size=5)
    assert refused.value.reason == "size-out-of-range"
    await store.close()


async def test_racing_appenders_append_each_result_once_in_one_consistent_tree(
    pg_server: PgServer,
) -> None:
    """Several processes' appenders at once on PostgreSQL (one engine each, as replicas have;
    SQLite has one writer at a time by construction): the tree row's lock serializes them;
    every tree they leave extends the one before."""
    database_url = pg_server.create_database("racing_appenders")
    engine = create_engine(database_url)
    await upgrade(engine)
    store = EventStore(engine)
    engines = [create_engine(database_url) for _ in range(4)]
    logs = [ResultLog(e, LOG_SIGNER) for e in engines]
    seen: list[tuple[int, bytes]] = []

    async def appender(log: ResultLog) -> None:
        for _ in range(30):
            await log.append_pending(limit=2)
            tree = await log.tree()
            seen.append((tree.size, tree.root))
            await asyncio.sleep(0)

    async def sealer() -> None:
        for _ in range(12):
            await finished_match(store)

    try:
        await asyncio.gather(sealer(), *(appender(log) for log in logs))
        while await logs[0].append_pending():
            pass
        rows = await logged(engine)
        assert [p for p, _, _ in rows] == list(range(12))
        assert len({m for _, m, _ in rows}) == 12
        hashes = [h for _, _, h in rows]
        for size, root in seen:  # every tree any appender saw is a prefix of the final one
            assert root == merkle.root(hashes[:size])
            proof = merkle.consistency_proof(size, hashes)
            assert merkle.verify_consistency(size, 12, proof, root, merkle.root(hashes))
    finally:
        for e in engines:
            await e.dispose()
        await store.close()
        await engine.dispose()
        pg_server.drop_database(database_url)
