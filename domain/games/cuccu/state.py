"""Match state: small, immutable, rebuilt only by ``evolve``."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.entropy import Ledger
from domain.games.cuccu.events import Event
from domain.seats import SeatSpec

MatchStatus = Literal["new", "between_rounds", "in_round", "over"]
Step = Literal["turn", "dealer_turn", "inn_choice", "inn_response", "scored"]


class RoundState(msgspec.Struct, frozen=True):
    """One round (RULES §5). ``hands[s] is None`` means seat ``s`` is undealt (or not in play)."""

    number: int
    dealer: int
    participants: tuple[int, ...]
    commitment: str
    pack: tuple[str, ...]
    salt: str
    hands: tuple[str | None, ...]
    top: int  # index of the next card drawn from the top
    bottom: int  # index of the next card dealt or drawn from the bottom
    step: Step
    current: int | None  # the seat whose decision is awaited
    requester: int | None = None  # the request being resolved, if any
    target: int | None = None
    chain: tuple[tuple[int, int], ...] = ()
    pledges: tuple[tuple[int, int], ...] = ()  # (requester, innkeeper)
    discard: tuple[str, ...] = ()
    revealed: tuple[tuple[int, str], ...] = ()
    skipped: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()  # seats eliminated mid-round by a hunter or cat, ascending
    log: tuple[Event, ...] = ()  # this round's events, for views and bots


class MatchState(msgspec.Struct, frozen=True):
    seats: tuple[SeatSpec, ...] = ()
    starting_lives: int = 0
    lives: tuple[int, ...] = ()
    dealer: int = 0  # dealer of the current round, or of the next one between rounds
    status: MatchStatus = "new"
    rounds_played: int = 0
    round: RoundState | None = None  # the current round, or the last one played
    winner: int | None = None
    version: int = 0  # number of events folded
    #: the decks' entropy (domain.entropy): kept by domain.games.mixing, not by this game
    entropy: Ledger = msgspec.field(default_factory=Ledger)


def initial_state() -> MatchState:
    return MatchState()


def is_terminal(state: MatchState) -> bool:
    return state.status == "over"
