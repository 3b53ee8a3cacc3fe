"""Bot tournaments: many seeded bot-only matches, played in-process with the pure domain.

    cuccu tournament --seats expert,basic,basic,basic --matches 2000 [--seed S] [--jobs 2]
    cuccu tournament --game cucco21 --seats expert,basic,basic,basic --matches 2000 [--max-sets 3]

Policies are rotated across the seats from one match to the next, so no policy keeps a
favourable seat. No database is involved: each match is folded in memory by ``domain.apply``,
shuffled by ``random.Random`` from a per-match seed, so a tournament with a given seed replays
exactly (except its timings). Match ``m`` depends only on the seed and ``m``, which is what lets
``--jobs`` spread the matches over processes without changing any result.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from domain.games.cuccu.bots import POLICIES, autoplay, choose
from domain.games.cuccu.commands import CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import LifeLost, MatchWon, RoundStarted
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import MatchView, view
from domain.seats import SeatSpec

LOSS_REASONS = ("hunter", "cat", "scoring", "inn_pledge")
STARTING_LIVES = 3

Oracle = Callable[[MatchState, MatchView, random.Random], str]
"""A policy handed the whole match state beside its seat's view: it may see hidden cards, so it
is never seated in the product. Benchmarks use it to measure what fair play leaves on the table
(bench/expert_ceiling.py)."""


@dataclass
class MatchRecord:
    """One match, as the tournament needs it."""

    levels: tuple[str, ...]  # policy of each seat
    winner: int
    rounds: list[int]  # per seat: rounds it took part in
    losses: list[Counter[str]]  # per seat: lives lost, by reason
    decision_times: list[list[float]]  # per seat: seconds per decision


def seated_levels(seats: Sequence[str], match: int) -> tuple[str, ...]:
    """The policies by seat for match number ``match``: the list rotated by one seat a match."""
    n = len(seats)
    return tuple(seats[(i - match) % n] for i in range(n))


def match_rng(seed: int, match: int) -> random.Random:
    """Match ``match``'s own generator (str seeds are hashed with SHA-512, so stable)."""
    return random.Random(f"cuccu-tournament:{seed}:{match}")


def play_match(
    levels: Sequence[str], rng: random.Random, oracles: Mapping[str, Oracle] | None = None
) -> MatchRecord:
    """Play a bot-only match to its end. ``rng`` shuffles and salts each round and seeds the
    bots: each seat gets its own generator, so one bot's draws never shift another's.
    A level named in ``oracles`` is played by that oracle instead of a fair policy."""
    oracles = oracles or {}
    n = len(levels)
    specs = tuple(
        SeatSpec(f"{level} {i}", "human")
        if level in oracles
        else SeatSpec(f"{level} {i}", "bot", level)
        for i, level in enumerate(levels)
    )
    created, _ = apply(initial_state(), CreateMatch(specs, STARTING_LIVES, rng.randrange(n)))
    bots = [random.Random(rng.getrandbits(64)) for _ in range(n)]
    record = MatchRecord(
        tuple(levels), -1, [0] * n, [Counter() for _ in range(n)], [[] for _ in range(n)]
    )

    def answer(state: MatchState, seat: int) -> str:
        level = levels[seat]
        oracle = oracles.get(level)
        seen = view(state, seat)
        started = time.perf_counter()
        if oracle is None:
            choice = choose(level, seen, bots[seat])
        else:
            choice = oracle(state, seen, bots[seat])
        record.decision_times[seat].append(time.perf_counter() - started)
        return choice

    for _, events in autoplay(created, answer, rng):
        for event in events:
            if isinstance(event, RoundStarted):
                for seat in event.participants:
                    record.rounds[seat] += 1
            elif isinstance(event, LifeLost):
                record.losses[event.seat][event.reason] += 1
            elif isinstance(event, MatchWon):
                record.winner = event.winner
    assert record.winner >= 0, "the match ended without a winner"
    return record


@dataclass
class PolicyStats:
    """One policy's totals over every seat it held in every match."""

    policy: str
    seat_matches: int = 0  # a policy on two seats of a match counts twice
    wins: int = 0
    rounds: int = 0
    losses: Counter[str] = field(default_factory=Counter)
    decision_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_matches if self.seat_matches else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seat_matches)

    def time_percentile(self, q: float) -> float:
        return percentile(self.decision_times, q)


@dataclass
class TournamentResult:
    seats: list[str]
    matches: int
    seed: int
    jobs: int
    elapsed: float
    policies: dict[str, PolicyStats]

    @property
    def parity(self) -> float:
        return 1 / len(self.seats)


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default): sound even near 0% or 100% and for small n."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0–100) of ``values``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _play_numbered(task: tuple[Sequence[str], int, int, Mapping[str, Oracle]]) -> MatchRecord:
    seats, seed, match, oracles = task
    return play_match(seated_levels(seats, match), match_rng(seed, match), oracles)


def _records(
    seats: list[str], matches: int, seed: int, jobs: int, oracles: Mapping[str, Oracle]
) -> Iterator[MatchRecord]:
    tasks = ((seats, seed, m, oracles) for m in range(matches))
    if jobs <= 1:
        yield from map(_play_numbered, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        # Small chunks keep the progress bar moving and both workers busy until the end.
        yield from pool.imap_unordered(_play_numbered, tasks, chunksize=4)


def run_tournament(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    oracles: Mapping[str, Oracle] | None = None,
) -> TournamentResult:
    """Play ``matches`` matches of the policies in ``seats`` (rotated) and total them up."""
    oracles = dict(oracles or {})
    unknown = [s for s in seats if s not in POLICIES and s not in oracles]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; choose from {', '.join(POLICIES)}")
    if not 2 <= len(seats) <= 20:
        raise ValueError("a match has 2 to 20 seats")
    if matches < 1:
        raise ValueError("play at least one match")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    stats = {policy: PolicyStats(policy) for policy in dict.fromkeys(seats)}
    bar = ProgressBar(matches, sys.stderr) if progress else None
    started = time.perf_counter()
    for done, record in enumerate(_records(seats, matches, seed, jobs, oracles), start=1):
        for seat, policy in enumerate(record.levels):
            entry = stats[policy]
            entry.seat_matches += 1
            entry.wins += record.winner == seat
            entry.rounds += record.rounds[seat]
            entry.losses.update(record.losses[seat])
            entry.decision_times.extend(record.decision_times[seat])
        if bar is not None:
            bar.update(done)
    if bar is not None:
        bar.close()
    elapsed = time.perf_counter() - started
    return TournamentResult(list(seats), matches, seed, jobs, elapsed, stats)


class ProgressBar:
    """A plain-text bar on one terminal line, redrawn at most ten times a second."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = total, stream, width
        self.started = time.perf_counter()
        self.drawn_at = 0.0

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if done < self.total and now - self.drawn_at < 0.1:
            return
        self.drawn_at = now
        filled = self.width * done // self.total
        elapsed = now - self.started
        left = elapsed / done * (self.total - done)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} matches"
            f"  {elapsed:5.0f}s elapsed, ~{left:4.0f}s left "
        )
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def format_result(result: TournamentResult) -> str:
    """The tournament report: win rates with 95% CIs, lives lost by reason, decision times."""
    lines = [
        f"{result.matches} matches, seats {','.join(result.seats)} (rotated), "
        f"seed {result.seed}, {result.jobs} job(s), {result.elapsed:.1f}s",
        "",
        f"Win rate per seat held (parity {result.parity:.1%}), 95% Wilson interval",
        f"  {'policy':<8} {'seats':>6} {'wins':>6} {'rate':>7}  95% CI",
    ]
    for s in result.policies.values():
        low, high = s.win_interval
        lines.append(
            f"  {s.policy:<8} {s.seat_matches:>6} {s.wins:>6} {s.win_rate:>7.1%}"
            f"  [{low:.1%}, {high:.1%}]"
        )
    lines += [
        "",
        "Mean lives lost per round played, by reason",
        f"  {'policy':<8} {'rounds':>7} "
        + " ".join(f"{r:>10}" for r in LOSS_REASONS)
        + f" {'total':>7}",
    ]
    for s in result.policies.values():
        per_round = [s.losses[r] / s.rounds if s.rounds else 0.0 for r in LOSS_REASONS]
        lines.append(
            f"  {s.policy:<8} {s.rounds:>7} "
            + " ".join(f"{x:>10.3f}" for x in per_round)
            + f" {sum(per_round):>7.3f}"
        )
    lines += [
        "",
        "Decision time (the policy call only, this machine)",
        f"  {'policy':<8} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for s in result.policies.values():
        lines.append(
            f"  {s.policy:<8} {len(s.decision_times):>9} {1e3 * s.time_percentile(50):>8.2f}"
            f" {1e3 * s.time_percentile(99):>8.2f} {1e3 * s.time_percentile(100):>8.2f}"
        )
    return "\n".join(lines)


def add_parser(sub: Any) -> None:
    """Register ``cuccu tournament`` on the CLI's subparsers."""
    tour = sub.add_parser("tournament", help="play bot-only matches between policies, in memory")
    tour.add_argument(
        "--seats",
        default="expert,basic,basic,basic",
        help=f"comma-separated policy per seat, rotated every match ({', '.join(POLICIES)})",
    )
    tour.add_argument("--matches", "-n", type=int, default=2000)
    tour.add_argument("--seed", type=int, help="tournament seed (default: random, printed)")
    tour.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (e.g. 2)")
    tour.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    tour.add_argument("--game", choices=("cuccu", "cucco21"), default="cuccu")
    tour.add_argument("--max-sets", type=int, default=3, help="cucco21: sets per game at most")
    tour.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    if args.game == "cucco21":
        from api.tournament_cucco21 import format_cucco21_result, run_cucco21_tournament

        try:
            c21 = run_cucco21_tournament(
                seats, args.matches, args.seed, args.jobs, not args.no_progress, args.max_sets
            )
        except ValueError as error:
            print(f"tournament: {error}", file=sys.stderr)
            return 2
        print(format_cucco21_result(c21))
        return 0
    try:
        result = run_tournament(seats, args.matches, args.seed, args.jobs, not args.no_progress)
    except ValueError as error:
        print(f"tournament: {error}", file=sys.stderr)
        return 2
    print(format_result(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m api.tournament``: the same as ``cuccu tournament``."""
    parser = argparse.ArgumentParser(prog="cuccu")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["tournament", *(sys.argv[1:] if argv is None else argv)])
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
