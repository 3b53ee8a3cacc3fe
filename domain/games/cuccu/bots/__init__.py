"""AI opponents. Each sees only ``view(state, seat)`` and draws chance from the caller's rng."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.games.cuccu.bots.autoplay import Answer, autoplay
from domain.games.cuccu.bots.basic import basic_choice
from domain.games.cuccu.bots.expert import expert_choice
from domain.games.cuccu.views import MatchView

Policy = Callable[[MatchView, random.Random], str]


def random_choice(view: MatchView, rng: random.Random) -> str:
    """Uniform over the allowed choices: a baseline and a fuzzer."""
    assert view.pending is not None
    return rng.choice(view.pending.choices)


POLICIES: dict[str, Policy] = {
    "random": random_choice,
    "basic": basic_choice,
    "expert": expert_choice,
}


def choose(level: str, view: MatchView, rng: random.Random) -> str:
    """The choice the bot of ``level`` makes for the decision ``view.pending`` asks of it."""
    assert view.pending is not None, "nothing to decide"
    if view.pending.kind == "next_round":
        return "next_round"
    return POLICIES[level](view, rng)


__all__ = [
    "POLICIES",
    "Answer",
    "Policy",
    "autoplay",
    "basic_choice",
    "choose",
    "expert_choice",
    "random_choice",
]
