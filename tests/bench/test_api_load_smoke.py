"""``bench/api_load.py --smoke`` runs end to end and prints its figures (no timing checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PgServer

ROOT = Path(__file__).resolve().parents[2]

# alone, after the parallel phase of `make test`: the load bench saturates the machine, and beside
# the CI-sized property tests it once ran past its 300 s timeout (30 s alone)
pytestmark = pytest.mark.serial


def test_api_load_smoke_prints_every_figure(pg_server: PgServer) -> None:
    admin = pg_server.admin_url.render_as_string(hide_password=False)
    out = subprocess.run(
        [sys.executable, "bench/api_load.py", "--smoke", "--database-url", admin],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout
    for phase in ("service", "ceiling"):
        line = next(ln for ln in text.splitlines() if ln.startswith(phase + " "))
        assert re.search(r"[\d.]+ commands/s", line), line
        assert re.search(r"p50 [\d.]+ ms\s+p95 [\d.]+ ms\s+p99 [\d.]+ ms", line), line
        assert "errors" not in line, line
    assert re.search(r"^raw +[\d.]+ commands/s", text, re.M), text
    assert re.search(r"^service/ceiling: [\d.]+$", text, re.M), text
    assert re.search(r"^service/raw: [\d.]+$", text, re.M), text


def test_rounds_alternate_the_phases_and_report_medians(pg_server: PgServer) -> None:
    admin = pg_server.admin_url.render_as_string(hide_password=False)
    out = subprocess.run(
        [sys.executable, "bench/api_load.py", "--smoke", "--rounds", "2", "--only", "service",
         "--only", "ceiling", "--database-url", admin],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout
    phases = [
        ln.split()[0] for ln in text.splitlines() if re.match(r"(service|ceiling) +[\d.]+ c", ln)
    ]
    assert phases == ["service", "ceiling", "service", "ceiling", "service", "ceiling"], text
    assert re.search(r"^service/ceiling per round: [\d.]+, [\d.]+; median [\d.]+", text, re.M), text
    assert re.search(r"server CPU per command, ceiling/service .*median [\d.]+$", text, re.M), text
    assert re.search(r"^service/ceiling: [\d.]+$", text, re.M), text
