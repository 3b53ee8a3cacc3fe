"""Cucco 21 bots. Each reads only ``view(state, seat)`` and draws chance from the caller's rng."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.games.cucco21.bots.autoplay import Answer, autoplay
from domain.games.cucco21.bots.basic import basic_choice
from domain.games.cucco21.bots.expert import expert_choice
from domain.games.cucco21.bots.expert_v1 import expert_v1_choice
from domain.games.cucco21.views import GameView

Policy = Callable[[GameView, random.Random], str]


def random_choice(view: GameView, rng: random.Random) -> str:
    """Uniform over the allowed choices: a baseline and a fuzzer."""
    assert view.pending is not None
    return rng.choice(view.pending.choices)


POLICIES: dict[str, Policy] = {
    "random": random_choice,
    "basic": basic_choice,
    "expert": expert_choice,
    # The earlier expert, for measurement only: ``cuccu tournament`` seats it; a game's config
    # (config.BOT_LEVELS, hence the API) does not accept it.
    "expert_v1": expert_v1_choice,
}

# Which policies read the round's log; the others are handed a view without it (it is cheaper).
NEEDS_LOG: frozenset[str] = frozenset({"expert", "expert_v1"})


def choose(level: str, view: GameView, rng: random.Random) -> str:
    """The choice the bot of ``level`` makes for the prompt ``view.pending`` addresses to it."""
    assert view.pending is not None and view.pending.seat is not None, "nothing to decide"
    return POLICIES[level](view, rng)


__all__ = [
    "NEEDS_LOG", "POLICIES", "Answer", "Policy", "autoplay", "basic_choice", "choose",
    "expert_choice", "expert_v1_choice", "random_choice",
]  # fmt: skip
