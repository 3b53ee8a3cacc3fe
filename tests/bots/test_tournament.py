"""``cuccu tournament``: seeded, rotated, in-memory bot matches and their report."""

from __future__ import annotations

import io
import pickle
import random
import subprocess
import sys
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from api.games.cuccu import format_result, play_match, run_tournament
from api.tally import ProgressBar, match_rng, percentile, seated_levels, wilson_interval
from domain.errors import DomainError
from domain.games.cuccu.bots import basic_choice
from domain.games.cuccu.state import MatchState
from domain.games.cuccu.views import MatchView, view

ROOT = Path(__file__).resolve().parents[2]


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 3) == 0.278
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(700, 2000)
    assert low < 0.35 < high and high - low < 0.05


def test_percentile() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert percentile([], 99) == 0.0


def test_policies_rotate_over_the_seats() -> None:
    seats = ["expert", "basic", "basic", "random"]
    assert seated_levels(seats, 0) == tuple(seats)
    assert seated_levels(seats, 1) == ("random", "expert", "basic", "basic")
    held = Counter(
        (seat, level) for m in range(8) for seat, level in enumerate(seated_levels(seats, m))
    )
    assert all(held[(seat, "expert")] == 2 for seat in range(4))


def test_a_match_is_played_to_its_end_and_replays_exactly() -> None:
    record = play_match(["basic", "random", "random"], match_rng(1, 0))
    assert 0 <= record.winner < 3
    assert min(record.rounds) >= 1
    reasons = {"hunter", "cat", "scoring", "inn_pledge"}
    assert all(set(losses) <= reasons for losses in record.losses)
    again = play_match(["basic", "random", "random"], match_rng(1, 0))
    assert again.winner == record.winner
    assert (again.rounds, again.losses) == (record.rounds, record.losses)


def _summary(seed: int, jobs: int) -> dict[str, tuple[int, int, int, Counter[str], int]]:
    result = run_tournament(["basic", "random", "random"], 30, seed, jobs, progress=False)
    return {
        p: (s.seat_matches, s.wins, s.rounds, s.losses, len(s.decision_times))
        for p, s in result.policies.items()
    }


def test_a_seeded_tournament_gives_the_same_results_on_any_number_of_jobs() -> None:
    one = _summary(8, jobs=1)
    assert one == _summary(8, jobs=2)
    assert one["basic"][0] == 30 and one["random"][0] == 60  # seat-matches held
    assert one["basic"][1] + one["random"][1] == 30  # one winner a match
    assert one != _summary(9, jobs=1)


def test_the_report_and_the_progress_bar() -> None:
    result = run_tournament(["basic", "random"], 10, 3, 1, progress=False)
    report = format_result(result)
    for needle in ("10 matches", "seed 3", "95% CI", "basic", "random", "p99 ms", "scoring"):
        assert needle in report
    stream = io.StringIO()
    bar = ProgressBar(4, stream)
    for done in range(1, 5):
        bar.update(done)
    bar.close()
    assert "4/4 matches" in stream.getvalue() and stream.getvalue().endswith("\n")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        run_tournament(["expert", "grandmaster"], 1, 1, 1, progress=False)
    with pytest.raises(ValueError, match="2 to 20 seats"):
        run_tournament(["basic"], 1, 1, 1, progress=False)


def test_the_cli_runs_a_tournament() -> None:
    from api.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(
            ["tournament", "--seats", "basic,random", "-n", "6", "--seed", "2", "--no-progress"]
        )
    assert code == 0
    assert "6 matches, seats basic,random (rotated), seed 2" in out.getvalue()
    assert main(["tournament", "--seats", "basic,nobody", "-n", "1", "--no-progress"]) == 2


def _basic_through_the_state(state: MatchState, seen: MatchView, rng: random.Random) -> str:
    assert seen == view(state, seen.viewer)  # the oracle is given its seat's view too
    return basic_choice(seen, rng)


def _broken(state: MatchState, seen: MatchView, rng: random.Random) -> str:
    raise DomainError("illegal_choice", "this seat always fails")


def test_an_oracle_seat_plays_like_the_policy_it_wraps() -> None:
    oracle = run_tournament(
        ["twin", "random"], 12, 5, 1, progress=False, oracles={"twin": _basic_through_the_state}
    )
    fair = run_tournament(["basic", "random"], 12, 5, 1, progress=False)
    assert oracle.policies["twin"].wins == fair.policies["basic"].wins
    assert oracle.policies["twin"].losses == fair.policies["basic"].losses


def test_a_domain_error_survives_pickling() -> None:
    error = pickle.loads(pickle.dumps(DomainError("seat_taken", "seat 2 is taken")))
    assert (error.code, error.message) == ("seat_taken", "seat 2 is taken")


def test_a_failing_seat_in_a_worker_process_stops_the_tournament_with_its_error() -> None:
    # Run apart, with a deadline: when the error could not be unpickled, the pool waited
    # forever for the result, and a hang must fail this test rather than stall the suite.
    script = (
        "from api.games.cuccu import run_tournament\n"
        "from tests.bots.test_tournament import _broken\n"
        "run_tournament(['broken', 'basic'], 4, 1, 2, progress=False, oracles={'broken': _broken})"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "DomainError" in done.stderr and "always fails" in done.stderr
