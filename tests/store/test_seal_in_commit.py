"""The seal of a finished match is written by the commit that ends it, in its transaction, on
both databases and on both of PostgreSQL's append paths (issue 19): there is no moment at which
a finished match is stored unsigned, and no commit that fails leaves a seal behind."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.ext.asyncio import AsyncEngine

from api.signing import Seal, Signer
from api.store import ConcurrencyError, EventStore, MatchSummary, create_engine, upgrade
from api.store import tables as t
from api.store.seals import SealStore
from tests.store.test_store import new_match, opening

SIGNER = Signer(Ed25519PrivateKey.generate())


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await upgrade(eng)
    yield eng
    await eng.dispose()


def over(version: int) -> MatchSummary:
    return MatchSummary("over", [1, 0, 0], [0], 1, version)


async def seal_count(engine: AsyncEngine, match_id: str) -> int:
    async with engine.connect() as conn:
        query = sa.select(sa.func.count()).where(t.match_seals.c.match_id == match_id)
        return int((await conn.execute(query)).scalar_one())


# seat tokens send a PostgreSQL append down the SQLAlchemy path instead of the one statement
@pytest.mark.parametrize("claim", [False, True], ids=["one-statement", "transaction"])
async def test_the_commit_that_ends_a_match_stores_its_seal(
    engine: AsyncEngine, claim: bool
) -> None:
    store = EventStore(engine)
    match_id, state = await new_match(store)
    before = await store.load(match_id)
    final = opening()[1][-1:]  # the store does not read events: any one will do
    stored = await store.commit(
        match_id,
        expected_version=state.version,
        prev_hash=before[-1].hash,
        events=final,
        summary=over(state.version + 1),
        seat_tokens={1: "ab" * 32} if claim else None,
        seal_with=SIGNER.sign,
    )
    seal = await SealStore(engine).get(match_id)
    assert seal == SIGNER.sign(match_id, stored[-1].version, stored[-1].hash)
    assert (seal.version, seal.final_hash) == (state.version + 1, stored[-1].hash)
    await store.close()


async def test_a_commit_refused_for_its_version_stores_no_seal(engine: AsyncEngine) -> None:
    store = EventStore(engine)
    match_id, state = await new_match(store)
    before = await store.load(match_id)
    with pytest.raises(ConcurrencyError):
        await store.commit(
            match_id,
            expected_version=state.version - 1,
            prev_hash=before[-2].hash,
            events=opening()[1][-1:],
            summary=over(state.version),
            seal_with=SIGNER.sign,
        )
    assert await seal_count(engine, match_id) == 0
    await store.close()


async def test_racing_final_commits_leave_one_seal_over_the_winners_log(
    engine: AsyncEngine,
) -> None:
    """Several replicas ending the same match at once: one commit wins, one seal, its hash."""
    store = EventStore(engine)
    match_id, state = await new_match(store)
    before = await store.load(match_id)

    async def attempt() -> bool:
        try:
            await store.commit(
                match_id,
                expected_version=state.version,
                prev_hash=before[-1].hash,
                events=opening()[1][-1:],
                summary=over(state.version + 1),
                seal_with=SIGNER.sign,
            )
            return True
        except ConcurrencyError:
            return False

    assert sorted(await asyncio.gather(*(attempt() for _ in range(4)))) == [False] * 3 + [True]
    after = await store.load(match_id)
    seal = await SealStore(engine).get(match_id)
    assert seal is not None and seal.final_hash == after[-1].hash
    assert await seal_count(engine, match_id) == 1
    await store.close()


@pytest.mark.parametrize("claim", [False, True], ids=["one-statement", "transaction"])
async def test_the_seal_and_the_events_are_one_transaction(
    engine: AsyncEngine, claim: bool
) -> None:
    """A seal that cannot be written (the match has one: a broken database) takes the events
    down with it: the log never ends without its seal, and never changes under one."""
    store = EventStore(engine)
    match_id, state = await new_match(store)
    before = await store.load(match_id)
    await SealStore(engine).put(Seal(match_id, 1, before[0].hash, SIGNER.key_id, "x"))
    with pytest.raises(ConcurrencyError):
        await store.commit(
            match_id,
            expected_version=state.version,
            prev_hash=before[-1].hash,
            events=opening()[1][-1:],
            summary=over(state.version + 1),
            seat_tokens={1: "cd" * 32} if claim else None,
            seal_with=SIGNER.sign,
        )
    assert await store.load(match_id) == before
    record = await store.get_match(match_id)
    assert record is not None and (record.status, record.version) == ("in_round", state.version)
    await store.close()
