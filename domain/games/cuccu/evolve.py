"""``evolve``: fold one event into the state. Pure; no rules are decided here, only recorded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from domain.games.cuccu.cards import rank
from domain.games.cuccu.events import (
    CardDealt,
    CardRevealed,
    CardsExchanged,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    ExchangeReversed,
    HorseSkipped,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    LivesReset,
    MatchCreated,
    MatchWon,
    PackExchanged,
    PledgeMade,
    Retargeted,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatClaimed,
    SeatEliminated,
)  # fmt: skip
from domain.games.cuccu.state import MatchState, RoundState
from domain.seats import SeatSpec


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _turn_of(rnd: RoundState, seat: int, **changes: Any) -> RoundState:
    """``seat`` becomes the current player: the dealer's final turn, or a normal turn."""
    step = "dealer_turn" if seat == rnd.dealer else "turn"
    return replace(rnd, current=seat, step=step, requester=None, target=None, **changes)


# Round-level handlers: (round, event) -> round.
def _card_dealt(rnd: RoundState, e: CardDealt) -> RoundState:
    return replace(rnd, hands=_set(rnd.hands, e.seat, e.card), bottom=rnd.bottom - 1)


def _kept(rnd: RoundState, e: Kept) -> RoundState:
    following = rnd.participants[rnd.participants.index(e.seat) + 1]
    return _turn_of(rnd, following, chain=())


def _exchange_requested(rnd: RoundState, e: ExchangeRequested) -> RoundState:
    return replace(rnd, requester=e.seat, target=e.target)


def _card_revealed(rnd: RoundState, e: CardRevealed) -> RoundState:
    revealed = (*rnd.revealed, (e.seat, e.card))
    if rank(e.card) == "inn":  # the exchange pauses for the requester's choice (§5.3.6)
        return replace(rnd, revealed=revealed, step="inn_choice", current=rnd.requester)
    return replace(rnd, revealed=revealed)


def _horse_skipped(rnd: RoundState, e: HorseSkipped) -> RoundState:
    return replace(rnd, skipped=(*rnd.skipped, e.seat))


def _retargeted(rnd: RoundState, e: Retargeted) -> RoundState:
    return replace(rnd, target=e.target)


def _cards_exchanged(rnd: RoundState, e: CardsExchanged) -> RoundState:
    hands = _set(_set(rnd.hands, e.requester, e.requester_gets), e.target, e.target_gets)
    return _turn_of(rnd, e.target, hands=hands, chain=(*rnd.chain, (e.requester, e.target)))


def _exchange_refused(rnd: RoundState, e: ExchangeRefused) -> RoundState:
    return _turn_of(rnd, e.seat, chain=())


def _inn_choice_made(rnd: RoundState, e: InnChoiceMade) -> RoundState:
    if e.choice == "keep":
        assert rnd.target is not None
        return _turn_of(rnd, rnd.target, chain=())
    return replace(rnd, step="inn_response", current=rnd.target)


def _inn_responded(rnd: RoundState, e: InnResponded) -> RoundState:
    return rnd  # the pledge or the forced exchange that follows moves the play on


def _pledge_made(rnd: RoundState, e: PledgeMade) -> RoundState:
    pledges = (*rnd.pledges, (e.requester, e.innkeeper))
    return _turn_of(rnd, e.innkeeper, chain=(), pledges=pledges)


def _exchange_reversed(rnd: RoundState, e: ExchangeReversed) -> RoundState:
    hands = _set(_set(rnd.hands, e.requester, e.requester_gets), e.target, e.target_gets)
    return replace(rnd, hands=hands)


def _pack_exchanged(rnd: RoundState, e: PackExchanged) -> RoundState:
    hands = _set(rnd.hands, e.seat, e.got)
    discard = (*rnd.discard, e.gave) if e.gave is not None else rnd.discard
    if e.end == "top":  # a horse held by the dealer: the dealer's final turn follows (D7)
        return _turn_of(rnd, rnd.dealer, hands=hands, discard=discard, top=rnd.top + 1, chain=())
    return replace(rnd, hands=hands, discard=discard, bottom=rnd.bottom - 1)


def _dealer_kept(rnd: RoundState, e: DealerKept) -> RoundState:
    return rnd


def _round_scored(rnd: RoundState, e: RoundScored) -> RoundState:
    return replace(rnd, step="scored", current=None, requester=None, target=None)


def _seat_eliminated(rnd: RoundState, e: SeatEliminated) -> RoundState:
    if rnd.step == "scored":
        return rnd
    return replace(rnd, dead=tuple(sorted((*rnd.dead, e.seat))))  # a set of seats, kept sorted


_ROUND_HANDLERS: dict[type, Callable[[RoundState, Any], RoundState]] = {
    CardDealt: _card_dealt,
    Kept: _kept,
    ExchangeRequested: _exchange_requested,
    CardRevealed: _card_revealed,
    HorseSkipped: _horse_skipped,
    Retargeted: _retargeted,
    CardsExchanged: _cards_exchanged,
    ExchangeRefused: _exchange_refused,
    InnChoiceMade: _inn_choice_made,
    InnResponded: _inn_responded,
    PledgeMade: _pledge_made,
    ExchangeReversed: _exchange_reversed,
    PackExchanged: _pack_exchanged,
    DealerKept: _dealer_kept,
    RoundScored: _round_scored,
    SeatEliminated: _seat_eliminated,
}


# Match-level handlers: (state, event) -> state (without the version bump and round log).
def _match_created(state: MatchState, e: MatchCreated) -> MatchState:
    return MatchState(
        seats=e.seats,
        starting_lives=e.starting_lives,
        lives=(e.starting_lives,) * len(e.seats),
        dealer=e.first_dealer,
        status="between_rounds",
    )


def _seat_claimed(state: MatchState, e: SeatClaimed) -> MatchState:
    return replace(state, seats=_set(state.seats, e.seat, SeatSpec(e.name, "human")))


def _round_started(state: MatchState, e: RoundStarted) -> MatchState:
    assert e.pack is not None and e.salt is not None, "stored events are never redacted"
    rnd = RoundState(
        number=e.round,
        dealer=e.dealer,
        participants=e.participants,
        commitment=e.commitment,
        pack=e.pack,
        salt=e.salt,
        hands=(None,) * len(state.seats),
        top=0,
        bottom=len(e.pack) - 1,
        step="turn",
        current=e.participants[0],
    )
    return replace(state, round=rnd, dealer=e.dealer, status="in_round")


def _life_lost(state: MatchState, e: LifeLost) -> MatchState:
    return replace(state, lives=_set(state.lives, e.seat, e.lives_after))


def _lives_reset(state: MatchState, e: LivesReset) -> MatchState:
    return replace(state, lives=(e.lives,) * len(state.seats))


def _round_ended(state: MatchState, e: RoundEnded) -> MatchState:
    dealer = state.dealer if e.next_dealer is None else e.next_dealer
    return replace(
        state, status="between_rounds", dealer=dealer, rounds_played=state.rounds_played + 1
    )


def _match_won(state: MatchState, e: MatchWon) -> MatchState:
    return replace(state, status="over", winner=e.winner)


_MATCH_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    MatchCreated: _match_created,
    SeatClaimed: _seat_claimed,
    RoundStarted: _round_started,
    LifeLost: _life_lost,
    LivesReset: _lives_reset,
    RoundEnded: _round_ended,
    MatchWon: _match_won,
}


def evolve(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``. Every event after the first round start joins the round log."""
    kind = type(event)
    round_handler = _ROUND_HANDLERS.get(kind)
    if round_handler is not None:
        rnd = state.round
        assert rnd is not None, f"{kind.__name__} outside a round"
        rnd = round_handler(rnd, event)
        return replace(state, round=replace(rnd, log=(*rnd.log, event)), version=state.version + 1)
    state = _MATCH_HANDLERS[kind](state, event)
    rnd = state.round
    if rnd is not None:
        state = replace(state, round=replace(rnd, log=(*rnd.log, event)))
    return replace(state, version=state.version + 1)


def fold(events: list[Event] | tuple[Event, ...], state: MatchState | None = None) -> MatchState:
    """Fold a sequence of events, from scratch or onto ``state``."""
    if state is None:
        state = MatchState()
    for event in events:
        state = evolve(state, event)
    return state
