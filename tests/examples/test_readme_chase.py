"""The README's "Ranter-Go-Round over HTTP", pasted into bash as a newcomer would, against a
live server: it creates a match, plays it to the end, replays and audits it.

The commands are read from the README itself (only the API's address is changed to the test
server's), so the test fails as soon as the README drifts from what the service does.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from domain.audit import audit, parse_export
from domain.games.chase.cards import CARD_SET
from tests.integration.server import ROOT, Server

SECTION = "## Ranter-Go-Round over HTTP"
ADDRESS = "API=http://127.0.0.1:8000"


def readme_commands() -> str:
    """The first ``sh`` block of the README's Ranter-Go-Round section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert SECTION in readme, f"the README has no {SECTION!r} section"
    section = readme.split(SECTION, 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```sh\n(.*?)```", section, re.S)
    assert found is not None, "the section has no sh block"
    assert found.group(1).splitlines()[0] == ADDRESS  # the one line the test changes
    return found.group(1)


def test_the_readme_steps_create_play_replay_and_audit_a_whole_chase_match(
    tmp_path: Path,
) -> None:
    missing = [tool for tool in ("bash", "curl", "python3") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {missing} is not installed")
        pytest.skip(f"the README's commands need {missing}")
    venv = Path(sys.prefix)
    if not (venv / "bin" / "cuccu").exists():
        pytest.skip(f"no cuccu command in {venv}: the README runs .venv/bin/cuccu")
    work = tmp_path / "newcomer"
    work.mkdir()
    (work / ".venv").symlink_to(venv)  # the README runs from the repository's folder
    server = Server(f"sqlite+aiosqlite:///{tmp_path / 'readme.db'}", viewer=False).start()
    try:
        script = readme_commands().replace(ADDRESS, f"API={server.base}", 1)
        done = subprocess.run(["bash", "-c", script], cwd=work, capture_output=True, text=True,
                              timeout=600)  # fmt: skip
    finally:
        server.stop()
    out = done.stdout
    assert done.returncode == 0, (out[-3000:], done.stderr[-3000:])
    assert not done.stderr.strip(), done.stderr[-3000:]

    created = json.loads((work / "created.json").read_text())
    assert created["game"] == "chase"
    lines = out.splitlines()
    # step 2 showed your card and your prompt (you may be asked first, or a bot before you)
    assert lines[0] in CARD_SET, lines[0]
    assert lines[1].startswith("{'seat': ") and "'choices': ['" in lines[1], lines[1]
    # step 3 played to the end: the last answer is the finished match's view
    final = json.loads((work / "answer.json").read_text())["view"]
    assert final["status"] == "over" and final["winner"] is not None
    assert lines[2] == str(final["winner"])
    # step 4 replayed the log: rounds scored, lives lost, then the winner
    replayed = [line for line in lines if re.match(r"\d+ \{'type': ", line)]
    assert "'type': 'round_scored'" in replayed[0]
    assert any("'type': 'life_lost'" in line for line in replayed)
    assert "'type': 'match_won'" in replayed[-1]
    # step 5 audited the export, its signature and its place in the transparency log
    assert "audit passed" in lines and lines[-1] == "verify passed"
    assert lines[-3].startswith("PASS signature: signed by trusted key "), lines[-3]
    assert lines[-2].startswith("PASS log: leaf 0 of the log "), lines[-2]
    export = parse_export((work / "chase.ndjson").read_bytes())
    assert export.seal is not None and audit(export.records).ok
