"""A round's shuffle and its commitment, the scheme of the other games:
sha256(salt bytes ‖ card ids joined by ","), published before the first card is dealt and
opened when the round ends (CHASE §5)."""

from __future__ import annotations

import hashlib
from typing import Protocol

from domain.games.chase.cards import CARDS
from domain.games.chase.commands import StartRound


def commitment(salt: str, pack: tuple[str, ...]) -> str:
    """Hex sha256 of the salt's bytes followed by the card ids joined by commas."""
    return hashlib.sha256(bytes.fromhex(salt) + ",".join(pack).encode("ascii")).hexdigest()


class RandomSource(Protocol):
    """What a shuffle needs of the caller's generator (``random.Random`` or a CSPRNG)."""

    def shuffle(self, x: list[str], /) -> None: ...
    def randbytes(self, n: int, /) -> bytes: ...


def shuffled_round(rng: RandomSource, salt_bytes: int = 16) -> StartRound:
    """The command that deals a round from ``rng``: the 52 cards shuffled, a fresh salt.
    The chance comes from the caller; the domain itself stays free of it."""
    pack = list(CARDS)
    rng.shuffle(pack)
    return StartRound(tuple(pack), rng.randbytes(salt_bytes).hex())
