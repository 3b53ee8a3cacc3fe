"""Who acts when no person has to: the dealer of a new round, or a bot seat.

The service asks this after every command and lets the answer act (with its own randomness)
until a person must decide; the rule lives here once, beside ``pending``.
"""

from __future__ import annotations

from typing import Literal

from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState

Deal = Literal["deal"]
DEAL: Deal = "deal"


def has_live_human(state: MatchState) -> bool:
    """A human seat still has lives: it may start the next round itself."""
    return any(spec.kind == "human" and state.lives[i] > 0 for i, spec in enumerate(state.seats))


def automatic_turn(state: MatchState) -> Deal | int | None:
    """``"deal"`` when the service deals the next round, a bot's seat when that bot must
    decide, None when a person must act (or the match is over).

    Round 1 is dealt as soon as every seat is taken (at creation, or by the last claim); a
    later round is dealt by itself only once no human seat has lives left to start it
    (``next_round``). Open seats wait for people.
    """
    decision = pending(state)
    if decision is None or decision.kind == "claim_seat":
        return None
    if decision.kind == "next_round":
        if state.rounds_played > 0 and has_live_human(state):
            return None
        return DEAL
    assert decision.seat is not None
    return decision.seat if state.seats[decision.seat].kind == "bot" else None


def bot_level(state: MatchState, seat: int) -> str:
    """The level of the bot at ``seat`` (``random`` if it was created without one)."""
    return state.seats[seat].bot_level or "random"


def has_expert(state: MatchState) -> bool:
    """Some bot at the table is an expert: its decisions cost milliseconds each."""
    return any(s.kind == "bot" and s.bot_level == "expert" for s in state.seats)
