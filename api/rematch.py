"""Rematches: the same table again, once a match is over (docs/API.md, "Rematches").

The rematch of a finished match has a fixed id (derived from the finished match's), so the
first seat to ask creates it and every later request, from any process, finds it: two seats
asking at once race on the creation's commit, and the loser reads the winner's match. Each
person gets their seat of it through their own request, with their own seat token of the
finished match: the rematch's human seats are created with tokens nobody is shown, and each
request issues its seat a fresh token that replaces the previous one (only hashes are
stored), so no token is ever handed to anyone else.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from api.service import MatchNotFinished, MatchService, NewSeat, hash_token
from api.store import ConcurrencyError
from api.store.rematches import RematchStore
from domain.clock import clock_of
from domain.games import by_name

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


async def rematch(
    service: MatchService, links: RematchStore, match_id: str, seat: int
) -> Rematched:
    """``seat``'s place in the rematch of ``match_id`` (created by the first request)."""
    record = await service.record(match_id)
    if record.status != "over":
        raise MatchNotFinished("a rematch follows a finished match; this one goes on")
    new_id = rematch_id(match_id)
    created = False
    if await service.store.get_match(new_id) is None:
        game = by_name(record.game)
        stored = await service.store.load(match_id, limit=1)
        first_dealer = getattr(stored[0].event_of(game), "first_dealer", None) if stored else None
        n = len(record.seats)
        state = await service.state(match_id)
        clock = clock_of(state)
        try:
            await service.create(
                [NewSeat(s["name"], s["kind"], s.get("bot_level")) for s in record.seats],
                seed=None if record.seed is None else record.seed + 1,
                first_dealer=None if first_dealer is None else (first_dealer + 1) % n,
                game=record.game,
                options=record.options,
                clock=None if clock is None else clock.settings,
                match_id=new_id,
            )
            created = True
        except ConcurrencyError:
            pass  # another seat's request created it first
    await links.link(match_id, new_id)
    token = secrets.token_urlsafe(32)
    if not await service.store.replace_seat_token(new_id, seat, hash_token(token)):
        # a seat token is a person's seat, and the rematch seats people where they sat
        raise RuntimeError(f"seat {seat} of the rematch {new_id!r} has no token")
    game, now = await service.game_state(new_id)
    return Rematched(new_id, seat, token, now, game.name, created)
