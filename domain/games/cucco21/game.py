"""Cucco 21 as one object: what a game registry will hand the store, the service and the API.

Everything here is a plain reference to the package's modules; nothing is decided here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from domain.games.cucco21 import (
    commands,
    decide,
    events,
    evolve,
    fairness,
    pending,
    state,
    views,
)


@dataclass(frozen=True)
class Game:
    """A Decider and what surrounds it: the seam every game will share."""

    name: str
    command_type: Any  # the union of commands (for msgspec decoding)
    event_type: Any  # the union of events
    initial: Callable[[], state.GameState]
    decide: Callable[[state.GameState, commands.Command], list[events.Event]]
    apply: Callable[[state.GameState, commands.Command], tuple[state.GameState, list[events.Event]]]
    evolve: Callable[[state.GameState, events.Event], state.GameState]
    fold: Callable[[Iterable[events.Event]], state.GameState]
    pending: Callable[[state.GameState], pending.PendingDecision | None]
    view: Callable[..., views.GameView]
    redact: Callable[..., events.Event]
    is_over: Callable[[state.GameState], bool]
    encode_event: Callable[[events.Event], bytes]
    decode_events: Callable[[bytes | str], list[events.Event]]
    fairness_problems: Callable[..., list[str]]  # what an audit of the shuffles finds wrong


GAME = Game(
    name="cucco21",
    command_type=commands.Command,
    event_type=events.Event,
    initial=state.initial_state,
    decide=decide.decide,
    apply=decide.apply,
    evolve=evolve.evolve,
    fold=evolve.fold,
    pending=pending.pending,
    view=views.view,
    redact=views.redact,
    is_over=state.is_over,
    encode_event=events.encode_event,
    decode_events=events.decode_events,
    fairness_problems=fairness.deck_problems,
)
