"""Every Cucco 21 scenario in tests/scenarios-cucco21 passes, and the runner rejects what the
format calls illegal (tests/scenarios-cucco21/README.md, "Legal positions")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from domain.conformance import first_difference, main, scenario_files

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "scenarios-cucco21"
FILES = scenario_files([str(HERE)])


def test_the_copied_scenarios_are_all_there() -> None:
    assert len(FILES) == 37 and (HERE / "README.md").is_file()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    difference = first_difference(json.loads(path.read_text(encoding="utf-8")))
    assert difference is None, difference


def _load(name: str) -> dict[str, Any]:
    scenario: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return scenario


def _swap_first_two(cards: list[str]) -> list[str]:
    return [cards[1], cards[0], *cards[2:]]


@pytest.mark.parametrize(
    ("name", "change", "reason"),
    [
        ("T01", {"deck_top_to_bottom": ["9#1", "9#1"]}, "the 42 cards"),
        ("T01", {"chips_before": [15, 15, 15, 14]}, "chips are not conserved"),
        ("T01", {"dealer": 1}, "turn_order must be"),
        ("T01", {"alive_before": [0, 1, 2]}, "round 1 begins a set"),
        ("T01", {"alive_before": [0]}, "fewer than two seats are alive"),
        ("T01", {"alive_before": [2, 1, 0, 3]}, "must be sorted"),
        ("T01", {"max_sets": 0}, "max_sets"),
        ("T01", {"seats": 13}, "seats must be 2 to 12"),
        ("T01", {"round_card": "4"}, "round_card"),
        ("T01", {"bankrupt_before": [0]}, "both alive and bankrupt"),
        ("T01", {"expected": None}, "no 'expected' object"),
        ("T01", {"deck_top_to_bottom": None}, "malformed scenario"),
    ],
)
def test_an_illegal_or_malformed_file_fails(name: str, change: dict[str, Any], reason: str) -> None:
    assert first_difference(_load(name)) is None
    difference = first_difference(_load(name) | change)
    assert difference is not None and reason in difference, difference


def test_a_wrong_answer_fails() -> None:
    scenario = _load("T01")
    assert first_difference(scenario | {"decisions": scenario["decisions"][:-1]}) is not None
    extra = [*scenario["decisions"], {"seat": 1, "choice": "keep"}]
    assert "left over" in (first_difference(scenario | {"decisions": extra}) or "")
    wrong_seat = [{"seat": 2, "choice": "keep"}, *scenario["decisions"][1:]]
    assert "the prompt is turn to seat 1" in (
        first_difference(scenario | {"decisions": wrong_seat}) or ""
    )
    changed = json.loads(json.dumps(scenario))
    changed["expected"]["chips_after"][2] = 14
    assert "chips_after" in (first_difference(changed) or "")


def test_a_reshuffle_must_be_a_permutation_of_the_discard_pile() -> None:
    with_reshuffle = next(
        s for s in (json.loads(p.read_text(encoding="utf-8")) for p in FILES) if s["reshuffles"]
    )
    assert first_difference(with_reshuffle) is None
    bad = json.loads(json.dumps(with_reshuffle))
    bad["reshuffles"][0] = bad["reshuffles"][0][1:]
    assert "permutation" in (first_difference(bad) or "")
    assert "no entry left" in (first_difference(with_reshuffle | {"reshuffles": []}) or "")
    extra = [*with_reshuffle["reshuffles"], with_reshuffle["reshuffles"][0]]
    assert "left over" in (first_difference(with_reshuffle | {"reshuffles": extra}) or "")


def test_the_runner_takes_folders_mixing_both_formats(tmp_path: Path, capsys: Any) -> None:
    cuccu = json.loads((ROOT / "scenarios" / "S01.json").read_text(encoding="utf-8"))
    (tmp_path / "cuccu.json").write_text(json.dumps(cuccu), encoding="utf-8")
    (tmp_path / "c21.json").write_text(json.dumps(_load("T01")), encoding="utf-8")
    bad = _load("T01") | {"dealer": 1}
    (tmp_path / "c21_bad.json").write_text(json.dumps(bad), encoding="utf-8")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "2 passed, 1 failed"
    assert out[0].startswith("FAIL c21_bad.json: IllegalPosition")
