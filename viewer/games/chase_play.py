"""A seat's Ranter-Go-Round match through the API: create, act with the seat token, catch up.

The contract (docs/API.md): ``POST /matches`` with ``"game": "chase"`` and that game's options
(``starting_lives``, ``announce_low``, ``king_cut_loses``); commands are ``{"type": <choice>}``
with a choice from ``view.pending.choices``; the seat's view is the game's ``MatchView`` under
``"view"``. Only through the project's client (``api.client``). Kept out of the page script,
whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

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
from viewer.play_clock import clock_in, game_events
from viewer.remote import call

GAME = "chase"
OPPONENTS = ("Ada", "Bruno", "Chiara")


@dataclass(frozen=True)
class SeenChaseEvent:
    version: int
    event: Event


@dataclass
class ChaseMatch:
    url: str
    match_id: str
    token: str
    seat: int
    view: MatchView
    seen: list[SeenChaseEvent] = field(default_factory=list)
    clock: dict[str, Any] | None = None  # the API's ``clock`` (docs/API.md), null: none


#: what a round's end does to the lives, after its scoring reveal
ROUND_END = (RoundScored, RoundWipedOut, LifeLost, SeatEliminated)


def round_ending(seen: Sequence[SeenChaseEvent]) -> list[SeenChaseEvent]:
    """The last scored round's reveal and what followed from it (lives lost, a void round,
    eliminations), so a person between rounds sees how the round ended without reading the
    whole log."""
    start = max((i for i, e in enumerate(seen) if isinstance(e.event, RoundScored)), default=None)
    if start is None:
        return []
    ending: list[SeenChaseEvent] = []
    for seen_event in seen[start:]:
        if isinstance(seen_event.event, RoundStarted):
            break
        if isinstance(seen_event.event, ROUND_END):
            ending.append(seen_event)
    return ending


def request_body(name: str, level: str, lives: int, announce_low: bool, king_cut_loses: bool,
                 opponents: Sequence[str] = OPPONENTS,
                 clock: dict[str, Any] | None = None) -> dict[str, Any]:  # fmt: skip
    """The ``POST /matches`` body: this person at seat 0, bots of ``level`` at the others."""
    seats = [human(name or "You")] + [bot(n, level) for n in opponents]
    return {"game": GAME, "seats": seats, "starting_lives": lives, "announce_low": announce_low,
            "king_cut_loses": king_cut_loses, "clock": clock}  # fmt: skip


def _catch_up(client: Client, match: ChaseMatch) -> None:
    after = match.seen[-1].version if match.seen else 0
    for out in game_events(client.iter_events(match.match_id, after=after)):
        match.seen.append(SeenChaseEvent(out["version"], msgspec.convert(out["event"], Event)))
    answer = client.get_match(match.match_id)
    match.view = msgspec.convert(answer["view"], MatchView)
    match.clock = clock_in(answer)


def follow(match: ChaseMatch) -> None:
    call(match.url, match.token, lambda client: _catch_up(client, match))


def start(url: str, body: dict[str, Any]) -> ChaseMatch:
    """Create the match (``body``: :func:`request_body`) through the project's client, as any
    client would (its retries reuse one Idempotency-Key), keep seat 0's token, catch up."""
    options = {k: v for k, v in body.items() if k not in ("game", "seats")}

    def create(client: Client) -> CreatedMatch:
        return client.create_match(body["seats"], game=GAME, **options)

    created = call(url, None, create)
    token = next(t["token"] for t in created["seat_tokens"] if t["seat"] == 0)
    view = msgspec.convert(created["view"], MatchView)
    match = ChaseMatch(url, created["match_id"], token, 0, view, clock=clock_in(created))
    follow(match)
    return match


def act(match: ChaseMatch, choice: str) -> None:
    """Send this seat's choice (refused if the match moved on meanwhile), then catch up."""

    def send(client: Client) -> None:
        client.send_command(match.match_id, choice, expected_version=match.view.version)
        _catch_up(client, match)

    call(match.url, match.token, send)


def rematch(match: ChaseMatch) -> ChaseMatch:
    """The rematch of this finished match (``POST /matches/{id}/rematch`` with this seat's
    token): this person's new seat in it, caught up."""
    answer = call(match.url, match.token, lambda client: client.rematch(match.match_id))
    view = msgspec.convert(answer["view"], MatchView)
    new = ChaseMatch(
        match.url,
        answer["match_id"],
        answer["token"],
        answer["seat"],
        view,
        clock=clock_in(answer),
    )
    follow(new)
    return new
