"""Cuccù (RULES.md) behind the game seam.

Its modules still live at the top of ``domain/`` (``domain.decide``, ``domain.events``, ...),
where they were before a second game arrived; this package is the one object the registry
hands out for them.
"""

from __future__ import annotations

from domain.commands import Command
from domain.decide import apply, decide
from domain.events import Event, decode_events, encode_event, event_from_json, event_type
from domain.evolve import evolve, fold
from domain.games.cuccu.audit import AUDIT
from domain.games.game import Game
from domain.pending import pending
from domain.state import initial_state, is_terminal
from domain.views import redact, view

GAME = Game(
    name="cuccu",
    created_event="match_created",
    command_type=Command,
    event_type=Event,
    initial=initial_state,
    decide=decide,
    apply=apply,
    evolve=evolve,
    fold=fold,
    pending=pending,
    view=view,
    redact=redact,
    is_over=is_terminal,
    encode_event=encode_event,
    decode_events=decode_events,
    event_name=event_type,
    read_event=event_from_json,
    audit=AUDIT,
)
