"""Bot tournaments: many seeded bot-only matches, played in-process with the pure domain.

    cuccu tournament [--game NAME] --seats expert,basic,basic,basic --matches 2000 [--seed S]
        [--jobs 2] [the game's own options: ``cuccu tournament --help`` lists them]

Policies are rotated across the seats from one match to the next, so no policy keeps a
favourable seat. No database is involved: each match is folded in memory by its game's
``apply``, shuffled by ``random.Random`` from a per-match seed, so a tournament with a given
seed replays exactly (except its timings). Match ``m`` depends only on the seed and ``m``,
which is what lets ``--jobs`` spread the matches over processes without changing any result.
Each game's tournament (its own options and report) is in ``api.games``; this module is the
command line that picks one by ``--game``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from api.games import TOURNAMENTS
from domain.games import DEFAULT_GAME, GAMES


def add_parser(sub: Any) -> None:
    """Register ``cuccu tournament`` on the CLI's subparsers."""
    tour = sub.add_parser("tournament", help="play bot-only matches between policies, in memory")
    policies = dict.fromkeys(p for t in TOURNAMENTS.values() for p in t.policies)
    tour.add_argument(
        "--seats",
        default="expert,basic,basic,basic",
        help=f"comma-separated policy per seat, rotated every match ({', '.join(policies)})",
    )
    tour.add_argument("--matches", "-n", type=int, default=2000)
    tour.add_argument("--seed", type=int, help="tournament seed (default: random, printed)")
    tour.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (e.g. 2)")
    tour.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    tour.add_argument("--game", choices=tuple(GAMES), default=DEFAULT_GAME)
    for tournament in TOURNAMENTS.values():
        tournament.add_arguments(tour)
    tour.set_defaults(func=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> int:
    seats = [s.strip() for s in args.seats.split(",") if s.strip()]
    tournament = TOURNAMENTS[args.game]
    try:
        report = tournament.run(
            seats, args.matches, args.seed, args.jobs, not args.no_progress, args
        )
    except ValueError as error:
        print(f"tournament: {error}", file=sys.stderr)
        return 2
    print(report)
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
