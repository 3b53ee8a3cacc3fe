"""``evolve``: fold one event into the state. Pure; it records what happened and moves the
round's cursor on (whose turn it is), it decides nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from domain.games.chase.config import Options
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    ChaseMatchCreated,
    CutExchanged,
    CutVoided,
    DealerKept,
    Event,
    ExchangeRequested,
    Kept,
    KingBlocked,
    LifeLost,
    LowCardAnnounced,
    MatchWon,
    RoundEnded,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    SeatClaimed,
    SeatEliminated,
    StockCut,
)  # fmt: skip
from domain.games.chase.state import MatchState, RoundState, Rules
from domain.seats import SeatSpec


def _set(values: tuple[Any, ...], index: int, item: Any) -> tuple[Any, ...]:
    changed = list(values)
    changed[index] = item
    return tuple(changed)


def _rnd(state: MatchState) -> RoundState:
    rnd = state.round
    assert rnd is not None, "a round event outside a round"
    return rnd


def _next_turn(rnd: RoundState, after: int, shown: tuple[int, ...]) -> int:
    """The first index after ``after`` whose participant is not shown (A9), or the end."""
    order = rnd.participants
    turn = after + 1
    while turn < len(order) and order[turn] in shown:
        turn += 1
    return turn


def _round_event(state: MatchState, e: Event, rnd: RoundState) -> MatchState:
    """The state after a round event that changed the round; the event joins its log."""
    return replace(state, round=replace(rnd, log=(*rnd.log, e)), version=state.version + 1)


def _logged(state: MatchState, e: Event) -> MatchState:
    rnd = _rnd(state)
    return _round_event(state, e, rnd)


def _match_created(state: MatchState, e: ChaseMatchCreated) -> MatchState:
    n = len(e.seats)
    return MatchState(
        rules=Rules(e.seats, e.starting_lives, Options(e.announce_low, e.king_cut_loses)),
        status="between_rounds",
        lives=(e.starting_lives,) * n,
        dealer=e.first_dealer,
        version=state.version + 1,
    )


def _seat_claimed(state: MatchState, e: SeatClaimed) -> MatchState:
    seats = _set(state.rules.seats, e.seat, SeatSpec(e.name, "human"))
    return replace(state, rules=replace(state.rules, seats=seats), version=state.version + 1)


def _round_started(state: MatchState, e: RoundStarted) -> MatchState:
    assert e.pack is not None and e.salt is not None, "stored events are never redacted"
    n = len(state.seats)
    rnd = RoundState(
        e.round, e.dealer, e.participants, e.commitment, e.pack, e.salt, (None,) * n, log=(e,)
    )
    return replace(
        state,
        round=rnd,
        status="in_round",
        dealer=e.dealer,
        rounds_played=e.round,
        version=state.version + 1,
    )


def _card_dealt(state: MatchState, e: CardDealt) -> MatchState:
    rnd = _rnd(state)
    # The deal goes in turn order, the dealer last: its card ends the deal (A6).
    phase = "turns" if e.seat == rnd.dealer else "deal"
    rnd = replace(
        rnd, hands=_set(rnd.hands, e.seat, e.card), stock_top=rnd.stock_top + 1, phase=phase
    )
    return _round_event(state, e, rnd)


def _kept(state: MatchState, e: Kept) -> MatchState:
    rnd = _rnd(state)
    return _round_event(state, e, replace(rnd, turn=_next_turn(rnd, rnd.turn, rnd.shown)))


def _king_blocked(state: MatchState, e: KingBlocked) -> MatchState:
    # The requester's turn is over; the King's holder has completed its play (A9).
    rnd = _rnd(state)
    shown = (*rnd.shown, e.seat)
    rnd = replace(
        rnd,
        shown=shown,
        turn=_next_turn(rnd, rnd.turn, shown),
        public_reveals=(*rnd.public_reveals, e.card),
    )
    return _round_event(state, e, rnd)


def _cards_exchanged(state: MatchState, e: CardsExchanged) -> MatchState:
    rnd = _rnd(state)
    assert e.requester_gets is not None and e.target_gets is not None, "never redacted"
    hands = list(rnd.hands)
    hands[e.requester], hands[e.target] = e.requester_gets, e.target_gets
    # The target takes its turn next, with the card it received (A7).
    rnd = replace(rnd, hands=tuple(hands), turn=_next_turn(rnd, rnd.turn, rnd.shown))
    return _round_event(state, e, rnd)


def _low_card_announced(state: MatchState, e: LowCardAnnounced) -> MatchState:
    rnd = _rnd(state)
    return _round_event(state, e, replace(rnd, public_reveals=(*rnd.public_reveals, e.card)))


def _dealer_turn_over(state: MatchState, e: Event) -> MatchState:
    rnd = _rnd(state)
    return _round_event(state, e, replace(rnd, turn=len(rnd.participants)))


def _stock_cut(state: MatchState, e: StockCut) -> MatchState:
    rnd = _rnd(state)
    return _round_event(state, e, replace(rnd, public_reveals=(*rnd.public_reveals, e.card)))


def _cut_exchanged(state: MatchState, e: CutExchanged) -> MatchState:
    rnd = _rnd(state)
    assert e.gave is not None, "stored events are never redacted"
    rnd = replace(
        rnd,
        hands=_set(rnd.hands, e.seat, e.got),
        stock_top=rnd.stock_top + 1,
        discard=(*rnd.discard, e.gave),
        turn=len(rnd.participants),
    )
    return _round_event(state, e, rnd)


def _cut_voided(state: MatchState, e: CutVoided) -> MatchState:
    # The King goes back on top of the stock: ``stock_top`` does not move (A12).
    rnd = _rnd(state)
    return _round_event(state, e, replace(rnd, king_cut=True, turn=len(rnd.participants)))


def _round_scored(state: MatchState, e: RoundScored) -> MatchState:
    rnd = replace(_rnd(state), phase="scored", revealed=e.revealed)
    return _round_event(state, e, rnd)


def _life_lost(state: MatchState, e: LifeLost) -> MatchState:
    lives = _set(state.lives, e.seat, e.lives_after)
    rnd = _rnd(state)
    return replace(
        state, lives=lives, round=replace(rnd, log=(*rnd.log, e)), version=state.version + 1
    )


def _round_ended(state: MatchState, e: RoundEnded) -> MatchState:
    rnd = _rnd(state)
    over = e.next_dealer is None
    return replace(
        state,
        status="over" if over else "between_rounds",
        dealer=state.dealer if e.next_dealer is None else e.next_dealer,
        round=replace(rnd, log=(*rnd.log, e)),
        version=state.version + 1,
    )


def _match_won(state: MatchState, e: MatchWon) -> MatchState:
    rnd = _rnd(state)
    return replace(
        state,
        status="over",
        winner=e.winner,
        round=replace(rnd, log=(*rnd.log, e)),
        version=state.version + 1,
    )


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    ChaseMatchCreated: _match_created,
    SeatClaimed: _seat_claimed,
    RoundStarted: _round_started,
    CardDealt: _card_dealt,
    Kept: _kept,
    ExchangeRequested: _logged,
    KingBlocked: _king_blocked,
    CardsExchanged: _cards_exchanged,
    LowCardAnnounced: _low_card_announced,
    DealerKept: _dealer_turn_over,
    StockCut: _stock_cut,
    CutExchanged: _cut_exchanged,
    CutVoided: _cut_voided,
    RoundScored: _round_scored,
    RoundWipedOut: _logged,
    LifeLost: _life_lost,
    SeatEliminated: _logged,
    RoundEnded: _round_ended,
    MatchWon: _match_won,
}


def evolve(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``. Every event from a round's start on joins its log."""
    return _HANDLERS[type(event)](state, event)


def fold(events: Iterable[Event], state: MatchState | None = None) -> MatchState:
    """Fold a sequence of events, from scratch or onto ``state``."""
    if state is None:
        state = MatchState()
    for event in events:
        state = evolve(state, event)
    return state
