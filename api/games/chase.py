"""``cuccu tournament --game chase``: bot-only Ranter-Go-Round matches, in memory.

    cuccu tournament --game chase --seats expert,basic,basic,basic --matches 2000
        [--chase-lives 3] [--announce-low] [--king-cut-loses]

Each seat's policy is rotated a seat every match; a match is played to its end (the last seat
with lives wins, A17). The report gives each policy's win rate with its 95% Wilson interval,
its lives lost per round played by reason (the lowest card, or the dealer's King cut under
``king_cut_loses``), the void rounds (A16), and its decision times. The pure loop is
``domain.games.chase.bots.autoplay``; the totals, seeds and intervals are every game's
(``api.tally``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from api.tally import (
    PolicyStats,
    ProgressBar,
    Tournament,
    match_rng,
    percentile,
    seated_levels,
    wilson_interval,
)
from domain.games.chase.bots import NEEDS_LOG, POLICIES, autoplay, choose
from domain.games.chase.commands import CreateMatch
from domain.games.chase.config import (
    DEFAULT_LIVES,
    MAX_LIVES,
    MAX_SEATS,
    MIN_LIVES,
    MIN_SEATS,
    Config,
    Options,
)
from domain.games.chase.decide import apply
from domain.games.chase.events import LifeLost, LossReason, MatchWon, RoundStarted, RoundWipedOut
from domain.games.chase.state import MatchState, initial_state
from domain.games.chase.views import view
from domain.seats import SeatSpec

LOSS_REASONS: tuple[LossReason, ...] = ("lowest", "king_cut")


@dataclass
class ChaseRecord:
    """One match, as the tournament needs it."""

    levels: tuple[str, ...]  # policy of each seat
    winner: int
    rounds: list[int]  # per seat: rounds it took part in
    losses: list[Counter[str]]  # per seat: lives lost, by reason
    void_rounds: int  # rounds that took every last life at once, and so took none (A16)
    decision_times: list[list[float]]  # per seat: seconds per decision


def play_match(
    levels: Sequence[str], rng: random.Random, *, starting_lives: int, options: Options
) -> ChaseRecord:
    """Play a bot-only match to its end. ``rng`` picks the first dealer, shuffles and salts
    every round and seeds the bots: each seat gets its own generator, so one bot's draws
    never shift another's."""
    n = len(levels)
    specs = tuple(SeatSpec(f"{level} {i}", "bot", level) for i, level in enumerate(levels))
    config = Config(specs, starting_lives, rng.randrange(n), options)
    created, _ = apply(initial_state(), CreateMatch(config))
    bots = [random.Random(rng.getrandbits(64)) for _ in range(n)]
    record = ChaseRecord(
        tuple(levels), -1, [0] * n, [Counter() for _ in range(n)], 0, [[] for _ in range(n)]
    )

    def answer(state: MatchState, seat: int) -> str:
        level = levels[seat]
        started = time.perf_counter()
        choice = choose(level, view(state, seat, with_log=level in NEEDS_LOG), bots[seat])
        record.decision_times[seat].append(time.perf_counter() - started)
        return choice

    for _, events in autoplay(created, answer, rng):
        for event in events:
            if isinstance(event, RoundStarted):
                for seat in event.participants:
                    record.rounds[seat] += 1
            elif isinstance(event, LifeLost):
                record.losses[event.seat][event.reason] += 1
            elif isinstance(event, RoundWipedOut):
                record.void_rounds += 1
            elif isinstance(event, MatchWon):
                record.winner = event.winner
    assert record.winner >= 0, "the match ended without a winner"
    return record


@dataclass
class ChaseResult:
    seats: list[str]
    matches: int
    seed: int
    jobs: int
    starting_lives: int
    options: Options
    elapsed: float
    void_rounds: int
    policies: dict[str, PolicyStats]

    @property
    def parity(self) -> float:
        return 1 / len(self.seats)


_Task = tuple[Sequence[str], int, int, int, Options]


def _play_numbered(task: _Task) -> ChaseRecord:
    seats, seed, match, lives, options = task
    levels = seated_levels(seats, match)
    return play_match(levels, match_rng(seed, match), starting_lives=lives, options=options)


def _records(
    seats: list[str], matches: int, seed: int, jobs: int, lives: int, options: Options
) -> Iterator[ChaseRecord]:
    tasks = ((seats, seed, m, lives, options) for m in range(matches))
    if jobs <= 1:
        yield from map(_play_numbered, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        # Small chunks keep the progress bar moving and both workers busy until the end.
        yield from pool.imap_unordered(_play_numbered, tasks, chunksize=4)


def run_chase_tournament(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    *,
    starting_lives: int = DEFAULT_LIVES,
    options: Options | None = None,
) -> ChaseResult:
    """Play ``matches`` matches of the policies in ``seats`` (rotated) and total them up."""
    options = options or Options()
    unknown = [s for s in seats if s not in POLICIES]
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; choose from {', '.join(POLICIES)}")
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(f"a Ranter-Go-Round match has {MIN_SEATS} to {MAX_SEATS} seats")
    if not MIN_LIVES <= starting_lives <= MAX_LIVES:
        raise ValueError(f"starting lives must be {MIN_LIVES} to {MAX_LIVES}")
    if matches < 1:
        raise ValueError("play at least one match")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    stats = {policy: PolicyStats(policy) for policy in dict.fromkeys(seats)}
    bar = ProgressBar(matches, sys.stderr) if progress else None
    started = time.perf_counter()
    void_rounds = 0
    records = _records(seats, matches, seed, jobs, starting_lives, options)
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
    elapsed = time.perf_counter() - started
    return ChaseResult(
        list(seats), matches, seed, jobs, starting_lives, options, elapsed, void_rounds, stats
    )


def format_chase_result(result: ChaseResult) -> str:
    """The report: win rates with 95% CIs, lives lost by reason, void rounds, decision times."""
    optional = {"announce_low": result.options.announce_low,
                "king_cut_loses": result.options.king_cut_loses}  # fmt: skip
    rules = [f"{result.starting_lives} lives", *(name for name, on in optional.items() if on)]
    lines = [
        f"{result.matches} Ranter-Go-Round matches ({', '.join(rules)}), seats"
        f" {','.join(result.seats)} (rotated), seed {result.seed}, {result.jobs} job(s),"
        f" {result.elapsed:.1f}s",
        "",
        f"Win rate per seat held (parity {result.parity:.1%}), 95% Wilson interval",
        f"  {'policy':<8} {'seats':>6} {'wins':>6} {'rate':>7}  95% CI",
    ]
    for s in result.policies.values():
        low, high = wilson_interval(s.wins, s.seat_matches)
        lines.append(
            f"  {s.policy:<8} {s.seat_matches:>6} {s.wins:>6} {s.win_rate:>7.1%}"
            f"  [{low:.1%}, {high:.1%}]"
        )
    lines += [
        "",
        "Mean lives lost per round played, by reason"
        f" ({result.void_rounds} void round(s) took none, A16)",
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
        "Decision time (view + policy call, this machine)",
        f"  {'policy':<8} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}",
    ]
    for s in result.policies.values():
        times = s.decision_times
        lines.append(
            f"  {s.policy:<8} {len(times):>9} {1e3 * percentile(times, 50):>8.3f}"
            f" {1e3 * percentile(times, 99):>8.3f} {1e3 * percentile(times, 100):>8.3f}"
        )
    return "\n".join(lines)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chase-lives",
        type=int,
        default=DEFAULT_LIVES,
        help=f"chase: lives per seat ({MIN_LIVES} to {MAX_LIVES})",
    )
    parser.add_argument(
        "--announce-low", action="store_true", help="chase: the optional rule A20 on"
    )
    parser.add_argument(
        "--king-cut-loses", action="store_true", help="chase: the optional rule A21 on"
    )


def _run(
    seats: list[str],
    matches: int,
    seed: int | None,
    jobs: int,
    progress: bool,
    args: argparse.Namespace,
) -> str:
    options = Options(announce_low=args.announce_low, king_cut_loses=args.king_cut_loses)
    result = run_chase_tournament(
        seats, matches, seed, jobs, progress, starting_lives=args.chase_lives, options=options
    )
    return format_chase_result(result)


TOURNAMENT = Tournament(tuple(POLICIES), _add_arguments, _run)
