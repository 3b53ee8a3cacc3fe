"""Game state: immutable, rebuilt only by ``evolve``.

The round keeps a small cursor (``phase``, ``turn``, ``acted``, ``asker``/``target``,
``claims``, ``drawer``) so that ``pending`` and ``decide`` read where the round stands from the
state alone: a prompt or a reshuffle can interrupt a rule step, and the next command resumes it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.commands import SeatSpec
from domain.games.cucco21.config import RoundCard
from domain.games.cucco21.events import Event, Reveal

GameStatus = Literal["new", "between_rounds", "in_round", "over"]
Phase = Literal["deal", "turns", "scoring"]


class RoundState(msgspec.Struct, frozen=True, gc=False):
    """One round. ``hands[s]`` is the card seat ``s`` holds now, ``origins[s]`` that card's
    origin (C14)."""

    number: int
    round_card: RoundCard
    dealer: int
    turn_order: tuple[int, ...]
    hands: tuple[str | None, ...]
    origins: tuple[int | None, ...]
    phase: Phase = "deal"
    turn: int = 0  # index in turn_order of the seat whose turn is awaited or in progress
    acted: bool = False  # that seat has chosen (keep, or a trade still being resolved)
    asker: int | None = None  # a request waiting for its target's answer
    target: int | None = None
    claims: tuple[int, ...] = ()  # seats owed a Ceremony prompt, in order (asker first)
    drawer: int | None = None  # a deck trade between its discard and its kept card
    given: str | None = None  # the card the drawer discarded in step 1
    given_origin: int | None = None
    drawn_clowns: tuple[tuple[int, str], ...] = ()  # (seat, Clown) kept from a draw: rank 22
    out: tuple[int, ...] = ()  # seats out this round (by a power, then at scoring)
    revealed: tuple[Reveal, ...] = ()  # the scoring reveal, once it happened


class GameState(msgspec.Struct, frozen=True, gc=False):
    seats: tuple[SeatSpec, ...] = ()
    starting_chips: int = 0
    powers: bool = True
    max_sets: int | None = None
    status: GameStatus = "new"
    chips: tuple[int, ...] = ()
    box: int = 0
    alive: tuple[bool, ...] = ()  # alive in the current set (§1)
    bankrupt: tuple[bool, ...] = ()
    set_number: int = 1
    round_card: RoundCard = "1"  # of the current round, or of the next one between rounds
    dealer: int = 0  # of the current round, or of the next one between rounds
    rounds_played: int = 0
    deck: tuple[str, ...] = ()  # the draw deck, index 0 = top
    discard: tuple[str, ...] = ()  # oldest first
    deck_number: int = 0  # decks shuffled so far; 0 before the first shuffle
    decks: tuple[tuple[str, ...], ...] = ()  # every deck as shuffled (hidden until opened)
    salts: tuple[str, ...] = ()  # their commitments' salts
    unopened: tuple[int, ...] = ()  # used-up decks to open at the end of this round
    round: RoundState | None = None  # the current round, or the last one played
    log: tuple[Event, ...] = ()  # the events since the current (or last) round started
    winners: tuple[int, ...] = ()
    version: int = 0  # number of events folded


def initial_state() -> GameState:
    return GameState()


def is_over(state: GameState) -> bool:
    return state.status == "over"


def is_holder(state: GameState, rnd: RoundState, seat: int) -> bool:
    """Alive, holding a card, not out by a power (§1)."""
    return state.alive[seat] and rnd.hands[seat] is not None and seat not in rnd.out


def holds(alive: tuple[bool, ...], rnd: RoundState, seat: int) -> bool:
    """``is_holder`` on the alive flags alone (for ``evolve``, before the state is rebuilt)."""
    return alive[seat] and rnd.hands[seat] is not None and seat not in rnd.out


def next_holder(state: GameState, rnd: RoundState, seat: int) -> int | None:
    """The first holder after ``seat`` in turn order, without wrapping round."""
    order = rnd.turn_order
    for other in order[order.index(seat) + 1 :]:
        if is_holder(state, rnd, other):
            return other
    return None
