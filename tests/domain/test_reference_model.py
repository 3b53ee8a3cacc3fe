"""Differential tests: the independent reference round (``reference_round.py``) against the
hand-checked scenario files, and the rules engine (``domain``) against the reference on
hypothesis-generated rounds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.domain.reference_round import (
    CANONICAL_PACK,
    dealt_cards,
    participants_in_turn_order,
    play_reference_round,
    replay_chooser,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SCENARIO_FILES = sorted(SCENARIOS.glob("*.json"))


def test_the_scenario_folder_is_there() -> None:
    assert len(SCENARIO_FILES) == 32


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_the_reference_reproduces_every_scenario(path: Path) -> None:
    scenario: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    chooser, used = replay_chooser(scenario["decisions"])
    expected, decisions = play_reference_round(
        scenario["seats"],
        scenario["starting_lives"],
        scenario["lives_before"],
        scenario["dealer"],
        scenario["pack_top_to_bottom"],
        chooser,
    )
    assert used[0] == len(scenario["decisions"]), "not every decision was consumed"
    assert decisions == scenario["decisions"]
    for key, value in scenario["expected"].items():
        assert expected[key] == value, f"{path.stem}: {key} differs"
    assert set(expected) == set(scenario["expected"])
    order = participants_in_turn_order(
        scenario["seats"], scenario["lives_before"], scenario["dealer"]
    )
    assert order == scenario["turn_order"]
    dealt = dealt_cards(
        scenario["seats"],
        scenario["lives_before"],
        scenario["dealer"],
        scenario["pack_top_to_bottom"],
    )
    assert dealt == scenario["dealt"]


def test_the_canonical_pack_has_forty_distinct_cards() -> None:
    assert len(set(CANONICAL_PACK)) == 40
    assert CANONICAL_PACK[:3] == ("lion#1", "lion#2", "mask#1")
    assert CANONICAL_PACK[-2:] == ("fool#1", "fool#2")
