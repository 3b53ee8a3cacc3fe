"""bench/expert_ceiling.py: the oracles see what they claim, and the bench prints every line."""

from __future__ import annotations

import importlib.util
import random
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from domain.games.cuccu.bots.expert import PACK_SIZE, account
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState
from domain.games.cuccu.views import view
from tests.bots.bots_support import decisions

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "expert_ceiling", ROOT / "bench/expert_ceiling.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _a_late_turn() -> MatchState:
    """A turn of the third participant: two hands dealt before it, one still to come."""
    for state in decisions(["basic"] * 4, seed=3):
        decision = pending(state)
        assert decision is not None and state.round is not None
        if decision.kind == "turn" and decision.seat == state.round.participants[2]:
            return state
    raise AssertionError("no such turn")


def test_each_oracle_is_shown_exactly_the_positions_it_names() -> None:
    bench = _bench()
    state = _a_late_turn()
    assert state.round is not None
    seat = state.round.participants[2]
    holding = account(view(state, seat)).holding
    dealt = set(bench.revealed_positions("sees-dealt", state, holding))
    hands = set(bench.revealed_positions("sees-hands", state, holding))
    pack = set(bench.revealed_positions("sees-pack", state, holding))
    assert dealt == set(holding.values()) and len(dealt) == 3
    assert dealt < hands == set(range(PACK_SIZE - 4, PACK_SIZE))
    assert hands < pack and pack - hands == {0, PACK_SIZE - 5}  # horse's top, dealer's bottom
    legal = view(state, seat).pending
    assert legal is not None
    for reach in ("sees-dealt", "sees-hands", "sees-pack"):
        choice = bench.oracle_choice(reach, state, view(state, seat), random.Random(0))
        assert choice in legal.choices


def test_the_bench_prints_a_rate_and_interval_per_line() -> None:
    out = subprocess.run(
        [sys.executable, "bench/expert_ceiling.py", "--matches", "4", "--jobs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    for line in ("expert", "sees-dealt", "sees-hands", "sees-pack"):
        assert re.search(rf"^{line} +[\d.]+%  \[[\d.]+%, [\d.]+%\] +[\d.]+x", out.stdout, re.M)
