"""The event store against real SQLite and PostgreSQL databases (same cases on both)."""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
import warnings
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import (
    CLAIM_FINGERPRINT_PREFIX,
    ConcurrencyError,
    CreationRecord,
    EventStore,
    IdempotencyRecord,
    MatchSummary,
    NewMatch,
    SchemaOutOfDate,
    check_schema,
    create_engine,
    upgrade,
    verify_chain,
)
from api.store.migrate import downgrade, head_revision
from api.store.records import record_time
from api.store.tables import EXPRESSION_INDEXES, metadata
from domain.envelope import GENESIS_HASH, chain_hash, record_body
from domain.games import CUCCU
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.commands import CreateMatch, StartRound
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event
from domain.games.cuccu.state import MatchState, initial_state
from domain.seats import SeatSpec
from tests.conftest import empty_database
from tests.service.fakes import InMemoryStore

SEATS = (
    SeatSpec("ann", "human"),
    SeatSpec("bot1", "bot", "random"),
    SeatSpec("bot2", "bot", "random"),
)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    await upgrade(eng)
    yield eng
    await eng.dispose()


#: what the store's contract is tested on: each database, and the in-memory fake the service
#: tests run on (tests/service/fakes.py), so that the fake cannot drift from the real store
Store = EventStore | InMemoryStore


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "memory":
        yield InMemoryStore()
        return
    with empty_database(request.param, request, tmp_path) as url:
        eng = create_engine(url)
        await upgrade(eng)
        real = EventStore(eng)
        try:
            yield real
        finally:
            await real.close()
            await eng.dispose()


def summary_of(state: MatchState) -> MatchSummary:
    return MatchSummary(
        status=state.status,
        standing=list(state.lives),
        winners=[] if state.winner is None else [state.winner],
        rounds=state.rounds_played,
        version=state.version,
    )


def opening() -> tuple[MatchState, list[Event]]:
    state, events = apply(initial_state(), CreateMatch(seats=SEATS, starting_lives=2))
    state, more = apply(state, StartRound(pack=tuple(reversed(CARDS)), salt="ab" * 32))
    return state, events + more


async def new_match(store: Store, tokens: dict[int, str] | None = None) -> tuple[str, MatchState]:
    """A new match's opening committed (``tokens``: the token hashes stored with it): its id
    and its state."""
    match_id = str(uuid.uuid4())
    state, events = opening()
    await store.commit(
        match_id,
        expected_version=0,
        prev_hash=GENESIS_HASH,
        events=events,
        summary=summary_of(state),
        new_match=NewMatch(
            id=match_id,
            seats=[{"name": s.name, "kind": s.kind} for s in SEATS],
            seed=None,
            token_hashes=tokens or {},
            game="cuccu",
            options={"starting_lives": 2},
        ),
    )
    return match_id, state


async def test_schema_check_names_the_upgrade_command(database_url: str) -> None:
    eng = create_engine(database_url)
    try:
        with pytest.raises(SchemaOutOfDate, match="cuccu db upgrade"):
            await check_schema(eng)
        await upgrade(eng)
        await check_schema(eng)
    finally:
        await eng.dispose()


async def test_migrations_match_table_metadata(engine: AsyncEngine) -> None:
    def declared(name: str | None, kind: str, _parent: object) -> bool:
        return not (kind == "index" and name in EXPRESSION_INDEXES)

    def diff(conn: sa.Connection) -> list[object]:
        context = MigrationContext.configure(conn, opts={"include_name": declared})
        with warnings.catch_warnings():  # SQLite's reflection skips it, and says so
            warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression")
            return list(compare_metadata(context, metadata))

    async with engine.connect() as conn:
        assert await conn.run_sync(diff) == []


async def test_append_and_load_round_trip_with_hash_chain(store: Store) -> None:
    match_id, state = await new_match(store)
    stored = await store.load(match_id)
    _, events = opening()
    assert [s.event_of(CUCCU) for s in stored] == events
    assert [s.version for s in stored] == list(range(1, len(events) + 1))
    verify_chain(stored)
    prev = GENESIS_HASH
    for s, e in zip(stored, events, strict=True):
        # the hash can be recomputed from the record's parts alone (docs/API.md, "Hashes")
        body = record_body(
            match_id=match_id,
            version=s.version,
            event=e,
            meta=None,
            recorded_at=record_time(s.recorded_at),
        )
        assert s.body.encode() == body
        assert s.hash == chain_hash(prev, body)
        prev = s.hash
    record = await store.get_match(match_id)
    assert record is not None
    assert record.version == state.version == len(events)
    assert record.status == "in_round"
    assert await store.load(match_id, after=2, limit=1) == stored[2:3]


async def test_stale_expected_version_is_a_conflict_and_changes_nothing(store: Store) -> None:
    match_id, state = await new_match(store)
    before = await store.load(match_id)
    _, events = opening()
    with pytest.raises(ConcurrencyError):
        await store.commit(
            match_id,
            expected_version=state.version - 1,
            prev_hash=before[-2].hash,
            events=events[-1:],
            summary=summary_of(state),
        )
    assert await store.load(match_id) == before


async def test_two_concurrent_appends_exactly_one_wins(store: Store) -> None:
    match_id, state = await new_match(store)
    stored = await store.load(match_id)
    extra = opening()[1][-1:]  # any event will do for the store

    async def attempt() -> bool:
        try:
            await store.commit(
                match_id,
                expected_version=state.version,
                prev_hash=stored[-1].hash,
                events=extra,
                summary=MatchSummary("in_round", [2, 2, 2], [], 0, state.version + 1),
            )
            return True
        except ConcurrencyError:
            return False

    results = await asyncio.gather(*(attempt() for _ in range(4)))
    assert sorted(results) == [False, False, False, True]
    after = await store.load(match_id)
    assert len(after) == len(stored) + 1
    verify_chain(after)


async def test_duplicate_match_id_is_a_conflict(store: Store) -> None:
    match_id, state = await new_match(store)
    _, events = opening()
    with pytest.raises(ConcurrencyError):
        await store.commit(
            match_id,
            expected_version=0,
            prev_hash=GENESIS_HASH,
            events=events,
            summary=summary_of(state),
            new_match=NewMatch(
                id=match_id, seats=[], seed=None, game="cuccu", options={"starting_lives": 2}
            ),
        )


async def remember(store: Store, state: MatchState, record: IdempotencyRecord) -> None:
    """Store an idempotency record alone (no events) at the match's current version."""
    stored = await store.load(record.match_id)
    await store.commit(
        record.match_id,
        expected_version=state.version,
        prev_hash=stored[-1].hash,
        events=[],
        summary=summary_of(state),
        idempotency=record,
    )


async def test_tokens_and_idempotency_records(store: Store) -> None:
    match_id, state = await new_match(store, tokens={0: "f" * 64})
    assert await store.seat_for_token("f" * 64) == (match_id, 0)
    assert await store.seat_for_token("e" * 64) is None
    record = IdempotencyRecord(match_id, 0, "key-1", "a" * 64, 3, state.version)
    await remember(store, state, record)
    assert await store.get_idempotency(match_id, 0, "key-1") == record
    assert await store.get_idempotency(match_id, 1, "key-1") is None
    with pytest.raises(ConcurrencyError):  # the same key twice
        await remember(store, state, record)


async def test_a_claimed_seats_token_is_replaced_and_never_remembered(store: Store) -> None:
    match_id, state = await new_match(store, tokens={0: "a" * 64, 1: "b" * 64})
    claim = IdempotencyRecord(match_id, 1, "k", CLAIM_FINGERPRINT_PREFIX + "0" * 58, 0, 1)
    await remember(store, state, claim)
    assert await store.seat_for_token("a" * 64) == (match_id, 0)
    assert await store.seat_for_token("b" * 64) == (match_id, 1)
    assert await store.replace_seat_token(match_id, 1, "c" * 64)
    assert await store.seat_for_token("b" * 64) is None  # the replaced token, though seen
    assert await store.seat_for_token("c" * 64) == (match_id, 1)
    assert not await store.replace_seat_token(match_id, 3, "d" * 64)  # a seat without a token
    assert await store.seat_for_token("a" * 64) == (match_id, 0)  # the others are unchanged


async def test_a_seat_holds_one_token(store: Store) -> None:
    match_id, state = await new_match(store, tokens={0: "a" * 64})
    stored = await store.load(match_id)
    with pytest.raises(ConcurrencyError):  # a second token for seat 0 (a claim of a held seat)
        await store.commit(
            match_id,
            expected_version=state.version,
            prev_hash=stored[-1].hash,
            events=opening()[1][-1:],
            summary=MatchSummary("in_round", [2, 2, 2], [], 0, state.version + 1),
            seat_tokens={0: "b" * 64},
        )
    assert await store.load(match_id) == stored  # all or nothing
    record = await store.get_match(match_id)
    assert record is not None and record.version == state.version
    assert await store.seat_for_token("b" * 64) is None
    assert await store.seat_for_token("a" * 64) == (match_id, 0)


async def test_a_creation_key_is_reserved_once(store: Store) -> None:
    record = CreationRecord("h" * 64, "f" * 64, str(uuid.uuid4()), "sealed tokens")
    assert await store.get_creation(record.key_hash) is None
    await store.reserve_creation(record)
    assert await store.get_creation(record.key_hash) == record
    with pytest.raises(ConcurrencyError):  # a twin request reserving the same key
        await store.reserve_creation(CreationRecord(record.key_hash, "0" * 64, "other", "x"))
    assert await store.get_creation(record.key_hash) == record


async def test_list_matches_newest_first_with_cursor_and_filter(store: Store) -> None:
    ids = [(await new_match(store))[0] for _ in range(5)]
    page1 = await store.list_matches(limit=3)
    assert len(page1) == 3
    last = page1[-1]
    page2 = await store.list_matches(limit=3, before=(last.created_at, last.id))
    seen = [m.id for m in page1 + page2]
    assert sorted(seen) == sorted(ids)
    assert [m.created_at for m in page1 + page2] == sorted(
        (m.created_at for m in page1 + page2), reverse=True
    )
    assert await store.list_matches(status="over") == []
    assert len(await store.list_matches(status="in_round")) == 5
    assert await store.list_matches(open_seats=True) == []  # all are dealt
    assert len(await store.list_matches(open_seats=False)) == 5


async def test_commit_wakes_subscribers(store: Store) -> None:
    match_id, state = await new_match(store)
    stored = await store.load(match_id)
    with store.notifier.subscribe(match_id) as sub:
        await store.commit(
            match_id,
            expected_version=state.version,
            prev_hash=stored[-1].hash,
            events=opening()[1][-1:],
            summary=MatchSummary("in_round", [2, 2, 2], [], 0, state.version + 1),
        )
        assert await sub.wait(2.0)
        assert sub.latest == state.version + 1


async def test_postgres_notify_reaches_another_listener(postgres_url: str) -> None:
    from api.store import Notifier, PgListener
    from api.store.db import libpq_conninfo

    eng = create_engine(postgres_url)
    try:
        await upgrade(eng)
        other = Notifier()  # as if in another API process
        listener = PgListener(libpq_conninfo(postgres_url), other)
        listener.start()
        await asyncio.wait_for(listener.ready.wait(), 10)
        store = EventStore(eng)
        match_id = str(uuid.uuid4())
        with other.subscribe(match_id) as sub:
            state, events = opening()
            await store.commit(
                match_id,
                expected_version=0,
                prev_hash=GENESIS_HASH,
                events=events,
                summary=summary_of(state),
                new_match=NewMatch(
                    id=match_id, seats=[], seed=None, game="cuccu", options={"starting_lives": 2}
                ),
            )
            assert await sub.wait(5.0)
            assert sub.latest == len(events)
        await listener.stop()
    finally:
        await eng.dispose()


async def test_lazy_listener_hears_every_commit_after_a_new_subscriber_listens(
    postgres_url: str,
) -> None:
    """A process listens only while it has subscribers: the first one starts the LISTEN
    connection, and once ``listening()`` returns (before its catch-up read) every commit of
    another process reaches it; the connection closes after the last subscriber, and the next
    subscriber opens it again and misses nothing either."""
    from api.store import Notifier, PgListener
    from api.store.db import libpq_conninfo

    eng = create_engine(postgres_url)
    try:
        await upgrade(eng)
        here = Notifier()  # this process's: no commit of its own
        listener = PgListener(libpq_conninfo(postgres_url), here, lazy=True, linger=0.05)
        store = EventStore(eng)  # another process's store: its own notifier
        match_id, _ = await new_match(store)
        await asyncio.sleep(0.1)
        assert not listener.running and listener.connections == 0  # nobody subscribed
        version = len(opening()[1])
        for round_ in (1, 2):
            with here.subscribe(match_id) as sub:
                assert listener.running
                assert await here.listening()
                # the catch-up read would run here; the next commit comes right after it
                stored = await store.load(match_id)
                assert stored[-1].version == version
                await store.commit(
                    match_id,
                    expected_version=version,
                    prev_hash=stored[-1].hash,
                    events=opening()[1][-1:],
                    summary=MatchSummary("in_round", [2, 2, 2], [], 0, version + 1),
                )
                version += 1
                assert await sub.wait(5.0)
                assert sub.latest == version
            for _ in range(100):  # closed once the last subscriber left (and the linger)
                if not listener.running:
                    break
                await asyncio.sleep(0.05)
            assert not listener.running
            assert listener.connections == round_
        await listener.stop()
    finally:
        await eng.dispose()


async def test_alembic_upgrade_downgrade_upgrade_on_postgres(postgres_url: str) -> None:
    eng = create_engine(postgres_url)
    try:
        await upgrade(eng)
        await check_schema(eng)
        await downgrade(eng, "base")
        async with eng.connect() as conn:
            names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        assert set(names) <= {"alembic_version"}
        with pytest.raises(SchemaOutOfDate):
            await check_schema(eng)
        await upgrade(eng)
        await check_schema(eng)
        async with eng.connect() as conn:
            names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        assert {"events", "matches", "seat_tokens", "idempotency_keys"} <= set(names)
        assert head_revision() is not None
    finally:
        await eng.dispose()


def test_recorded_at_is_timezone_aware() -> None:
    from api.store.records import now

    assert now().tzinfo is dt.UTC
