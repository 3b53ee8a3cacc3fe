"""Cucco 21 bots, the game loop and ``cuccu tournament --game cucco21``."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout

import pytest

from api.tournament_cucco21 import format_cucco21_result, run_cucco21_tournament
from domain.games.cucco21.bots import POLICIES, choose
from domain.games.cucco21.bots.basic import basic_choice
from domain.games.cucco21.bots.expert import expert_choice
from domain.games.cucco21.bots.tournament import play_game
from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import StartRound
from domain.games.cucco21.conformance import position
from domain.games.cucco21.decide import apply
from domain.games.cucco21.evolve import fold
from domain.games.cucco21.game import GAME
from domain.games.cucco21.state import GameState
from domain.games.cucco21.views import GameView, view


def _turn_view(hand: str, discard: list[str], seats: int = 4, powers: bool = True) -> GameView:
    """Seat 1's view of its first turn (round 2, dealer 0), holding ``hand``."""
    rest = [c for c in CARDS if c != hand and c not in discard]
    deck = [hand, *rest]  # seat 1 is dealt first
    scenario = {
        "seats": seats, "starting_chips": 10, "powers": powers, "chips_before": [10] * seats,
        "box_before": 0, "alive_before": list(range(seats)), "bankrupt_before": [],
        "round_card": "2", "dealer": 0, "set_number": 1, "max_sets": None,
        "turn_order": [*range(1, seats), 0], "deck_top_to_bottom": deck,
        "discard_before": discard,
    }  # fmt: skip
    state, _ = apply(position(scenario), StartRound())
    seen = view(state, 1)
    assert seen.pending is not None and seen.pending.seat == 1 and seen.hand == hand
    return seen


def test_basic_trades_low_cards_and_clowns_and_keeps_high_ones() -> None:
    rng = random.Random(1)
    assert basic_choice(_turn_view("3#1", []), rng) == "trade"
    assert basic_choice(_turn_view("1#1", []), rng) == "trade"
    assert basic_choice(_turn_view("12#1", []), rng) == "trade"  # the Ceremony's claim
    assert basic_choice(_turn_view("15#1", []), rng) == "keep"
    assert basic_choice(_turn_view("12#1", [], powers=False), rng) == "keep"


def test_expert_counts_the_public_discard_pile() -> None:
    """A 9 is a keeper for ``basic``; once every card below 9 is in the discard pile, nobody
    can hold a lower card, so the expert trades it away."""
    rng = random.Random(1)
    assert expert_choice(_turn_view("9#1", []), rng) == "keep"
    low = [c for c in CARDS if int(c.split("#")[0]) < 9]
    counted = _turn_view("9#1", low)
    assert basic_choice(counted, rng) == "keep"
    assert expert_choice(counted, rng) == "trade"


def test_every_policy_answers_every_prompt_with_an_allowed_choice() -> None:
    for level in POLICIES:
        record = play_game([level, "random", "basic"], random.Random(level), max_sets=2)
        assert record.winners and sum(record.chips_won) == 0


def test_a_seeded_game_replays_exactly_and_folds_to_its_end() -> None:
    first = play_game(["expert", "basic"], random.Random(4), keep_events=True)
    again = play_game(["expert", "basic"], random.Random(4), keep_events=True)
    assert first.events == again.events and first.winners == again.winners
    state: GameState = fold(first.events)
    assert GAME.is_over(state) and state.winners == first.winners
    assert GAME.decode_events(b"[" + b",".join(map(GAME.encode_event, first.events)) + b"]") == (
        first.events
    )


def test_choose_refuses_a_step_without_a_seat() -> None:
    record = play_game(["basic", "basic"], random.Random(2), max_sets=1, keep_events=True)
    over = view(fold(record.events), 0)
    with pytest.raises(AssertionError):
        choose("basic", over, random.Random(0))


def test_the_tournament_reports_win_rates_chips_and_times() -> None:
    result = run_cucco21_tournament(["expert", "basic", "basic"], 9, 3, 1, False, max_sets=1)
    assert sum(s.seat_games for s in result.policies.values()) == 27
    assert sum(s.chips_won for s in result.policies.values()) == 0  # chips are conserved
    report = format_cucco21_result(result)
    assert "9 Cucco 21 games of 1 set(s) at most" in report and "95% Wilson" in report
    assert "expert" in report and "p99 ms" in report
    again = run_cucco21_tournament(["expert", "basic", "basic"], 9, 3, 2, False, max_sets=1)
    assert {p: (s.wins, s.chips_won) for p, s in again.policies.items()} == {
        p: (s.wins, s.chips_won) for p, s in result.policies.items()
    }


def test_the_cli_runs_a_cucco21_tournament() -> None:
    from api.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        args = ["tournament", "--game", "cucco21", "--seats", "expert,basic", "-n", "4"]
        code = main([*args, "--seed", "2", "--max-sets", "1", "--no-progress"])
    assert code == 0
    assert "4 Cucco 21 games of 1 set(s) at most, seats expert,basic" in out.getvalue()
    bad = ["tournament", "--game", "cucco21", "--seats", "basic,nobody", "--no-progress"]
    assert main(bad) == 2
    assert main(["tournament", "--game", "cucco21", "--seats", "basic", "--no-progress"]) == 2
