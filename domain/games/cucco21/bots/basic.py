"""``basic``: a sensible heuristic that uses the powers, on the seat's own card alone.

Trade a low card, keep a high one; pass a Clown on (the receiver is out at once, §4.4); give a
Ceremony away for the claim (§4.4 step 3); use every power offered when asked (refuse with a
Lovers or a Cat, send on with a House or a Horse); always claim.
"""

from __future__ import annotations

import random

from domain.games.cucco21.cards import CEREMONY, CLOWN, value
from domain.games.cucco21.views import GameView

KEEP_FROM = 8  # a card of this value or more is kept


def trades(card: str, powers: bool, dealer: bool) -> bool:
    """On its turn: trade ``card``?"""
    v = value(card)
    if powers and v == CLOWN:
        return True  # the receiver is out; from the dealer it goes to the deck, a Clown is lowest
    if powers and v == CEREMONY and not dealer:
        return True  # most cards are >= 5: the claim pays a chip from everyone
    return v < KEEP_FROM


def basic_choice(view: GameView, rng: random.Random) -> str:
    step = view.pending
    assert step is not None and view.viewer is not None
    if step.kind == "turn":
        assert view.hand is not None
        dealer = view.viewer == view.dealer
        return "trade" if trades(view.hand, view.powers, dealer) else "keep"
    if step.kind == "asked":
        return step.choices[0]  # refuse, send on, or accept when it is the only choice
    return step.choices[0]  # claim when it may, else decline (its only choice)
