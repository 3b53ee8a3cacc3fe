"""A seat's Cucco 21 game through the API: create, act with the seat token, catch up.

The contract (docs/API.md): ``POST /matches`` with ``"game": "cucco21"`` and that game's
options; commands are ``{"type": <choice>}`` with a choice from ``view.pending.choices``; the
seat's view is Cucco 21's ``GameView`` under ``"view"``. Kept out of the page script, whose
classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
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
from viewer.play_clock import clock_in, game_events
from viewer.remote import call

OPPONENTS = ("Ada", "Bruno", "Chiara")


@dataclass(frozen=True)
class SeenEvent21:
    version: int
    event: Event


@dataclass
class Game21:
    url: str
    match_id: str
    token: str
    seat: int
    view: GameView
    seen: list[SeenEvent21] = field(default_factory=list)
    clock: dict[str, Any] | None = None  # the API's ``clock`` (docs/API.md), null: none


#: what a round's end does to the chips and the set, after its scoring reveal
ROUND_END = (RoundScored, ChipsPaid, Died, SeatBankrupted, SetEnded, BoxTaken)


def round_ending(seen: Sequence[SeenEvent21]) -> list[SeenEvent21]:
    """The last scored round's reveal and what followed from it (penalties, deaths, the set's
    end and its box), so a person between rounds sees how the round ended without reading the
    whole log."""
    start = max((i for i, e in enumerate(seen) if isinstance(e.event, RoundScored)), default=None)
    if start is None:
        return []
    ending: list[SeenEvent21] = []
    for seen_event in seen[start:]:
        if isinstance(seen_event.event, RoundStarted | SetStarted):
            break  # the next round's ante is not this round's doing
        if isinstance(seen_event.event, ROUND_END):
            ending.append(seen_event)
    return ending


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


def _catch_up(client: Client, game: Game21) -> None:
    after = game.seen[-1].version if game.seen else 0
    for out in game_events(client.iter_events(game.match_id, after=after)):
        game.seen.append(SeenEvent21(out["version"], msgspec.convert(out["event"], Event)))
    answer = client.get_match(game.match_id)
    game.view = msgspec.convert(answer["view"], GameView)
    game.clock = clock_in(answer)


def follow(game: Game21) -> None:
    call(game.url, game.token, lambda client: _catch_up(client, game))


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

    created = call(url, None, create)
    token = next(t["token"] for t in created["seat_tokens"] if t["seat"] == 0)
    view = msgspec.convert(created["view"], GameView)
    game = Game21(url, created["match_id"], token, 0, view, clock=clock_in(created))
    follow(game)
    return game


def act(game: Game21, choice: str) -> None:
    """Send this seat's choice (refused if the game moved on meanwhile), then catch up."""

    def send(client: Client) -> None:
        client.send_command(game.match_id, choice, expected_version=game.view.version)
        _catch_up(client, game)

    call(game.url, game.token, send)


def rematch(game: Game21) -> Game21:
    """The rematch of this finished match (``POST /matches/{id}/rematch`` with this seat's
    token): this person's new seat in it, caught up."""
    answer = call(game.url, game.token, lambda client: client.rematch(game.match_id))
    view = msgspec.convert(answer["view"], GameView)
    new = Game21(
        game.url,
        answer["match_id"],
        answer["token"],
        answer["seat"],
        view,
        clock=clock_in(answer),
    )
    follow(new)
    return new
