"""The 40-card Cuccù pack (RULES §3): ranks, canonical order, comparison values."""

from __future__ import annotations

from typing import Final

# Lowest to highest; the fool's place at the end is only its canonical position (§3.2),
# its value at scoring is variable (§6.2).
RANKS: Final = (
    "lion", "mask", "bucket", "zero",
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "inn", "cat", "horse", "hunter", "cuckoo", "fool",
)  # fmt: skip

CARDS: Final[tuple[str, ...]] = tuple(f"{rank}#{copy}" for rank in RANKS for copy in (1, 2))
CARD_SET: Final[frozenset[str]] = frozenset(CARDS)

SPECIALS: Final = frozenset({"inn", "cat", "horse", "hunter", "cuckoo"})

_VALUES: Final[dict[str, float]] = {
    "lion": -3, "mask": -2, "bucket": -1, "zero": 0,
    **{str(n): n for n in range(1, 11)},
    "inn": 11, "cat": 12, "horse": 13, "hunter": 14, "cuckoo": 15,
}  # fmt: skip

TWO_FOOLS_VALUE: Final = 14.5

_RANK_OF: Final[dict[str, str]] = {card: card.partition("#")[0] for card in CARDS}


def rank(card: str) -> str:
    """The rank key of a card id: ``rank("10#2") == "10"``."""
    return _RANK_OF[card]


def value(card: str) -> float:
    """The fixed comparison value of a card; the fool has none (raises KeyError)."""
    return _VALUES[_RANK_OF[card]]


def is_special(card: str) -> bool:
    """Cuckoo, hunter, horse, cat and inn act when targeted; every other card is plain."""
    return _RANK_OF[card] in SPECIALS
