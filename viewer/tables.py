"""Tables between people through the API (no Streamlit): the lobby, a new table, a claim, and a
spectator's public view kept up to date.

A table is a match created with open seats (``kind: open``) and bots; each person claims one
seat (``POST /matches/{id}/seats/{seat}/claim``) and plays it with the token of that answer,
which stays in their browser session. A spectator reads the match with no token: the API
answers only the public view and events, whatever the page then draws. Kept out of the page
script, whose classes Streamlit redefines on every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import msgspec

from api.client import ClaimedSeat, Client, MatchOut, MatchSummary, SeatIn, bot, open_seat
from viewer.games.seats import SEATS
from viewer.play_clock import game_events
from viewer.remote import call, moved_since

LISTED = 30  # at most this many tables of each list on the page
POLL_SECONDS = 0.5  # a seat or a spectator asks the API this often whether the match moved
#: and each time waits this long on the API's stream for the next move (``remote.moved_since``):
#: a move stored meanwhile is answered at once. Shorter than the poll, so that one question
#: ends before the next is due, and short enough that a click on the page (whose run waits for
#: the question's end) is not held up noticeably, nor Streamlit's "running" sign shown (0.5 s)
WAIT_SECONDS = 0.4
#: should a page's questions stop coming for this long (its Streamlit timer lost), the browser
#: asks for a whole run of the page, which catches up and arms the timer again
STALL_SECONDS = 4.0


def lobby(url: str) -> list[MatchSummary]:
    """Tables waiting for people (``GET /matches?open_seats=true``), newest first."""
    return call(url, None, lambda client: client.lobby(limit=LISTED))


def in_play(url: str) -> list[MatchSummary]:
    """Matches being played now (every seat taken, not over): the ones a spectator may watch."""

    def playing(client: Client) -> list[MatchSummary]:
        found = client.iter_matches(status="in_round")
        return list(islice(found, LISTED))

    return call(url, None, playing)


def table_seats(open_count: int, bots: int, level: str) -> list[SeatIn]:
    """The seats of a new table: ``open_count`` open seats, then ``bots`` bots of ``level``."""
    seats = [open_seat(f"Seat {i + 1}") for i in range(open_count)]
    seats += [bot(f"Bot {i + 1}", level) for i in range(bots)]
    return seats


def create_table(url: str, game: str, open_count: int, bots: int, level: str) -> str:
    """A new table of ``game`` with its default options; its match id (the invite's)."""
    seats = table_seats(open_count, bots, level)
    created = call(url, None, lambda client: client.create_match(seats, game=game))
    return created["match_id"]


def public(url: str, match_id: str) -> MatchOut:
    """The match as anyone may see it (no token): ``game`` and the public ``view``."""
    return call(url, None, lambda client: client.get_match(match_id))


def version(url: str, token: str | None, match_id: str) -> int:
    """The match's version now (one ``GET /matches/{id}``): has it moved since a view?"""
    return call(url, token, lambda client: client.get_match(match_id)["version"])


def moved(url: str, token: str | None, match_id: str, seen: int, wait: float) -> bool:
    """Whether the match moved past version ``seen``: at once if it has, else within ``wait``
    seconds as soon as it does (``wait`` 0: one ``GET /matches/{id}``, no waiting)."""
    if wait <= 0:
        return version(url, token, match_id) != seen
    return moved_since(url, token, match_id, seen, wait)


def open_seats(answer: MatchOut) -> list[int]:
    """The seats of a match still open to a claim, from its public view."""
    return [s["seat"] for s in answer["view"]["seats"] if s.get("kind") == "open"]


def claim(url: str, match_id: str, seat: int, name: str) -> tuple[str, Any]:
    """Claim ``seat`` under ``name``: (the game's name, that game's Play match for this seat).

    The token lives only in the returned match object (the browser's session), never in an
    address or a log."""

    def claiming(client: Client) -> tuple[ClaimedSeat, str]:
        claimed = client.claim_seat(match_id, seat, name)
        return claimed, client.get_match(match_id)["game"]

    claimed, game = call(url, None, claiming)
    seated = SEATS[game].adopt(url, match_id, claimed["token"], seat, claimed["view"])
    return game, seated


@dataclass
class Watch:
    """A spectator's match: the public view and the public events seen so far."""

    url: str
    match_id: str
    game: str
    view: Any
    seen: list[tuple[int, Any]] = field(default_factory=list)


def watch(url: str, match_id: str) -> Watch:
    answer = public(url, match_id)
    parts = SEATS[answer["game"]]
    found = Watch(url, match_id, answer["game"], msgspec.convert(answer["view"], parts.view_type))
    follow_watch(found)
    return found


def follow_watch(match: Watch) -> bool:
    """Catch up on the public events and view; True when the match moved."""
    parts = SEATS[match.game]

    def catch_up(client: Client) -> bool:
        first, before = not match.seen, match.view.version
        after = match.seen[-1][0] if match.seen else 0
        for out in game_events(client.iter_events(match.match_id, after=after)):
            match.seen.append((out["version"], msgspec.convert(out["event"], parts.event_type)))
        match.view = msgspec.convert(client.get_match(match.match_id)["view"], parts.view_type)
        return first or match.view.version != before

    return call(match.url, None, catch_up)
