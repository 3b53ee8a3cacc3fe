"""``expert_v1``: the first Cucco 21 expert, kept for measurement only (``cuccu tournament``
seats it; the API does not). It counts cards and weighs what a turn risks, from its seat's view.

1. **Card counting.** The deck persists across rounds and sets (C7) and the discard pile is
   public, so the cards that can still be in other hands or in the deck are the 42 minus the
   discard pile, minus its own card, minus the cards it knows another seat holds: the card it
   gave in its own trades this round, followed through the later (public) trades of its
   holder. Every unknown card is taken to be equally likely anywhere unseen.
2. **The chance of being out** with a card of value ``r``: nobody at scoring holds a strictly
   lower card. Unknown hands are drawn from the unseen cards without replacement.
3. **Each answer's cost**: the chance of being out times what being out costs now, minus what a
   Ceremony claim would bring. Trading weighs every card the target might hold and what that
   card's power does to the asker (a Clown makes it out, a Cat may strike its card's origin, a
   House or a Horse sends it on); a deck trade weighs every card of the deck likewise.
4. **Standings**: being out costs the round card's penalty, or in sudden death the share of the
   box it forfeits; a seat that cannot afford the penalty (bankruptcy ends the game, §8) counts
   the loss of its standing too, and a leader near the end of the game plays safer.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.games.cucco21.cards import (
    CAT,
    CEREMONY,
    CEREMONY_MIN_GOT,
    CLOWN,
    HORSE,
    HOUSE,
    LOVERS,
    value,
)  # fmt: skip
from domain.games.cucco21.events import CardDealt, CardDrawn, Traded
from domain.games.cucco21.views import GameView

_PENALTY = {"1": 1.0, "2": 2.0, "3": 3.0}


def _counts(view: GameView, known: dict[int, str]) -> list[int]:
    """How many copies of each value (index 1..21) are still unseen by this seat."""
    counts = [0] + [2] * 21
    for card in view.discard:
        counts[value(card)] -= 1
    if view.hand is not None:
        counts[value(view.hand)] -= 1
    for card in known.values():
        counts[value(card)] -= 1
    return counts


def _knowledge(view: GameView) -> tuple[dict[int, str], bool]:
    """Cards this seat knows other seats hold now, and whether its own card's origin is itself."""
    me = view.viewer
    known: dict[int, str] = {}
    mine_is_own = True
    for event in view.round_events:
        if (
            isinstance(event, CardDealt)
            and event.seat == me
            or isinstance(event, CardDrawn)
            and event.seat == me
        ):
            mine_is_own = True
        elif isinstance(event, Traded):
            a, t = event.asker, event.target
            if me in (a, t):
                other = t if me == a else a
                gave = event.target_gets if me == a else event.asker_gets
                if gave is not None:
                    known[other] = gave
                mine_is_own = False
            else:  # a public swap: what we knew of either hand moved with it
                ka, kt = known.pop(a, None), known.pop(t, None)
                if ka is not None:
                    known[t] = ka
                if kt is not None:
                    known[a] = kt
    holders = {s.seat for s in view.seats if s.holder}
    return {s: c for s, c in known.items() if s in holders and s != me}, mine_is_own


def _all_at_least(r: int, counts: Sequence[int], unknown: int) -> float:
    """Chance that ``unknown`` cards drawn from ``counts`` are all of value >= r."""
    total = sum(counts)
    high = sum(counts[r:])
    p = 1.0
    for i in range(unknown):
        if total - i <= 0:
            break
        p *= max(0, high - i) / (total - i)
    return p


def _out_chance(r: int, counts: Sequence[int], unknown: int, known: Sequence[int]) -> float:
    if any(k < r for k in known):
        return 0.0
    return _all_at_least(r, counts, unknown)


def _without(counts: list[int], v: int) -> list[int]:
    rest = list(counts)
    rest[v] -= 1
    return rest


def expert_v1_choice(view: GameView, rng: random.Random) -> str:
    step = view.pending
    assert step is not None and view.viewer is not None
    if step.kind == "asked":
        return step.choices[0]  # refuse, send on, or accept when it is the only choice
    if step.kind == "ceremony":
        return step.choices[0]  # claim when it may, else decline (its only choice)
    assert view.hand is not None
    return "trade" if _trade_cost(view) < _keep_cost(view) else "keep"


def _context(view: GameView) -> tuple[dict[int, str], bool, list[int], int, list[int]]:
    known, mine_is_own = _knowledge(view)
    counts = _counts(view, known)
    me = view.viewer
    others = [s.seat for s in view.seats if s.holder and s.seat != me]
    unknown = sum(1 for s in others if s not in known)
    known_values = [value(c) for c in known.values()]
    return known, mine_is_own, counts, unknown, known_values


def _out_cost(view: GameView) -> float:
    """What being out costs this seat now, in chips."""
    me = view.viewer
    assert me is not None
    chips = view.seats[me].chips
    if view.round_card == "SD":
        alive = sum(1 for s in view.seats if s.alive)
        cost = 1.0 + view.box / max(alive, 1)
    else:
        cost = _PENALTY[view.round_card]
    if chips < cost:  # bankrupt: the game ends with this set, with this seat last
        cost += 5.0
    return cost


def _keep_cost(view: GameView) -> float:
    assert view.hand is not None
    _, _, counts, unknown, known_values = _context(view)
    return _out_chance(value(view.hand), counts, unknown, known_values) * _out_cost(view)


def _trade_cost(view: GameView) -> float:
    me, hand = view.viewer, view.hand
    assert me is not None and hand is not None
    known, mine_is_own, counts, unknown, known_values = _context(view)
    powers, mine = view.powers, value(hand)
    cost_out = _out_cost(view)
    keep = _out_chance(mine, counts, unknown, known_values)
    order = view.turn_order
    later = [s for s in order[order.index(me) + 1 :] if view.seats[s].holder]
    claim = sum(1 for s in view.seats if not s.bankrupt) - 1 if powers and mine == CEREMONY else 0
    total = sum(counts)
    if total == 0:
        return keep * cost_out
    if later and later[0] in known:  # the target's card is known: no averaging
        v = value(known[later[0]])
        rest = [k for s, k in known.items() if s != later[0]]
        outcome = _received(
            v, counts, unknown, [*map(value, rest), mine], powers, keep, mine_is_own
        )
        return outcome * cost_out - (claim if v >= CEREMONY_MIN_GOT else 0)
    deck = not later
    plain = pushed = refused = 0.0
    gain = 0.0
    for v in range(1, 22):
        if counts[v] <= 0:
            continue
        p = counts[v] / total
        if powers and v in (HOUSE, HORSE):
            pushed += p  # sent on, or drawn and discarded: the same draw again
            continue
        if powers and v in (LOVERS, CAT):
            hit = v == CAT and mine_is_own
            refused += p * (1.0 if hit else keep)
            continue
        if deck:
            drawn_clown = powers and v == CLOWN  # it ranks above 21 (C15)
            out = 0.0 if drawn_clown else _out_chance(v, _without(counts, v), unknown, known_values)
        else:  # the target now holds this seat's old card
            out = _received(
                v, counts, unknown - 1, [*known_values, mine], powers, keep, mine_is_own
            )
        plain += p * out
        if v >= CEREMONY_MIN_GOT:
            gain += p * claim
    norm = 1.0 - pushed if pushed < 1.0 else 1.0
    return (plain + refused) / norm * cost_out - gain / norm


def _received(
    v: int,
    counts: Sequence[int],
    unknown: int,
    known_values: Sequence[int],
    powers: bool,
    keep: float,
    mine_is_own: bool,
) -> float:
    """The chance of being out after a trade in which this seat receives a card of value ``v``."""
    if powers and v == CLOWN:
        return 1.0  # out at once (§4.4)
    if powers and v == LOVERS:
        return keep
    if powers and v == CAT:
        return 1.0 if mine_is_own else keep
    rest = list(counts)
    if rest[v] > 0:
        rest[v] -= 1
    return _out_chance(v, rest, max(unknown, 0), known_values)
