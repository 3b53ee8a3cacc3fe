"""Every scenario file in tests/scenarios and in the folders named by CUCCU_SCENARIOS passes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from domain.conformance import first_difference, main, scenario_files

HERE = Path(__file__).resolve().parent.parent / "scenarios"
FOLDERS = [str(HERE), *(d for d in os.environ.get("CUCCU_SCENARIOS", "").split(os.pathsep) if d)]
FILES = scenario_files(FOLDERS)


def test_the_copied_scenarios_are_all_there() -> None:
    assert len(list(HERE.glob("*.json"))) == 32


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    difference = first_difference(json.loads(path.read_text(encoding="utf-8")))
    assert difference is None, difference


def _s01() -> dict[str, Any]:
    scenario: dict[str, Any] = json.loads((HERE / "S01.json").read_text(encoding="utf-8"))
    return scenario


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"lives_before": [0, 3, 3, 3]}, "the dealer, seat 0, has no lives"),
        ({"lives_before": [3, 0, 0, 0]}, "fewer than two seats have lives"),
        ({"lives_before": [3, 3, 3]}, "lives_before must give 0 to starting_lives for each of 4"),
        ({"lives_before": [3, 3, 3, 9]}, "lives_before must give 0 to starting_lives"),
        ({"pack_top_to_bottom": None}, "malformed scenario: TypeError"),
        ({"expected": None}, "malformed scenario: no 'expected' object"),
    ],
)
def test_a_bad_scenario_is_reported_not_crashed_on(change: dict[str, Any], reason: str) -> None:
    scenario = _s01() | change
    assert scenario["dealer"] == 0 and first_difference(_s01()) is None
    difference = first_difference(scenario)
    assert difference is not None and reason in difference, difference


def test_the_runner_names_each_failure_and_counts(tmp_path: Path, capsys: Any) -> None:
    (tmp_path / "good.json").write_text(json.dumps(_s01()), encoding="utf-8")
    (tmp_path / "bad.json").write_text(json.dumps(_s01() | {"dealer": 1}), encoding="utf-8")
    (tmp_path / "empty.json").write_text("{}", encoding="utf-8")
    assert main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 2 failed"
    assert any(line.startswith("FAIL bad.json: ") for line in out)
    assert any(line.startswith("FAIL empty.json: malformed scenario") for line in out)
