"""A round's shuffle and its commitment (RULES.md; docs/ARCHITECTURE.md "Fairness")."""

from __future__ import annotations

import hashlib
from typing import Protocol

from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.commands import StartRound


def commitment(salt: str, pack: tuple[str, ...]) -> str:
    """sha256(salt bytes ‖ card ids joined by ","), hex. Published before the first card."""
    return hashlib.sha256(bytes.fromhex(salt) + ",".join(pack).encode("ascii")).hexdigest()


class RandomSource(Protocol):
    """What a shuffle needs of the caller's generator (``random.Random`` or a CSPRNG)."""

    def shuffle(self, x: list[str], /) -> None: ...
    def randbytes(self, n: int, /) -> bytes: ...


def shuffled_round(rng: RandomSource, salt_bytes: int = 16) -> StartRound:
    """The command that deals a round from ``rng``: a shuffle of the 40 cards and a fresh salt.

    The chance comes from the caller; the domain itself stays free of it.
    """
    pack = list(CARDS)
    rng.shuffle(pack)
    return StartRound(tuple(pack), rng.randbytes(salt_bytes).hex())
