"""Rematches: the same table again, once a match is over (docs/API.md, "Rematches").

The rematch of a finished match has a fixed id (derived from the finished match's), so the
first seat to ask creates it and every later request, from any process, finds it: two seats
asking at once race on the creation's commit, and the loser reads the winner's match. Each
person gets their seat of it through their own request, with their own seat token of the
finished match, so no token is ever handed to anyone else:

- a seat created for a person (``human``) is created with a token nobody is shown, and each
  request issues its seat a fresh token that replaces the previous one (only hashes are
  stored);
- a seat that was claimed (it was ``open``) is open in the rematch, kept for its person (the
  lobby does not list it, and a claim of it is refused), and their request claims it, as the
  player account that claimed it in the finished match if one did: the claim event's
  metadata names the account, so the rematch is rated like the first match. A later
  request of theirs replaces that seat's token, as above.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from api.ratings import account_of
from api.service import MatchNotFinished, MatchService, NewSeat, Played, hash_token
from api.store import ConcurrencyError, StoredEvent
from domain.clock import clock_of
from domain.errors import DomainError
from domain.games import Game, by_name

#: the namespace of rematch ids: uuid5(namespace, finished match id)
REMATCH_IDS = uuid.UUID("5b0f1d7e-6c2a-4f43-9a57-2f6c1c4c9e10")


@dataclass(frozen=True)
class Rematched:
    match_id: str
    seat: int
    token: str
    state: Any
    game: str
    #: this request created the rematch (else it found it)
    created: bool


def rematch_id(match_id: str) -> str:
    return str(uuid.uuid5(REMATCH_IDS, match_id))


def claimed_seats(game: Game, stored: list[StoredEvent]) -> dict[int, str | None]:
    """The seats of a match that were open at its creation (so were claimed, if it is over),
    with the account each was claimed as (None: claimed without one)."""
    created = game.fold([stored[0].event_of(game)], game.initial())
    seats = game.summary(created).seats
    accounts = dict(found for s in stored if (found := account_of(s.meta)) is not None)
    return {i: accounts.get(i) for i, spec in enumerate(seats) if spec.kind == "open"}


async def rematch(service: MatchService, match_id: str, seat: int) -> Rematched:
    """``seat``'s place in the rematch of ``match_id`` (created by the first request)."""
    record = await service.record(match_id)
    if record.status != "over":
        raise MatchNotFinished("a rematch follows a finished match; this one goes on")
    new_id = rematch_id(match_id)
    game = by_name(record.game)
    stored = await service.store.load(match_id)  # a finished match's log: it never changes
    claimed = claimed_seats(game, stored)
    created = False
    if await service.store.get_match(new_id) is None:
        first_dealer = getattr(stored[0].event_of(game), "first_dealer", None)
        clock = clock_of(await service.state(match_id))
        seats = [
            NewSeat(s["name"], "open" if i in claimed else s["kind"], s.get("bot_level"))
            for i, s in enumerate(record.seats)
        ]
        try:
            await service.create(
                seats,
                seed=None if record.seed is None else record.seed + 1,
                first_dealer=None if first_dealer is None else (first_dealer + 1) % len(seats),
                game=record.game,
                options=record.options,
                clock=None if clock is None else clock.settings,
                match_id=new_id,
                rematch_of=match_id,
            )
            created = True
        except ConcurrencyError:
            pass  # another seat's request created it first
    await service.store.link_rematch(match_id, new_id)
    played = None
    if seat in claimed:
        played = await _claim(service, new_id, seat, record.seats[seat]["name"], claimed[seat])
    if played is not None:
        assert played.token is not None
        return Rematched(new_id, seat, played.token, played.state, played.game.name, created)
    token = secrets.token_urlsafe(32)
    if not await service.store.replace_seat_token(new_id, seat, hash_token(token)):
        # a seat token is a person's seat, and the rematch seats people where they sat
        raise RuntimeError(f"seat {seat} of the rematch {new_id!r} has no token")
    hosted, now = await service.game_state(new_id)
    return Rematched(new_id, seat, token, now, hosted.name, created)


async def _claim(
    service: MatchService, match_id: str, seat: int, name: str, account: str | None
) -> Played | None:
    """The person's claim of their kept seat of the rematch (as ``account``); None when
    their earlier request claimed it already."""
    try:
        return await service.claim(match_id, seat, name, account=account)
    except DomainError as exc:
        if exc.code != "seat_taken":
            raise
        return None
