"""The seam every game shares: one object per game, handed to whatever hosts it.

The store, the service, the API, the viewer, the audit and the CLI take a :class:`Game` from
the registry (``domain.games``) by the name recorded in a match's first event, and call only
what is here. Nothing outside a game's own package knows its rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.audit_record import GameAudit


@dataclass(frozen=True)
class Game:
    """A Decider and what surrounds it.

    Types are ``Any`` at this seam on purpose: each game has its own state, command and event
    unions, and the adapters treat them as opaque values they pass back to the same game.
    """

    #: the registry key, stored in the API as ``"game"``
    name: str
    #: the type tag of the event that opens every match of this game (how a log names its game)
    created_event: str
    #: the msgspec unions, for decoding commands and events of this game
    command_type: Any
    event_type: Any
    initial: Callable[[], Any]
    decide: Callable[[Any, Any], list[Any]]
    #: ``decide`` that also returns the state after the new events (one fold, not two)
    apply: Callable[[Any, Any], tuple[Any, list[Any]]]
    evolve: Callable[[Any, Any], Any]
    fold: Callable[..., Any]
    #: who must decide what now; a decision with ``seat is None`` is the host's (a shuffle)
    pending: Callable[[Any], Any]
    #: what ``seat`` (``None``: a spectator) may see of the state, and of one event
    view: Callable[..., Any]
    redact: Callable[..., Any]
    is_over: Callable[[Any], bool]
    encode_event: Callable[[Any], bytes]
    decode_events: Callable[[bytes | str], list[Any]]
    #: the tag of an event (``"card_dealt"``)
    event_name: Callable[[Any], str]
    #: a stored record's event: its ``type``, ``schema`` version and ``data`` JSON, upcast to
    #: today's version (``domain.envelope``); event type tags are unique within a game only
    read_event: Callable[[str, int, bytes], Any]
    #: the game's own audit checks and what the generic ones need of it (``domain.audit``)
    audit: GameAudit
