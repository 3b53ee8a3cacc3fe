"""Rule decisions RULES.md names (S31, S32, S39) but the shared scenario folder does not hold."""

from __future__ import annotations

from typing import Any

from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.conformance import play


def scenario(
    lives: list[int], bottom: list[str], decisions: list[tuple[int, str]]
) -> dict[str, Any]:
    """A 4-seat round dealt by seat 0; ``bottom`` lists the cards from the bottom up."""
    rest = [card for card in CARDS if card not in bottom]
    return play({
        "seats": 4, "starting_lives": 3, "lives_before": lives, "dealer": 0,
        "pack_top_to_bottom": rest + bottom[::-1],
        "decisions": [{"seat": seat, "choice": choice} for seat, choice in decisions],
    })  # fmt: skip


PLEDGE = [(1, "exchange"), (1, "inn_ask_pay"), (2, "inn_accept"), (2, "exchange")]


def test_an_innkeeper_pays_the_pledge_and_its_own_loss() -> None:  # D14, S32
    out = scenario([3, 3, 3, 3], ["zero#1", "inn#1", "zero#2", "5#1"],
                   [*PLEDGE, (3, "keep"), (0, "keep")])  # fmt: skip
    losses = [e for e in out["events"] if e["t"] == "life_loss"]
    assert losses == [
        {"t": "life_loss", "seat": 2, "reason": "inn_pledge", "lives_after": 2, "on_behalf_of": 1},
        {"t": "life_loss", "seat": 2, "reason": "scoring", "lives_after": 1},
    ]


def test_a_pledge_is_void_once_the_innkeeper_is_out() -> None:  # D14, S31
    out = scenario([3, 3, 1, 3], ["zero#1", "inn#1", "hunter#1", "5#1"],
                   [*PLEDGE, (3, "keep"), (0, "keep")])  # fmt: skip
    assert out["dead_seats"] == [2]
    assert out["life_losses"] == [{"seat": 2, "reason": "hunter"}, {"seat": 1, "reason": "scoring"}]


def test_a_fool_ignores_dead_cards() -> None:  # D17, S39
    out = scenario([3, 1, 3, 3], ["lion#1", "hunter#1", "fool#1", "4#1"],
                   [(1, "exchange"), (2, "keep"), (3, "keep"), (0, "keep")])  # fmt: skip
    score = next(e for e in out["events"] if e["t"] == "score")
    assert (score["dead"], score["losers"]) == ([1], [0, 3])  # the fool ties with IV, not the lion
