"""The 42 cards of Cucco 21 (CUCCO21 §3): values 1 to 21, two copies each, ids ``"v#c"``."""

from __future__ import annotations

from typing import Final

CARDS: Final[tuple[str, ...]] = tuple(f"{v}#{c}" for v in range(1, 22) for c in (1, 2))
CARD_SET: Final[frozenset[str]] = frozenset(CARDS)

CLOWN: Final = 1
LOVERS: Final = 6
HOUSE: Final = 11
CEREMONY: Final = 12
CAT: Final = 18
HORSE: Final = 19
DRAWN_CLOWN_RANK: Final = 22  # a Clown kept from a deck draw beats 21 this round (C15)
CEREMONY_MIN_GOT: Final = 5  # the Ceremony pays when its giver receives a card of value >= 5

REFUSERS: Final = frozenset((LOVERS, CAT))  # asked, the holder may refuse (§4.3)
SENDERS: Final = frozenset((HOUSE, HORSE))  # asked, the holder may send the asker on (§4.3)
DISCARDED_WHEN_DRAWN: Final = frozenset((LOVERS, HOUSE, CAT, HORSE))  # §4.6 step 3

NAMES: Final[dict[int, str]] = {
    CLOWN: "Clown", LOVERS: "Lovers", HOUSE: "House", CEREMONY: "Ceremony", CAT: "Cat",
    HORSE: "Horse",
}  # fmt: skip

_VALUES: Final[dict[str, int]] = {card: int(card.split("#")[0]) for card in CARDS}


def value(card: str) -> int:
    """The printed value of ``card``, 1 to 21."""
    return _VALUES[card]


def kept_when_drawn(card: str, powers: bool) -> bool:
    """Does a deck trader keep ``card`` when it draws it (§4.6 step 3)?"""
    return not powers or _VALUES[card] not in DISCARDED_WHEN_DRAWN
