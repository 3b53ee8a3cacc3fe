"""Player accounts: registration, API keys, claims as an account, profiles and the
leaderboard. HTTP-free, like the match service: the controllers (api/controllers/players.py)
turn its errors into problems.

An API key is ``cuccu_key_`` and 43 characters of ``secrets.token_urlsafe(32)``: 256 random
bits, with a prefix that says what it is (to a person, a secret scanner and the log tests).
It is shown once, at registration or rotation, and stored only as its SHA-256. A plain hash
is enough here, as for seat tokens: a slow or keyed hash protects guessable secrets such as
passwords, and nobody can search 2^256 keys, so the stored hashes of a leaked database lead to
no key. It is also what lets one indexed lookup find the account of a request.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from sqlalchemy.exc import DBAPIError

from api.ratings import Rating
from api.service import MatchService, Played, ServiceError
from api.store.players import NameTaken, PlayedMatch, PlayerRecord, PlayerStore, Ranked
from domain.games import GAMES

log = logging.getLogger("cuccu.players")

KEY_PREFIX: Final = "cuccu_key_"


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


# --- what the accounts refuse --------------------------------------------------------------


class UnknownKey(ServiceError):
    def __init__(self, detail: str = "this API key is unknown or revoked") -> None:
        super().__init__(detail)


class NameAlreadyTaken(ServiceError):
    def __init__(self, name: str) -> None:
        super().__init__(f"the name {name!r} is taken (names are unique, whatever their case)")


class PlayerNotFound(ServiceError):
    def __init__(self, player_id: str) -> None:
        super().__init__(f"no player {player_id!r}")


class AlreadySeated(ServiceError):
    def __init__(self, match_id: str, seat: int) -> None:
        super().__init__(f"this account already holds seat {seat} of match {match_id}")


class UnknownRatedGame(ServiceError):
    def __init__(self, game: str) -> None:
        super().__init__(f"unknown game {game!r}; the games are: {', '.join(GAMES)}")


@dataclass(frozen=True)
class Registered:
    player: PlayerRecord
    #: the API key, in clear: shown in this answer only
    key: str


@dataclass(frozen=True)
class Profile:
    player: PlayerRecord
    ratings: dict[str, Rating]


class PlayerService:
    def __init__(self, store: PlayerStore, matches: MatchService) -> None:
        self.store = store
        self.matches = matches

    async def register(self, name: str, kind: str) -> Registered:
        key = new_key()
        try:
            player = await self.store.register(name.strip(), kind, hash_key(key))
        except NameTaken:
            raise NameAlreadyTaken(name.strip()) from None
        return Registered(player, key)

    async def authenticate(self, key: str | None) -> PlayerRecord:
        """The account whose key this is (UnknownKey for none, a revoked or unknown key)."""
        if not key:
            raise UnknownKey("send `Authorization: Bearer <API key>`")
        if not key.startswith(KEY_PREFIX):
            raise UnknownKey(f"this is not a player's API key (they start with {KEY_PREFIX})")
        player = await self.store.by_key(hash_key(key))
        if player is None:
            raise UnknownKey()
        return player

    async def rotate_key(self, player: PlayerRecord) -> str:
        """A new key for the account; the old one stops working at once."""
        key = new_key()
        await self.store.replace_key(player.id, hash_key(key))
        return key

    async def revoke_key(self, player: PlayerRecord) -> None:
        """The account keeps its name, ratings and history, and has no working key."""
        await self.store.replace_key(player.id, None)

    async def profile(self, player_id: str) -> Profile:
        player = await self.store.get(player_id)
        if player is None:
            raise PlayerNotFound(player_id)
        return Profile(player, await self.store.ratings_of(player_id))

    async def history(self, player_id: str, limit: int) -> list[PlayedMatch]:
        if await self.store.get(player_id) is None:
            raise PlayerNotFound(player_id)
        return await self.store.matches_of(player_id, limit)

    async def leaderboard(self, game: str, limit: int) -> list[Ranked]:
        if game not in GAMES:
            raise UnknownRatedGame(game)
        return await self.store.leaderboard(game, limit)

    async def claim(
        self,
        player: PlayerRecord,
        match_id: str,
        seat: int,
        name: str,
        idempotency_key: str | None = None,
        entropy: str | None = None,
    ) -> Played:
        """Claim an open seat as ``player``: the claim's stored metadata names the account.

        An account takes one seat per match (it would otherwise be rated against itself);
        a retry of its own claim (same Idempotency-Key) is the match service's to answer.
        """

        async def one_seat_each() -> None:
            # run inside the claim's attempt: a claim of another seat by this account committed
            # at the same moment moves the match's version, so this runs again and sees it
            held = {s for s, p in (await self.store.seats_of(match_id)).items() if p == player.id}
            if held - {seat}:
                raise AlreadySeated(match_id, min(held))

        return await self.matches.claim(
            match_id,
            seat,
            name,
            idempotency_key,
            player.id,
            entropy=entropy,
            guard=one_seat_each,
        )

    async def match_finished(self, match_id: str) -> None:
        """Take a match that just ended into the ratings. It has ended whatever happens here:
        a failure is logged, and the pass at the next start of an API process (or
        ``cuccu ratings catch-up``) takes it in."""
        try:
            await self.store.catch_up(match_id)
        except Exception:
            log.exception("ratings not updated after match %s; the next pass will", match_id)

    async def catch_up(self) -> None:
        """Take in every finished match not rated yet (a crash may have left some out)."""
        try:
            await self.store.catch_up()
        except (DBAPIError, OSError) as exc:  # the database is down: /ready says so
            log.warning("ratings not caught up (%s); the next pass will", type(exc).__name__)
        except Exception:
            log.exception("ratings not caught up; the next pass will")


#: what the match service calls after a commit that ends a match (api/service.py)
FinishedHook = Callable[[str], Awaitable[None]]
