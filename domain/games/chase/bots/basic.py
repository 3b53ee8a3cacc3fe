"""``basic``: a sensible heuristic on the seat's own card alone.

Exchange (or, as the dealer, cut) a card below ``KEEP_FROM``, keep the others. A dealer under
``king_cut_loses`` cuts only a card lower still: a cut King would cost it the round (A21).
"""

from __future__ import annotations

import random

from domain.games.chase.cards import value
from domain.games.chase.views import MatchView

KEEP_FROM = 7  # a card of this value or more is kept: about half the pack is lower
KEEP_FROM_RISKY_CUT = 5  # with king_cut_loses, 4 Kings in the stock make a cut dearer


def basic_choice(view: MatchView, rng: random.Random) -> str:
    step = view.pending
    assert step is not None and view.hand is not None
    v = value(view.hand)
    if step.kind == "dealer_turn":
        threshold = KEEP_FROM_RISKY_CUT if view.king_cut_loses else KEEP_FROM
        return "cut" if v < threshold else "keep"
    return "exchange" if v < KEEP_FROM else "keep"
