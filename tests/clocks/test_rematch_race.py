"""Two people asking for the rematch of one finished match at once, on both databases: one
match is made, each gets their own seat of it (api/rematch.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from api.clocks import ClockSweeper
from api.rematch import rematch
from api.service import MatchService, NewSeat, hash_token
from api.store import EventStore, create_engine, upgrade
from api.store.clocks import ClockStore
from api.store.rematches import RematchStore
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
        rematch(services[0], RematchStore(engines[0]), created.match_id, 0),
        rematch(services[1], RematchStore(engines[1]), created.match_id, 1),
    )
    assert ann.match_id == bo.match_id != created.match_id
    assert [ann.created, bo.created].count(True) == 1, "one of them made it"
    assert (ann.seat, bo.seat) == (0, 1) and ann.token != bo.token
    for seated in (ann, bo):
        found = await services[0].store.seat_for_token(hash_token(seated.token))
        assert found == (seated.match_id, seated.seat)
    assert await RematchStore(engines[0]).links(created.match_id) == (None, ann.match_id)
    assert await RematchStore(engines[0]).links(ann.match_id) == (created.match_id, None)
    # the clock and the table carried over; the rematch is at its first decision
    new = await services[0].state(ann.match_id)
    assert new.clock.settings == clock and [s.name for s in new.seats] == ["Ann", "Bo"]
