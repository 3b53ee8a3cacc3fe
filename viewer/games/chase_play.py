"""A seat's Ranter-Go-Round match through the API: create, act with the seat token, catch up.

The contract (docs/API.md): ``POST /matches`` with ``"game": "chase"`` and that game's options
(``starting_lives``, ``announce_low``, ``king_cut_loses``); commands are ``{"type": <choice>}``
with a choice from ``view.pending.choices``; the seat's view is the game's ``MatchView`` under
``"view"``. Only through the project's client (``api.client``). Kept out of the page script,
whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.client import Client, CreatedMatch, bot, human
from domain.games.chase.events import (
    Event,
    LifeLost,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    SeatEliminated,
)
from domain.games.chase.views import MatchView
from viewer.games.play_host import PlayHost, PlayMatch, Seen
from viewer.games.play_host import round_ending as host_round_ending

GAME = "chase"
OPPONENTS = ("Ada", "Bruno", "Chiara")


#: one event as this seat saw it
SeenChaseEvent = Seen[Event]


class ChaseMatch(PlayMatch[MatchView, Event]):
    """The Ranter-Go-Round match this browser plays."""


HOST = PlayHost(ChaseMatch, MatchView, Event)


#: what a round's end does to the lives, after its scoring reveal
ROUND_END = (RoundScored, RoundWipedOut, LifeLost, SeatEliminated)


def round_ending(seen: Sequence[SeenChaseEvent]) -> list[SeenChaseEvent]:
    """The last scored round's reveal and what followed from it (lives lost, a void round,
    eliminations), so a person between rounds sees how the round ended without reading the
    whole log."""
    return host_round_ending(seen, RoundScored, ROUND_END, RoundStarted)


def request_body(name: str, level: str, lives: int, announce_low: bool, king_cut_loses: bool,
                 opponents: Sequence[str] = OPPONENTS,
                 clock: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """The ``POST /matches`` body: this person at seat 0, bots of ``level`` at the others."""
    seats = [human(name or "You")] + [bot(n, level) for n in opponents]
    return {"game": GAME, "seats": seats, "starting_lives": lives, "announce_low": announce_low,
            "king_cut_loses": king_cut_loses, "clock": clock}  # fmt: skip


def follow(match: ChaseMatch) -> None:
    HOST.follow(match)


def start(url: str, body: dict[str, Any]) -> ChaseMatch:
    """Create the match (``body``: :func:`request_body`) through the project's client, as any
    client would (its retries reuse one Idempotency-Key), keep seat 0's token, catch up."""
    options = {k: v for k, v in body.items() if k not in ("game", "seats")}

    def create(client: Client) -> CreatedMatch:
        return client.create_match(body["seats"], game=GAME, **options)

    return HOST.start(url, create)


def act(match: ChaseMatch, choice: str) -> None:
    """Send this seat's choice (refused if the match moved on meanwhile), then catch up."""
    HOST.act(match, choice)


def rematch(match: ChaseMatch) -> ChaseMatch:
    """The rematch of this finished match, this person's new seat in it, caught up."""
    return HOST.rematch(match)
