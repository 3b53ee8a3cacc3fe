"""Bot-match throughput of the pure domain, and its fold rate.

    python bench/simulate.py [--matches N] [--seats 4] [--lives 3] [--level basic] [--seed S]
    python bench/simulate.py --game cucco21 [--matches N] [--seats 4] [--level basic]
                             [--chips 15] [--max-sets 3] [--seed S]

Prints full matches/s and events/s (decide + evolve + bot views), then the fold rate:
``evolve`` alone over already-decoded events, and decode + ``evolve`` from stored JSON.
For Cucco 21 it prints rounds/s too, and folds Cuccù matches of the same table in the same
process, interleaved, best of five passes each, so the two fold rates compare on equal terms
on a shared machine. Cucco 21's figures are given per second of wall-clock time and per second
of this process's CPU time: on a busy machine the first mostly measures the neighbours.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.games.cucco21 import events as c21_events  # noqa: E402
from domain.games.cucco21.bots.tournament import play_game  # noqa: E402
from domain.games.cucco21.evolve import evolve as c21_evolve  # noqa: E402
from domain.games.cucco21.state import initial_state as c21_initial  # noqa: E402
from domain.games.cuccu.bots import autoplay, choose  # noqa: E402
from domain.games.cuccu.commands import CreateMatch  # noqa: E402
from domain.games.cuccu.decide import apply  # noqa: E402
from domain.games.cuccu.events import (  # noqa: E402
    Event,
    RoundStarted,  # noqa: E402
    decode_events,
    encode_event,
)
from domain.games.cuccu.evolve import evolve  # noqa: E402
from domain.games.cuccu.state import MatchState, initial_state  # noqa: E402
from domain.games.cuccu.views import view  # noqa: E402
from domain.seats import SeatSpec  # noqa: E402


def play(seats: int, lives: int, level: str, rng: random.Random) -> list[Event]:
    specs = tuple(SeatSpec(f"bot {i}", "bot", level) for i in range(seats))
    state, events = apply(initial_state(), CreateMatch(specs, lives, rng.randrange(seats)))
    log = list(events)

    def answer(state: MatchState, seat: int) -> str:
        return choose(level, view(state, seat), rng)

    for _, events in autoplay(state, answer, rng):
        log.extend(events)
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--lives", type=int, default=3)
    parser.add_argument("--level", default="basic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("cuccu", "cucco21"), default="cuccu")
    parser.add_argument("--chips", type=int, default=15, help="cucco21: starting chips")
    parser.add_argument("--max-sets", type=int, default=3, help="cucco21: sets per game at most")
    args = parser.parse_args()
    if args.game == "cucco21":
        cucco21(args)
        return

    rng = random.Random(args.seed)
    started = time.perf_counter()
    logs = [play(args.seats, args.lives, args.level, rng) for _ in range(args.matches)]
    played = time.perf_counter() - started
    events = sum(len(log) for log in logs)

    stored = [b"[" + b",".join(encode_event(e) for e in log) + b"]" for log in logs]
    started = time.perf_counter()
    for log in logs:
        state = initial_state()
        for event in log:
            state = evolve(state, event)
    fold_only = time.perf_counter() - started
    started = time.perf_counter()
    for blob in stored:
        state = initial_state()
        for event in decode_events(blob):
            state = evolve(state, event)
    decode_fold = time.perf_counter() - started

    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(
        f"{args.matches} matches of {args.seats} {args.level} bots, {args.lives} lives,"
        f" seed {args.seed}"
    )
    print(
        f"  play:  {args.matches / played:10,.0f} matches/s  {events / played:12,.0f} events/s"
        f"  ({events / args.matches:.1f} events/match)"
    )
    print(f"  fold:  {events / fold_only:12,.0f} events/s  (evolve over decoded events)")
    print(f"  fold:  {events / decode_fold:12,.0f} events/s  (decode JSON + evolve)")
    print(f"  ratio: decode+evolve / evolve alone = {fold_only / decode_fold:.2f}")


def _fold_seconds(log: list[Any], evolve_one: Any, initial: Any) -> float:
    """CPU seconds to fold ``log``."""
    started = time.process_time()
    state = initial()
    for event in log:
        state = evolve_one(state, event)
    return time.process_time() - started


def _fold_rates(ours: list[list[Any]], theirs: list[list[Any]]) -> tuple[float, float]:
    """Events folded per second by Cucco 21's and Cuccù's ``evolve``, best of five passes.

    Within a pass the two alternate log by log, so a busy neighbour on a shared machine slows
    both alike rather than whichever happened to run at that moment.
    """
    best_ours = best_theirs = 0.0
    for _ in range(5):
        spent_ours = spent_theirs = 0.0
        for i in range(max(len(ours), len(theirs))):
            if i < len(ours):
                spent_ours += _fold_seconds(ours[i], c21_evolve, c21_initial)
            if i < len(theirs):
                spent_theirs += _fold_seconds(theirs[i], evolve, initial_state)
        best_ours = max(best_ours, sum(map(len, ours)) / spent_ours)
        best_theirs = max(best_theirs, sum(map(len, theirs)) / spent_theirs)
    return best_ours, best_theirs


def cucco21(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    levels = [args.level] * args.seats
    started, cpu_started = time.perf_counter(), time.process_time()
    records = [
        play_game(levels, rng, starting_chips=args.chips, max_sets=args.max_sets, keep_events=True)
        for _ in range(args.matches)
    ]
    played, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    logs = [record.events for record in records]
    events = sum(len(log) for log in logs)
    rounds = sum(record.rounds for record in records)

    stored = [b"[" + b",".join(c21_events.encode_event(e) for e in log) + b"]" for log in logs]
    started = time.process_time()
    for blob in stored:
        state = c21_initial()
        for event in c21_events.decode_events(blob):
            state = c21_evolve(state, event)
    decode_fold = time.process_time() - started

    # Cuccù matches of the same table, folded in turn with Cucco 21's logs: best of five each.
    cuccu_logs = [play(args.seats, 3, args.level, rng) for _ in range(max(1, args.matches // 2))]
    best, theirs = _fold_rates(logs, cuccu_logs)

    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    print(
        f"{args.matches} Cucco 21 games of {args.seats} {args.level} bots, {args.chips} chips,"
        f" at most {args.max_sets} set(s), seed {args.seed}: {rounds} rounds,"
        f" {events / rounds:.1f} events/round"
    )
    print(
        f"  play:  {rounds / played:10,.0f} rounds/s  {events / played:12,.0f} events/s"
        f"  ({args.matches / played:,.0f} games/s, decide + evolve + bot views)"
    )
    print(f"  play:  {rounds / cpu:10,.0f} rounds per CPU second")
    per_round = best / events * rounds
    print(f"  fold:  {best:12,.0f} events/s  {per_round:10,.0f} rounds/s  (evolve, CPU time)")
    print(f"  fold:  {events / decode_fold:12,.0f} events/s  (decode JSON + evolve, CPU time)")
    cuccu_rounds = sum(isinstance(e, RoundStarted) for log in cuccu_logs for e in log)
    cuccu_events = sum(map(len, cuccu_logs))
    print(
        f"  Cuccù fold, same process: {theirs:12,.0f} events/s"
        f" {theirs / cuccu_events * cuccu_rounds:10,.0f} rounds/s  (evolve, CPU time)"
    )
    ratio_rounds = per_round / (theirs / cuccu_events * cuccu_rounds)
    print(
        f"  ratio: Cucco 21 fold / Cuccù fold = {best / theirs:.2f} (events/s),"
        f" {ratio_rounds:.2f} (rounds/s)"
    )


if __name__ == "__main__":
    main()
