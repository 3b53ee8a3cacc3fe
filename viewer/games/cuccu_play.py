"""A seat's game through the API: create, act with the seat token, catch up on events.

Kept out of the page script, whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.client import bot, human
from domain.games.cuccu.events import (
    Event,
    LifeLost,
    LivesReset,
    RoundScored,
    RoundStarted,
    SeatEliminated,
)
from domain.games.cuccu.views import MatchView
from viewer.games.play_host import PlayHost, PlayMatch, Seen
from viewer.games.play_host import round_ending as host_round_ending

OPPONENTS = ("Ada", "Bruno", "Chiara")


#: one event as this seat saw it
SeenEvent = Seen[Event]


class Game(PlayMatch[MatchView, Event]):
    """The Cuccù match this browser plays."""


HOST = PlayHost(Game, MatchView, Event)


#: what a round's end does to the lives, after its scoring reveal
ROUND_END = (RoundScored, LifeLost, SeatEliminated, LivesReset)


def round_ending(seen: Sequence[SeenEvent]) -> list[SeenEvent]:
    """The last scored round's reveal and what followed from it (lives lost and why, seats out,
    lives given back), so a person between rounds sees how the round ended without reading the
    whole log."""
    return host_round_ending(seen, RoundScored, ROUND_END, RoundStarted)


def follow(game: Game) -> None:
    HOST.follow(game)


def start(url: str, name: str, level: str, lives: int,
          opponents: Sequence[str] = OPPONENTS,
          clock: dict[str, Any] | None = None) -> Game:  # fmt: skip
    """A new match: this person at seat 0, bots of ``level`` at the other seats (``clock``:
    the API's clock settings, None for none)."""
    seats = [human(name or "You")] + [bot(n, level) for n in opponents]
    return HOST.start(
        url, lambda client: client.create_match(seats, starting_lives=lives, clock=clock)
    )


def act(game: Game, choice: str) -> None:
    """Send this seat's decision (refused if the match moved on meanwhile), then catch up."""
    HOST.act(game, choice)


def rematch(game: Game) -> Game:
    """The rematch of this finished match, this person's new seat in it, caught up."""
    return HOST.rematch(game)
