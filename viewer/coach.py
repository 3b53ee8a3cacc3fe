"""The coach: for each answer open to a seat, the chance of the game's bad outcome this round
(losing a life, being out: each game says which), from the game's own expert search.

Each game's coach is its presentation's ``advise`` (``viewer.games``): pure domain, run in the
viewer's process on the seat's view only (what the API gave that seat, typed by its game's
``view_type``), so it can know nothing the player could not.
"""

from __future__ import annotations

from typing import Any

from domain.games import GAMES
from viewer.games import PRESENTATIONS, Advice

SAMPLES = 120  # deals per estimate: about ±4 points at a 50% risk, fast enough for a click

__all__ = ["SAMPLES", "Advice", "advise"]


def advise(view: Any, samples: int = SAMPLES, seed: int = 0) -> Advice | None:
    """The risk of each choice now open to ``view.viewer`` (a view of any game); None when it
    has nothing to decide (or nothing the coach can weigh yet)."""
    for name, game in GAMES.items():
        if isinstance(view, game.view_type):
            return PRESENTATIONS[name].advise(view, samples, seed)
    raise TypeError(f"no hosted game has views of type {type(view).__name__}")
