"""What every game's ``cuccu tournament`` shares: the seat rotation, each match's own seed,
the worker processes, Wilson intervals, percentiles and the progress bar; for the games played
for lives, the match record, the totals and the report's tables; and the shape of a game's
tournament (:class:`Tournament`), which ``api.games`` registers by game and ``api.tournament``
runs."""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TextIO, TypeVar

_Task = TypeVar("_Task")
_Record = TypeVar("_Record")


@dataclass(frozen=True)
class Tournament:
    """One game's bot-only tournament on the command line.

    ``add_arguments`` adds the game's own options (``--max-sets``) to ``cuccu tournament``;
    ``run`` plays it, given the seats' policies, the number of matches, the seed (None:
    random), the worker processes, whether to draw a progress bar, and the parsed arguments,
    and answers the report. A wrong input is ``ValueError``, said to the user.
    """

    policies: Sequence[str]
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[list[str], int, int | None, int, bool, argparse.Namespace], str]


def seated_levels(seats: Sequence[str], match: int) -> tuple[str, ...]:
    """The policies by seat for match number ``match``: the list rotated by one seat a match."""
    n = len(seats)
    return tuple(seats[(i - match) % n] for i in range(n))


def match_rng(seed: int, match: int) -> random.Random:
    """Match ``match``'s own generator (str seeds are hashed with SHA-512, so stable)."""
    return random.Random(f"cuccu-tournament:{seed}:{match}")


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


@dataclass
class PolicyStats:
    """One policy's totals over every seat it held in every match of a game played for lives
    (its wins, the rounds it was dealt in, its lives lost by reason, its decision times)."""

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
class LivesRecord:
    """One match of a game played for lives, as its tournament needs it."""

    levels: tuple[str, ...]  # policy of each seat
    winner: int
    rounds: list[int]  # per seat: rounds it took part in
    losses: list[Counter[str]]  # per seat: lives lost, by reason
    decision_times: list[list[float]]  # per seat: seconds per decision
    #: rounds that took every last life at once, and so took none (where a game's rules void them)
    void_rounds: int = 0

    @classmethod
    def starting(cls, levels: Sequence[str]) -> LivesRecord:
        n = len(levels)
        return cls(
            tuple(levels), -1, [0] * n, [Counter() for _ in range(n)], [[] for _ in range(n)]
        )


def played(
    play: Callable[[_Task], _Record], tasks: Iterable[_Task], jobs: int
) -> Iterator[_Record]:
    """Each task's record: in this process, or in ``jobs`` worker processes (in any order)."""
    if jobs <= 1:
        yield from map(play, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        # Small chunks keep the progress bar moving and both workers busy until the end.
        yield from pool.imap_unordered(play, tasks, chunksize=4)


@dataclass
class LivesTotals:
    policies: dict[str, PolicyStats]
    void_rounds: int
    elapsed: float


def total_up(
    records: Iterable[LivesRecord], seats: Sequence[str], matches: int, progress: bool
) -> LivesTotals:
    """Every policy's totals over ``matches`` records, with a progress bar on stderr if asked."""
    stats = {policy: PolicyStats(policy) for policy in dict.fromkeys(seats)}
    bar = ProgressBar(matches, sys.stderr) if progress else None
    started = time.perf_counter()
    void_rounds = 0
    for done, record in enumerate(records, start=1):
        void_rounds += record.void_rounds
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
    return LivesTotals(stats, void_rounds, time.perf_counter() - started)


def lives_report(
    policies: Iterable[PolicyStats],
    parity: float,
    loss_reasons: Sequence[str],
    *,
    losses_heading: str = "Mean lives lost per round played, by reason",
    times_heading: str = "Decision time (the policy call only, this machine)",
) -> list[str]:
    """The report's tables: win rates with 95% CIs, lives lost by reason, decision times."""
    policies = list(policies)
    lines = [
        f"Win rate per seat held (parity {parity:.1%}), 95% Wilson interval",
        f"  {'policy':<8} {'seats':>6} {'wins':>6} {'rate':>7}  95% CI",
    ]
    for s in policies:
        low, high = s.win_interval
        lines.append(
            f"  {s.policy:<8} {s.seat_matches:>6} {s.wins:>6} {s.win_rate:>7.1%}"
            f"  [{low:.1%}, {high:.1%}]"
        )
    lines += [
        "",
        losses_heading,
        f"  {'policy':<8} {'rounds':>7} "
        + " ".join(f"{r:>10}" for r in loss_reasons)
        + f" {'total':>7}",
    ]
    for s in policies:
        per_round = [s.losses[r] / s.rounds if s.rounds else 0.0 for r in loss_reasons]
        lines.append(
            f"  {s.policy:<8} {s.rounds:>7} "
            + " ".join(f"{x:>10.3f}" for x in per_round)
            + f" {sum(per_round):>7.3f}"
        )
    lines += [
        "",
        times_heading,
        f"  {'policy':<8} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for s in policies:
        lines.append(
            f"  {s.policy:<8} {len(s.decision_times):>9} {1e3 * s.time_percentile(50):>8.2f}"
            f" {1e3 * s.time_percentile(99):>8.2f} {1e3 * s.time_percentile(100):>8.2f}"
        )
    return lines
