"""Each game's presentation, by the game's registry name: the viewer's one registry.

The viewer knows no game's rules: each game's presentation lives in its own modules here
(``viewer.games.cuccu`` and its ``cuccu_*`` modules, ``viewer.games.cucco21`` and its
``cucco21_ui`` and ``play21*``), and the pages find it by the game that a log's first event
names (``domain.games``). This registry holds the pure parts a session needs (the
replay and a sample match); the Streamlit parts are registered in ``viewer.games.pages``.
A test keeps both equal to the registry of hosted games.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.audit import AuditRecord
from domain.games import DEFAULT_GAME, GAMES, by_name, of_first_event
from viewer.games.steps import Steps


@dataclass(frozen=True)
class Advice:
    """The coach's figures: for each choice, the chance (0..1) of the game's bad outcome this
    round (losing a life, being out), over ``samples`` deals consistent with the seat's view."""

    risks: dict[str, float]
    samples: int


@dataclass(frozen=True)
class Presentation:
    """How the viewer opens a log of one game, and coaches a seat of it."""

    #: the log folded event by event, as Replay, Charts and Audit step through it
    replay: Callable[[Sequence[AuditRecord]], Steps]
    #: every event of a seeded bot match, played here (the loader's sample; no API needed)
    sample: Callable[[int], list[Any]]
    #: the coach (``viewer.coach``): the risk of each choice open to a seat's view (``samples``
    #: deals, ``seed``), None when it has nothing to decide; from the game's own expert search
    advise: Callable[[Any, int, int], Advice | None]


def _presentations() -> dict[str, Presentation]:
    from viewer.games import chase, cucco21, cuccu

    return {"cuccu": cuccu.PRESENTATION, "cucco21": cucco21.PRESENTATION,
            "chase": chase.PRESENTATION}  # fmt: skip


#: each hosted game's presentation, by its registry name
PRESENTATIONS: dict[str, Presentation] = _presentations()


def tag_of(event: Any) -> str:
    """The ``type`` tag of any game's event."""
    return str(type(event).__struct_config__.tag)


def game_of(events: Sequence[Any]) -> str:
    """The registry name of the game whose log starts with ``events[0]`` (the default game,
    whose logs are the oldest, if it is empty or names none)."""
    if not events:
        return DEFAULT_GAME
    try:
        return of_first_event(tag_of(events[0])).name
    except KeyError:
        return DEFAULT_GAME


def game_of_summary(match: Mapping[str, Any]) -> str:
    """A listed match's game (the API's ``game`` field); a service from before the second game
    sends none: its matches are of the default game."""
    name = match.get("game")
    return name if isinstance(name, str) and name in GAMES else DEFAULT_GAME


def game_title(name: str) -> str:
    """The name a game is shown under (not translated: it is a game's name)."""
    return by_name(name).title
