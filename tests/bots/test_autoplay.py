"""``domain.games.cuccu.bots.autoplay``: the one loop that plays a match with no one seated."""

from __future__ import annotations

import random

import pytest

from domain.games.cuccu.bots import autoplay
from domain.games.cuccu.commands import CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event, RoundStarted
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.seats import SeatSpec


def _match(*, open_seat: bool = False) -> MatchState:
    specs = [SeatSpec(f"bot {i}", "bot", "random") for i in range(4)]
    if open_seat:
        specs[1] = SeatSpec("anyone", "open")
    state, _ = apply(initial_state(), CreateMatch(tuple(specs), 2, 0))
    return state


def _play(seed: int, max_rounds: int | None = None) -> tuple[MatchState, list[Event]]:
    rng = random.Random(seed)
    asked: list[int] = []

    def answer(state: MatchState, seat: int) -> str:
        decision = pending(state)
        assert decision is not None and decision.seat == seat  # only the seat that must decide
        asked.append(seat)
        return rng.choice(decision.choices)

    state, log = _match(), []
    for state, events in autoplay(_match(), answer, rng, max_rounds):  # noqa: B007
        log.extend(events)  # (the last state is returned)
    assert asked, "no seat was asked anything"
    return state, log


def test_a_match_is_played_to_its_end_and_replays_exactly() -> None:
    state, log = _play(7)
    assert state.status == "over" and state.winner is not None
    assert log == _play(7)[1]
    assert log != _play(8)[1]


def test_it_stops_after_max_rounds() -> None:
    state, log = _play(7, max_rounds=2)
    assert state.rounds_played == 2 and state.status == "between_rounds"
    assert sum(isinstance(e, RoundStarted) for e in log) == 2


def test_open_seats_must_be_claimed_first() -> None:
    with pytest.raises(ValueError, match="claim them"):
        next(autoplay(_match(open_seat=True), lambda state, seat: "keep", random.Random(0)))
