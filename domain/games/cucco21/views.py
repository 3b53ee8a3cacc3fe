"""What one seat, or a spectator, may see (CUCCO21 §9).

Hidden: a seat's card (from everyone else), what two traders swapped (from everyone but the
two), a kept deck draw (from everyone but the drawer), and each deck's order and salt until the
deck is opened (C27, ``DeckOpened``). Everything else is public: who asked, refused, sent on,
traded; every discard; chips, the box, the round card; alive, out, dead, bankrupt. The card a
refusal or send-on used is never named (C13). Once the game is over, everything is public.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from domain.games.cucco21.config import RoundCard
from domain.games.cucco21.events import (
    CardDealt,
    CardDrawn,
    DeckShuffled,
    Event,
    Reveal,
    Traded,
)  # fmt: skip
from domain.games.cucco21.pending import PendingDecision, pending
from domain.games.cucco21.state import GameState, GameStatus, shown_status


def redact(event: Event, seat: int | None, *, reveal_all: bool = False) -> Event:
    """``event`` as ``seat`` (None: a spectator) may see it. Public events are returned as is."""
    if reveal_all:
        return event
    kind = type(event)
    if kind is CardDealt or kind is CardDrawn:
        assert isinstance(event, CardDealt | CardDrawn)
        return event if event.seat == seat else replace(event, card=None)
    if kind is Traded:
        assert isinstance(event, Traded)
        if seat == event.asker or seat == event.target:
            return event  # each party knows what it gave and what it got
        return replace(event, asker_gets=None, target_gets=None)
    if kind is DeckShuffled:
        assert isinstance(event, DeckShuffled)
        return replace(event, order=None, salt=None)
    return event


class SeatInfo(msgspec.Struct, frozen=True):
    seat: int
    name: str
    kind: str
    bot_level: str | None
    chips: int
    alive: bool  # alive in the current set
    bankrupt: bool
    out: bool  # out this round (by a power, or at scoring)
    holder: bool  # holds a card in the current round


class GameView(msgspec.Struct, frozen=True):
    """All ``viewer`` may know now."""

    viewer: int | None
    status: GameStatus
    starting_chips: int
    powers: bool
    max_sets: int | None
    seats: tuple[SeatInfo, ...]
    box: int
    set_number: int
    round: int  # the current round's number (over the game), or the last one's
    round_card: RoundCard
    dealer: int
    turn_order: tuple[int, ...]
    pending: PendingDecision | None
    hand: str | None  # the viewer's own card
    revealed: tuple[Reveal, ...]  # the scoring reveal of the current (or last) round
    deck_size: int
    deck_number: int
    discard: tuple[str, ...]  # public, oldest first
    round_events: tuple[Event, ...]  # this round's log as the viewer may see it
    winners: tuple[int, ...]
    version: int


def _pending_as_seen(state: GameState, seat: int | None, over: bool) -> PendingDecision | None:
    """The prompt, without its choices for anyone but the seat it is for when they would tell
    which power the seat holds (a Lovers or Cat refuses, a House or Horse sends on, any other
    card only accepts). That an asked target is prompted at all tells nothing: with powers on
    every target is (``pending``), so who must decide, and of which kind, is public."""
    step = pending(state)
    if step is None or over or step.seat is None or step.seat == seat or step.kind == "turn":
        return step
    return replace(step, choices=())


def view(state: GameState, seat: int | None, *, with_log: bool = True) -> GameView:
    """The game as ``seat`` (None: a spectator) may see it.

    ``with_log=False`` leaves ``round_events`` empty: bots that keep no history skip its cost.
    """
    over = state.status == "over"
    rnd = state.round
    n = len(state.seats)
    mine = seat is not None and 0 <= seat < n
    hand = rnd.hands[seat] if rnd is not None and mine and seat is not None else None
    log: tuple[Event, ...] = ()
    if rnd is not None and with_log:
        log = tuple(redact(e, seat, reveal_all=over) for e in state.log)
    out: tuple[int, ...] = ()
    holding: tuple[str | None, ...] = (None,) * n
    if rnd is not None and state.status == "in_round":
        out, holding = rnd.out, rnd.hands
    chips, alive, bankrupt = state.chips, state.alive, state.bankrupt
    seats = tuple(
        SeatInfo(
            i,
            spec.name,
            spec.kind,
            spec.bot_level,
            chips[i],
            alive[i],
            bankrupt[i],
            i in out,
            alive[i] and holding[i] is not None and i not in out,  # is_holder (§1)
        )
        for i, spec in enumerate(state.seats)
    )
    return GameView(
        viewer=seat,
        status=shown_status(state),
        starting_chips=state.starting_chips,
        powers=state.powers,
        max_sets=state.max_sets,
        seats=seats,
        box=state.box,
        set_number=state.set_number,
        round=rnd.number if rnd is not None else 0,
        round_card=state.round_card,
        dealer=state.dealer,
        turn_order=rnd.turn_order if rnd is not None else (),
        pending=_pending_as_seen(state, seat, over),
        hand=hand,
        revealed=rnd.revealed if rnd is not None else (),
        deck_size=len(state.deck),
        deck_number=state.deck_number,
        discard=state.discard,
        round_events=log,
        winners=state.winners,
        version=state.version,
    )
