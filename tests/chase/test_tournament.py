"""``cuccu tournament --game chase``: bot-only Ranter-Go-Round matches, seeded, any jobs."""

from __future__ import annotations

import io
from contextlib import redirect_stdout

import pytest

from api.games.chase import format_chase_result, play_match, run_chase_tournament
from api.tally import match_rng
from domain.games.chase.config import Options


def test_a_match_is_played_to_its_end_and_replays_exactly() -> None:
    rules = Options(king_cut_loses=True)
    record = play_match(
        ["expert", "basic", "random"], match_rng(1, 0), starting_lives=2, options=rules
    )
    assert 0 <= record.winner < 3 and min(record.rounds) >= 1
    assert all(set(losses) <= {"lowest", "king_cut"} for losses in record.losses)
    # each loser of the match lost every life it had (a void round takes none, A16)
    lost = [sum(losses.values()) for losses in record.losses]
    assert [n for seat, n in enumerate(lost) if seat != record.winner] == [2, 2]
    again = play_match(
        ["expert", "basic", "random"], match_rng(1, 0), starting_lives=2, options=rules
    )
    assert (again.winner, again.rounds, again.losses) == (
        record.winner,
        record.rounds,
        record.losses,
    )


def test_a_seeded_tournament_gives_the_same_results_on_any_number_of_jobs() -> None:
    def summary(seed: int, jobs: int) -> dict[str, tuple[int, int, int]]:
        result = run_chase_tournament(["expert", "basic", "random"], 12, seed, jobs, False)
        return {p: (s.seat_matches, s.wins, s.rounds) for p, s in result.policies.items()}

    one = summary(8, jobs=1)
    assert one == summary(8, jobs=2)
    assert sum(wins for _, wins, _ in one.values()) == 12  # one winner a match
    assert one != summary(9, jobs=1)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        run_chase_tournament(["expert", "grandmaster"], 1, 1, 1, False)
    with pytest.raises(ValueError, match="2 to 20 seats"):
        run_chase_tournament(["basic"], 1, 1, 1, False)
    with pytest.raises(ValueError, match="starting lives must be 1 to 9"):
        run_chase_tournament(["basic", "basic"], 1, 1, 1, False, starting_lives=10)


def test_the_cli_runs_a_chase_tournament_with_its_options() -> None:
    from api.cli import main

    out = io.StringIO()
    argv = ["tournament", "--game", "chase", "--seats", "expert,basic", "-n", "6", "--seed", "2"]
    with redirect_stdout(out):
        code = main([*argv, "--chase-lives", "2", "--king-cut-loses", "--no-progress"])
    assert code == 0
    report = out.getvalue()
    assert "6 Ranter-Go-Round matches (2 lives, king_cut_loses), seats expert,basic" in report
    for needle in ("seed 2", "95% CI", "lowest", "king_cut", "p99 ms"):
        assert needle in report
    result = run_chase_tournament(["basic", "random"], 3, 3, 1, False)
    assert "3 Ranter-Go-Round matches (3 lives)," in format_chase_result(result)


def test_the_cli_simulates_chase_matches() -> None:
    from api.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["simulate", "--game", "chase", "-n", "3", "--seats", "3", "--lives", "2"])
    assert code == 0
    assert "3 matches of 3 'basic' bots (Ranter-Go-Round: starting_lives 2" in out.getvalue()
