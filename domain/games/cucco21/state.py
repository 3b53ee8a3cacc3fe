"""Game state: immutable, rebuilt only by ``evolve``.

The round keeps a small cursor (``phase``, ``turn``, ``acted``, ``asker``/``target``,
``claims``, ``drawer``) so that ``pending`` and ``decide`` read where the round stands from the
state alone: a prompt or a reshuffle can interrupt a rule step, and the next command resumes it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.entropy import Ledger
from domain.games.cucco21.cards import kept_when_drawn
from domain.games.cucco21.config import RoundCard
from domain.games.cucco21.events import CardDealt, CardDrawn, Event, Reveal
from domain.seats import SeatSpec

GameStatus = Literal["new", "between_rounds", "in_round", "over"]
Phase = Literal["deal", "turns", "scoring"]


class RoundState(msgspec.Struct, frozen=True, gc=False):
    """One round. ``hands[s]`` is the card seat ``s`` holds now. A card's origin (C14) is not
    kept here: ``origin`` reads it from the round's log, the rare time a Cat asks for it."""

    number: int
    round_card: RoundCard
    dealer: int
    turn_order: tuple[int, ...]
    hands: tuple[str | None, ...]
    phase: Phase = "deal"
    turn: int = 0  # index in turn_order of the seat whose turn is awaited or in progress
    acted: bool = False  # that seat has chosen (keep, or a trade still being resolved)
    asker: int | None = None  # a request waiting for its target's answer
    target: int | None = None
    claims: tuple[int, ...] = ()  # seats owed a Ceremony prompt, in order (asker first)
    #: those of ``claims`` that may claim (gave a Ceremony, got 5 or more): the others are
    #: prompted all the same, ``decline`` their only choice, so no prompt tells who gave one
    claimable: tuple[int, ...] = ()
    drawer: int | None = None  # a deck trade between its discard and its kept card
    given: str | None = None  # the card the drawer discarded in step 1
    drawn_clowns: tuple[tuple[int, str], ...] = ()  # (seat, Clown) kept from a draw: rank 22
    out: tuple[int, ...] = ()  # seats out this round (by a power, then at scoring)
    revealed: tuple[Reveal, ...] = ()  # the scoring reveal, once it happened


class Rules(msgspec.Struct, frozen=True, gc=False):
    """What the game was created with: fixed for its whole life."""

    seats: tuple[SeatSpec, ...] = ()
    starting_chips: int = 0
    powers: bool = True
    max_sets: int | None = None


class Seals(msgspec.Struct, frozen=True, gc=False):
    """Every deck as shuffled and its salt (hidden until opened, C27)."""

    decks: tuple[tuple[str, ...], ...] = ()
    salts: tuple[str, ...] = ()
    unopened: tuple[int, ...] = ()  # used-up decks to open at the end of this round


class GameState(msgspec.Struct, frozen=True, gc=False):
    """The game. Fields that change rarely sit in small sub-structs (``rules``, ``seals``):
    every event rebuilds this struct, and its cost grows with its number of fields."""

    rules: Rules = msgspec.field(default_factory=Rules)
    status: GameStatus = "new"
    chips: tuple[int, ...] = ()
    box: int = 0
    alive: tuple[bool, ...] = ()  # alive in the current set (§1)
    bankrupt: tuple[bool, ...] = ()
    set_number: int = 1
    round_card: RoundCard = "1"  # of the current round, or of the next one between rounds
    dealer: int = 0  # of the current round, or of the next one between rounds
    rounds_played: int = 0
    deck_cards: tuple[str, ...] = ()  # the deck as last built; ``deck`` is what is left of it
    deck_top: int = 0  # how many of ``deck_cards`` were taken (a deal, a draw moves it on)
    discard: tuple[str, ...] = ()  # oldest first
    deck_number: int = 0  # decks shuffled so far; 0 before the first shuffle
    seals: Seals = msgspec.field(default_factory=Seals)
    round: RoundState | None = None  # the current round, or the last one played
    log: tuple[Event, ...] = ()  # the events since the current (or last) round started
    winners: tuple[int, ...] = ()
    version: int = 0  # number of events folded
    #: the decks' entropy (domain.entropy): kept by domain.games.mixing, not by this game
    entropy: Ledger = msgspec.field(default_factory=Ledger)

    @property
    def deck(self) -> tuple[str, ...]:
        """The draw deck now, index 0 = top."""
        return self.deck_cards[self.deck_top :]

    @property
    def deck_empty(self) -> bool:
        return self.deck_top >= len(self.deck_cards)

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        return self.rules.seats

    @property
    def starting_chips(self) -> int:
        return self.rules.starting_chips

    @property
    def powers(self) -> bool:
        return self.rules.powers

    @property
    def max_sets(self) -> int | None:
        return self.rules.max_sets


def initial_state() -> GameState:
    return GameState()


def shown_status(state: GameState) -> GameStatus:
    """The status hosts show: a created game waiting for its first shuffle (the host deals
    none while a seat is open, docs/API.md "Fairness") is between rounds, as in Cuccù."""
    return "between_rounds" if state.status == "new" and state.seats else state.status


def is_over(state: GameState) -> bool:
    return state.status == "over"


def is_holder(state: GameState, rnd: RoundState, seat: int) -> bool:
    """Alive, holding a card, not out by a power (§1)."""
    return state.alive[seat] and rnd.hands[seat] is not None and seat not in rnd.out


def holds(alive: tuple[bool, ...], rnd: RoundState, seat: int) -> bool:
    """``is_holder`` on the alive flags alone (for ``evolve``, before the state is rebuilt)."""
    return alive[seat] and rnd.hands[seat] is not None and seat not in rnd.out


def origin(state: GameState, card: str) -> int:
    """The seat that was dealt ``card`` this round, or that drew it and kept it (C14, R10).

    The last deal, or draw kept, of the card in the round's log: a card taken back keeps its
    origin (taking back is not drawing), a drawn power card that was discarded gave it none
    (even when, after a reshuffle, it is the very card taken back: R2), and a card drawn and
    kept again after a reshuffle has its drawer.
    """
    for event in reversed(state.log):
        if type(event) is CardDealt and event.card == card:
            return event.seat
        if type(event) is CardDrawn and event.card == card and kept_when_drawn(card, state.powers):
            return event.seat
    raise AssertionError(f"{card} was neither dealt nor drawn this round")


def next_holder(state: GameState, rnd: RoundState, seat: int) -> int | None:
    """The first holder after ``seat`` in turn order, without wrapping round."""
    order = rnd.turn_order
    for other in order[order.index(seat) + 1 :]:
        if is_holder(state, rnd, other):
            return other
    return None
