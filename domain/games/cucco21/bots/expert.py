"""``expert``: samples the hidden cards from what its seat saw, then plays the round out.

How a decision is made (keep / trade, refuse / send on / accept, claim / decline alike):

1. **Card accounting** (``account``). Replaying the round's log *as its seat saw it*, every card
   in a hand is followed as a *slot*: the card a seat was dealt, or drew from the deck and kept.
   A slot's card is pinned when the seat sees it (its own deal and draws, both sides of its own
   trades, every public discard: deck trades, power-outs, drawn powers, take-backs). Trades move
   slots between seats, so what is known, or suspected, of a card follows it.
2. **What other seats' public decisions reveal** (the ``basic`` model, as Cuccù's expert does):
   each slot gets a weight per value. A keep says the card was 8 or more (a Clown and, off the
   dealer's seat, a Ceremony are passed on); a trade says the opposite; a request answered by a
   plain trade says the target held no power. These are soft (``SURPRISE``, 0.02 for a seat the
   table shows as a ``basic`` bot, ``SURPRISE_OTHER``, 0.1, for a person or another expert).
   The rules' own facts are hard: a refusal means a Lovers or a Cat, a send-on a House or a
   Horse, a kept deck draw is no drawn-and-discarded power, a claim says who gave the
   Ceremony and that its giver got 5 or more (a decline says nothing: every party to a trade
   is prompted, ``decline`` its only choice when it cannot claim); a public trade with nobody
   out says neither party received a Clown.
3. **Sampling worlds** (``sample_world``). The unseen cards (42 minus the discard pile and the
   cards it knows are held) are dealt to the unknown slots one by one, each value drawn in
   proportion to copies left times the slot's weight, and the sample is importance-weighted by
   the product of the normalisers, so the weighted worlds follow the posterior. The rest is the
   deck, in a uniform order: the persistent deck's order is unknown to every seat (C7, C27).
4. **Rollouts** (``search``). In each world every answer is played to the end of the round:
   the later seats' turns, their trades and powers, the dealer's trade with the deck, by the
   ``basic`` model, this seat's own later turn by a simple threshold. The same worlds (and
   reshuffle seeds) serve every answer: common random numbers. The rollouts run on plain lists
   (``bots/rollout.py``), the same rules as ``decide.apply`` at a fraction of its cost;
   ``rebuild`` and ``play_out`` keep the domain's own way for the checks against it.
5. **Value of the round's end** (``value_of``): the chance of ending the game with the
   most chips. Each seat's equity is its chips plus, while it is alive in the set, an equal
   share of the box (a death in sudden death forfeits it; the survivor takes it all); the
   spread still to come is the box's and that of every set left (none once a bankruptcy means
   the game ends with this set); at the game's end it is whether the seat is among the winners.
   So chips, the box, deaths, bankruptcies and the set's end are weighed in one currency.

Only the ``GameView`` is read (``view(state, seat)``), and chance comes only from the caller's
rng, so a decision is a function of what the seat may know and of the seed. ``expert_v1`` (the
earlier card-counting formula) is kept for measurement. Known approximation: a reshuffle in the
middle of the round is not used to tell the cards dealt before it from the new deck.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from domain.games.cucco21.bots.rollout import RoundEnd, Table, TurnRule, play_round
from domain.games.cucco21.cards import (
    CARDS,
    CAT,
    CEREMONY,
    CEREMONY_MIN_GOT,
    CLOWN,
    DISCARDED_WHEN_DRAWN,
    HORSE,
    HOUSE,
    LOVERS,
    value,
)  # fmt: skip
from domain.games.cucco21.commands import Choice, Choose, Shuffle
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import (
    Asked,
    CardDealt,
    CardDrawn,
    Claimed,
    DeckDiscarded,
    Declined,
    Event,
    Kept,
    MadeOut,
    PowerDiscarded,
    Refused,
    SeatBankrupted,
    SentOn,
    TakenBack,
    Traded,
)  # fmt: skip
from domain.games.cucco21.fairness import shuffled
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, RoundState, Rules, Seals
from domain.games.cucco21.views import GameView
from domain.seats import SeatSpec

# Worlds per decision, at most. 80 worlds x 2 answers, each played to the end of the round, cost
# a few milliseconds with the fast rollouts (bots/rollout.py); most decisions stop well before.
# Against 400 worlds with no early stop, the choice differs in about 3% of decisions, at a cost
# of about 0.0002 in the chance of winning the game (342 decisions of 20 games against basic);
# 160 worlds for the close calls did not win measurably more (docs/BOTS.md).
SAMPLES: dict[str, int] = {"turn": 80, "asked": 80, "ceremony": 40}

# How often the model expects another seat to act against the ``basic`` heuristic. Above zero so
# that a surprising choice down-weights a world instead of ruling it out. A seat the table shows
# as a ``basic`` bot (public: ``SeatInfo.bot_level``) rarely surprises; any other seat (a person,
# another expert) more often.
SURPRISE = 0.02
SURPRISE_OTHER = 0.1

KEEP_FROM = 8  # the ``basic`` model keeps a card of this value or more (bots/basic.py)
MY_TRADE_BELOW = 10  # this seat's own later turn in a rollout: trade below this value


# --- 1, 2: card accounting and what the public decisions tell ----------------------------------


@dataclass
class Slot:
    """A card in play this round: dealt to ``origin``, or drawn from the deck and kept by it."""

    origin: int
    drawn: bool
    card: str | None = None  # known to this seat
    weights: list[float] = field(default_factory=lambda: [1.0] * 22)  # per value, index 1..21

    def times(self, factor: Callable[[int], float]) -> None:
        w = self.weights
        for v in range(1, 22):
            w[v] *= factor(v)


@dataclass
class Accounting:
    """What the seat knows about the cards held this round."""

    slots: list[Slot]
    holding: dict[int, int]  # seat -> slot of the card it holds now (holders only)
    asker: int | None  # the request this seat is asked to answer (asked prompts)
    turn_seat: int | None  # whose turn is in progress at a ceremony prompt
    claims: tuple[int, ...]  # seats owed a Ceremony prompt, in order (ceremony prompts)


def basic_trades(v: int, powers: bool, dealer: bool) -> bool:
    """``bots/basic.py``'s turn rule on a value."""
    if powers and v == CLOWN:
        return True
    if powers and v == CEREMONY and not dealer:
        return True
    return v < KEEP_FROM


def _only(values: frozenset[int]) -> Callable[[int], float]:
    return lambda v: 1.0 if v in values else 0.0


def _unlikely(values: frozenset[int], surprise: float) -> Callable[[int], float]:
    return lambda v: surprise if v in values else 1.0


def surprise_of(view: GameView, seat: int) -> float:
    """How often ``seat`` is expected to play against the ``basic`` model."""
    info = view.seats[seat]
    return SURPRISE if info.kind == "bot" and info.bot_level == "basic" else SURPRISE_OTHER


def _not_clown(v: int) -> float:
    return 0.0 if v == CLOWN else 1.0


_REFUSERS = frozenset((LOVERS, CAT))
_SENDERS = frozenset((HOUSE, HORSE))
_ANSWERERS = _REFUSERS | _SENDERS
_KEPT_WHEN_DRAWN = frozenset(range(1, 22)) - DISCARDED_WHEN_DRAWN


def account(view: GameView) -> Accounting:
    """Replay the round's events as ``view.viewer`` saw them (module docstring, 1 and 2)."""
    me = view.viewer
    powers = view.powers
    slots: list[Slot] = []
    holding: dict[int, int] = {}
    given: dict[int, int] = {}  # deck trader -> the slot it discarded in step 1
    decided: set[int] = set()  # seats whose turn choice was noted
    last_trade: Traded | None = None
    asker: int | None = None
    turn_seat: int | None = None
    answered: set[int] = set()
    deck_claim: int | None = None

    def new_slot(seat: int, drawn: bool, card: str | None) -> None:
        holding[seat] = len(slots)
        slots.append(Slot(seat, drawn, card))

    def note_turn(seat: int, traded: bool) -> None:
        if seat in decided:
            return
        decided.add(seat)
        if seat == me or seat not in holding:
            return
        dealer, surprise = seat == view.dealer, surprise_of(view, seat)
        slots[holding[seat]].times(
            lambda v: 1.0 - surprise if basic_trades(v, powers, dealer) == traded else surprise
        )

    for e in view.round_events:
        kind = type(e)
        if kind is CardDealt:
            assert isinstance(e, CardDealt)
            new_slot(e.seat, False, e.card)
        elif kind is Kept:
            assert isinstance(e, Kept)
            note_turn(e.seat, False)
        elif kind is Asked:
            assert isinstance(e, Asked)
            note_turn(e.seat, True)
            asker, turn_seat = e.seat, e.seat
        elif kind is Refused:
            assert isinstance(e, Refused)
            if powers and e.seat in holding:
                slots[holding[e.seat]].times(_only(_REFUSERS))
            asker = None
        elif kind is SentOn:
            assert isinstance(e, SentOn)
            if powers and e.seat in holding:
                slots[holding[e.seat]].times(_only(_SENDERS))
        elif kind is Traded:
            assert isinstance(e, Traded)
            a, t = e.asker, e.target
            last_trade, asker, answered, deck_claim = e, None, set(), None
            if e.asker_gets is not None:
                slots[holding[t]].card = e.asker_gets
            if e.target_gets is not None:
                slots[holding[a]].card = e.target_gets
            if powers and me not in (a, t):
                # it took no power's way out
                slots[holding[t]].times(_unlikely(_ANSWERERS, surprise_of(view, t)))
                # Nobody was made out: neither received a Clown (a MadeOut names it otherwise).
                slots[holding[t]].times(_not_clown)
                slots[holding[a]].times(_not_clown)
            holding[a], holding[t] = holding[t], holding[a]
        elif kind is DeckDiscarded:
            assert isinstance(e, DeckDiscarded)
            note_turn(e.seat, True)
            turn_seat, last_trade, deck_claim = e.seat, None, None
            if e.seat in holding:
                slot = holding.pop(e.seat)
                slots[slot].card = e.card
                given[e.seat] = slot
                if powers and value(e.card) == CEREMONY:
                    deck_claim = e.seat
        elif kind is CardDrawn:
            assert isinstance(e, CardDrawn)
            new_slot(e.seat, True, e.card)
            if powers:
                slots[holding[e.seat]].times(_only(_KEPT_WHEN_DRAWN))
        elif kind is PowerDiscarded:
            assert isinstance(e, PowerDiscarded)
            holding.pop(e.seat, None)  # the draw was a power: it is discarded, not kept
            if slots and slots[-1].origin == e.seat and slots[-1].drawn:
                slots[-1].card = e.card
                slots[-1].weights = [1.0] * 22
        elif kind is TakenBack:
            assert isinstance(e, TakenBack)
            slot = given.pop(e.seat)
            holding[e.seat] = slot
            slots[slot].card = e.card
            deck_claim = None
        elif kind is MadeOut:
            assert isinstance(e, MadeOut)
            if e.seat in holding:
                slots[holding.pop(e.seat)].card = e.card
        elif kind is SeatBankrupted:
            assert isinstance(e, SeatBankrupted)
            if e.seat in holding:
                slot = holding.pop(e.seat)
                if e.card is not None:
                    slots[slot].card = e.card
        elif kind is Declined:
            # Every party to a trade (and a drawer after a Ceremony given to the deck) is
            # prompted, ``decline`` its only choice when it cannot claim: a decline tells
            # nothing one card alone can carry (pending.py, "Prompts reveal nothing hidden").
            assert isinstance(e, Declined)
            answered.add(e.seat)
        elif kind is Claimed:
            assert isinstance(e, Claimed)
            answered.add(e.seat)
            c = e.seat
            if c in holding:
                slots[holding[c]].times(lambda v: 1.0 if v >= CEREMONY_MIN_GOT else 0.0)
            if last_trade is not None and c in (last_trade.asker, last_trade.target):
                other = last_trade.target if c == last_trade.asker else last_trade.asker
                if other in holding:
                    slots[holding[other]].times(_only(frozenset((CEREMONY,))))
    if view.hand is not None and me is not None and me in holding:
        slots[holding[me]].card = view.hand
    holders = {s.seat for s in view.seats if s.holder}
    holding = {s: slot for s, slot in holding.items() if s in holders}
    claims: tuple[int, ...] = ()
    step = view.pending
    if step is not None and step.kind == "ceremony":
        if last_trade is not None and deck_claim is None:
            owed = []
            a, t = last_trade.asker, last_trade.target
            a_gets, t_gets = last_trade.asker_gets, last_trade.target_gets
            if a_gets is not None and t_gets is not None:
                if value(t_gets) == CEREMONY and value(a_gets) >= CEREMONY_MIN_GOT:
                    owed.append(a)
                if value(a_gets) == CEREMONY and value(t_gets) >= CEREMONY_MIN_GOT:
                    owed.append(t)
            claims = tuple(s for s in owed if s not in answered)
            turn_seat = a
        else:
            claims = (me,) if me is not None else ()
    return Accounting(slots, holding, asker, turn_seat, claims)


# --- 3: sampling worlds ----------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    """One guess at the hidden cards: every holder's card and the deck, top first."""

    hands: dict[int, str]
    deck: tuple[str, ...]
    weight: float


def unseen_cards(view: GameView, acc: Accounting) -> list[str]:
    """The cards this seat has not seen where they are now: in an unknown hand or the deck."""
    seen = set(view.discard)
    for slot in acc.holding.values():
        card = acc.slots[slot].card
        if card is not None:
            seen.add(card)
    return [c for c in CARDS if c not in seen]


DECK_TOP = 12  # deck cards drawn at random per world; a round almost never draws more


class Sampler:
    """Draws worlds for one decision: the unseen cards by value, the unknown slots, most
    constrained first (fewer dead ends)."""

    def __init__(self, acc: Accounting, unseen: Sequence[str]) -> None:
        self.by_value: list[list[str]] = [[] for _ in range(22)]
        for card in unseen:
            self.by_value[value(card)].append(card)
        self.known: dict[int, str] = {}
        unknown: list[tuple[int, list[float]]] = []
        for seat, slot in acc.holding.items():
            held = acc.slots[slot].card
            if held is None:
                unknown.append((seat, acc.slots[slot].weights))
            else:
                self.known[seat] = held
        unknown.sort(key=lambda item: sum(1 for w in item[1][1:] if w > 0.0))
        # per unknown slot, the values it may hold and their weights
        self.unknown = [
            (seat, [(v, w[v]) for v in range(1, 22) if w[v] > 0.0]) for seat, w in unknown
        ]

    def world(self, rng: random.Random) -> World:
        """A world agreeing with what the seat knows, importance-weighted (docstring, 3)."""
        by_value = self.by_value
        taken: dict[int, list[str]] = {}  # the values drawn from so far, copied on first use
        hands = dict(self.known)
        weight = 1.0
        for seat, support in self.unknown:
            masses = []
            total = 0.0
            for v, w in support:
                m = len(taken.get(v, by_value[v])) * w
                if m > 0.0:
                    masses.append((v, m))
                    total += m
            if total <= 0.0:
                return World({}, (), 0.0)
            weight *= total
            pick = rng.random() * total
            v = masses[-1][0]
            for candidate, m in masses:
                if pick < m:
                    v = candidate
                    break
                pick -= m
            copies = taken.get(v)
            if copies is None:
                copies = taken[v] = list(by_value[v])
            hands[seat] = copies.pop(rng.randrange(len(copies)))
        rest = [c for v in range(22) for c in taken.get(v, by_value[v])]
        # Only the top of the deck can be drawn this round: draw it at random, leave the rest.
        top = rng.sample(rest, min(DECK_TOP, len(rest)))
        chosen = set(top)
        deck = (*top, *(c for c in rest if c not in chosen))
        return World(hands, deck, weight)


def sample_world(acc: Accounting, unseen: Sequence[str], rng: random.Random) -> World:
    """One world agreeing with ``acc`` (see ``Sampler``)."""
    return Sampler(acc, unseen).world(rng)


def worlds(view: GameView, acc: Accounting, rng: random.Random) -> Iterator[World]:
    sampler = Sampler(acc, unseen_cards(view, acc))
    while True:
        yield sampler.world(rng)


# --- 4: rollouts -----------------------------------------------------------------------------


def rebuild(view: GameView, acc: Accounting, world: World) -> GameState:
    """The full game state the view describes, with ``world``'s hidden cards."""
    me = view.viewer
    step = view.pending
    assert me is not None and step is not None
    n = len(view.seats)
    hands: list[str | None] = [None] * n
    for seat, card in world.hands.items():
        hands[seat] = card
    if view.hand is not None:
        hands[me] = view.hand
    log: list[Event] = []
    clowns: list[tuple[int, str]] = []
    for seat, slot_index in acc.holding.items():
        slot = acc.slots[slot_index]
        held = hands[seat]
        assert held is not None
        if slot.drawn:
            log.append(CardDrawn(slot.origin, held))
            if view.powers and value(held) == CLOWN and slot.origin == seat:
                clowns.append((seat, held))
        else:
            log.append(CardDealt(slot.origin, held))
    order = view.turn_order
    if step.kind == "turn":
        turn, acted, asker, target = order.index(me), False, None, None
    elif step.kind == "asked":
        assert acc.asker is not None
        turn, acted, asker, target = order.index(acc.asker), True, acc.asker, me
    else:
        assert acc.turn_seat is not None
        turn, acted, asker, target = order.index(acc.turn_seat), True, None, None
    rnd = RoundState(
        number=view.round,
        round_card=view.round_card,
        dealer=view.dealer,
        turn_order=order,
        hands=tuple(hands),
        phase="turns",
        turn=turn,
        acted=acted,
        asker=asker,
        target=target,
        claims=acc.claims if step.kind == "ceremony" else (),
        claimable=acc.claims if step.kind == "ceremony" else (),  # the owed seats may claim
        drawn_clowns=tuple(clowns),
        out=tuple(s.seat for s in view.seats if s.out),
    )
    specs = tuple(SeatSpec(s.name, "bot", "basic") for s in view.seats)
    decks = view.deck_number
    return GameState(
        rules=Rules(specs, view.starting_chips, view.powers, view.max_sets),
        status="in_round",
        chips=tuple(s.chips for s in view.seats),
        box=view.box,
        alive=tuple(s.alive for s in view.seats),
        bankrupt=tuple(s.bankrupt for s in view.seats),
        set_number=view.set_number,
        round_card=view.round_card,
        dealer=view.dealer,
        rounds_played=view.round,
        deck_cards=world.deck,
        discard=view.discard,
        deck_number=decks,
        seals=Seals(((),) * decks, ("",) * decks),
        round=rnd,
        log=tuple(log),
    )


def _rollout_choice(state: GameState, seat: int, me: int, kind: str, choices: Sequence[str]) -> str:
    """Every later decision of the round: ``basic`` for the others, a threshold for this seat."""
    if kind == "turn":
        rnd = state.round
        assert rnd is not None
        card = rnd.hands[seat]
        assert card is not None
        v, powers, dealer = value(card), state.powers, seat == rnd.dealer
        if seat != me:
            return "trade" if basic_trades(v, powers, dealer) else "keep"
        if powers and (v == CLOWN or (v == CEREMONY and not dealer)):
            return "trade"
        return "trade" if v < (KEEP_FROM if dealer else MY_TRADE_BELOW) else "keep"
    if kind == "asked":
        return choices[0]  # refuse, send on, or accept when it is the only choice
    return choices[0]  # claim when it may, else decline (its only choice)


def play_out(state: GameState, me: int, seed: int) -> GameState:
    """Finish the round; the state after it. ``seed`` orders a reshuffle, if one is needed."""
    while state.status == "in_round":
        step = pending(state)
        assert step is not None
        command: Choose | Shuffle
        if step.kind == "shuffle":
            command = shuffled(state.discard, random.Random(seed))
        else:
            assert step.seat is not None
            choice = _rollout_choice(state, step.seat, me, step.kind, step.choices)
            command = Choose(step.seat, cast(Choice, choice))
        state, _ = apply(state, command)
    return state


def turn_rule(view: GameView) -> TurnRule:
    """``_rollout_choice``'s turns, for ``rollout.play_round``: does ``seat`` trade ``v``?"""
    me, powers = view.viewer, view.powers

    def trades(seat: int, v: int, dealer: bool) -> bool:
        if seat != me:
            return basic_trades(v, powers, dealer)
        if powers and (v == CLOWN or (v == CEREMONY and not dealer)):
            return True
        return v < (KEEP_FROM if dealer else MY_TRADE_BELOW)

    return trades


def table_of(view: GameView, acc: Accounting) -> Table:
    """What every world of this decision shares (``rebuild`` without the hidden cards)."""
    me = view.viewer
    step = view.pending
    assert me is not None and step is not None
    order = view.turn_order
    if step.kind == "turn":
        turn = order.index(me)
    elif step.kind == "asked":
        assert acc.asker is not None
        turn = order.index(acc.asker)
    else:
        assert acc.turn_seat is not None
        turn = order.index(acc.turn_seat)
    origins = [-1] * len(view.seats)
    for seat, slot in acc.holding.items():
        origins[seat] = acc.slots[slot].origin
    return Table(
        powers=view.powers,
        round_card=view.round_card,
        dealer=view.dealer,
        order=order,
        turn=turn,
        asker=acc.asker if step.kind == "asked" else None,
        claims=acc.claims if step.kind == "ceremony" else (),
        chips=tuple(s.chips for s in view.seats),
        box=view.box,
        alive=tuple(s.alive for s in view.seats),
        bankrupt=tuple(s.bankrupt for s in view.seats),
        out=tuple(s.seat for s in view.seats if s.out),
        discard=view.discard,
        set_number=view.set_number,
        max_sets=view.max_sets,
        origins=tuple(origins),
    )


def world_hands(
    view: GameView, acc: Accounting, world: World
) -> tuple[list[str | None], list[tuple[int, str]]]:
    """Every seat's card in ``world`` (None off the holders), and the Clowns drawn and kept."""
    me = view.viewer
    assert me is not None
    hands: list[str | None] = [None] * len(view.seats)
    for seat, card in world.hands.items():
        hands[seat] = card
    if view.hand is not None:
        hands[me] = view.hand
    clowns = []
    if view.powers:
        for seat, slot_index in acc.holding.items():
            slot = acc.slots[slot_index]
            held = hands[seat]
            if slot.drawn and slot.origin == seat and held is not None and value(held) == CLOWN:
                clowns.append((seat, held))
    return hands, clowns


# --- 5: the value of the round's end ---------------------------------------------------------


SET_VARIANCE = 30.0  # variance of a seat's chips over one whole set (the box goes to one seat)
UNKNOWN_SETS = 2  # sets still to play when the game has no ``max_sets``, for the model


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def value_of(end: RoundEnd, me: int) -> float:
    """How good the position after the round is for ``me``: its chance of ending the game with
    the most chips (module docstring, 5).

    Each seat's *equity* is its chips plus, while alive in the set, an equal share of the box
    (a dead seat's share is gone). The spread still to come is the box's (one seat takes it)
    and ``SET_VARIANCE`` for every set still to play; none once a bankruptcy has doomed the game
    to end with this set. The chance of topping every other seat is taken pairwise, a tie
    counting as a win (C26). A tiny weight on equity breaks ties between sure outcomes.
    """
    n = len(end.chips)
    if end.over:
        return (1.0 if me in end.winners else 0.0) + 0.001 * end.chips[me]
    if end.bankrupt[me]:
        return 0.0
    alive = sum(end.alive)
    box = float(end.box)
    fresh_set = end.round_card == "1"  # the round ended the set: the next one is all ahead
    bankrupt = any(end.bankrupt)
    if bankrupt:
        later = 0
    elif end.max_sets is None:
        later = UNKNOWN_SETS
    else:
        later = max(0, end.max_sets - end.set_number)
    future = SET_VARIANCE * (later + (1 if fresh_set and not bankrupt else 0))
    equity: list[float] = []
    spread: list[float] = []
    for seat in range(n):
        share = 1.0 / alive if end.alive[seat] and alive else 0.0
        equity.append(end.chips[seat] + box * share)
        spread.append(box * box * share * (1.0 - share) + future + 1.0)
    chance = 1.0
    for other in range(n):
        if other != me:
            gap = equity[me] - equity[other] + 0.5
            chance *= _phi(gap / math.sqrt(spread[me] + spread[other]))
    return chance + 0.001 * equity[me]


def was_out(end: RoundEnd, me: int) -> bool:
    """Was ``me`` out in the round just played (by a power or at scoring), or bankrupt?"""
    return me in end.out or end.bankrupt[me]


@dataclass(frozen=True)
class Estimate:
    """Per answer: the weighted mean value of the round's end and the chance of being out."""

    choices: tuple[str, ...]
    values: tuple[float, ...]
    out: tuple[float, ...]
    samples: int


MIN_SAMPLES = 30  # worlds before the search may stop early
CHECK_EVERY = 10
CLEAR_LEAD = 2.5  # stop once the best answer leads the next by this many standard errors


def search(
    view: GameView,
    rng: random.Random,
    samples: int | None = None,
    world_source: Iterator[World] | None = None,
    stop_early: bool = True,
) -> Estimate:
    """Every answer open to the seat, played out over the same weighted worlds.

    At most ``samples`` worlds (``SAMPLES`` by prompt); from ``MIN_SAMPLES`` on, the search
    stops as soon as one answer leads the others clearly (``CLEAR_LEAD`` standard errors of the
    paired differences): easy decisions cost little, close ones get every world. With
    ``stop_early`` False (the coach's figures) every world is played.
    ``world_source`` lets a benchmark hand in worlds that know more than a seat may
    (bench/cucco21_ceiling.py); the product never passes it.
    """
    step = view.pending
    me = view.viewer
    assert step is not None and me is not None and step.seat == me, "nothing to decide"
    acc = account(view)
    source = world_source if world_source is not None else worlds(view, acc, rng)
    table = table_of(view, acc)
    turns = turn_rule(view)
    choices = step.choices
    k = len(choices)
    totals = [0.0] * k
    outs = [0.0] * k
    rows: list[tuple[float, list[float]]] = []
    mass = 0.0
    count = samples if samples is not None else SAMPLES.get(step.kind, 60)
    for drawn in range(1, count + 1):
        world = next(source)
        if world.weight > 0.0:
            hands, clowns = world_hands(view, acc, world)
            seed = rng.getrandbits(32)  # the same reshuffles for every answer
            mass += world.weight
            row = []
            for i, choice in enumerate(choices):
                final = play_round(
                    table, hands, world.deck, clowns, turns, seed, me, step.kind, choice
                )
                v = value_of(final, me)
                row.append(v)
                totals[i] += world.weight * v
                outs[i] += world.weight * was_out(final, me)
            rows.append((world.weight, row))
        if (
            stop_early
            and drawn >= MIN_SAMPLES
            and drawn % CHECK_EVERY == 0
            and _clear(rows, totals)
        ):
            break
    if mass <= 0.0:
        return Estimate(choices, (0.0,) * k, (0.0,) * k, 0)
    return Estimate(
        choices, tuple(t / mass for t in totals), tuple(o / mass for o in outs), len(rows)
    )


def _clear(rows: Sequence[tuple[float, Sequence[float]]], totals: Sequence[float]) -> bool:
    """Does the best answer lead every other by ``CLEAR_LEAD`` standard errors?"""
    if len(rows) < 2:
        return False
    best = max(range(len(totals)), key=lambda i: totals[i])
    mass = sum(w for w, _ in rows)
    squares = sum(w * w for w, _ in rows)
    effective = mass * mass / squares if squares > 0.0 else 0.0
    if effective < 2.0:
        return False
    for other in range(len(totals)):
        if other == best:
            continue
        diffs = [(w, r[best] - r[other]) for w, r in rows]
        mean = sum(w * d for w, d in diffs) / mass
        var = sum(w * (d - mean) ** 2 for w, d in diffs) / mass
        if var == 0.0 and mean == 0.0:
            continue  # the same outcome in every world so far
        if mean <= CLEAR_LEAD * (var / effective) ** 0.5:
            return False
    return True


def expert_choice(view: GameView, rng: random.Random) -> str:
    """The answer with the best expected end-of-round value over worlds consistent with the view."""
    step = view.pending
    assert step is not None and view.viewer is not None
    if len(step.choices) == 1:
        return step.choices[0]
    estimate = search(view, rng)
    if estimate.samples == 0:  # no world fits what was seen (a player far off the model)
        from domain.games.cucco21.bots.expert_v1 import expert_v1_choice

        return expert_v1_choice(view, rng)
    best = max(range(len(estimate.choices)), key=lambda i: estimate.values[i])
    return estimate.choices[best]
