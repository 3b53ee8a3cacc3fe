"""Two people asking for the rematch of one finished match at once, on both databases: one
match is made, each gets their own seat of it (api/rematch.py); a token a later request
replaced is refused by every process at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from api.clocks import ClockSweeper
from api.rematch import rematch
from api.service import MatchService, NewSeat, UnknownToken, hash_token
from api.store import EventStore, create_engine, upgrade
from api.store.clocks import ClockStore
from domain.clock import ClockSettings, due


@pytest.fixture
async def engines(database_url: str) -> AsyncIterator[tuple[AsyncEngine, AsyncEngine]]:
    first, second = create_engine(database_url), create_engine(database_url)
    await upgrade(first)
    yield first, second
    await first.dispose()
    await second.dispose()


async def test_two_seats_asking_at_once_make_one_rematch(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    services = [MatchService(EventStore(e)) for e in engines]
    sweeper = ClockSweeper(ClockStore(engines[0]), services[0])
    clock = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=9)
    created = await services[0].create(
        [NewSeat("Ann"), NewSeat("Bo")],
        seed=3,
        options={"starting_lives": 1},
        clock=clock,
        game="cuccu",
    )
    state = created.state
    while (at := due(state)) is not None:  # nobody plays: the clock plays the match out
        await sweeper.sweep(at)
        state = await services[0].state(created.match_id)
    assert state.status == "over"
    ann, bo = await asyncio.gather(
        rematch(services[0], created.match_id, 0), rematch(services[1], created.match_id, 1)
    )
    assert ann.match_id == bo.match_id != created.match_id
    assert [ann.created, bo.created].count(True) == 1, "one of them made it"
    assert (ann.seat, bo.seat) == (0, 1) and ann.token != bo.token
    for seated in (ann, bo):
        found = await services[0].store.seat_for_token(hash_token(seated.token))
        assert found == (seated.match_id, seated.seat)
    finished, new = [await services[0].record(m) for m in (created.match_id, ann.match_id)]
    assert (finished.rematch_of, finished.rematch) == (None, ann.match_id)
    assert (new.rematch_of, new.rematch) == (created.match_id, None)
    # the clock and the table carried over; the rematch is at its first decision
    new = await services[0].state(ann.match_id)
    assert new.clock.settings == clock and [s.name for s in new.seats] == ["Ann", "Bo"]


async def played_out(service: MatchService, engine: AsyncEngine) -> str:
    """A finished clocked match of two people (nobody played: the clock played it out)."""
    sweeper = ClockSweeper(ClockStore(engine), service)
    clock = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=9)
    created = await service.create(
        [NewSeat("Ann"), NewSeat("Bo")],
        seed=3,
        options={"starting_lives": 1},
        clock=clock,
        game="cuccu",
    )
    state = created.state
    while (at := due(state)) is not None:
        await sweeper.sweep(at)
        state = await service.state(created.match_id)
    return created.match_id


async def test_a_token_replaced_by_a_rematch_request_is_refused_by_every_process(
    engines: tuple[AsyncEngine, AsyncEngine],
) -> None:
    """Two API processes (their own engines, stores and caches) on one database: the one
    that did not replace a rematch seat's token, and had accepted it before, refuses it at
    once (no process remembers a rematch seat's token)."""
    here, there = (MatchService(EventStore(e)) for e in engines)
    finished = await played_out(here, engines[0])
    first = await rematch(here, finished, 0)
    # the other process serves the rematch to its first token: it works there
    assert await there.seat_of(first.match_id, first.token, required=True) == 0
    again = await rematch(here, finished, 0)  # Ann asks again (a lost answer, a new device)
    assert again.match_id == first.match_id and again.token != first.token
    for service in (there, here):
        with pytest.raises(UnknownToken):
            await service.seat_of(first.match_id, first.token, required=True)
        assert await service.seat_of(again.match_id, again.token, required=True) == 0
    # the process that created the rematch never accepted the tokens it made and hid
    bo = await rematch(there, finished, 1)
    assert await here.seat_of(bo.match_id, bo.token, required=True) == 1
