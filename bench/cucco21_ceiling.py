"""How much can a Cucco 21 seat win against three ``basic`` bots? The expert beside an oracle.

    python bench/cucco21_ceiling.py [--matches 2000] [--seed 7] [--jobs 2] [--only NAME ...]

Each line is a tournament of one policy against three ``basic`` bots (4 seats, 15 chips, powers
on, at most 3 sets, seats rotated, the same seeded deals for every line). The oracle runs the
expert's own search (``domain.games.cucco21.bots.expert.search``) on worlds that know more than
a seat may:

- ``expert``       the fair expert: its own cards and the public history only (CUCCO21 §9);
- ``sees-hands``   every card in every hand now; only the deck's order is still sampled.

No fair seat can know more than ``sees-hands`` about the hands, so with this search its win rate
brackets the fair expert's from above. It exists only here: the oracle is handed the game state
through ``oracles`` (api/games/cucco21.py), which nothing in the product passes.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.games.cucco21 import run_cucco21_tournament  # noqa: E402
from api.tally import wilson_interval  # noqa: E402
from domain.games.cucco21.bots.expert import DECK_TOP, World, search  # noqa: E402
from domain.games.cucco21.bots.tournament import Oracle  # noqa: E402
from domain.games.cucco21.state import GameState  # noqa: E402
from domain.games.cucco21.views import GameView  # noqa: E402


def _true_worlds(state: GameState, seen: GameView, rng: random.Random) -> Iterator[World]:
    """Worlds with every holder's real card; the deck's cards in a fresh random order each."""
    rnd = state.round
    assert rnd is not None
    hands = {s.seat: rnd.hands[s.seat] or "" for s in seen.seats if s.holder}
    deck = list(state.deck)
    while True:
        top = rng.sample(deck, min(DECK_TOP, len(deck)))
        chosen = set(top)
        yield World(hands, (*top, *(c for c in deck if c not in chosen)), 1.0)


def sees_hands(state: GameState, seen: GameView, rng: random.Random) -> str:
    step = seen.pending
    assert step is not None
    if len(step.choices) == 1:
        return step.choices[0]
    estimate = search(seen, rng, world_source=_true_worlds(state, seen, rng))
    best = max(range(len(estimate.choices)), key=lambda i: estimate.values[i])
    return estimate.choices[best]


ORACLES: dict[str, Oracle] = {"sees-hands": sees_hands}
LINES = ("expert", *ORACLES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-sets", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=LINES, help="run only these lines")
    args = parser.parse_args()
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{args.matches} games per line, seed {args.seed}, {args.jobs} job(s), "
        f"at most {args.max_sets} sets"
    )
    print(f"{'policy vs 3 basic':<18} {'win rate':>8}  {'95% CI':<16} {'/parity':>7} {'time':>7}")
    for line in args.only or LINES:
        seats = [line, "basic", "basic", "basic"]
        result = run_cucco21_tournament(
            seats, args.matches, args.seed, args.jobs, False, args.max_sets, ORACLES
        )
        stats = result.policies[line]
        low, high = wilson_interval(stats.wins, stats.seat_games)
        print(
            f"{line:<18} {stats.win_rate:>8.1%}  [{low:.1%}, {high:.1%}]   "
            f"{stats.win_rate / 0.25:>6.2f}x {result.elapsed:>6.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
