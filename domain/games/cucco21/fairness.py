"""Deck commitments (C27), the same scheme as Cuccù's rounds: sha256(salt ‖ ids joined by ",")."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Protocol

from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import Shuffle
from domain.games.cucco21.events import DeckOpened, DeckShuffled, Event


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


def deck_problems(events: Iterable[Event], *, finished: bool = True) -> list[str]:
    """What is wrong with the decks of a game's log (C27), for an audit; empty when all is well.

    Every deck must be opened once, to the order and salt it was committed to; decks are
    numbered from 1 without a gap; the first holds the 42 cards. A ``finished`` log (the game is
    over) must have opened every deck, the last one included.
    """
    problems: list[str] = []
    shuffled_decks: dict[int, DeckShuffled] = {}
    opened: dict[int, DeckOpened] = {}
    for event in events:
        if isinstance(event, DeckShuffled):
            if event.number != len(shuffled_decks) + 1:
                problems.append(f"deck {event.number} is out of sequence")
            if event.number == 1 and sorted(event.order or ()) != sorted(CARDS):
                problems.append("the first deck does not hold the 42 cards once each")
            shuffled_decks[event.number] = event
        elif isinstance(event, DeckOpened):
            if event.number in opened:
                problems.append(f"deck {event.number} is opened twice")
            opened[event.number] = event
            deck = shuffled_decks.get(event.number)
            if deck is None:
                problems.append(f"deck {event.number} is opened before it was shuffled")
            elif commitment(event.salt, event.order) != deck.commitment:
                problems.append(f"deck {event.number} does not open to its commitment")
            elif deck.order is not None and deck.order != event.order:
                problems.append(f"deck {event.number} was dealt from another order")
    if finished:
        problems += [f"deck {n} was never opened" for n in shuffled_decks if n not in opened]
    return problems
