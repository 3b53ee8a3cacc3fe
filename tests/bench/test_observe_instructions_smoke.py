"""``bench/observe_instructions.py``: its workload runs in each configuration, and the ``off``
one really takes the watching out (its counters see no command). The Valgrind runs themselves
take minutes and are not run here (no figure is checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("config", "counted"), [("off", 0), ("metrics", 12), ("on", 12)])
def test_each_configuration_plays_the_seeded_workload(config: str, counted: int) -> None:
    out = subprocess.run(
        [sys.executable, "bench/observe_instructions.py", "--child", config, "--commands", "12"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    found = re.search(r"^requests=(\d+) counted=(\d+)$", out.stdout, re.M)
    assert found is not None, out.stdout
    assert int(found.group(1)) > 12  # the commands, and each match's creation and first read
    assert int(found.group(2)) == counted
