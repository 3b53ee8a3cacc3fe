"""Cuccù rules as a pure Decider: ``decide(state, command) -> events``, ``evolve(state, event)``.

No I/O, no clock, no randomness: the caller supplies shuffles and first dealers in commands.
"""

from domain.cards import CARDS, rank, value
from domain.commands import (
    BOT_LEVELS,
    CHOICES,
    Choice,
    Choose,
    ClaimSeat,
    Command,
    CreateMatch,
    SeatSpec,
    StartRound,
)  # fmt: skip
from domain.decide import apply, decide, losers
from domain.envelope import chain_hash, record_body
from domain.errors import DomainError
from domain.events import (
    EVENT_TYPES,
    Event,
    decode_event,
    decode_events,
    encode_event,
    event_type,
)  # fmt: skip
from domain.evolve import evolve, fold
from domain.fairness import GENESIS_HASH, commitment, shuffled_round
from domain.pending import PendingDecision, pending
from domain.state import MatchState, RoundState, initial_state, is_terminal
from domain.transcript import transcript
from domain.turns import DEAL, automatic_turn, has_expert, has_live_human
from domain.views import MatchView, redact, view

__all__ = [
    "BOT_LEVELS", "CARDS", "CHOICES", "DEAL", "EVENT_TYPES", "GENESIS_HASH",
    "Choice", "Choose", "ClaimSeat", "Command", "CreateMatch", "DomainError", "Event", "MatchState",
    "MatchView", "PendingDecision", "RoundState", "SeatSpec", "StartRound",
    "apply", "automatic_turn", "chain_hash", "commitment", "decide", "decode_event",
    "decode_events", "encode_event", "event_type", "evolve", "fold", "has_expert",
    "has_live_human", "initial_state", "is_terminal", "losers", "pending", "rank", "record_body",
    "redact", "shuffled_round", "transcript", "value", "view",
]  # fmt: skip
