"""Who must decide what now: one answer for the API, the bots, the runner and the tests.

Two steps have no seat: ``shuffle`` (a deck must be built: the caller answers with a
permutation and a salt, so chance stays outside the domain) and ``next_round``.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.games.cucco21.cards import CAT, HORSE, HOUSE, LOVERS, value
from domain.games.cucco21.state import GameState, RoundState, is_holder

DecisionKind = Literal["shuffle", "claim_seat", "next_round", "turn", "asked", "ceremony"]


class PendingDecision(msgspec.Struct, frozen=True):
    """``seat`` is None for ``shuffle``, ``next_round`` and ``claim_seat`` (open seats wait
    for people to claim them before the first round). For ``shuffle``, ``pile`` is how many
    cards the new deck must hold (all 42, or the discard pile)."""

    seat: int | None
    kind: DecisionKind
    choices: tuple[str, ...]
    pile: int = 0


_TURN: Final = ("keep", "trade")
_REFUSER: Final = ("refuse", "accept")
_SENDER: Final = ("send_on", "accept")
_ACCEPTER: Final = ("accept",)
_CEREMONY: Final = ("claim", "decline")
_DECLINER: Final = ("decline",)
_NEXT_ROUND: Final = PendingDecision(None, "next_round", ("next_round",))
_CLAIM_SEAT: Final = PendingDecision(None, "claim_seat", ("claim",))


def needs_shuffle(state: GameState) -> bool:
    """A card must be taken and the deck is empty (or no deck was ever built)."""
    if state.deck_number == 0:
        return state.status == "new" and bool(state.seats)
    if not state.deck_empty or state.status != "in_round":
        return False
    rnd = state.round
    assert rnd is not None
    return rnd.phase == "deal" or rnd.drawer is not None


def pending(state: GameState) -> PendingDecision | None:
    """The decision the game waits for, or None once it is over (or before it is created)."""
    rnd = state.round
    status = state.status
    if status == "in_round" and rnd is not None and rnd.drawer is None and rnd.phase == "turns":
        return _prompt(state, rnd)  # the common case, asked for at every decision
    if needs_shuffle(state):
        pile = 42 if state.deck_number == 0 else len(state.discard)
        return PendingDecision(None, "shuffle", (), pile)
    if status == "between_rounds":
        if any(spec.kind == "open" for spec in state.seats):
            return _CLAIM_SEAT
        return _NEXT_ROUND
    if status != "in_round" or rnd is None or rnd.phase != "turns":
        return None
    return _prompt(state, rnd)


def _prompt(state: GameState, rnd: RoundState) -> PendingDecision | None:
    """The seat's decision awaited in the trading phase, if any."""
    for seat in rnd.claims:
        if is_holder(state, rnd, seat):
            # prompted whether or not it may claim: the prompt must not tell the table who
            # gave a Ceremony (docs/ARCHITECTURE.md, "Prompts reveal nothing hidden")
            choices = _CEREMONY if seat in rnd.claimable else _DECLINER
            return PendingDecision(seat, "ceremony", choices)
    if rnd.target is not None:
        card = rnd.hands[rnd.target]
        assert card is not None
        return PendingDecision(rnd.target, "asked", _asked_choices(card, state.powers))
    if rnd.turn < len(rnd.turn_order):
        return PendingDecision(rnd.turn_order[rnd.turn], "turn", _TURN)
    return None  # scoring runs in the same command as the last turn


def _asked_choices(card: str, powers: bool) -> tuple[str, ...]:
    """A target's options (§4.3). A target whose card has no power is prompted all the same,
    with ``accept`` alone: the prompt must not tell the table whether it holds Lovers, Cat,
    House or Horse (docs/ARCHITECTURE.md, "Prompts reveal nothing hidden")."""
    kind = value(card) if powers else 0
    if kind in (LOVERS, CAT):
        return _REFUSER
    if kind in (HOUSE, HORSE):
        return _SENDER
    return _ACCEPTER
