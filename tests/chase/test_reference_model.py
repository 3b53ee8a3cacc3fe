"""The engine and an independent reference round (reference_round.py) agree: on every shipped
scenario, and on random positions of the format (the kind acceptance generates): any number of
seats, lives and dealer, both options, a random pack and random answers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.conformance import first_difference
from domain.games.chase.cards import CARDS
from tests.chase.reference_round import play_round
from tests.chase.test_scenarios import FILES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_reference_reproduces_every_shipped_scenario(path: Any) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    answers = iter(d["choice"] for d in scenario["decisions"])
    expected, decisions = play_round(scenario, lambda seat, options: next(answers))
    assert decisions == scenario["decisions"]
    assert expected == scenario["expected"]


def random_scenario(seed: int) -> dict[str, Any]:
    """A legal ``chase-scenario/1`` position played out with random answers by the reference."""
    rng = random.Random(seed)
    n = rng.choice([2, 2, 3, 4, 4, 5, 6, 8, 12, 20])
    l0 = rng.randint(1, 9)
    # low lives make eliminations, wipe-outs and match ends common
    lives = [rng.choice([0, 1, 1, rng.randint(1, l0)]) for _ in range(n)]
    while sum(1 for x in lives if x > 0) < 2:
        lives[rng.randrange(n)] = rng.randint(1, l0)
    dealer = rng.choice([s for s in range(n) if lives[s] > 0])
    pack = list(CARDS)
    rng.shuffle(pack)
    if rng.random() < 0.5:  # Kings near the top: blocks, all-King tables and cut Kings
        pack = [c for c in pack if not c.startswith("K")]
        for king in ("KC", "KD", "KH", "KS"):
            pack.insert(rng.randint(0, n + 1), king)
    options = {"announce_low": rng.random() < 0.5, "king_cut_loses": rng.random() < 0.5}
    order = [x for x in ((dealer + i) % n for i in range(1, n + 1)) if lives[x] > 0]
    scenario: dict[str, Any] = {
        "format": "chase-scenario/1",
        "id": f"R{seed}",
        "name": "random",
        "depends_on": [],
        "seats": n,
        "starting_lives": l0,
        "lives_before": lives,
        "dealer": dealer,
        "options": options,
        "turn_order": order,
        "pack_top_to_bottom": pack,
    }
    bias = rng.random()
    expected, decisions = play_round(
        scenario, lambda seat, opts: opts[1] if rng.random() < bias else opts[0]
    )
    return scenario | {"decisions": decisions, "expected": expected}


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_the_engine_agrees_with_the_reference_on_random_rounds(seed: int) -> None:
    scenario = random_scenario(seed)
    assert sorted(scenario["pack_top_to_bottom"]) == sorted(CARDS)
    difference = first_difference(scenario)
    assert difference is None, (difference, seed)
