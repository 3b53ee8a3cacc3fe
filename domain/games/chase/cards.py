"""The standard 52-card pack (CHASE §3): ids ``<rank><suit>``, King high, Ace low, suits
never rank."""

from __future__ import annotations

from typing import Final

RANKS: Final[tuple[str, ...]] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final[tuple[str, ...]] = ("C", "D", "H", "S")
#: the canonical order: rank first, then suit (``AC, AD, AH, AS, 2C, …, KS``)
CARDS: Final[tuple[str, ...]] = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS)
CARD_SET: Final[frozenset[str]] = frozenset(CARDS)

KING: Final = "K"
KING_VALUE: Final = 13
#: ranks passed face up under ``announce_low`` (A20)
LOW_RANKS: Final[frozenset[str]] = frozenset(("A", "2", "3"))

_VALUES: Final[dict[str, int]] = {
    card: RANKS.index(card[:-1]) + 1 for card in CARDS
}  # A = 1 … K = 13


def rank(card: str) -> str:
    """The rank of ``card``: the id without its last character (``"10H"`` -> ``"10"``)."""
    return card[:-1]


def value(card: str) -> int:
    """A = 1, 2 … 10 at face value, J = 11, Q = 12, K = 13."""
    return _VALUES[card]


def is_king(card: str) -> bool:
    return card[:-1] == KING


def is_low(card: str) -> bool:
    """An Ace, 2 or 3: announced when it changes hands under ``announce_low`` (A20)."""
    return card[:-1] in LOW_RANKS
