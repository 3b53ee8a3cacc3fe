"""Every Chase the Ace scenario in tests/scenarios-chase passes through the shared runner, and
the runner rejects what the format calls illegal (tests/scenarios-chase/README.md, "Legal
positions", "Prompts and decisions")."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from domain.conformance import first_difference, main, scenario_files

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "scenarios-chase"
FILES = scenario_files([str(HERE)])


def test_the_copied_scenarios_are_all_there() -> None:
    assert len(FILES) == 33 and (HERE / "README.md").is_file()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    difference = first_difference(json.loads(path.read_text(encoding="utf-8")))
    assert difference is None, difference


def _load(name: str) -> dict[str, Any]:
    scenario: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return scenario


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"seats": 1}, "seats must be 2 to 20"),
        ({"seats": 21}, "seats must be 2 to 20"),
        ({"seats": 4.0}, "seats must be 2 to 20"),
        ({"starting_lives": 0}, "starting_lives must be 1 to 9"),
        ({"starting_lives": 10}, "starting_lives must be 1 to 9"),
        ({"starting_lives": True}, "starting_lives must be 1 to 9"),
        ({"lives_before": [3, 3, 3]}, "lives_before"),
        ({"lives_before": [3, 3, 3, 4]}, "lives_before"),
        ({"lives_before": [3, 3, 3, -1]}, "lives_before"),
        ({"lives_before": [3, 3, True, 3]}, "lives_before"),
        ({"lives_before": [3, 0, 0, 0]}, "fewer than two seats have lives"),
        ({"lives_before": [0, 3, 3, 3], "turn_order": [1, 2, 3]}, "the dealer needs lives"),
        ({"dealer": 4}, "the dealer needs lives"),
        ({"dealer": 1}, "turn_order must be [2, 3, 0, 1]"),
        ({"turn_order": [1, 2, 3]}, "turn_order must be [1, 2, 3, 0]"),
        ({"options": {"announce_low": False}}, "options must have exactly"),
        ({"options": {"announce_low": 0, "king_cut_loses": False}}, "options must have exactly"),
        (
            {"options": {"announce_low": False, "king_cut_loses": False, "x": True}},
            "options must have exactly",
        ),
        ({"decisions": [{"seat": 1}]}, "exactly the keys seat and choice"),
        ({"decisions": [{"seat": 1, "choice": "keep", "why": "x"}]}, "exactly the keys"),
        ({"decisions": [{"seat": True, "choice": "keep"}]}, "seat is an integer"),
        ({"pack_top_to_bottom": None}, "52 cards exactly once"),
        ({"expected": None}, "no 'expected' object"),
    ],
)
def test_an_illegal_or_malformed_file_fails(change: dict[str, Any], reason: str) -> None:
    assert first_difference(_load("X01")) is None
    difference = first_difference(_load("X01") | change)
    assert difference is not None and reason in difference, difference


def test_a_missing_field_is_malformed() -> None:
    scenario = _load("X01")
    del scenario["dealer"]
    assert "malformed scenario: KeyError" in (first_difference(scenario) or "")


def test_the_pack_must_hold_each_card_once() -> None:
    scenario = _load("X01")
    pack = scenario["pack_top_to_bottom"]
    for bad in ([pack[0], *pack[:-1]], pack[:-1], [*pack, "AS"], ["1S", *pack[1:]]):
        difference = first_difference(scenario | {"pack_top_to_bottom": bad})
        assert difference is not None and "52 cards exactly once" in difference


def test_expected_must_have_exactly_the_readme_fields() -> None:
    scenario = _load("X01")
    fewer = copy.deepcopy(scenario)
    del fewer["expected"]["void"]
    assert "expected lacks ['void']" in (first_difference(fewer) or "")
    more = copy.deepcopy(scenario)
    more["expected"]["reset"] = False
    assert "unknown ['reset']" in (first_difference(more) or "")


def test_values_compare_with_their_json_types() -> None:
    scenario = copy.deepcopy(_load("X01"))
    scenario["expected"]["void"] = 0  # Python's == takes False for 0; the format does not
    assert "void" in (first_difference(scenario) or "")
    scenario = copy.deepcopy(_load("X01"))
    scenario["expected"]["lives_after"] = [float(x) for x in scenario["expected"]["lives_after"]]
    assert "lives_after" in (first_difference(scenario) or "")


def test_a_wrong_answer_fails() -> None:
    scenario = _load("X01")
    decisions = scenario["decisions"]
    assert "no decision left" in (first_difference(scenario | {"decisions": decisions[:-1]}) or "")
    extra = [*decisions, {"seat": 1, "choice": "keep"}]
    assert "left over" in (first_difference(scenario | {"decisions": extra}) or "")
    wrong_seat = [{"seat": 2, "choice": "keep"}, *decisions[1:]]
    assert "the prompt is turn to seat 1" in (
        first_difference(scenario | {"decisions": wrong_seat}) or ""
    )
    # a non-dealer cannot cut, the dealer cannot exchange
    cut = [{"seat": 1, "choice": "cut"}, *decisions[1:]]
    assert "(keep/exchange)" in (first_difference(scenario | {"decisions": cut}) or "")
    exchange = [*decisions[:-1], {"seat": 0, "choice": "exchange"}]
    assert "dealer_turn to seat 0 (keep/cut)" in (
        first_difference(scenario | {"decisions": exchange}) or ""
    )
    changed = copy.deepcopy(scenario)
    changed["expected"]["lives_after"][2] = 3
    assert "lives_after" in (first_difference(changed) or "")


def test_a_shown_seat_gets_no_prompt() -> None:
    scenario = _load("X04")  # seat 2 blocks with its King: the next prompt is seat 3's
    decisions = [scenario["decisions"][0], {"seat": 2, "choice": "keep"}]
    difference = first_difference(scenario | {"decisions": decisions + scenario["decisions"][1:]})
    assert difference is not None and "the prompt is turn to seat 3" in difference


def test_the_runner_takes_folders_mixing_the_three_formats(tmp_path: Path, capsys: Any) -> None:
    for name, path in (
        ("cuccu", ROOT / "scenarios" / "S01.json"),
        ("cucco21", ROOT / "scenarios-cucco21" / "T01.json"),
        ("chase", HERE / "X01.json"),
    ):
        (tmp_path / f"{name}.json").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    bad = _load("X01") | {"dealer": 1}
    (tmp_path / "chase_bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "3 passed, 1 failed"
    assert out[0].startswith("FAIL chase_bad.json: IllegalPosition: illegal position: turn_order")
