"""Which game a log is (the records of any game come from ``domain.audit``).

The viewer knows no game's rules: each game's presentation lives in its own module here
(``viewer.games.cucco21``; Cuccù's is the original ``viewer.board`` / ``viewer.replay_model``),
and the pages dispatch on the game that a log's first event names (``domain.games``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.games import DEFAULT_GAME, GAMES, by_name, of_first_event


def tag_of(event: Any) -> str:
    """The ``type`` tag of any game's event."""
    return str(type(event).__struct_config__.tag)


def game_of(events: Sequence[Any]) -> str:
    """The registry name of the game whose log starts with ``events[0]`` (Cuccù if empty)."""
    if not events:
        return DEFAULT_GAME
    try:
        return of_first_event(tag_of(events[0])).name
    except KeyError:
        return DEFAULT_GAME


def game_of_summary(match: Mapping[str, Any]) -> str:
    """A listed match's game (the API's ``game`` field); a service from before Cucco 21 sends
    none: its matches are Cuccù."""
    name = match.get("game")
    return name if isinstance(name, str) and name in GAMES else DEFAULT_GAME


def game_title(name: str) -> str:
    """The name a game is shown under (not translated: it is a game's name)."""
    return {"cuccu": "Cuccù", "cucco21": "Cucco 21"}.get(by_name(name).name, name)
