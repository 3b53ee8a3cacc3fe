"""A seat's game through the API: create, act with the seat token, catch up on events.

Kept out of the page script, whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from api.client import Client, bot, human
from domain.games.cuccu.events import (
    Event,
    LifeLost,
    LivesReset,
    RoundScored,
    RoundStarted,
    SeatEliminated,
)
from domain.games.cuccu.views import MatchView
from viewer.play_clock import clock_in, game_events
from viewer.remote import call

OPPONENTS = ("Ada", "Bruno", "Chiara")


@dataclass(frozen=True)
class SeenEvent:
    version: int
    event: Event


@dataclass
class Game:
    url: str
    match_id: str
    token: str
    seat: int
    view: MatchView
    seen: list[SeenEvent] = field(default_factory=list)
    clock: dict[str, Any] | None = None  # the API's ``clock`` (docs/API.md), null: none


#: what a round's end does to the lives, after its scoring reveal
ROUND_END = (RoundScored, LifeLost, SeatEliminated, LivesReset)


def round_ending(seen: Sequence[SeenEvent]) -> list[SeenEvent]:
    """The last scored round's reveal and what followed from it (lives lost and why, seats out,
    lives given back), so a person between rounds sees how the round ended without reading the
    whole log."""
    start = max((i for i, e in enumerate(seen) if isinstance(e.event, RoundScored)), default=None)
    if start is None:
        return []
    ending: list[SeenEvent] = []
    for seen_event in seen[start:]:
        if isinstance(seen_event.event, RoundStarted):
            break
        if isinstance(seen_event.event, ROUND_END):
            ending.append(seen_event)
    return ending


def _catch_up(client: Client, game: Game) -> None:
    """Events after the last one seen (as this seat may see them), then the seat's view."""
    after = game.seen[-1].version if game.seen else 0
    for out in game_events(client.iter_events(game.match_id, after=after)):
        game.seen.append(SeenEvent(out["version"], msgspec.convert(out["event"], Event)))
    answer = client.get_match(game.match_id)
    game.view = msgspec.convert(answer["view"], MatchView)
    game.clock = clock_in(answer)


def follow(game: Game) -> None:
    call(game.url, game.token, lambda client: _catch_up(client, game))


def start(url: str, name: str, level: str, lives: int,
          opponents: Sequence[str] = OPPONENTS,
          clock: dict[str, Any] | None = None) -> Game:  # fmt: skip
    """A new match: this person at seat 0, bots of ``level`` at the other seats (``clock``:
    the API's clock settings, None for none)."""
    seats = [human(name or "You")] + [bot(n, level) for n in opponents]

    def create(client: Client) -> Game:
        created = client.create_match(seats, starting_lives=lives, clock=clock)
        token = next(t["token"] for t in created["seat_tokens"] if t["seat"] == 0)
        view = msgspec.convert(created["view"], MatchView)
        return Game(url, created["match_id"], token, 0, view, clock=clock_in(created))

    game = call(url, None, create)
    follow(game)
    return game


def act(game: Game, choice: str) -> None:
    """Send this seat's decision (refused if the match moved on meanwhile), then catch up."""

    def send(client: Client) -> None:
        client.send_command(game.match_id, choice, expected_version=game.view.version)
        _catch_up(client, game)

    call(game.url, game.token, send)


def rematch(game: Game) -> Game:
    """The rematch of this finished match (``POST /matches/{id}/rematch`` with this seat's
    token): this person's new seat in it, caught up."""
    answer = call(game.url, game.token, lambda client: client.rematch(game.match_id))
    view = msgspec.convert(answer["view"], MatchView)
    new = Game(
        game.url,
        answer["match_id"],
        answer["token"],
        answer["seat"],
        view,
        clock=clock_in(answer),
    )
    follow(new)
    return new
