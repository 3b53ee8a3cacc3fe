"""What one seat, or a spectator, may see (CHASE §5, A19).

Hidden: a seat's card (from everyone else, until the scoring reveal), the two cards of an
exchange (from everyone but its two parties), the dealer's discarded card (from everyone but
the dealer), and the round's pack and salt until ``RoundEnded`` opens them. Public: every
keep, request, block, exchange (who with whom), dealer keep and cut; a blocking King, an
announced low card, the cut card; the reveal; lives, eliminations, the dealer, the winner.
Once the match is over, everything is public.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    CutExchanged,
    Event,
    Reveal,
    RoundStarted,
)  # fmt: skip
from domain.games.chase.pending import PendingDecision, pending
from domain.games.chase.state import MatchState, MatchStatus


def redact(event: Event, seat: int | None, *, reveal_all: bool = False) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it. Public events are returned as is."""
    if reveal_all:
        return event
    kind = type(event)
    if kind is CardDealt:
        assert isinstance(event, CardDealt)
        return event if event.seat == seat else replace(event, card=None)
    if kind is CardsExchanged:
        assert isinstance(event, CardsExchanged)
        if seat == event.requester or seat == event.target:
            return event  # each party knows what it gave and what it got
        return replace(event, requester_gets=None, target_gets=None)
    if kind is CutExchanged:
        assert isinstance(event, CutExchanged)
        # ``got`` is the cut card, turned up for all; ``gave`` went face down (A13)
        return event if event.seat == seat else replace(event, gave=None)
    if kind is RoundStarted:
        assert isinstance(event, RoundStarted)
        return replace(event, pack=None, salt=None)
    return event


class SeatInfo(msgspec.Struct, frozen=True):
    seat: int
    name: str
    kind: str
    bot_level: str | None
    lives: int
    in_round: bool  # a participant of the current (or last) round
    shown: bool  # blocked with a King this round: it takes no turn (A9)


class MatchView(msgspec.Struct, frozen=True):
    """All ``viewer`` may know now. ``hands[s]`` is a card only where the viewer may see it:
    its own, a shown King (a shown seat never exchanges again), and every card once scored."""

    viewer: int | None
    status: MatchStatus
    starting_lives: int
    announce_low: bool
    king_cut_loses: bool
    seats: tuple[SeatInfo, ...]
    round: int  # the current round's number, or the last one's
    dealer: int  # of the current round, or of the next one between rounds
    participants: tuple[int, ...]
    pending: PendingDecision | None
    hand: str | None  # the viewer's own card this round
    hands: tuple[str | None, ...]
    public_reveals: tuple[str, ...]  # blocking Kings, cut cards, announcements, in order
    revealed: tuple[Reveal, ...]  # the scoring reveal of the current (or last) round
    stock_size: int
    discard: tuple[str | None, ...]  # the dealer's discard: its card for the dealer only
    round_events: tuple[Event, ...]  # this round's log as the viewer may see it
    winner: int | None
    version: int


def view(state: MatchState, seat: int | None, *, with_log: bool = True) -> MatchView:
    """The match as ``seat`` (None: a spectator) may see it.

    ``with_log=False`` leaves ``round_events`` empty: bots that keep no history skip its cost.
    """
    over = state.status == "over"
    rnd = state.round
    n = len(state.seats)
    mine = seat is not None and 0 <= seat < n
    hands: tuple[str | None, ...] = (None,) * n
    hand: str | None = None
    log: tuple[Event, ...] = ()
    discard: tuple[str | None, ...] = ()
    if rnd is not None:
        if over:
            hands = rnd.hands
        else:
            shown = {r.seat: r.card for r in rnd.revealed}
            for s in rnd.shown:  # a King that blocked stays with its holder, face up
                shown[s] = rnd.hands[s] or ""
            hands = tuple(shown.get(s) for s in range(n))
        if mine and seat is not None:
            hand = rnd.hands[seat]
            hands = (*hands[:seat], hand, *hands[seat + 1 :])
        visible = over or seat == rnd.dealer
        discard = tuple(card if visible else None for card in rnd.discard)
        if with_log:
            log = tuple(redact(e, seat, reveal_all=over) for e in rnd.log)
    participants = rnd.participants if rnd is not None else ()
    seats = tuple(
        SeatInfo(
            seat=i,
            name=spec.name,
            kind=spec.kind,
            bot_level=spec.bot_level,
            lives=state.lives[i],
            in_round=i in participants,
            shown=rnd is not None and i in rnd.shown,
        )
        for i, spec in enumerate(state.seats)
    )
    in_round = rnd is not None and state.status == "in_round"
    return MatchView(
        viewer=seat,
        status=state.status,
        starting_lives=state.starting_lives,
        announce_low=state.options.announce_low,
        king_cut_loses=state.options.king_cut_loses,
        seats=seats,
        round=rnd.number if rnd is not None else 0,
        dealer=rnd.dealer if in_round and rnd is not None else state.dealer,
        participants=participants,
        pending=pending(state),
        hand=hand,
        hands=hands,
        public_reveals=rnd.public_reveals if rnd is not None else (),
        revealed=rnd.revealed if rnd is not None else (),
        stock_size=len(rnd.stock) if rnd is not None else 0,
        discard=discard,
        round_events=log,
        winner=state.winner,
        version=state.version,
    )
