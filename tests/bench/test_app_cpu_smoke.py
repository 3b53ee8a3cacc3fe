"""``bench/app_cpu.py`` runs end to end and prints its figure (no timing checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_app_cpu_prints_the_cpu_per_command() -> None:
    out = subprocess.run(
        [sys.executable, "bench/app_cpu.py", "--commands", "40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(
        r"^app CPU per command: \d+ µs, of which garbage collection \d+ µs", out.stdout, re.M
    ), out.stdout
