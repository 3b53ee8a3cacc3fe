"""How much can any seat win against three ``basic`` bots? The expert next to oracles.

    python bench/expert_ceiling.py [--matches 2000] [--seed 2026] [--jobs 2] [--only NAME ...]

Each line is a tournament of one policy against three ``basic`` bots (4 seats, 3 lives, seats
rotated, the same seeded deals for every line). The oracles run the expert's own search
(``domain.games.cuccu.bots.expert.best_choice``) but are handed more than a seat may know:

- ``expert``       the fair expert: its own cards and the public history only (RULES §7);
- ``sees-dealt``   also every hand dealt so far this round;
- ``sees-hands``   also the cards still to be dealt to the other seats (every hand of the round);
- ``sees-pack``    also the two cards only a pack exchange reaches: the dealer's bottom draw and
                   the top card a horse sends a requester to.

``sees-hands`` holds every card a seat could ever learn about in a round, and more, so no fair
policy using this search can beat it: its win rate is a ceiling for the fair expert. The gap to
``sees-pack`` is what the two blind draws are worth, which the rules keep from everyone.
Prints win rates with 95% Wilson intervals, the ratio to parity (25%) and the wall time.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import platform
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api.games.cuccu import Oracle, run_tournament  # noqa: E402
from domain.games.cuccu.bots.expert import PACK_SIZE, account, best_choice, in_play_positions  # noqa: E402
from domain.games.cuccu.state import MatchState  # noqa: E402
from domain.games.cuccu.views import MatchView  # noqa: E402


def revealed_positions(reach: str, state: MatchState, holding: dict[int, int]) -> list[int]:
    """The pack positions whose cards the oracle of ``reach`` is shown."""
    assert state.round is not None
    if reach == "sees-dealt":
        return list(holding.values())
    participants = len(state.round.participants)
    if reach == "sees-hands":
        return list(range(PACK_SIZE - participants, PACK_SIZE))
    assert reach == "sees-pack"
    return in_play_positions(participants)


def oracle_choice(reach: str, state: MatchState, seen: MatchView, rng: random.Random) -> str:
    """The expert's search, with the pack positions of ``reach`` known for what they are."""
    assert seen.pending is not None and state.round is not None
    if seen.pending.kind == "next_round":
        return "next_round"
    acc = account(seen)
    known = dict(acc.known)
    for position in revealed_positions(reach, state, acc.holding):
        known[position] = state.round.pack[position]
    return best_choice(seen, dataclasses.replace(acc, known=known), rng)


ORACLES: dict[str, Oracle] = {
    reach: functools.partial(oracle_choice, reach)
    for reach in ("sees-dealt", "sees-hands", "sees-pack")
}
LINES = ("expert", *ORACLES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="+", choices=LINES, help="run only these lines")
    args = parser.parse_args()

    print(
        f"{platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"{args.matches} matches per line, seed {args.seed}, {args.jobs} job(s)"
    )
    print(f"{'policy vs 3 basic':<18} {'win rate':>8}  {'95% CI':<16} {'/parity':>7} {'time':>7}")
    for line in args.only or LINES:
        seats = [line, "basic", "basic", "basic"]
        result = run_tournament(seats, args.matches, args.seed, args.jobs, False, ORACLES)
        stats = result.policies[line]
        low, high = stats.win_interval
        print(
            f"{line:<18} {stats.win_rate:>8.1%}  [{low:.1%}, {high:.1%}]   "
            f"{stats.win_rate / result.parity:>6.2f}x {result.elapsed:>6.0f}s",
            flush=True,
        )


if __name__ == "__main__":
    main()
