"""Drive a Chase the Ace match with no one at the table: tournaments, property tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

from domain.games.chase.commands import Choice, Choose, StartRound
from domain.games.chase.decide import apply
from domain.games.chase.events import Event
from domain.games.chase.fairness import RandomSource, shuffled_round
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState

Answer = Callable[[MatchState, int], str]
"""The choice for the seat that must decide in this state (a bot reads only its view)."""


def autoplay(
    state: MatchState, answer: Answer, deal: RandomSource, max_rounds: int | None = None
) -> Iterator[tuple[MatchState, list[Event]]]:
    """Play ``state`` on to the end of the match, or until ``max_rounds`` rounds were started.

    Every deal is shuffled from ``deal``, every prompt answered by ``answer(state, seat)``.
    Yields the state and the events after every command.
    """
    while state.status != "over":
        step = pending(state)
        assert step is not None
        command: StartRound | Choose
        if step.kind == "claim_seat":
            raise ValueError("open seats wait for people: claim them before autoplay")
        if step.kind == "next_round":
            if max_rounds is not None and state.rounds_played >= max_rounds:
                return
            command = shuffled_round(deal)
        else:
            assert step.seat is not None
            command = Choose(step.seat, cast(Choice, answer(state, step.seat)))
        state, events = apply(state, command)
        yield state, events
