"""``evolve``: fold one event into the state. Pure; it records what happened and moves the
round's cursor on (whose turn, who must answer), it decides nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from msgspec.structs import replace

from domain.games.cucco21.cards import CEREMONY, CEREMONY_MIN_GOT, CLOWN, kept_when_drawn, value
from domain.games.cucco21.events import (
    Asked,
    BoxTaken,
    CardDealt,
    CardDrawn,
    ChipsPaid,
    Claimed,
    DeckDiscarded,
    DeckOpened,
    DeckShuffled,
    Declined,
    Died,
    Event,
    GameCreated,
    GameEnded,
    Kept,
    MadeOut,
    PowerDiscarded,
    Refused,
    RevealedDiscarded,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatBankrupted,
    SeatClaimed,
    SentOn,
    SetEnded,
    SetStarted,
    TakenBack,
    Traded,
)  # fmt: skip
from domain.games.cucco21.state import GameState, RoundState, Rules, Seals, holds
from domain.seats import SeatSpec


def _set(values: tuple[Any, ...], index: int, item: Any) -> tuple[Any, ...]:
    changed = list(values)  # for a short tuple, faster than slicing it twice
    changed[index] = item
    return tuple(changed)


def _without(values: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    i = values.index(item)
    return values[:i] + values[i + 1 :]


# Every handler builds the next state in one ``replace``, the round's log and the version
# included: folding is the hot path of every replay (docs/ARCHITECTURE.md has the figures).


def _game_created(state: GameState, e: GameCreated) -> GameState:
    n = len(e.seats)
    return GameState(
        rules=Rules(e.seats, e.starting_chips, e.powers, e.max_sets),
        chips=(e.starting_chips,) * n,
        alive=(True,) * n,
        bankrupt=(False,) * n,
        dealer=e.first_dealer,
        version=state.version + 1,
    )


def _seat_claimed(state: GameState, e: SeatClaimed) -> GameState:
    seats = _set(state.rules.seats, e.seat, SeatSpec(e.name, "human"))
    return replace(state, rules=replace(state.rules, seats=seats), version=state.version + 1)


def _deck_shuffled(state: GameState, e: DeckShuffled) -> GameState:
    assert e.order is not None and e.salt is not None, "stored events are never redacted"
    # A reshuffle means the deck before it is used up: it is opened when this round ends.
    seals = state.seals
    unopened = (*seals.unopened, state.deck_number) if state.deck_number else seals.unopened
    return replace(
        state,
        deck_cards=e.order,
        deck_top=0,
        discard=(),
        deck_number=e.number,
        seals=Seals((*seals.decks, e.order), (*seals.salts, e.salt), unopened),
        status="between_rounds" if state.status == "new" else state.status,
        log=(*state.log, e) if state.round is not None else state.log,
        version=state.version + 1,
    )


def _deck_opened(state: GameState, e: DeckOpened) -> GameState:
    seals = state.seals
    if e.number in seals.unopened:
        seals = replace(seals, unopened=_without(seals.unopened, e.number))
    return replace(state, seals=seals, log=(*state.log, e), version=state.version + 1)


def _round_started(state: GameState, e: RoundStarted) -> GameState:
    n = len(state.seats)
    rnd = RoundState(e.round, e.round_card, e.dealer, e.turn_order, (None,) * n)
    return replace(
        state,
        round=rnd,
        status="in_round",
        round_card=e.round_card,
        dealer=e.dealer,
        rounds_played=e.round,
        log=(e,),
        version=state.version + 1,
    )


def _chips_paid(state: GameState, e: ChipsPaid) -> GameState:
    chips = _set(state.chips, e.seat, state.chips[e.seat] - e.amount)
    box = state.box
    if e.to == "box":
        box += e.amount
    else:
        chips = _set(chips, e.to, chips[e.to] + e.amount)
    return replace(state, chips=chips, box=box, log=(*state.log, e), version=state.version + 1)


def _seat_bankrupted(state: GameState, e: SeatBankrupted) -> GameState:
    rnd = _rnd(state)
    alive = _set(state.alive, e.seat, False)
    discard = state.discard
    if e.card is not None:
        discard = (*discard, e.card)
        rnd = replace(rnd, hands=_set(rnd.hands, e.seat, None))
    return replace(
        state,
        bankrupt=_set(state.bankrupt, e.seat, True),
        alive=alive,
        discard=discard,
        round=_settle(state.status, alive, rnd),
        log=(*state.log, e),
        version=state.version + 1,
    )


def _card_dealt(state: GameState, e: CardDealt) -> GameState:
    rnd = state.round
    assert rnd is not None
    alive, order = state.alive, rnd.turn_order
    # The deal goes in turn order: it is over when the last alive seat of the order is dealt.
    last = order[-1] if alive[order[-1]] else next(s for s in reversed(order) if alive[s])
    seat = e.seat
    rnd = replace(
        rnd,
        hands=_set(rnd.hands, seat, e.card),
        phase="turns" if seat == last else "deal",
    )
    if seat == last:
        rnd = _settle(state.status, alive, rnd)
    return replace(
        state,
        round=rnd,
        deck_top=state.deck_top + 1,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _kept(state: GameState, e: Kept) -> GameState:
    rnd = state.round
    assert rnd is not None
    # A keep ends the turn at once: the next turn is the next holder's.
    turn = _next_turn(state.alive, rnd.hands, rnd.out, rnd.turn_order, rnd.turn + 1)
    rnd = replace(rnd, turn=turn, acted=False, claims=())
    return replace(state, round=rnd, log=(*state.log, e), version=state.version + 1)


def _asked(state: GameState, e: Asked) -> GameState:
    rnd = state.round
    assert rnd is not None
    rnd = replace(rnd, acted=True, asker=e.seat, target=e.target)  # the turn goes on
    return replace(state, round=rnd, log=(*state.log, e), version=state.version + 1)


def _refused(state: GameState, e: Refused) -> GameState:
    return _next(state, e, replace(_rnd(state), asker=None, target=None))


def _sent_on(state: GameState, e: SentOn) -> GameState:
    # The asker's request goes on (a new ask or a deck trade follows in the same command).
    return _next(state, e, replace(_rnd(state), target=None))


def _traded(state: GameState, e: Traded) -> GameState:
    rnd = _rnd(state)
    assert e.asker_gets is not None and e.target_gets is not None
    a, t, a_gets, t_gets = e.asker, e.target, e.asker_gets, e.target_gets
    hands = list(rnd.hands)
    hands[a], hands[t] = a_gets, t_gets
    claims: tuple[int, ...] = ()
    claimable: tuple[int, ...] = ()
    if state.powers:  # §4.4 step 3: who gave a Ceremony and got at least a 5 (a Clown is 1)
        a_got, t_got = value(a_gets), value(t_gets)  # t gave what a got, and a what t got
        if t_got == CEREMONY and a_got >= CEREMONY_MIN_GOT:
            claimable = (a,)
        if a_got == CEREMONY and t_got >= CEREMONY_MIN_GOT:
            claimable = (*claimable, t)
        # both are prompted, whatever they gave: what each gave is theirs to know (§4.4 step 1)
        claims = (a, t)
    if claims:  # the turn waits for the Ceremony prompts
        rnd = replace(
            rnd, hands=tuple(hands), asker=None, target=None, claims=claims, claimable=claimable
        )
    else:  # the turn is over (a Clown's out, next, may skip more seats)
        after = tuple(hands)
        turn = _next_turn(state.alive, after, rnd.out, rnd.turn_order, rnd.turn + 1)
        rnd = replace(
            rnd,
            hands=after,
            asker=None,
            target=None,
            claims=claims,
            turn=turn,
            acted=False,
        )
    return replace(state, round=rnd, log=(*state.log, e), version=state.version + 1)


def _deck_discarded(state: GameState, e: DeckDiscarded) -> GameState:
    rnd = _rnd(state)
    rnd = replace(
        rnd,
        acted=True,
        asker=None,
        target=None,
        hands=_set(rnd.hands, e.seat, None),
        drawer=e.seat,
        given=e.card,
    )
    return _next(state, e, rnd, discard=(*state.discard, e.card))


def _card_drawn(state: GameState, e: CardDrawn) -> GameState:
    rnd = _rnd(state)
    assert e.card is not None, "stored events are never redacted"
    if not kept_when_drawn(e.card, state.powers):
        return replace(  # a power_discard follows
            state, deck_top=state.deck_top + 1, log=(*state.log, e), version=state.version + 1
        )
    d, card = e.seat, e.card
    clowns = rnd.drawn_clowns
    claims: tuple[int, ...] = ()
    claimable: tuple[int, ...] = ()
    if state.powers:
        if value(card) == CLOWN:
            clowns = (*clowns, (d, card))  # C15
        given = rnd.given
        # §4.6 step 4 and R2: a Ceremony given to the deck pays for a kept draw of 5 or more,
        # unless the draw is that same Ceremony. The Ceremony went to the deck face up, so
        # everyone knows the drawer is prompted; what it drew is its own: a draw too low is
        # prompted too, ``decline`` its only choice.
        if given is not None and value(given) == CEREMONY:
            claims = (d,)
            if value(card) >= CEREMONY_MIN_GOT and card != given:
                claimable = (d,)
    rnd = replace(
        rnd,
        hands=_set(rnd.hands, d, card),
        drawer=None,
        drawn_clowns=clowns,
        claims=claims,
        claimable=claimable,
    )
    return replace(
        state,
        round=_settle(state.status, state.alive, rnd),
        deck_top=state.deck_top + 1,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _power_discarded(state: GameState, e: PowerDiscarded) -> GameState:
    return replace(
        state, discard=(*state.discard, e.card), log=(*state.log, e), version=state.version + 1
    )


def _taken_back(state: GameState, e: TakenBack) -> GameState:
    rnd = _rnd(state)
    deck, discard = None, state.discard
    if e.card in discard:
        discard = _without(discard, e.card)
    else:  # R1: a reshuffle in this deck trade put it in the new deck
        deck = _without(state.deck, e.card)
    rnd = replace(
        rnd,
        hands=_set(rnd.hands, e.seat, e.card),
        drawer=None,
    )
    return _next(state, e, rnd, deck=deck, discard=discard)


def _made_out(state: GameState, e: MadeOut) -> GameState:
    rnd = _rnd(state)
    rnd = replace(rnd, hands=_set(rnd.hands, e.seat, None), out=(*rnd.out, e.seat))
    return _next(state, e, rnd, discard=(*state.discard, e.card))


def _died(state: GameState, e: Died) -> GameState:
    alive = _set(state.alive, e.seat, False)
    rnd = _settle(state.status, alive, _rnd(state))
    return replace(state, alive=alive, round=rnd, log=(*state.log, e), version=state.version + 1)


def _claim_answered(state: GameState, e: Claimed | Declined) -> GameState:
    rnd = _rnd(state)
    claims = _without(rnd.claims, e.seat)
    claimable = tuple(s for s in rnd.claimable if s != e.seat)
    return _next(state, e, replace(rnd, claims=claims, claimable=claimable))


def _round_scored(state: GameState, e: RoundScored) -> GameState:
    rnd = _rnd(state)
    rnd = replace(rnd, phase="scoring", out=(*rnd.out, *e.out), revealed=e.revealed)
    return replace(state, round=rnd, log=(*state.log, e), version=state.version + 1)


def _revealed_discarded(state: GameState, e: RevealedDiscarded) -> GameState:
    rnd = _rnd(state)
    rnd = replace(rnd, hands=(None,) * len(rnd.hands))
    return replace(
        state,
        round=rnd,
        discard=state.discard + e.cards,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _set_ended(state: GameState, e: SetEnded) -> GameState:
    return replace(state, log=(*state.log, e), version=state.version + 1)


def _box_taken(state: GameState, e: BoxTaken) -> GameState:
    chips = _set(state.chips, e.seat, state.chips[e.seat] + e.amount)
    box = state.box - e.amount
    return replace(state, chips=chips, box=box, log=(*state.log, e), version=state.version + 1)


def _round_ended(state: GameState, e: RoundEnded) -> GameState:
    return replace(
        state,
        status="between_rounds",
        round_card=e.next_round_card,
        dealer=e.next_dealer,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _set_started(state: GameState, e: SetStarted) -> GameState:
    return replace(
        state,
        status="between_rounds",
        set_number=e.number,
        alive=tuple(not b for b in state.bankrupt),
        round_card="1",
        dealer=e.dealer,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _game_ended(state: GameState, e: GameEnded) -> GameState:
    return replace(
        state, status="over", winners=e.winners, log=(*state.log, e), version=state.version + 1
    )


_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    GameCreated: _game_created,
    SeatClaimed: _seat_claimed,
    DeckShuffled: _deck_shuffled,
    DeckOpened: _deck_opened,
    RoundStarted: _round_started,
    ChipsPaid: _chips_paid,
    SeatBankrupted: _seat_bankrupted,
    CardDealt: _card_dealt,
    Kept: _kept,
    Asked: _asked,
    Refused: _refused,
    SentOn: _sent_on,
    Traded: _traded,
    DeckDiscarded: _deck_discarded,
    CardDrawn: _card_drawn,
    PowerDiscarded: _power_discarded,
    TakenBack: _taken_back,
    MadeOut: _made_out,
    Died: _died,
    Claimed: _claim_answered,
    Declined: _claim_answered,
    RoundScored: _round_scored,
    RevealedDiscarded: _revealed_discarded,
    SetEnded: _set_ended,
    BoxTaken: _box_taken,
    RoundEnded: _round_ended,
    SetStarted: _set_started,
    GameEnded: _game_ended,
}


def _rnd(state: GameState) -> RoundState:
    rnd = state.round
    assert rnd is not None, "a round event outside a round"
    return rnd


def _next(
    state: GameState,
    e: Event,
    rnd: RoundState,
    deck: tuple[str, ...] | None = None,
    discard: tuple[str, ...] | None = None,
) -> GameState:
    """The state after a round event that changed the round (and maybe the deck or discard)."""
    return replace(
        state,
        round=_settle(state.status, state.alive, rnd),
        deck_cards=state.deck_cards if deck is None else deck,
        deck_top=state.deck_top if deck is None else 0,
        discard=state.discard if discard is None else discard,
        log=(*state.log, e),
        version=state.version + 1,
    )


def _next_turn(
    alive: tuple[bool, ...],
    hands: tuple[str | None, ...],
    out: tuple[int, ...],
    order: tuple[int, ...],
    turn: int,
) -> int:
    """The first index from ``turn`` on in ``order`` whose seat holds a card (or the end)."""
    while turn < len(order):
        seat = order[turn]
        if alive[seat] and hands[seat] is not None and seat not in out:
            return turn
        turn += 1
    return turn


def _settle(status: str, alive: tuple[bool, ...], rnd: RoundState) -> RoundState:
    """Move the turn on past a finished turn and past seats that hold no card any more (§4.2).

    A turn is finished once its seat has chosen and nothing it started still waits: no
    request to answer, no deck draw to complete, no Ceremony prompt owed to a holder.
    """
    if rnd.phase != "turns" or status != "in_round":
        return rnd
    order, turn, acted, claims = rnd.turn_order, rnd.turn, rnd.acted, rnd.claims
    if not acted and turn < len(order) and holds(alive, rnd, order[turn]):
        return rnd  # the usual case: the seat whose turn it is has yet to choose
    while turn < len(order):
        if acted:
            if (
                rnd.asker is not None
                or rnd.drawer is not None
                or any(holds(alive, rnd, c) for c in claims)
            ):
                break
            turn, acted, claims = turn + 1, False, ()
        elif holds(alive, rnd, order[turn]):
            break
        else:
            turn += 1
    if turn == rnd.turn and acted == rnd.acted:
        return rnd
    return replace(rnd, turn=turn, acted=acted, claims=claims)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Every event from a round's start on joins ``state.log``."""
    return _HANDLERS[type(event)](state, event)


def fold(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold a sequence of events, from scratch or onto ``state``."""
    if state is None:
        state = GameState()
    for event in events:
        state = evolve(state, event)
    return state
