"""``cuccu tournament`` (``--game cuccu``, the default): bot-only Cuccù matches, in memory.

    cuccu tournament --seats expert,basic,basic,basic --matches 2000 [--seed S] [--jobs 2]

Each seat's policy is rotated a seat every match; the report gives each policy's win rate with
its 95% Wilson interval, its lives lost per round by reason, and its decision times.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from api.tally import (
    LivesRecord,
    PolicyStats,
    Tournament,
    lives_report,
    match_rng,
    played,
    seated_levels,
    total_up,
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


def play_match(
    levels: Sequence[str], rng: random.Random, oracles: Mapping[str, Oracle] | None = None
) -> LivesRecord:
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
    record = LivesRecord.starting(levels)

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


def _play_numbered(task: tuple[Sequence[str], int, int, Mapping[str, Oracle]]) -> LivesRecord:
    seats, seed, match, oracles = task
    return play_match(seated_levels(seats, match), match_rng(seed, match), oracles)


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
    tasks = ((seats, seed, m, oracles) for m in range(matches))
    totals = total_up(played(_play_numbered, tasks, jobs), seats, matches, progress)
    return TournamentResult(list(seats), matches, seed, jobs, totals.elapsed, totals.policies)


def format_result(result: TournamentResult) -> str:
    """The tournament report: win rates with 95% CIs, lives lost by reason, decision times."""
    return "\n".join(
        [
            f"{result.matches} matches, seats {','.join(result.seats)} (rotated), "
            f"seed {result.seed}, {result.jobs} job(s), {result.elapsed:.1f}s",
            "",
            *lives_report(result.policies.values(), result.parity, LOSS_REASONS),
        ]
    )


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
