"""Drive a match with no one at the table: the one loop behind tournaments, benches, the
viewer's sample matches and the property tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

from domain.games.cuccu.commands import Choice, Choose, StartRound
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event
from domain.games.cuccu.fairness import RandomSource, shuffled_round
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState

Answer = Callable[[MatchState, int], str]
"""The choice for the seat that must decide in this state (a bot reads only its view)."""


def autoplay(
    state: MatchState, answer: Answer, deal: RandomSource, max_rounds: int | None = None
) -> Iterator[tuple[MatchState, list[Event]]]:
    """Play ``state`` on to the end of the match, or until ``max_rounds`` rounds are played.

    Each round is dealt by ``shuffled_round(deal)``; each seat's decision is ``answer(state,
    seat)``. Yields the state and the events after every command. Nothing is drawn from ``deal``
    or asked of ``answer`` before the generator is resumed, so a caller may use the same random
    source between steps and a seeded match still replays exactly.
    """
    while state.status != "over" and (max_rounds is None or state.rounds_played < max_rounds):
        decision = pending(state)
        assert decision is not None
        command: StartRound | Choose
        if decision.kind == "next_round":
            command = shuffled_round(deal)
        elif decision.kind == "claim_seat" or decision.seat is None:
            raise ValueError("open seats wait for people: claim them before autoplay")
        else:
            command = Choose(decision.seat, cast(Choice, answer(state, decision.seat)))
        state, events = apply(state, command)
        yield state, events
