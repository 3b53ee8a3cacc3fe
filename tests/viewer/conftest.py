"""Fixtures for the viewer tests: exports of bot matches, a real API in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from domain.audit import chain, to_ndjson
from tests.viewer.support import ROOT, Api, free_port, stop, wait_http
from viewer.simulate import bot_match


@pytest.fixture(scope="session")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """The real API (``cuccu run`` without its viewer) on a free port and a temp SQLite DB."""
    db = tmp_path_factory.mktemp("api") / "cuccu.db"
    port = free_port()
    env = {**os.environ, "CUCCU_DATABASE_URL": f"sqlite:///{db}"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "run", "--port", str(port), "--no-viewer",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        wait_http(f"http://127.0.0.1:{port}/health", proc)
        yield Api(f"http://127.0.0.1:{port}")
    finally:
        stop(proc)


@pytest.fixture(scope="session")
def export_text() -> str:
    """The NDJSON export of a finished 4-seat bot match."""
    return to_ndjson(chain(bot_match(5, levels=("basic", "random"))))


@pytest.fixture(scope="session")
def tampered_text(export_text: str) -> tuple[str, int]:
    """The same export with one dealt card changed (hashes untouched), and its version."""
    lines = export_text.splitlines()
    for index, line in enumerate(lines):
        if '"type":"card_dealt"' in line and index > 10:
            card = line.split('"card":"')[1].split('"')[0]
            other = "lion#1" if card != "lion#1" else "lion#2"
            lines[index] = line.replace(f'"card":"{card}"', f'"card":"{other}"')
            return "\n".join(lines) + "\n", index + 1
    raise AssertionError("no deal to tamper with")
