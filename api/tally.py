"""What every game's ``cuccu tournament`` shares: the seat rotation, each match's own seed,
Wilson intervals, percentiles and the progress bar; and the shape of a game's tournament
(:class:`Tournament`), which ``api.games`` registers by game and ``api.tournament`` runs."""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO


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
