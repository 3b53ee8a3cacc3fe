"""Bot-match throughput of the pure domain, and its fold rate.

    python bench/simulate.py [--matches N] [--seats 4] [--lives 3] [--level basic] [--seed S]

Prints full matches/s and events/s (decide + evolve + bot views), then the fold rate:
``evolve`` alone over already-decoded events, and decode + ``evolve`` from stored JSON.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain import (  # noqa: E402
    CreateMatch,
    Event,
    MatchState,
    SeatSpec,
    apply,
    decode_events,
    encode_event,
    evolve,
    initial_state,
    view,
)  # fmt: skip
from domain.bots import autoplay, choose  # noqa: E402


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
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
