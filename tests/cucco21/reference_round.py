"""A second, deliberately plain implementation of one Cucco 21 round, written from
tests/scenarios-cucco21/README.md (the canonical order, R1–R12) and CUCCO21.md alone.

Mutable lists and dicts, one method per step of the README, no code shared with ``domain/``:
it exists to be compared with the engine (test_reference_model.py).
``answer(seat, kind, options)`` gives each decision and ``reshuffle(pile)`` each new deck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Answer = Callable[[int, str, tuple[str, ...]], str]
Reshuffle = Callable[[list[str]], list[str]]
PENALTY = {"1": 1, "2": 2, "3": 3}


def val(card: str) -> int:
    return int(card.split("#")[0])


class Round:
    def __init__(self, s: dict[str, Any], answer: Answer, reshuffle: Reshuffle) -> None:
        self.n = s["seats"]
        self.powers = s["powers"]
        self.chips = list(s["chips_before"])
        self.box = s["box_before"]
        self.alive = set(s["alive_before"])
        self.bankrupt = set(s["bankrupt_before"])
        self.card = s["round_card"]
        self.dealer = s["dealer"]
        self.set_number = s["set_number"]
        self.max_sets = s["max_sets"]
        self.deck = list(s["deck_top_to_bottom"])
        self.discard = list(s["discard_before"])
        self.order = [x for x in ((self.dealer + i) % self.n for i in range(1, self.n + 1))
                      if x in self.alive]  # fmt: skip
        self.hand: dict[int, str] = {}
        self.origin: dict[str, int] = {}  # card -> origin seat this round
        self.out: set[int] = set()
        self.drawn_clown: set[tuple[int, str]] = set()
        self.events: list[dict[str, Any]] = []
        self.answer, self.new_deck = answer, reshuffle

    # -- helpers ------------------------------------------------------------------------------
    def emit(self, t: str, **fields: Any) -> None:
        self.events.append({"t": t, **fields})

    def holder(self, x: int) -> bool:
        return x in self.alive and x in self.hand and x not in self.out

    def next_holder(self, x: int) -> int | None:
        for y in self.order[self.order.index(x) + 1 :]:
            if self.holder(y):
                return y
        return None

    def take_top(self) -> str:
        if not self.deck:
            pile = self.discard
            self.deck = self.new_deck(list(pile))
            assert sorted(self.deck) == sorted(pile), "a reshuffle must permute the pile"
            self.emit("reshuffle", size=len(pile))
            self.discard = []
        return self.deck.pop(0)

    def pay(self, x: int, n: int, to: Any, reason: str, scoring: bool = False) -> None:
        c = self.chips[x]
        paid = min(c, n)
        if paid >= 1:
            self.chips[x] -= paid
            if to == "box":
                self.box += paid
            else:
                self.chips[to] += paid
            self.emit("pay", seat=x, amount=paid, to=to, reason=reason)
        if c < n:
            self.bankrupt.add(x)
            self.alive.discard(x)
            card = None
            if not scoring and x in self.hand:
                card = self.hand.pop(x)
                self.discard.append(card)
            self.emit("bankrupt", seat=x, reason=reason, card=card)

    def make_out(self, x: int, why: str) -> None:
        card = self.hand.pop(x)
        self.discard.append(card)
        self.out.add(x)
        self.emit("out", seat=x, reason=why, card=card)
        if self.card == "SD":
            self.alive.discard(x)
            self.emit("die", seat=x, reason=why)
        else:
            self.pay(x, PENALTY[self.card], "box", "penalty")

    def cat_hits(self, o: int) -> None:
        if o in self.alive and o not in self.out:
            self.make_out(o, "cat")

    def ceremony(self, x: int) -> None:
        if self.answer(x, "ceremony", ("claim", "decline")) == "decline":
            self.emit("decline", seat=x)
            return
        self.emit("claim", seat=x)
        for i in range(1, self.n):
            y = (x + i) % self.n
            if y not in self.bankrupt:
                self.pay(y, 1, x, "ceremony")

    # -- the steps ----------------------------------------------------------------------------
    def play(self) -> None:
        if self.card == "1":
            for x in self.order:
                self.pay(x, 1, "box", "ante")
            if len(self.alive) < 2:
                self.finish(scored=False, undecided=False)
                return
        for x in self.order:
            if x in self.alive:
                c = self.take_top()
                self.hand[x] = c
                self.origin[c] = x
                self.emit("deal", seat=x, card=c)
        for x in self.order:
            if not self.holder(x):
                continue
            if self.answer(x, "turn", ("keep", "trade")) == "keep":
                self.emit("keep", seat=x)
                continue
            t = self.next_holder(x)
            if t is None:
                self.deck_trade(x)
            else:
                self.request(x, t)
        self.score()

    def request(self, a: int, t: int) -> None:
        while True:
            self.emit("ask", seat=a, target=t)
            v = val(self.hand[t])
            if self.powers and v in (6, 18):
                if self.answer(t, "asked", ("refuse", "accept")) == "refuse":
                    self.emit("refuse", seat=t, asker=a)
                    if v == 18:
                        self.cat_hits(self.origin[self.hand[a]])
                    return
            elif (
                self.powers
                and v in (11, 19)
                and self.answer(t, "asked", ("send_on", "accept")) == "send_on"
            ):
                self.emit("send_on", seat=t, asker=a)
                nxt = self.next_holder(t)
                if nxt is None:
                    self.deck_trade(a)
                    return
                t = nxt
                continue
            self.swap(a, t)
            return

    def swap(self, a: int, t: int) -> None:
        ga, gt = self.hand[a], self.hand[t]
        self.hand[a], self.hand[t] = gt, ga
        self.emit("trade", asker=a, target=t, asker_gets=gt, target_gets=ga)
        if not self.powers:
            return
        for x, got in ((a, gt), (t, ga)):
            if val(got) == 1:
                self.make_out(x, "clown")
        for x, gave, got in ((a, ga, gt), (t, gt, ga)):
            if val(gave) == 12 and val(got) >= 5 and self.holder(x):
                self.ceremony(x)

    def deck_trade(self, d: int) -> None:
        mine = self.hand.pop(d)
        self.discard.append(mine)
        self.emit("deck_discard", seat=d, card=mine)
        while True:
            c = self.take_top()
            self.emit("draw", seat=d, card=c)
            v = val(c) if self.powers else 0
            if v in (11, 19):
                self.discard.append(c)
                self.emit("power_discard", seat=d, card=c)
                continue
            if v in (6, 18):
                self.discard.append(c)
                self.emit("power_discard", seat=d, card=c)
                if mine in self.discard:
                    self.discard.remove(mine)
                else:
                    self.deck.remove(mine)
                self.hand[d] = mine
                self.emit("take_back", seat=d, card=mine)
                if v == 18:
                    self.cat_hits(self.origin[mine])
                return
            self.hand[d] = c
            self.origin[c] = d
            if self.powers and val(c) == 1:
                self.drawn_clown.add((d, c))
            if self.powers and val(mine) == 12 and val(c) >= 5 and c != mine:
                self.ceremony(d)
            return

    def rank(self, x: int) -> int:
        c = self.hand[x]
        return 22 if (x, c) in self.drawn_clown else val(c)

    def score(self) -> None:
        holders = [x for x in self.order if self.holder(x)]
        outs: list[int] = []
        if len(holders) >= 2:
            low = min(self.rank(x) for x in holders)
            outs = [x for x in holders if self.rank(x) == low]
        self.emit("score", revealed=[{"seat": x, "card": self.hand[x]} for x in holders],
                  out=outs)  # fmt: skip
        undecided = False
        if self.card == "SD":
            if len(outs) == 1:
                self.alive.discard(outs[0])
                self.emit("die", seat=outs[0], reason="scoring")
            elif len(outs) == 2 and all(val(self.hand[x]) == 1 for x in outs):
                undecided = True
        else:
            for x in outs:
                self.pay(x, PENALTY[self.card], "box", "penalty", scoring=True)
        cards = [self.hand[x] for x in holders]
        self.discard.extend(cards)
        self.hand.clear()
        self.emit("discard_revealed", cards=cards)
        self.finish(scored=True, undecided=undecided)

    def finish(self, scored: bool, undecided: bool) -> None:
        self.set_over = undecided or len(self.alive) < 2
        self.undecided = undecided
        self.survivor: int | None = None
        self.game_over = False
        self.winners: list[int] = []
        if self.set_over:
            if len(self.alive) == 1 and not undecided:
                self.survivor = next(iter(self.alive))
            self.emit("set_end", survivor=self.survivor, undecided=undecided)
            if self.survivor is not None:
                self.emit("take_box", seat=self.survivor, amount=self.box)
                self.chips[self.survivor] += self.box
                self.box = 0
            if self.bankrupt or self.set_number == self.max_sets:
                self.game_over = True
                top = max(self.chips)
                self.winners = [x for x in range(self.n) if self.chips[x] == top]
                self.emit("game_end", winners=self.winners)

    def result(self) -> dict[str, Any]:
        n = self.n
        if self.game_over:
            card, dealer = None, None
        elif self.set_over:
            card = "1"
            if self.survivor is not None:
                dealer = self.survivor
            else:
                dealer = next(y for y in ((self.dealer + i) % n for i in range(1, n + 1))
                              if y not in self.bankrupt)  # fmt: skip
        else:
            card = {"1": "2", "2": "3", "3": "SD", "SD": "SD"}[self.card]
            dealer = next(y for y in ((self.dealer + i) % n for i in range(1, n + 1))
                          if y in self.alive)  # fmt: skip
        alive = sorted(self.alive)
        if self.set_over and not self.game_over:
            alive = [x for x in range(n) if x not in self.bankrupt]
        return {
            "events": self.events,
            "chips_after": self.chips,
            "box_after": self.box,
            "alive_after": alive,
            "bankrupt_after": sorted(self.bankrupt),
            "deck_after": self.deck,
            "discard_after": self.discard,
            "round_card_after": card,
            "next_dealer": dealer,
            "set_over": self.set_over,
            "set_undecided": self.undecided,
            "set_survivor": self.survivor,
            "game_over": self.game_over,
            "game_winners": self.winners,
        }


def play_round(scenario: dict[str, Any], answer: Answer, reshuffle: Reshuffle) -> dict[str, Any]:
    rnd = Round(scenario, answer, reshuffle)
    rnd.play()
    return rnd.result()
