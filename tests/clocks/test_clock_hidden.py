"""Hidden information and the clock, for every game the registry holds (and Ranter-Go-Round):
timeouts, abandonment and resumes add nothing a seat may not know. Clock events are the same
for every viewer and name no card; a clocked state's views are the game's views; and every
card-hiding redaction of the game's own events is unchanged around them."""

from __future__ import annotations

import importlib
import re

import msgspec
import pytest

from domain import clock
from domain.clock import Clocked, ClockSettings, inner
from domain.games import CHASE, CUCCO21, CUCCU, Game
from domain.seats import SeatSpec
from tests.domain.test_clock import T0, Table

SETTINGS = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=2)
SEATS = (SeatSpec("Ann"), SeatSpec("Bo"), SeatSpec("Cy", "bot", "basic"))


def cards_of(game: Game) -> re.Pattern[str]:
    cards = importlib.import_module(f"domain.games.{game.name}.cards").CARDS
    return re.compile("|".join(re.escape(c) for c in sorted(cards, key=len, reverse=True)))


@pytest.mark.parametrize("game", [CUCCU, CUCCO21, CHASE], ids=lambda g: g.name)
def test_timeouts_abandonment_and_resume_reveal_nothing(game: Game) -> None:
    table = Table(game, SEATS, SETTINGS)
    card = cards_of(game)
    viewers = [None, 0, 1, 2]
    at = T0
    resumed = False
    for _ in range(300):
        if game.is_over(table.state):
            break
        state = table.state
        assert isinstance(state, Clocked)
        # a clocked state's views are exactly the game's own views of its state
        for seat in viewers:
            assert game.view(state, seat) == game.view(inner(state), seat)
        if state.clock.abandoned[0] and not resumed:
            table.run(clock.Stamped(clock.Resume(0), at, 0))
            resumed = True
            continue
        awaiting = state.clock.awaiting
        assert awaiting is not None
        at = max(at, awaiting.deadline)
        table.time_out(at)
    kinds = {type(e) for e in table.events if clock.is_clock_event(e)}
    assert {clock.DecisionTimedOut, clock.SeatAbandoned, clock.SeatReturned} <= kinds
    for event in table.events:
        if not clock.is_clock_event(event):
            continue
        copies = {msgspec.json.encode(game.redact(event, seat)) for seat in viewers}
        assert copies == {msgspec.json.encode(event)}, "the same for every viewer"
        assert not card.search(msgspec.json.encode(event).decode()), event
