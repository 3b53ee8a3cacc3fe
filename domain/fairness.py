"""Shuffle commitments and the genesis of the per-match hash chain (see docs/ARCHITECTURE.md).

The chain itself hashes stored records: ``domain.envelope``.
"""

from __future__ import annotations

import hashlib
from typing import Final, Protocol

from domain.cards import CARDS
from domain.commands import StartRound

GENESIS_HASH: Final = "0" * 64


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
