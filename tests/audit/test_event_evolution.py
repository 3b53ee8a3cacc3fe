"""Events evolve without breaking what was stored: a developer adds an optional field to an
event type (schema version 2, with its upcaster), and the chains, exports and signatures made
by today's code still verify and audit under the new code.

The new code is today's ``domain`` package copied and edited the way a developer would edit it,
run in a subprocess that imports the edited copy first (so nothing here is mocked).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from api.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"

LIFE_LOST_TODAY = """class LifeLost(_Event, frozen=True, tag=snake):
    seat: int
    reason: LossReason
    lives_after: int
    on_behalf_of: int | None = None
"""
LIFE_LOST_EVOLVED = """class LifeLost(_Event, frozen=True, tag=snake):
    seat: int
    reason: LossReason
    lives_after: int
    on_behalf_of: int | None = None
    note: str | None = None  # new in schema version 2

    schema_version: ClassVar[int] = 2

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> dict[str, Any]:
        UPCAST.append(1)  # (this test counts the calls)
        data["note"] = None  # version-1 losses had no note: what the rules make of them today
        return data


UPCAST: list[int] = []
"""

CHECK = r"""
import asyncio, json, sys
from pathlib import Path
import msgspec
from domain.games.cuccu.events import UPCAST, LifeLost
from domain.audit import audit, chain, parse_export, render
from domain.games import CUCCU
from api.keystore import KeyStore
from api.signing import check_seal
from api.store import EventStore, create_engine, verify_chain

db, export, key, fixtures = sys.argv[1:5]
out = {"schema": LifeLost.schema_version, "fields": list(LifeLost.__struct_fields__)}

async def stored():
    engine = create_engine(f"sqlite+aiosqlite:///{db}")
    try:
        store = EventStore(engine)
        result = []
        for match in await store.list_matches(limit=10):
            events = await store.load(match.id)
            verify_chain(events)
            result.append([e.event_of(CUCCU) for e in events])
        return result
    finally:
        await engine.dispose()

logs = asyncio.run(stored())
lost = [e for log in logs for e in log if isinstance(e, LifeLost)]
out["stored_matches"] = len(logs)
out["life_lost"] = len(lost)
out["upcasts"] = len(UPCAST)

exported = parse_export(Path(export).read_bytes())
report = audit(exported.records)
out["export_audit"] = report.ok or render(report)
sealed = check_seal(report, exported.seal, exported.keys, KeyStore(Path(key)).ring())
out["export_seal"] = sealed.detail if not sealed.ok else "ok"

legacy = {}
for path in sorted(Path(fixtures).glob("legacy-*.ndjson")):
    r = audit(parse_export(path.read_bytes()).records)
    legacy[path.name] = r.ok or render(r)
out["legacy_audits"] = legacy

# events written from now on carry the new field and schema version
new = chain(logs[0])
bodies = [msgspec.json.decode(r.body) for r in new if r.body.find(b'"life_lost"') > 0]
out["new_schema"] = sorted({b["schema"] for b in bodies})
out["new_has_note"] = all("note" in b["data"] for b in bodies)
out["new_audit"] = audit(new).ok
print(json.dumps(out))
"""


@pytest.fixture
def evolved_domain(tmp_path: Path) -> Path:
    """Today's domain package, with LifeLost given an optional field (schema version 2)."""
    root = tmp_path / "evolved"
    shutil.copytree(ROOT / "domain", root / "domain")
    events = root / "domain" / "games" / "cuccu" / "events.py"
    source = events.read_text()
    assert LIFE_LOST_TODAY in source, "LifeLost changed: update this test's copy of it"
    events.write_text(source.replace(LIFE_LOST_TODAY, LIFE_LOST_EVOLVED))
    return root


def test_old_chains_exports_and_signatures_survive_an_added_field(
    tmp_path: Path,
    evolved_domain: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # today's code stores matches, signs one and exports it
    db = tmp_path / "cuccu.db"
    url = f"sqlite:///{db}"
    assert main(["--database-url", url, "db", "upgrade"]) == 0
    assert main(["--database-url", url, "simulate", "-n", "3", "--store", "--seed", "5"]) == 0
    with sqlite3.connect(db) as conn:
        (match_id,) = conn.execute("SELECT id FROM matches LIMIT 1").fetchone()
        (lost,) = conn.execute("SELECT count(*) FROM events WHERE type = 'life_lost'").fetchone()
    assert lost > 0
    capsys.readouterr()
    assert main(["--database-url", url, "export", match_id]) == 0
    export = tmp_path / "match.ndjson"
    export.write_text(capsys.readouterr().out)
    assert '"seal"' in export.read_text()

    # the evolved code reads all of it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(evolved_domain), str(ROOT)])}
    key = f"{db}.signing-key.pem"
    run = subprocess.run(
        [sys.executable, "-c", CHECK, str(db), str(export), key, str(FIXTURES)],
        env=env,
        cwd=tmp_path,  # not the checkout: "-c" puts the working directory first on the path
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["schema"] == 2 and "note" in found["fields"]  # the edited code did run
    assert found["stored_matches"] == 3
    # every stored life_lost (schema 1) went through the upcaster; the export's too
    assert found["upcasts"] >= found["life_lost"] >= lost
    assert found["export_audit"] is True
    assert found["export_seal"] == "ok"
    assert found["legacy_audits"] == {
        "legacy-postgres-export.ndjson": True,
        "legacy-sqlite-export.ndjson": True,
    }
    assert found["new_schema"] == [2] and found["new_has_note"] and found["new_audit"]
