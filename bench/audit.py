"""Audit speed for both games: parse a whole NDJSON export and run every check on it.

    python bench/audit.py [--games N]

Plays N 4-seat bot games of each game (Cuccù: basic bots, 3 lives; Cucco 21: basic bots,
15 chips, at most 3 sets), exports each as NDJSON in memory, then times ``parse_export`` and
``audit`` over all of them (CPU time, best of three passes) and prints events a second, and
the time each of the game's own checks takes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domain.audit import audit, chain, game_of, parse_export, to_ndjson  # noqa: E402
from domain.games.cucco21.bots import autoplay, choose  # noqa: E402
from domain.games.cucco21.commands import CreateGame  # noqa: E402
from domain.games.cucco21.config import Config  # noqa: E402
from domain.games.cucco21.decide import apply  # noqa: E402
from domain.games.cucco21.state import GameState, initial_state  # noqa: E402
from domain.games.cucco21.views import view  # noqa: E402
from domain.games.cuccu.commands import SeatSpec  # noqa: E402
from viewer.games.cuccu import bot_match  # noqa: E402


def cucco21_game(seed: int) -> list[object]:
    rng = random.Random(seed)
    seats = tuple(SeatSpec(f"bot {i}", "bot", "basic") for i in range(4))
    state, events = apply(initial_state(), CreateGame(Config(seats, 15, True, 3, seed % 4)))
    log: list[object] = list(events)

    def answer(now: GameState, seat: int) -> str:
        return choose("basic", view(now, seat), rng)

    for _, produced in autoplay(state, answer, rng):
        log.extend(produced)
    return log


def measure(name: str, exports: list[str]) -> None:
    events = sum(text.count("\n") for text in exports)
    best = float("inf")
    per_check: dict[str, float] = defaultdict(float)
    for _ in range(3):
        start = time.process_time()
        for text in exports:
            report = audit(parse_export(text).records)
            assert report.ok
        best = min(best, time.process_time() - start)
    # the game's own checks alone, once each (the report does not time them)
    records = [parse_export(text).records for text in exports]
    game = game_of(records[0])
    for check_name, run in ((c.name, c.run) for c in game.audit.checks):
        start = time.process_time()
        for rs in records:
            run(rs)
        per_check[check_name] += time.process_time() - start
    print(
        f"{name:8} {len(exports)} games, {events} events: parse + audit "
        f"{events / best:,.0f} events/s ({best / len(exports) * 1000:.1f} ms a game)"
    )
    spent = ", ".join(f"{n} {t / events * 1e6:.1f}" for n, t in per_check.items())
    print(f"         µs an event: {spent}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    cuccu = [to_ndjson(chain(bot_match(seed, 4, levels=("basic",)))) for seed in range(args.games)]
    cucco21 = [to_ndjson(chain(cucco21_game(seed))) for seed in range(args.games)]
    measure("cuccu", cuccu)
    measure("cucco21", cucco21)


if __name__ == "__main__":
    main()
