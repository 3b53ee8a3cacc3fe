"""``cuccu tournament --game cucco21``: bot-only Cucco 21 games, in memory.

    cuccu tournament --game cucco21 --seats expert,basic,basic,basic --matches 2000 [--max-sets 3]

The games are played by the pure loop ``domain.games.cucco21.bots.tournament.play_game``;
this module only totals and reports them, with every game's tournament helpers (seat rotation,
per-match seeds, Wilson intervals, percentiles, the progress bar). A seat wins a game when it
ends with the most chips (C26; a tie is a win for each tied seat).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from api.tally import (
    ProgressBar,
    Tournament,
    match_rng,
    percentile,
    seated_levels,
    wilson_interval,
)
from domain.games.cucco21.bots import POLICIES
from domain.games.cucco21.bots.tournament import GameRecord, Oracle, play_game
from domain.games.cucco21.config import MAX_SEATS, MIN_SEATS


@dataclass
class Cucco21Stats:
    policy: str
    seat_games: int = 0  # a policy on two seats of a game counts twice
    wins: int = 0
    chips_won: int = 0
    decision_times: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0


@dataclass
class Cucco21Result:
    seats: list[str]
    matches: int
    seed: int
    jobs: int
    max_sets: int
    elapsed: float
    rounds: int
    policies: dict[str, Cucco21Stats]


def _play_numbered(task: tuple[list[str], int, int, int, Mapping[str, Oracle]]) -> GameRecord:
    seats, seed, match, max_sets, oracles = task
    levels = seated_levels(seats, match)
    return play_game(levels, match_rng(seed, match), max_sets=max_sets, oracles=oracles)


def _records(
    seats: list[str],
    matches: int,
    seed: int,
    jobs: int,
    max_sets: int,
    oracles: Mapping[str, Oracle],
) -> Iterator[GameRecord]:
    tasks = ((seats, seed, m, max_sets, oracles) for m in range(matches))
    if jobs <= 1:
        yield from map(_play_numbered, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_numbered, tasks, chunksize=4)


def run_cucco21_tournament(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    max_sets: int,
    oracles: Mapping[str, Oracle] | None = None,
) -> Cucco21Result:
    """Play ``matches`` games of the policies in ``seats`` (rotated) and total them up. A level
    named in ``oracles`` is played by that oracle (benchmarks only: bench/cucco21_ceiling.py)."""
    oracles = dict(oracles or {})
    unknown = [s for s in seats if s not in POLICIES and s not in oracles]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; choose from {', '.join(POLICIES)}")
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(f"a Cucco 21 game has {MIN_SEATS} to {MAX_SEATS} seats")
    if matches < 1 or max_sets < 1:
        raise ValueError("play at least one game of at least one set")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    stats = {policy: Cucco21Stats(policy) for policy in dict.fromkeys(seats)}
    bar = ProgressBar(matches, sys.stderr) if progress else None
    started = time.perf_counter()
    rounds = 0
    for done, record in enumerate(_records(seats, matches, seed, jobs, max_sets, oracles), start=1):
        rounds += record.rounds
        for seat, policy in enumerate(record.levels):
            entry = stats[policy]
            entry.seat_games += 1
            entry.wins += seat in record.winners
            entry.chips_won += record.chips_won[seat]
            entry.decision_times.extend(record.decision_times[seat])
        if bar is not None:
            bar.update(done)
    if bar is not None:
        bar.close()
    elapsed = time.perf_counter() - started
    return Cucco21Result(list(seats), matches, seed, jobs, max_sets, elapsed, rounds, stats)


def format_cucco21_result(result: Cucco21Result) -> str:
    lines = [
        f"{result.matches} Cucco 21 games of {result.max_sets} set(s) at most, seats"
        f" {','.join(result.seats)} (rotated), seed {result.seed}, {result.jobs} job(s),"
        f" {result.elapsed:.1f}s, {result.rounds / result.matches:.1f} rounds/game",
        "",
        "Win rate per seat held (most chips at the end; ties win for each), 95% Wilson interval",
        f"  {'policy':<10} {'seats':>6} {'wins':>6} {'rate':>7}  {'95% CI':<16} {'chips/game':>10}",
    ]
    for s in result.policies.values():
        low, high = wilson_interval(s.wins, s.seat_games)
        chips = s.chips_won / s.seat_games if s.seat_games else 0.0
        lines.append(
            f"  {s.policy:<10} {s.seat_games:>6} {s.wins:>6} {s.win_rate:>7.1%}"
            f"  [{low:.1%}, {high:.1%}]{'':<2} {chips:>+10.2f}"
        )
    lines += [
        "",
        "Decision time (view + policy call, this machine)",
        f"  {'policy':<10} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for s in result.policies.values():
        times = s.decision_times
        lines.append(
            f"  {s.policy:<10} {len(times):>9} {1e3 * percentile(times, 50):>8.3f}"
            f" {1e3 * percentile(times, 99):>8.3f} {1e3 * percentile(times, 100):>8.3f}"
        )
    return "\n".join(lines)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-sets", type=int, default=3, help="cucco21: sets per game at most")


def _run(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    args: argparse.Namespace,
) -> str:
    result = run_cucco21_tournament(seats, matches, seed, jobs, progress, args.max_sets)
    return format_cucco21_result(result)


TOURNAMENT = Tournament(tuple(POLICIES), _add_arguments, _run)
