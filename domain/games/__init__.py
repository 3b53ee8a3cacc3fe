"""The games the service can host, by name: the one registry.

A match's first event names its game (:func:`of_first_event`); everything that hosts matches
dispatches through here. Adding a game is its package, one line in ``_ALL``, and what each host
shows of it in its own ``games/`` folder (docs/ARCHITECTURE.md, "Adding a game").
"""

from __future__ import annotations

from domain.clock import clocked
from domain.games.chase.game import GAME as _CHASE
from domain.games.cucco21.game import GAME as _CUCCO21
from domain.games.cuccu.game import GAME as _CUCCU
from domain.games.game import Game, LegacyFormat

# Every hosted game with the clock a match may start (``domain.clock``); a match without one
# sees its game's states, events and commands unchanged.
CUCCU = clocked(_CUCCU)
CUCCO21 = clocked(_CUCCO21)
CHASE = clocked(_CHASE)

_ALL: tuple[Game, ...] = (CUCCU, CUCCO21, CHASE)
#: games whose domain is complete but that the hosts cannot show yet (no tournament report in
#: ``api/games/``, no presentation in ``viewer/games/``; tests keep those registries equal to
#: ``GAMES``). Only the scenario runner (``domain.conformance``) looks here.
NOT_YET_HOSTED: tuple[Game, ...] = ()

GAMES: dict[str, Game] = {game.name: game for game in _ALL}
DEFAULT_GAME = CUCCU.name
_BY_FIRST_EVENT: dict[str, Game] = {game.created_event: game for game in _ALL}
#: how envelope-1 records read: they predate every game but one, so exactly one game has them
(LEGACY,) = (game.legacy for game in _ALL if game.legacy is not None)


def by_name(name: str) -> Game:
    """The game called ``name``; ``KeyError`` names the known ones."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def of_first_event(event_type: str) -> Game:
    """The game whose matches open with an event of type ``event_type``."""
    try:
        return _BY_FIRST_EVENT[event_type]
    except KeyError:
        raise KeyError(f"no game opens with a {event_type!r} event") from None


__all__ = [
    "CHASE", "CUCCO21", "CUCCU", "DEFAULT_GAME", "GAMES", "LEGACY", "NOT_YET_HOSTED", "Game",
    "LegacyFormat", "by_name", "of_first_event",
]  # fmt: skip
