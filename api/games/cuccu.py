"""``cuccu tournament`` (``--game cuccu``, the default): bot-only Cuccù matches, in memory.

    cuccu tournament --seats expert,basic,basic,basic --matches 2000 [--seed S] [--jobs 2]

Each seat's policy is rotated a seat every match; the report gives each policy's win rate with
its 95% Wilson interval, its lives lost per round by reason, and its decision times.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from api.tally import (
    PolicyStats,
    ProgressBar,
    Tournament,
    match_rng,
    seated_levels,
)
from domain.games import CUCCU
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
    if not CUCCU.min_seats <= len(seats) <= CUCCU.max_seats:
        raise ValueError(f"a match has {CUCCU.min_seats} to {CUCCU.max_seats} seats")
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


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    """Cuccù's tournament has no options of its own (every match starts with 3 lives)."""


def _run(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    _: argparse.Namespace,
) -> str:
    return format_result(run_tournament(seats, matches, seed, jobs, progress))


TOURNAMENT = Tournament(tuple(POLICIES), _add_arguments, _run)
