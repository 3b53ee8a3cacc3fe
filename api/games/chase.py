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
import random
import time
from collections.abc import Sequence
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


def play_match(
    levels: Sequence[str], rng: random.Random, *, starting_lives: int, options: Options
) -> LivesRecord:
    """Play a bot-only match to its end. ``rng`` picks the first dealer, shuffles and salts
    every round and seeds the bots: each seat gets its own generator, so one bot's draws
    never shift another's."""
    n = len(levels)
    specs = tuple(SeatSpec(f"{level} {i}", "bot", level) for i, level in enumerate(levels))
    config = Config(specs, starting_lives, rng.randrange(n), options)
    created, _ = apply(initial_state(), CreateMatch(config))
    bots = [random.Random(rng.getrandbits(64)) for _ in range(n)]
    record = LivesRecord.starting(levels)

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


def _play_numbered(task: _Task) -> LivesRecord:
    seats, seed, match, lives, options = task
    levels = seated_levels(seats, match)
    return play_match(levels, match_rng(seed, match), starting_lives=lives, options=options)


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
    tasks = ((seats, seed, m, starting_lives, options) for m in range(matches))
    totals = total_up(played(_play_numbered, tasks, jobs), seats, matches, progress)
    return ChaseResult(
        list(seats), matches, seed, jobs, starting_lives, options, totals.elapsed,
        totals.void_rounds, totals.policies,
    )  # fmt: skip


def format_chase_result(result: ChaseResult) -> str:
    """The report: win rates with 95% CIs, lives lost by reason, void rounds, decision times."""
    optional = {"announce_low": result.options.announce_low,
                "king_cut_loses": result.options.king_cut_loses}  # fmt: skip
    rules = [f"{result.starting_lives} lives", *(name for name, on in optional.items() if on)]
    header = (
        f"{result.matches} Ranter-Go-Round matches ({', '.join(rules)}), seats"
        f" {','.join(result.seats)} (rotated), seed {result.seed}, {result.jobs} job(s),"
        f" {result.elapsed:.1f}s"
    )
    tables = lives_report(
        result.policies.values(),
        result.parity,
        LOSS_REASONS,
        losses_heading="Mean lives lost per round played, by reason"
        f" ({result.void_rounds} void round(s) took none, A16)",
        times_heading="Decision time (view + policy call, this machine)",
    )
    return "\n".join([header, "", *tables])


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
