"""Deck commitments (C27), the same scheme as Cuccù's rounds: sha256(salt ‖ ids joined by ",")."""

from __future__ import annotations

import hashlib
from typing import Protocol

from domain.games.cucco21.commands import Shuffle


def commitment(salt: str, order: tuple[str, ...]) -> str:
    """Hex sha256 of the salt's bytes followed by the card ids joined by commas."""
    return hashlib.sha256(bytes.fromhex(salt) + ",".join(order).encode("ascii")).hexdigest()


class RandomSource(Protocol):
    """What a shuffle needs of the caller's generator (``random.Random`` or a CSPRNG)."""

    def shuffle(self, x: list[str], /) -> None: ...
    def randbytes(self, n: int, /) -> bytes: ...


def shuffled(pile: tuple[str, ...], rng: RandomSource, salt_bytes: int = 16) -> Shuffle:
    """The command that answers a ``shuffle`` step from ``rng``: chance comes from the caller."""
    order = list(pile)
    rng.shuffle(order)
    return Shuffle(tuple(order), rng.randbytes(salt_bytes).hex())
