"""Every scenario file in tests/scenarios and in the folders named by CUCCU_SCENARIOS passes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from domain.conformance import first_difference, scenario_files

HERE = Path(__file__).resolve().parent.parent / "scenarios"
FOLDERS = [str(HERE), *(d for d in os.environ.get("CUCCU_SCENARIOS", "").split(os.pathsep) if d)]
FILES = scenario_files(FOLDERS)


def test_the_copied_scenarios_are_all_there() -> None:
    assert len(list(HERE.glob("*.json"))) == 32


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_scenario(path: Path) -> None:
    difference = first_difference(json.loads(path.read_text(encoding="utf-8")))
    assert difference is None, difference
