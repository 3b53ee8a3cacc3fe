"""A seat's Cucco 21 game through the API: create, act with the seat token, catch up.

The contract (docs/API.md): ``POST /matches`` with ``"game": "cucco21"`` and that game's
options; commands are ``{"type": <choice>}`` with a choice from ``view.pending.choices``; the
seat's view is Cucco 21's ``GameView`` under ``"view"``. Kept out of the page script, whose
classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from api.client import Client, CreatedMatch, bot, human
from domain.games.cucco21.events import (
    BoxTaken,
    ChipsPaid,
    Died,
    Event,
    RoundScored,
    RoundStarted,
    SeatBankrupted,
    SetEnded,
    SetStarted,
)
from domain.games.cucco21.views import GameView
from viewer.games.play_host import PlayHost, PlayMatch, Seen
from viewer.games.play_host import round_ending as host_round_ending

OPPONENTS = ("Ada", "Bruno", "Chiara")


#: one event as this seat saw it
SeenEvent21 = Seen[Event]


class Game21(PlayMatch[GameView, Event]):
    """The Cucco 21 game this browser plays."""


HOST = PlayHost(Game21, GameView, Event)


#: what a round's end does to the chips and the set, after its scoring reveal
ROUND_END = (RoundScored, ChipsPaid, Died, SeatBankrupted, SetEnded, BoxTaken)


def round_ending(seen: Sequence[SeenEvent21]) -> list[SeenEvent21]:
    """The last scored round's reveal and what followed from it (penalties, deaths, the set's
    end and its box), so a person between rounds sees how the round ended without reading the
    whole log."""
    return host_round_ending(seen, RoundScored, ROUND_END, (RoundStarted, SetStarted))


def as_round_ended(view: GameView, seen: Sequence[SeenEvent21]) -> GameView:
    """Between rounds, the round that just ended as it ended: its set, round card, dealer and
    turn order (the view already holds the next round's), and this seat's own card from the
    reveal (the view's hand is already empty). Any other time, the view as it is."""
    if view.pending is None or view.pending.kind != "next_round":
        return view
    started = next((e.event for e in reversed(seen) if isinstance(e.event, RoundStarted)), None)
    if started is None or started.round != view.round:
        return view
    own = next((r.card for r in view.revealed if r.seat == view.viewer), view.hand)
    return replace(view, set_number=started.set_number, round_card=started.round_card,
                   dealer=started.dealer, turn_order=started.turn_order, hand=own)  # fmt: skip


def request_body(name: str, level: str, chips: int, powers: bool, max_sets: int | None,
                 opponents: Sequence[str] = OPPONENTS,
                 clock: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """The ``POST /matches`` body: this person at seat 0, bots of ``level`` at the others."""
    seats = [human(name or "You")] + [bot(n, level) for n in opponents]
    body: dict[str, Any] = {"game": "cucco21", "seats": seats, "starting_chips": chips,
                            "powers": powers}  # fmt: skip
    if max_sets is not None:
        body["max_sets"] = max_sets
    if clock is not None:
        body["clock"] = clock
    return body


def follow(game: Game21) -> None:
    HOST.follow(game)


def start(url: str, body: dict[str, Any]) -> Game21:
    """Create the game (``body``: :func:`request_body`) through the project's client, as any
    client would (its retries reuse one Idempotency-Key), keep seat 0's token, catch up."""

    def create(client: Client) -> CreatedMatch:
        return client.create_match(
            body["seats"],
            game="cucco21",
            starting_chips=body.get("starting_chips"),
            powers=body.get("powers"),
            max_sets=body.get("max_sets"),
            clock=body.get("clock"),
        )

    return HOST.start(url, create)


def act(game: Game21, choice: str) -> None:
    """Send this seat's choice (refused if the game moved on meanwhile), then catch up."""
    HOST.act(game, choice)


def rematch(game: Game21) -> Game21:
    """The rematch of this finished match, this person's new seat in it, caught up."""
    return HOST.rematch(game)
