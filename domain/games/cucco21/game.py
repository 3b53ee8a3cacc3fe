"""Cucco 21 behind the game seam (``domain.games.game.Game``).

Everything here is a plain reference to the package's modules; nothing is decided here.
"""

from __future__ import annotations

from domain.games.cucco21 import commands, decide, events, evolve, pending, state, views
from domain.games.cucco21.audit import AUDIT
from domain.games.game import Game

GAME = Game(
    name="cucco21",
    created_event="game_created",
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
    event_name=events.event_type,
    read_event=events.event_from_json,
    audit=AUDIT,
)
