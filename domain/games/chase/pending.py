"""Who must decide what now: one answer for the API, the bots, the runner and the tests.

There are only two prompts in a round (A24): a non-dealer's ``turn`` (keep or exchange) and
the ``dealer_turn`` (keep or cut). Between rounds the next step has no seat: ``next_round``
(the host deals, with its chance) or ``claim_seat`` (open seats wait for people).
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.games.chase.state import MatchState

DecisionKind = Literal["turn", "dealer_turn", "next_round", "claim_seat"]


class PendingDecision(msgspec.Struct, frozen=True):
    seat: int | None
    kind: DecisionKind
    choices: tuple[str, ...]


TURN_CHOICES: Final = ("keep", "exchange")
DEALER_CHOICES: Final = ("keep", "cut")
_NEXT_ROUND: Final = PendingDecision(None, "next_round", ("next_round",))
_CLAIM_SEAT: Final = PendingDecision(None, "claim_seat", ("claim",))


def pending(state: MatchState) -> PendingDecision | None:
    """The decision the match waits for, or None once it is over (or before it is created)."""
    if state.status == "between_rounds":
        if any(spec.kind == "open" for spec in state.seats):
            return _CLAIM_SEAT
        return _NEXT_ROUND
    rnd = state.round
    if state.status != "in_round" or rnd is None or rnd.phase != "turns":
        return None
    if rnd.turn >= len(rnd.participants):
        return None  # scoring runs in the same command as the last turn
    seat = rnd.participants[rnd.turn]
    if seat == rnd.dealer:
        return PendingDecision(seat, "dealer_turn", DEALER_CHOICES)
    return PendingDecision(seat, "turn", TURN_CHOICES)
