"""Match state: immutable, rebuilt only by ``evolve``.

The round keeps a cursor, ``turn`` (the index in ``participants`` of the seat whose turn is
awaited), so that ``pending`` and ``decide`` read where the round stands from the state alone.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.entropy import Ledger
from domain.games.chase.config import Options
from domain.games.chase.events import Event, Reveal
from domain.seats import SeatSpec

MatchStatus = Literal["new", "between_rounds", "in_round", "over"]
Phase = Literal["deal", "turns", "scored"]


class RoundState(msgspec.Struct, frozen=True, gc=False):
    """One round. ``hands[s]`` is the card seat ``s`` holds now (None: not in the round, or
    not dealt yet); the stock is ``pack[stock_top:]``."""

    number: int
    dealer: int
    participants: tuple[int, ...]  # turn order, the dealer last; fixed for the round (§1)
    commitment: str
    pack: tuple[str, ...]  # as shuffled, index 0 = top
    salt: str
    hands: tuple[str | None, ...]
    stock_top: int = 0  # cards taken off the top of the pack so far (the deal, a cut taken)
    phase: Phase = "deal"
    turn: int = 0  # index in participants of the turn awaited; len(participants): trading over
    shown: tuple[int, ...] = ()  # seats that blocked with a King (A9), in order
    king_cut: bool = False  # the dealer cut a King (A12, A21)
    discard: tuple[str, ...] = ()  # the dealer's card given up in a cut exchange (A13)
    public_reveals: tuple[str, ...] = ()  # blocking Kings, cut cards, announcements, in order
    revealed: tuple[Reveal, ...] = ()  # the scoring reveal, once it happened
    log: tuple[Event, ...] = ()  # this round's events, for views and bots

    @property
    def stock(self) -> tuple[str, ...]:
        """The undealt pack now, index 0 = top."""
        return self.pack[self.stock_top :]


class Rules(msgspec.Struct, frozen=True, gc=False):
    """What the match was created with: fixed for its whole life."""

    seats: tuple[SeatSpec, ...] = ()
    starting_lives: int = 0
    options: Options = msgspec.field(default_factory=Options)


class MatchState(msgspec.Struct, frozen=True, gc=False):
    rules: Rules = msgspec.field(default_factory=Rules)
    status: MatchStatus = "new"
    lives: tuple[int, ...] = ()
    dealer: int = 0  # of the current round, or of the next one between rounds
    rounds_played: int = 0
    round: RoundState | None = None  # the current round, or the last one played
    winner: int | None = None
    version: int = 0  # number of events folded
    #: the decks' entropy (domain.entropy): kept by domain.games.mixing, not by this game
    entropy: Ledger = msgspec.field(default_factory=Ledger)

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        return self.rules.seats

    @property
    def starting_lives(self) -> int:
        return self.rules.starting_lives

    @property
    def options(self) -> Options:
        return self.rules.options


def initial_state() -> MatchState:
    return MatchState()


def is_over(state: MatchState) -> bool:
    return state.status == "over"


def turn_order(dealer: int, lives: tuple[int, ...]) -> tuple[int, ...]:
    """The participants of a round dealt by ``dealer``: ``dealer+1, …, dealer`` (mod N),
    seats with lives only; the dealer is last (§1, A1)."""
    n = len(lives)
    return tuple(s for s in ((dealer + i) % n for i in range(1, n + 1)) if lives[s] > 0)


def next_dealer(dealer: int, lives: tuple[int, ...]) -> int:
    """The first seat after ``dealer`` with lives (A18); a dealer just eliminated is passed over."""
    n = len(lives)
    return next(s for s in ((dealer + i) % n for i in range(1, n + 1)) if lives[s] > 0)
