"""A seat's game through the API: create, act with the seat token, follow the stream.

Kept out of the page script, whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from domain import MatchView
from viewer.api_client import Client, MatchOut, SeenEvent

OPPONENTS = ("Ada", "Bruno", "Chiara")


@dataclass
class Game:
    match_id: str
    token: str
    seat: int
    out: MatchOut
    seen: list[SeenEvent] = field(default_factory=list)

    @property
    def view(self) -> MatchView:
        return self.out.view


def follow(client: Client, game: Game) -> None:
    """New events for this seat from the live stream (after the last one seen), then its view."""
    after = game.seen[-1].version if game.seen else 0
    game.seen.extend(client.stream(game.match_id, game.token, after))
    game.out = client.match(game.match_id, game.token)


def start(client: Client, name: str, level: str, lives: int,
          opponents: Sequence[str] = OPPONENTS) -> Game:  # fmt: skip
    """A new match: this person at seat 0, bots of ``level`` at the other seats."""
    seats = [{"name": name or "You", "kind": "human"}] + [
        {"name": n, "kind": "bot", "bot_level": level} for n in opponents
    ]
    created = client.create_match({"seats": seats, "starting_lives": lives})
    token = next(t["token"] for t in created["seat_tokens"] if t["seat"] == 0)
    game = Game(created["match_id"], token, 0, client.match(created["match_id"], token))
    follow(client, game)
    return game


def act(client: Client, game: Game, choice: str) -> None:
    """Send this seat's decision (refused if the match moved on meanwhile), then catch up."""
    client.command(game.match_id, game.token, choice, game.view.version)
    follow(client, game)
