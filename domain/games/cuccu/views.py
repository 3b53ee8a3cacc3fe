"""What one seat, or a spectator, may see (RULES §7, D22).

A seat sees its own card, the cards it receives or gives in its own exchanges, pack cards it
draws or discards, and everything public. A spectator sees only what is public. Once the match
is over, everything is public. After a round's RoundEnded event its pack and salt are public
(the shuffle commitment is opened), which makes that finished round's deals deducible: this is
the fairness proof the service owes its players, and the round's outcome no longer depends on it.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.games.cuccu.events import (
    CardDealt,
    CardsExchanged,
    Event,
    ExchangeReversed,
    PackExchanged,
    RoundScored,
    RoundStarted,
)  # fmt: skip
from domain.games.cuccu.pending import PendingDecision, pending
from domain.games.cuccu.state import MatchState, MatchStatus, Step


def redact(event: Event, seat: int | None, *, reveal_all: bool = False) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it. Public events are returned as is."""
    if reveal_all:
        return event
    kind = type(event)
    if kind is CardDealt:
        assert isinstance(event, CardDealt)
        return event if event.seat == seat else replace(event, card=None)
    if kind is CardsExchanged or kind is ExchangeReversed:
        assert isinstance(event, CardsExchanged | ExchangeReversed)
        if seat == event.requester or seat == event.target:
            return event  # each party knows both: what it gave and what it got
        return replace(event, requester_gets=None, target_gets=None)
    if kind is PackExchanged:
        assert isinstance(event, PackExchanged)
        return event if event.seat == seat else replace(event, gave=None, got=None)
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
    in_round: bool  # a participant of the current (or last) round with lives left
    dealt: bool
    skipped: bool  # a horse holder passed over this round
    dead: bool  # eliminated mid-round by a hunter or cat


class Reveal(msgspec.Struct, frozen=True):
    seat: int
    card: str


class MatchView(msgspec.Struct, frozen=True):
    """All ``viewer`` may know now: ``hands[s]`` is a card only where the viewer may see it."""

    viewer: int | None
    status: MatchStatus
    starting_lives: int
    seats: tuple[SeatInfo, ...]
    round: int  # the current round's number, or the last one's between rounds
    dealer: int
    participants: tuple[int, ...]
    step: Step | None
    current: int | None
    pending: PendingDecision | None
    hand: str | None  # the viewer's own card this round
    hands: tuple[str | None, ...]
    revealed: tuple[Reveal, ...]  # targeted specials shown this round, in order
    chain: tuple[tuple[int, int], ...]  # the current exchange chain (public: who swapped)
    pledges: tuple[tuple[int, int], ...]  # (requester, innkeeper)
    cards_drawn: int  # how many cards left the pack this round (public)
    round_events: tuple[Event, ...]  # this round's log as the viewer may see it
    winner: int | None
    version: int


def view(state: MatchState, seat: int | None) -> MatchView:
    """The match as ``seat`` (None: a spectator) may see it."""
    over = state.status == "over"
    rnd = state.round
    n = len(state.seats)
    hands: tuple[str | None, ...] = (None,) * n
    hand = None
    revealed: tuple[Reveal, ...] = ()
    log: tuple[Event, ...] = ()
    if rnd is not None:
        if over:
            hands = rnd.hands
        else:
            scored = next((e for e in rnd.log if type(e) is RoundScored), None)
            if scored is not None:  # the scoring reveal shows every live card
                shown = dict(zip(scored.live, scored.cards, strict=True))
                hands = tuple(shown.get(s) for s in range(n))
            if seat is not None and 0 <= seat < n:
                hands = (*hands[:seat], rnd.hands[seat], *hands[seat + 1 :])
        if seat is not None and 0 <= seat < n:
            hand = rnd.hands[seat]
        revealed = tuple(Reveal(s, c) for s, c in rnd.revealed)
        log = tuple(redact(e, seat, reveal_all=over) for e in rnd.log)
    participants = rnd.participants if rnd is not None else ()
    seats = tuple(
        SeatInfo(
            seat=i,
            name=spec.name,
            kind=spec.kind,
            bot_level=spec.bot_level,
            lives=state.lives[i],
            in_round=i in participants and state.lives[i] > 0,
            dealt=rnd is not None and rnd.hands[i] is not None,
            skipped=rnd is not None and i in rnd.skipped,
            dead=rnd is not None and i in rnd.dead,
        )
        for i, spec in enumerate(state.seats)
    )
    return MatchView(
        viewer=seat,
        status=state.status,
        starting_lives=state.starting_lives,
        seats=seats,
        round=rnd.number if rnd is not None else 0,
        dealer=state.dealer if rnd is None or state.status == "between_rounds" else rnd.dealer,
        participants=participants,
        step=rnd.step if rnd is not None and state.status == "in_round" else None,
        current=rnd.current if rnd is not None and state.status == "in_round" else None,
        pending=pending(state),
        hand=hand,
        hands=hands,
        revealed=revealed,
        chain=rnd.chain if rnd is not None else (),
        pledges=rnd.pledges if rnd is not None else (),
        cards_drawn=(rnd.top + len(rnd.pack) - 1 - rnd.bottom) if rnd is not None else 0,
        round_events=log,
        winner=state.winner,
        version=state.version,
    )
