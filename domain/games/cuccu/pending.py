"""Who must decide what now: one answer for the API, the bots and the tests."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.games.cuccu.state import MatchState

DecisionKind = Literal[
    "turn", "dealer_turn", "inn_choice", "inn_response", "next_round", "claim_seat"
]


class PendingDecision(msgspec.Struct, frozen=True):
    """``seat`` is None for ``next_round``: any seat (or the service, for bots) may start it,
    and for ``claim_seat``: open seats wait for people to claim them."""

    seat: int | None
    kind: DecisionKind
    choices: tuple[str, ...]


_TURN: Final = ("keep", "exchange")
_INN_CHOICE: Final = ("inn_keep", "inn_ask_pay")
_INN_RESPONSE: Final = ("inn_accept", "inn_refuse")
_NEXT_ROUND: Final = PendingDecision(seat=None, kind="next_round", choices=("next_round",))
_CLAIM_SEAT: Final = PendingDecision(seat=None, kind="claim_seat", choices=("claim",))


def pending(state: MatchState) -> PendingDecision | None:
    """The decision the match waits for, or None once it is over (or not yet created)."""
    if state.status == "between_rounds":
        if any(spec.kind == "open" for spec in state.seats):
            return _CLAIM_SEAT
        return _NEXT_ROUND
    rnd = state.round
    if state.status != "in_round" or rnd is None:
        return None
    step = rnd.step
    if step == "turn":
        assert rnd.current is not None
        return PendingDecision(rnd.current, "turn", _TURN)
    if step == "dealer_turn":
        assert rnd.current is not None
        return PendingDecision(rnd.current, "dealer_turn", _TURN)
    if step == "inn_choice":
        assert rnd.requester is not None
        return PendingDecision(rnd.requester, "inn_choice", _INN_CHOICE)
    if step == "inn_response":
        assert rnd.target is not None
        return PendingDecision(rnd.target, "inn_response", _INN_RESPONSE)
    return None  # "scored" is never observed between commands: the round ends in the same step
