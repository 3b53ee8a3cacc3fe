"""Drive a Cucco 21 game with no one at the table: tournaments, the bench, property tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import Choice, Choose, Shuffle, StartRound
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import Event
from domain.games.cucco21.fairness import RandomSource, shuffled
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState

Answer = Callable[[GameState, int], str]
"""The choice for the seat that must decide in this state (a bot reads only its view)."""


def autoplay(
    state: GameState, answer: Answer, deal: RandomSource, max_rounds: int | None = None
) -> Iterator[tuple[GameState, list[Event]]]:
    """Play ``state`` on to the end of the game, or until ``max_rounds`` rounds were started.

    Every shuffle step is answered from ``deal``, every prompt by ``answer(state, seat)``.
    Yields the state and the events after every command.
    """
    while state.status != "over":
        step = pending(state)
        assert step is not None
        command: Shuffle | StartRound | Choose
        if step.kind == "shuffle":
            command = shuffled(CARDS if state.deck_number == 0 else state.discard, deal)
        elif step.kind == "claim_seat":
            raise ValueError("open seats wait for people: claim them before autoplay")
        elif step.kind == "next_round":
            if max_rounds is not None and state.rounds_played >= max_rounds:
                return
            command = StartRound()
        else:
            assert step.seat is not None
            command = Choose(step.seat, cast(Choice, answer(state, step.seat)))
        state, events = apply(state, command)
        yield state, events
