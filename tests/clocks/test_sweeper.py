"""Due clocks swept on both databases, in-process (api/clocks.py): a stalled seat is timed
out once and the match goes on; two processes' sweepers (here two services with their own
engines and caches, as two API processes have) never both apply one timeout, with the claim
and without it (the event store's optimistic lock alone)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from api.cli import main
from api.clock_time import now_ms
from api.clocks import MAX_SLEEP, ClockSweeper
from api.service import MatchService, NewSeat
from api.store import EventStore, create_engine, upgrade
from api.store.clocks import Ahead, ClockStore
from domain.clock import ClockSettings, DecisionOpened, DecisionTimedOut, SeatAbandoned, due

TABLE = [NewSeat("Ann"), NewSeat("Bo"), NewSeat("Cy", "bot", "basic")]
CLOCK = ClockSettings(per_decision=5, reserve=2, increment=0, abandon_after=3)


@pytest.fixture
async def engines(database_url: str) -> AsyncIterator[tuple[AsyncEngine, AsyncEngine]]:
    """Two engines on one database: what two API processes have."""
    first, second = create_engine(database_url), create_engine(database_url)
    await upgrade(first)
    yield first, second
    await first.dispose()
    await second.dispose()


class Unclaimed(ClockStore):
    """A store whose claims always succeed: only the optimistic lock stands in the way."""

    @asynccontextmanager
    async def claimed(self, match_id: str) -> AsyncIterator[bool]:
        yield True


async def timed_out(service: MatchService, match_id: str) -> list[DecisionTimedOut]:
    page = await service.events(match_id, 0, 10_000)
    return [e for _, e in page.numbered() if isinstance(e, DecisionTimedOut)]


async def test_a_stalled_seat_is_timed_out_once_and_the_match_goes_on(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    engine = engines[0]
    service = MatchService(EventStore(engine))
    sweeper = ClockSweeper(ClockStore(engine), service)
    created = await service.create(TABLE, seed=11, clock=CLOCK, game="cuccu")
    deadline = due(created.state)
    assert deadline is not None
    assert await sweeper.sweep(deadline - 1) == 0, "not a millisecond early"
    assert await sweeper.sweep(deadline) == 1
    assert await sweeper.sweep(deadline) == 0, "the next decision is not due yet"
    (once,) = await timed_out(service, created.match_id)
    assert once.deadline == deadline
    state = await service.state(created.match_id)
    assert state.version > created.state.version
    nxt = due(state)
    assert nxt is not None and nxt > deadline, "the match goes on, with a new deadline"
    # the matches row holds the next deadline: a new process's sweeper finds it there
    other = MatchService(EventStore(engines[1]))
    assert await ClockSweeper(ClockStore(engines[1]), other).sweep(nxt) == 1
    assert len(await timed_out(service, created.match_id)) == 2


@pytest.mark.parametrize("store", [ClockStore, Unclaimed], ids=["claimed", "optimistic-lock"])
async def test_two_processes_never_both_apply_one_timeout(
    engines: tuple[AsyncEngine, AsyncEngine], store: type[ClockStore]
) -> None:
    services = [MatchService(EventStore(e)) for e in engines]
    created = await services[0].create(TABLE, seed=5, clock=CLOCK, game="cuccu")
    await services[1].state(created.match_id)  # both processes keep the match's state
    at = due(created.state)
    assert at is not None
    for _ in range(4):  # several rounds of racing sweepers
        sweepers = [ClockSweeper(store(e), s) for e, s in zip(engines, services, strict=True)]
        applied = await asyncio.gather(*(s.sweep(at) for s in sweepers))
        assert sum(applied) == 1, applied
        state = await services[0].state(created.match_id)
        nxt = due(state)
        assert nxt is not None
        at = nxt
    events = [e for _, e in (await services[0].events(created.match_id, 0, 10_000)).numbered()]
    deadlines = [e.deadline for e in events if isinstance(e, DecisionTimedOut)]
    assert len(deadlines) == len(set(deadlines)) == 4
    # each timeout ran out a decision that was opened once; the deck (mixed with the service's
    # fresh secret, docs/API.md "Fairness") decides how many decisions follow, so no exact count
    opened = [e.deadline for e in events if isinstance(e, DecisionOpened)]
    assert len(opened) == len(set(opened)) and set(deadlines) <= set(opened)
    assert len(opened) > len(deadlines)


async def test_a_seat_handed_to_a_bot_and_taken_back(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    engine = engines[0]
    service = MatchService(EventStore(engine))
    sweeper = ClockSweeper(ClockStore(engine), service)
    clock = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=1)
    created = await service.create(
        [NewSeat("Ann"), NewSeat("Bo", "bot", "basic")], seed=2, clock=clock, game="cuccu"
    )
    at = due(created.state)
    assert at is not None
    assert await sweeper.sweep(at) == 1
    events = [e for _, e in (await service.events(created.match_id, 0, 10_000)).numbered()]
    assert SeatAbandoned(0, 1) in events
    state = await service.state(created.match_id)
    assert state.clock.abandoned[0]
    # the stand-in plays Ann's turns: nothing waits on her clock until she is back
    if not service_game_over(state):
        assert due(state) is None or state.clock.awaiting.seat is None
    played = await service.command(created.match_id, 0, "resume")
    assert not played.state.clock.abandoned[0]
    assert [type(e).__name__ for _, e in played.events][0] == "SeatReturned"


def service_game_over(state: object) -> bool:
    return getattr(state, "status", "") == "over"


async def test_a_match_played_out_by_timeouts_exports_and_verifies(
    engines: tuple[AsyncEngine, AsyncEngine], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`cuccu verify` re-executes the clock's events of a stored export (the `clock` check)."""
    engine = engines[0]
    service = MatchService(EventStore(engine))
    sweeper = ClockSweeper(ClockStore(engine), service)
    clock = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=2)
    created = await service.create(
        [NewSeat("Ann"), NewSeat("Bo"), NewSeat("Cy", "bot", "basic")],
        seed=8,
        options={"starting_lives": 1},
        game="cuccu",
        clock=clock,
    )
    state = created.state
    for _ in range(200):
        at = due(state)
        if at is None:
            break
        assert await sweeper.sweep(at) == 1
        state = await service.state(created.match_id)
    assert state.status == "over"
    path = tmp_path / "clocked.ndjson"
    path.write_bytes(await service.export(created.match_id))
    assert main(["verify", "--allow-unsigned", str(path)]) == 0
    out = capsys.readouterr().out
    assert "clock" in out and "audit passed" in out
    # a moved deadline in the stored record is caught (the hash chain, recomputed or not)
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if "decision_timed_out" in line)
    lines[i] = re.sub(r'(deadline\\*":)(\d)', r"\g<1>1\2", lines[i], count=1)
    path.write_text("\n".join(lines) + "\n")
    assert main(["verify", "--allow-unsigned", str(path)]) == 1


class Counted(ClockStore):
    """A clock store that counts the sweeps that read it."""

    sweeps = 0

    async def ahead(self, now: dt.datetime, limit: int = 50) -> Ahead:
        self.sweeps += 1
        return await super().ahead(now, limit)


async def applied_at(service: MatchService, match_id: str, within: float) -> int:
    """The time (ms) the match's first timeout was seen stored, polling for ``within`` s."""
    for _ in range(int(within * 20)):
        if await timed_out(service, match_id):
            return now_ms()
        await asyncio.sleep(0.05)
    raise AssertionError("no timeout applied")


@asynccontextmanager
async def running(sweeper: ClockSweeper) -> AsyncIterator[None]:
    task = asyncio.create_task(sweeper.run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


#: how long after its time a sweep may land on a loaded box: its sleep's end, the sweep's
#: statements and the test's own look, every 50 ms, each waiting its turn for a core
SWEPT_WITHIN_MS = 1_500
FIVE_SECONDS = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=3)


async def test_a_sweeper_sleeps_until_the_deadline_its_process_stored(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    """Idle, it would sleep a minute (``max_sleep``); the creation's deadline wakes it to
    re-plan, and it sweeps at the deadline, not every half second."""
    service = MatchService(EventStore(engines[0]))
    store = Counted(engines[0])
    sweeper = ClockSweeper(store, service, max_sleep=60)
    service.on_deadline = sweeper.note
    async with running(sweeper):
        await asyncio.sleep(0.3)  # swept once, found no clock: asleep for a minute
        created = await service.create(TABLE, seed=1, clock=FIVE_SECONDS, game="cuccu")
        deadline = due(created.state)
        assert deadline is not None
        landed = await applied_at(service, created.match_id, within=10)
    # at the deadline, give or take a loaded box's moment (a fresh-clone CI run on a loaded box
    # saw 503 ms); a sweeper that slept its minute would not have swept within the 10 s
    assert deadline <= landed <= deadline + SWEPT_WITHIN_MS
    assert store.sweeps <= 3, f"{store.sweeps} sweeps in five seconds"


async def test_a_deadline_another_process_stored_lands_within_max_sleep(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    """A sweeper hears nothing of another process's deadlines: it looks at least every
    MAX_SLEEP seconds (docs/API.md, "Clocks")."""
    creator = MatchService(EventStore(engines[0]))  # no sweeper of its own
    service = MatchService(EventStore(engines[1]))
    store = Counted(engines[1])
    sweeper = ClockSweeper(store, service)
    service.on_deadline = sweeper.note
    async with running(sweeper):
        await asyncio.sleep(0.3)
        created = await creator.create(TABLE, seed=1, clock=FIVE_SECONDS, game="cuccu")
        deadline = due(created.state)
        assert deadline is not None
        landed = await applied_at(creator, created.match_id, within=10)
    assert deadline <= landed <= deadline + MAX_SLEEP * 1000 + SWEPT_WITHIN_MS
    assert store.sweeps <= 6, f"{store.sweeps} sweeps in five seconds"
