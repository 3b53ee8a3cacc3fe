"""``expert``: follows every card it can see and weighs the chance of losing each way.

1. **What it knows** (``knowledge``), from its seat's view alone: its own card; the card it
   gave in an exchange (its receiver holds it), followed through the later public exchanges
   of whoever holds it; every blocking King (its holder never plays again), every announced
   low card and the cut card; and the cards it knows are out of play (a cut King back on the
   stock, the discard it made as dealer, a known card the dealer cut away).
2. **The chance of losing** with a card of value ``v``: every other participant's card is at
   least ``v`` (ties lose, A14). Unknown cards are drawn from the unseen ones without
   replacement, as if every unseen card were equally likely anywhere.
3. **The choice**: exchange (or cut) when the chance of losing after it is lower than after
   keeping. A request to a seat that may hold a King counts the block (the seat keeps its
   card); a cut counts a King as void, or as a certain loss under ``king_cut_loses`` (A21).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.games.chase.cards import CARDS, KING_VALUE, value
from domain.games.chase.events import (
    CardsExchanged,
    CutExchanged,
    KingBlocked,
    LowCardAnnounced,
    StockCut,
)  # fmt: skip
from domain.games.chase.views import MatchView


def knowledge(view: MatchView) -> tuple[dict[int, str], set[str]]:
    """The cards this seat knows other participants hold now, and every card it has seen
    (held, known elsewhere, or out of play): the rest are the unseen ones."""
    me = view.viewer
    known: dict[int, str] = {}
    seen: set[str] = set()
    for event in view.round_events:
        if isinstance(event, CardsExchanged):
            a, t = event.requester, event.target
            if me in (a, t):
                other = t if me == a else a
                gave = event.target_gets if me == a else event.requester_gets
                got = event.requester_gets if me == a else event.target_gets
                if gave is not None:
                    known[other] = gave
                    seen.add(gave)
                if got is not None:
                    seen.add(got)
            else:  # a public swap: what we knew of either hand moved with it
                ka, kt = known.pop(a, None), known.pop(t, None)
                if ka is not None:
                    known[t] = ka
                if kt is not None:
                    known[a] = kt
        elif isinstance(event, KingBlocked | LowCardAnnounced):
            known[event.seat] = event.card
            seen.add(event.card)
        elif isinstance(event, StockCut):
            seen.add(event.card)  # a King back on the stock is seen, and held by nobody
        elif isinstance(event, CutExchanged):
            if event.gave is not None:
                seen.add(event.gave)
            known[event.seat] = event.got
    if view.hand is not None:
        seen.add(view.hand)
    seen.update(card for card in view.discard if card is not None)
    if me is not None:
        known.pop(me, None)
    return known, seen


def _unseen_values(seen: set[str]) -> list[int]:
    """How many unseen cards there are of each value (index 1..13)."""
    counts = [0] * (KING_VALUE + 1)
    for card in CARDS:
        if card not in seen:
            counts[value(card)] += 1
    return counts


def _all_at_least(v: int, counts: Sequence[int], unknown: int) -> float:
    """Chance that ``unknown`` cards drawn from ``counts`` are all of value >= v."""
    total = sum(counts)
    high = sum(counts[v:])
    p = 1.0
    for i in range(unknown):
        if total - i <= 0:
            break
        p *= max(0, high - i) / (total - i)
    return p


def lose_chance(v: int, counts: Sequence[int], unknown: int, known: Sequence[int]) -> float:
    """Chance that a seat holding value ``v`` loses: nobody else holds a lower card."""
    if any(k < v for k in known):
        return 0.0
    return _all_at_least(v, counts, unknown)


def _without(counts: Sequence[int], v: int) -> list[int]:
    rest = list(counts)
    rest[v] = max(0, rest[v] - 1)
    return rest


def risks(view: MatchView) -> dict[str, float]:
    """The chance of losing this round after each choice open to ``view.viewer`` (the
    expert's figures, which the viewer's coach shows too)."""
    step = view.pending
    me = view.viewer
    assert step is not None and me is not None and view.hand is not None
    known, seen = knowledge(view)
    mine = value(view.hand)
    others = [s for s in view.participants if s != me]
    unknown = sum(1 for s in others if s not in known)
    known_values = [value(known[s]) for s in others if s in known]
    counts = _unseen_values(seen)
    keep = lose_chance(mine, counts, unknown, known_values)
    if step.kind == "dealer_turn":
        return {"keep": keep, "cut": _cut_chance(view.king_cut_loses, counts, unknown,
                                                 known_values, keep)}  # fmt: skip
    order = view.participants
    target = order[order.index(me) + 1]
    return {"keep": keep, "exchange": _exchange_chance(target, known, mine, counts, unknown, keep)}


def expert_choice(view: MatchView, rng: random.Random) -> str:
    found = risks(view)
    other = "cut" if "cut" in found else "exchange"
    return other if found[other] < found["keep"] else "keep"


def _exchange_chance(
    target: int,
    known: dict[int, str],
    mine: int,
    counts: Sequence[int],
    unknown: int,
    keep: float,
) -> float:
    """The chance of losing after asking ``target``. Its card is known, or any unseen one;
    a King blocks (this seat keeps its card). Otherwise the target holds this seat's old card
    ``mine`` afterwards: it stays on the table (a later holder may pass it on, but not away,
    unless the dealer cuts it off, which this ignores)."""
    rest = [value(c) for s, c in known.items() if s != target]
    if target in known:
        w = value(known[target])
        return keep if w == KING_VALUE else lose_chance(w, counts, unknown, [*rest, mine])
    total = sum(counts)
    if total == 0:
        return keep
    chance = 0.0
    for w in range(1, KING_VALUE + 1):
        if counts[w] == 0:
            continue
        p = counts[w] / total
        if w == KING_VALUE:
            chance += p * keep
        else:
            chance += p * lose_chance(w, _without(counts, w), unknown - 1, [*rest, mine])
    return chance


def _cut_chance(
    king_cut_loses: bool,
    counts: Sequence[int],
    unknown: int,
    known: Sequence[int],
    keep: float,
) -> float:
    """The chance of losing after a cut: the top of the stock is any unseen card. A King is
    void (this seat keeps its card), or a certain loss under ``king_cut_loses`` (A21)."""
    total = sum(counts)
    if total == 0:
        return keep
    king = 1.0 if king_cut_loses else keep
    chance = 0.0
    for w in range(1, KING_VALUE + 1):
        if counts[w] == 0:
            continue
        p = counts[w] / total
        if w == KING_VALUE:
            chance += p * king
        else:
            chance += p * lose_chance(w, _without(counts, w), unknown, known)
    return chance
