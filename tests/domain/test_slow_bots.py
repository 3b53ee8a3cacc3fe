"""Which bot turns the service hands to a worker process (``Game.slow_bots``): an expert's
search, or a bots-only play-out too long for the event loop; short basic play-outs stay."""

from __future__ import annotations

from domain.games.cuccu.commands import CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.game import GAME
from domain.games.cuccu.state import MatchState, initial_state
from domain.seats import SeatSpec


def _table(levels: list[str | None], lives: int) -> MatchState:
    seats = tuple(
        SeatSpec(name="me")
        if level is None
        else SeatSpec(name=f"b{i}", kind="bot", bot_level=level)
        for i, level in enumerate(levels)
    )
    state, _ = apply(initial_state(), CreateMatch(seats=seats, starting_lives=lives))
    return state


def test_an_expert_always_plays_in_a_worker() -> None:
    assert GAME.slow_bots(_table([None, "expert", "basic"], 3))


def test_bots_beside_a_live_person_play_in_place() -> None:
    assert not GAME.slow_bots(_table([None] + ["basic"] * 19, 20))


def test_a_small_bots_only_play_out_stays_in_place() -> None:
    state = _table(["basic"] * 4, 3)  # 4 seats × 12 lives = 48
    assert not GAME.slow_bots(state)


def test_a_long_bots_only_play_out_goes_to_a_worker() -> None:
    assert GAME.slow_bots(_table(["basic"] * 4, 4))  # 4 × 16 = 64
    assert GAME.slow_bots(_table(["random"] * 20, 3))
