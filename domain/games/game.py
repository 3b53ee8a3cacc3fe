"""The seam every game shares: one object per game, handed to whatever hosts it.

The store, the service, the API, the viewer, the audit and the CLI take a :class:`Game` from
the registry (``domain.games``) by the name recorded in a match's first event, and call only
what is here. Nothing outside a game's own package knows its rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

import msgspec

from domain.audit_record import GameAudit
from domain.entropy import DeckHooks
from domain.errors import ErrorKind
from domain.seats import SeatSpec

#: ``automatic_turn``'s answer when the host (the service, with its randomness) must act
HOST: Final = "host"


class HostedState(Protocol):
    """What hosts read of any game's state; the rest is the game's own, passed back to it."""

    @property
    def version(self) -> int:
        """The number of events folded into the state."""

    @property
    def status(self) -> str:
        """``new``, ``between_rounds``, ``in_round`` or ``over``."""

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        """Who sits where: names, kinds and bot levels."""


@dataclass(frozen=True)
class Score:
    """Each seat's score in a game's own unit: what a matches row names ``field``
    (``"lives"``, ``"chips"``) and people read as ``unit`` (``"lives left"``); ``one_winner``
    when a finished match always has exactly one winning seat."""

    field: str
    unit: str
    one_winner: bool


class Standing(msgspec.Struct, frozen=True):
    """What a list of matches shows of one: the same shape for every game.

    ``standing`` is each seat's score in the game's own unit (Cuccù's lives, Cucco 21's chips);
    ``winners`` is empty until the game is over.
    """

    status: str
    standing: tuple[int, ...]
    winners: tuple[int, ...]
    #: the rounds dealt so far, the one in play included
    rounds: int
    version: int
    seats: tuple[SeatSpec, ...]


def ranks_by_standing(standing: Standing) -> tuple[int, ...]:
    """Places from a finished match's standing: the winners first, then the others by their
    score (more is better), equal scores tied. A seat's place is the number of seats ahead of
    it (competition ranking: two seats tied first are both 0, the next is 2)."""
    keys = [(seat in standing.winners, score) for seat, score in enumerate(standing.standing)]
    return tuple(sum(other > key for other in keys) for key in keys)


class SafeChoice(msgspec.Struct, frozen=True):
    """A decision the match waits on from people, and what a timeout plays for it.

    ``seat`` is the seat that must answer, or None when any seat may (``next_round``);
    ``choice`` is one of the game's ``choices``: the answer that commits the seat to least
    (keep, refuse, decline), which ``domain.clock`` plays when the decision's time runs out.
    """

    seat: int | None
    choice: str


@dataclass(frozen=True)
class LegacyFormat:
    """Records of envelope 1 (``domain.envelope``), written before any game but the first
    existed: the exact bytes an old export's event was hashed as, and the event they hold."""

    body: Callable[[str, Mapping[str, Any]], bytes]
    event: Callable[[bytes], Any]


@dataclass(frozen=True)
class Game:
    """A Decider and what surrounds it.

    A state is a :class:`HostedState` (what hosts read of it); commands, events and views are
    ``Any`` at this seam on purpose: each game has its own unions, and the adapters treat them
    as opaque values they pass back to the same game (or encode with the types named here).
    Every field is read by some host (api/, viewer/, the audit, the scenario runner).
    """

    #: the registry key, stored in the API as ``"game"``
    name: str
    #: the game's name for people (``"Cucco 21"``), in the API's descriptions and the CLI
    title: str
    #: the type tag of the event that opens every match of this game (how a log names its game)
    created_event: str
    #: the msgspec union of its events, and the struct a seat's view is: the API's schema
    #: tags them with the game's name (``api.models``)
    event_type: Any
    view_type: type[msgspec.Struct]
    initial: Callable[[], HostedState]
    #: ``decide`` that also returns the state after the new events (one fold, not two)
    apply: Callable[[Any, Any], tuple[Any, list[Any]]]
    evolve: Callable[[Any, Any], Any]
    fold: Callable[..., Any]
    #: what ``seat`` (``None``: a spectator) may see of the state, and of one event
    view: Callable[..., Any]
    redact: Callable[..., Any]
    is_over: Callable[[Any], bool]
    #: a stored record's event: its ``type``, ``schema`` version and ``data`` JSON, upcast to
    #: today's version (``domain.envelope``); event type tags are unique within a game only
    read_event: Callable[[str, int, bytes], Any]
    #: the game's own audit checks and what the generic ones need of it (``domain.audit``)
    audit: GameAudit
    #: its scenario files' ``format`` and the runner that plays one (``domain.conformance``):
    #: what the file's round(s) produced, in the shape of its ``expected`` object
    scenario_format: str
    play_scenario: Callable[[dict[str, Any]], dict[str, Any]]

    # --- hosting (api/): what the adapters need so that they know no game's rules ----------
    #: how many seats a match has, at least and at most
    min_seats: int
    max_seats: int
    #: each seat's score in the matches list (``Standing.standing``)
    score: Score
    #: the options ``create_command`` takes besides seats and first dealer: a struct whose
    #: fields carry their defaults, bounds and descriptions (the API's creation body adds
    #: them to the seats, seed and first dealer every game has)
    options_type: type[msgspec.Struct]
    #: the command that opens a match: its seats, its first dealer and the game's own options
    #: (the names of ``options``); the game's ``decide`` refuses a bad config
    create_command: Callable[[tuple[SeatSpec, ...], int, Mapping[str, Any]], Any]
    #: every ``DomainError`` code its ``decide`` raises, and how a host answers it
    errors: Mapping[str, ErrorKind]
    #: who acts when no person must: ``HOST`` (a deal or shuffle), a bot's seat, or None
    automatic_turn: Callable[[Any], str | int | None]
    #: the host's command for the step it must answer now, with chance drawn from ``rng``
    host_command: Callable[[Any, Any], Any]
    #: the command a player's ``{"type": choice}`` stands for (``rng``: a next round's deal)
    player_command: Callable[[Any, int, str, Any], Any]
    #: every ``type`` a player may send, for the API's schema and its errors
    choices: tuple[str, ...]
    #: a person's claim of an open seat under a display name
    claim_command: Callable[[int, str], Any]
    #: the level of the bot at a seat, and the command it chooses (reading its view only)
    bot_level: Callable[[Any, int], str]
    bot_command: Callable[[Any, int, Any], Any]
    #: the bot turns after this state may be long (an expert plays, or only bots are left,
    #: with a long play-out ahead): the service runs them off its event loop
    slow_bots: Callable[[Any], bool]
    #: what an event's stored metadata says of the command that caused it: never a card
    #: or a salt, which the game's own events reveal when the rules allow
    command_meta: Callable[[Any], dict[str, Any]]
    #: the matches row of a state
    summary: Callable[[Any], Standing]
    #: each seat's place in a finished match, 0 the best, tied seats sharing a place (what
    #: ratings are computed from; ``ranks_by_standing`` is the usual reading of a standing)
    final_ranks: Callable[[Any], tuple[int, ...]]
    #: how this game's envelope-1 records read (only the game that predates envelope 2 has any)
    legacy: LegacyFormat | None = None
    #: the decision people owe now and its safe answer (``SafeChoice``), or None when nobody
    #: must answer (the host or a bot acts, seats wait to be claimed, the match is over): what
    #: a match's clock (``domain.clock``) runs for and plays on a timeout. None: no clock.
    safe_choice: Callable[[Any], SafeChoice | None] | None = None
    #: how the shared entropy protocol reads the game's deals and openings (set by
    #: ``domain.games.mixing.with_entropy``, which every hosted game goes through)
    decks: DeckHooks | None = None

    @property
    def options(self) -> dict[str, Any]:
        """The game's options by name, with their defaults."""
        return {
            name: factory() if default is msgspec.NODEFAULT else default
            for name, default, factory in _option_fields(self.options_type)
        }


@functools.cache
def _option_fields(options_type: type) -> tuple[tuple[str, Any, Callable[[], Any]], ...]:
    """An options struct's fields (name, default, default factory), read once per type:
    ``msgspec.structs.fields`` evaluates the class's annotations on every call, which cost a
    match's creation about 0.1 ms each of the three times it reads a game's options."""
    return tuple(
        (field.encode_name, field.default, field.default_factory)
        for field in msgspec.structs.fields(options_type)
    )
