"""bench/simulate.py --game cucco21 plays, folds and prints its figures (none is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_cucco21_bench_prints_rounds_and_fold_rates() -> None:
    command = [sys.executable, "bench/simulate.py", "--game", "cucco21", "--matches", "3"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "3 Cucco 21 games of 4 basic bots, 15 chips, at most 3 set(s), seed 1" in out
    for line in ("rounds/s", "rounds per CPU second", "(evolve, CPU time)", "Cuccù fold"):
        assert line in out, out
    assert "ratio: Cucco 21 fold / Cuccù fold = " in out
