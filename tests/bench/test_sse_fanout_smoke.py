"""``bench/sse_fanout.py`` runs end to end on PostgreSQL and prints its figures (no timing
checked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import PgServer

ROOT = Path(__file__).resolve().parents[2]


def test_sse_fanout_prints_the_delivery_delay_and_the_cpu_per_message(
    pg_server: PgServer,
) -> None:
    admin = pg_server.admin_url.render_as_string(hide_password=False)
    out = subprocess.run(
        [sys.executable, "bench/sse_fanout.py", "--subscribers", "3", "--commands", "4",
         "--database-url", admin],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(
        r"^S=   3: 4 commands, delivery after the answer p50 [\d.]+ ms, p99 [\d.]+ ms, "
        r"max [\d.]+ ms; [\d,]+ messages/s; API process \d+ µs CPU per message",
        out.stdout,
        re.M,
    ), out.stdout
