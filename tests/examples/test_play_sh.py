"""examples/play.sh, written from docs/API.md alone, plays a whole match with curl and jq."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from domain.audit import audit, parse_ndjson
from tests.integration.server import ROOT, Server

SCRIPT = ROOT / "examples" / "play.sh"


def test_play_sh_plays_a_whole_match_with_curl(tmp_path: Path) -> None:
    missing = [tool for tool in ("bash", "curl", "jq") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {missing} is not installed (.ci/run installs jq)")
        pytest.skip(f"examples/play.sh needs {missing}")
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'play.db'}", viewer=False).start()
    export = tmp_path / "match.ndjson"
    try:
        done = subprocess.run(
            ["bash", str(SCRIPT), server.base],
            env={**os.environ, "EXPORT": str(export), "NAME": "Shelly", "LIVES": "2"},
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        server.stop()
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    lines = done.stdout.splitlines()
    assert lines[1] == "claimed seat 0 as Shelly"
    assert any(line.startswith("match over after ") for line in lines), lines
    report = audit(parse_ndjson(export.read_bytes()))
    assert report.ok, report
    assert b'"name":"Shelly"' in export.read_bytes()
