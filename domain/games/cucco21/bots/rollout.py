"""The rest of a round, played fast: the expert's rollouts without the event tape.

``expert.search`` plays every sampled world to the end of the round for every answer. Doing it
with the pure domain (``decide.apply``, an event and a folded ``GameState`` per step) was most
of a decision's time; this module plays the same rules (CUCCO21 §4–§8) on plain lists, with
the same later choices (``basic`` for the other seats, a threshold for this seat, every power
used, every Ceremony claimed) and the same reshuffles, and returns only what the value of the
round's end reads (``RoundEnd``). tests/cucco21/test_rollout.py checks it against the domain,
answer for answer, on worlds sampled from real games.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from domain.games.cucco21.cards import (
    CAT,
    CEREMONY,
    CEREMONY_MIN_GOT,
    CLOWN,
    DRAWN_CLOWN_RANK,
    HORSE,
    HOUSE,
    LOVERS,
    value,
)  # fmt: skip
from domain.games.cucco21.config import PENALTY, RoundCard, next_round_card
from domain.games.cucco21.fairness import shuffled
from domain.games.cucco21.state import GameState

_ANSWERERS = frozenset((LOVERS, CAT, HOUSE, HORSE))

# A seat's turn in a rollout: (seat, its card's value, is it the dealer) -> trade?
TurnRule = Callable[[int, int, bool], bool]


@dataclass(frozen=True)
class RoundEnd:
    """What ``expert.value_of`` reads of the game after the round."""

    chips: tuple[int, ...]
    box: int
    alive: tuple[bool, ...]
    bankrupt: tuple[bool, ...]
    round_card: RoundCard  # the next round's card ("1" once the set is over)
    set_number: int
    max_sets: int | None
    over: bool
    winners: tuple[int, ...]
    out: frozenset[int]  # out this round, by a power or at scoring

    @classmethod
    def of(cls, state: GameState) -> RoundEnd:
        """The same summary of a domain state (for checks against ``decide.apply``)."""
        rnd = state.round
        return cls(
            state.chips,
            state.box,
            state.alive,
            state.bankrupt,
            state.round_card,
            state.set_number,
            state.max_sets,
            state.status == "over",
            state.winners,
            frozenset(rnd.out if rnd is not None else ()),
        )


@dataclass(frozen=True)
class Table:
    """What a decision's rollouts share: everything about the round but the hidden cards."""

    powers: bool
    round_card: RoundCard
    dealer: int
    order: tuple[int, ...]
    turn: int  # index in ``order`` of the turn in progress
    asker: int | None
    claims: tuple[int, ...]  # Ceremony prompts still owed
    chips: tuple[int, ...]
    box: int
    alive: tuple[bool, ...]
    bankrupt: tuple[bool, ...]
    out: tuple[int, ...]
    discard: tuple[str, ...]
    set_number: int
    max_sets: int | None
    origins: tuple[int, ...]  # per seat: the origin of the card it holds (C14)

    @classmethod
    def of(cls, state: GameState, origins: Sequence[int]) -> Table:
        rnd = state.round
        assert rnd is not None
        return cls(
            state.powers,
            rnd.round_card,
            rnd.dealer,
            rnd.turn_order,
            rnd.turn,
            rnd.asker,
            rnd.claims,
            state.chips,
            state.box,
            state.alive,
            state.bankrupt,
            rnd.out,
            state.discard,
            state.set_number,
            state.max_sets,
            tuple(origins),
        )


class Round:
    """One world's round in progress, as mutable lists (one instance per rollout)."""

    def __init__(
        self,
        table: Table,
        hands: Sequence[str | None],
        deck: Sequence[str],
        clowns: Iterable[tuple[int, str]],
        turns: TurnRule,
        seed: int,
    ) -> None:
        self.table = table
        self.n = len(table.chips)
        self.powers = table.powers
        self.round_card = table.round_card
        self.dealer = table.dealer
        self.order = table.order
        self.hands: list[str | None] = list(hands)
        self.origin = list(table.origins)
        self.alive = list(table.alive)
        self.bankrupt = list(table.bankrupt)
        self.out = set(table.out)
        self.chips = list(table.chips)
        self.box = table.box
        self.discard = list(table.discard)
        self.deck = list(deck)
        self.top = 0
        self.clowns = set(clowns)
        self.scoring = False
        self.turns = turns
        self.seed = seed

    # --- the rules' steps ---------------------------------------------------------------------

    def holder(self, seat: int) -> bool:
        return self.alive[seat] and self.hands[seat] is not None and seat not in self.out

    def pay(self, seat: int, amount: int, to: int | None) -> None:
        """§5.4: what the seat has, up to ``amount`` (``to`` None is the box)."""
        has = self.chips[seat]
        paid = min(has, amount)
        self.chips[seat] = has - paid
        if to is None:
            self.box += paid
        else:
            self.chips[to] += paid
        if has < amount:
            self.bankrupt[seat] = True
            self.alive[seat] = False
            card = self.hands[seat]
            if not self.scoring and card is not None:
                self.discard.append(card)
                self.hands[seat] = None

    def make_out(self, seat: int) -> None:
        """§4.5: discard, then die in sudden death or pay the penalty."""
        card = self.hands[seat]
        assert card is not None
        self.discard.append(card)
        self.hands[seat] = None
        self.out.add(seat)
        if self.round_card == "SD":
            self.alive[seat] = False
        else:
            self.pay(seat, PENALTY[self.round_card], None)

    def cat_strikes(self, seat: int) -> None:
        if self.alive[seat] and seat not in self.out:
            self.make_out(seat)

    def claim(self, seat: int) -> None:
        n = self.n
        for payer in ((seat + i) % n for i in range(1, n)):
            if not self.bankrupt[payer]:
                self.pay(payer, 1, seat)

    def claims(self, seats: Sequence[int]) -> None:
        """Every Ceremony prompt owed, to a seat still holding a card: claimed (the model)."""
        for seat in seats:
            if self.holder(seat):
                self.claim(seat)

    def next_holder(self, seat: int) -> int | None:
        order = self.order
        for other in order[order.index(seat) + 1 :]:
            if self.holder(other):
                return other
        return None

    def ask(self, asker: int, after: int) -> None:
        """``asker`` asks the next holder after ``after``, or trades with the deck (C8, C9)."""
        while True:
            target = self.next_holder(after)
            if target is None:
                self.deck_trade(asker)
                return
            card = self.hands[target]
            assert card is not None
            v = value(card)
            if not self.powers or v not in _ANSWERERS:
                self.trade(asker, target)
                return
            # Asked, every seat of the model uses its power: refuse or send on.
            if v in (LOVERS, CAT):
                self.refuse(asker, target)
                return
            after = target  # sent on

    def refuse(self, asker: int, target: int) -> None:
        card = self.hands[target]
        if card is not None and value(card) == CAT and self.hands[asker] is not None:
            self.cat_strikes(self.origin[asker])  # C12

    def trade(self, a: int, t: int) -> None:
        """§4.4: swap; a Clown received puts its receiver out; the Ceremony prompts."""
        hands, origin = self.hands, self.origin
        gives, gets = hands[a], hands[t]
        assert gives is not None and gets is not None
        hands[a], hands[t] = gets, gives
        origin[a], origin[t] = origin[t], origin[a]
        if not self.powers:
            return
        a_got, t_got = value(gets), value(gives)
        owed = []
        if t_got == CEREMONY and a_got >= CEREMONY_MIN_GOT:
            owed.append(a)
        if a_got == CEREMONY and t_got >= CEREMONY_MIN_GOT:
            owed.append(t)
        if a_got == CLOWN:
            self.make_out(a)
        if t_got == CLOWN:
            self.make_out(t)
        self.claims(owed)

    def deck_trade(self, d: int) -> None:
        """§4.6: discard, draw until a card is kept or taken back."""
        given = self.hands[d]
        assert given is not None
        self.discard.append(given)
        self.hands[d] = None
        while True:
            if self.top >= len(self.deck):  # §4.7: the discard pile becomes the deck
                self.deck = list(shuffled(tuple(self.discard), random.Random(self.seed)).order)
                self.top = 0
                self.discard = []
            card = self.deck[self.top]
            self.top += 1
            v = value(card) if self.powers else 0
            if v in (HOUSE, HORSE):
                self.discard.append(card)
                continue
            if v in (LOVERS, CAT):
                self.discard.append(card)
                if given in self.discard:  # C17, R1
                    self.discard.remove(given)
                else:
                    self.deck = [c for c in self.deck[self.top :] if c != given]
                    self.top = 0
                self.hands[d] = given
                if v == CAT:
                    self.cat_strikes(self.origin[d])  # C18
                return
            self.hands[d] = card
            self.origin[d] = d
            if v == CLOWN:
                self.clowns.add((d, card))
            if self.powers and value(given) == CEREMONY and v >= CEREMONY_MIN_GOT and card != given:
                self.claims((d,))  # §4.6 step 4, R2
            return

    def turns_from(self, index: int) -> None:
        """The turns of ``order[index:]``, each by the model."""
        order = self.order
        for i in range(index, len(order)):
            seat = order[i]
            card = self.hands[seat]
            if not self.holder(seat) or card is None:
                continue
            if self.turns(seat, value(card), seat == self.dealer):
                self.ask(seat, seat)

    def rank(self, seat: int) -> int:
        card = self.hands[seat]
        assert card is not None
        if self.powers and (seat, card) in self.clowns:
            return DRAWN_CLOWN_RANK
        return value(card)

    def finish(self) -> RoundEnd:
        """Scoring (§4.8), the end of the round, the set (§7) and maybe the game (§8)."""
        holders = [s for s in self.order if self.holder(s)]
        out: list[int] = []
        if len(holders) >= 2:
            ranks = {s: self.rank(s) for s in holders}
            lowest = min(ranks.values())
            out = [s for s in holders if ranks[s] == lowest]
        self.out.update(out)
        self.scoring = True
        undecided = False
        if self.round_card == "SD":
            if len(out) == 1:
                self.alive[out[0]] = False
            elif len(out) == 2 and all(value(self.hands[s] or "") == CLOWN for s in out):
                undecided = True
        else:
            for seat in out:
                self.pay(seat, PENALTY[self.round_card], None)
        table = self.table
        alive = [s for s in range(self.n) if self.alive[s]]
        set_number, round_card = table.set_number, next_round_card(self.round_card)
        over = False
        winners: tuple[int, ...] = ()
        alive_flags = tuple(self.alive)
        if undecided or len(alive) < 2:
            if len(alive) == 1 and not undecided:
                self.chips[alive[0]] += self.box
                self.box = 0
            if any(self.bankrupt) or set_number == table.max_sets:
                most = max(self.chips)
                over, winners = True, tuple(s for s in range(self.n) if self.chips[s] == most)
                round_card = self.round_card  # no next round: the card stays
            else:
                set_number, round_card = set_number + 1, "1"
                alive_flags = tuple(not b for b in self.bankrupt)
        return RoundEnd(
            tuple(self.chips),
            self.box,
            alive_flags,
            tuple(self.bankrupt),
            round_card,
            set_number,
            table.max_sets,
            over,
            winners,
            frozenset(self.out),
        )


def play_round(
    table: Table,
    hands: Sequence[str | None],
    deck: Sequence[str],
    clowns: Iterable[tuple[int, str]],
    turns: TurnRule,
    seed: int,
    me: int,
    kind: str,
    choice: str,
) -> RoundEnd:
    """``me`` answers the prompt of ``kind`` with ``choice``; the round is played to its end.

    One world: every seat's card (``hands``), the deck top first, the Clowns drawn and kept
    this round (seat, card); ``turns`` is the later turns' rule, ``seed`` orders a reshuffle."""
    r = Round(table, hands, deck, clowns, turns, seed)
    if kind == "turn":
        if choice == "trade":
            r.ask(me, me)
    elif kind == "asked":
        asker = table.asker
        assert asker is not None
        if choice == "accept":
            r.trade(asker, me)
        elif choice == "refuse":
            r.refuse(asker, me)
        else:
            r.ask(asker, me)
    else:  # a Ceremony prompt: this seat's answer, then any other claim still owed
        for seat in table.claims:
            if seat == me:
                if choice == "claim" and r.holder(me):
                    r.claim(me)
            elif r.holder(seat):
                r.claim(seat)
    r.turns_from(table.turn + 1)
    return r.finish()


def play_state(
    state: GameState,
    origins: Sequence[int],
    turns: TurnRule,
    seed: int,
    me: int,
    kind: str,
    choice: str,
) -> RoundEnd:
    """``play_round`` on a domain state's world (for checks against ``decide.apply``)."""
    rnd = state.round
    assert rnd is not None
    table = Table.of(state, origins)
    return play_round(table, rnd.hands, state.deck, rnd.drawn_clowns, turns, seed, me, kind, choice)
