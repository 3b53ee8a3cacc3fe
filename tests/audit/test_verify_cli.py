"""``cuccu verify MATCH_ID|FILE.ndjson``: prints the audit report and the signature check,
exits non-zero on failure."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from api.cli import main
from api.export import export_lines
from domain.audit import chain, parse_ndjson, to_ndjson
from viewer.games.cuccu import bot_match

FIXTURES = Path(__file__).parent / "fixtures"


def test_verify_a_good_unsigned_export_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "match.ndjson"
    path.write_text(to_ndjson(chain(bot_match(4))))
    assert main(["verify", "--allow-unsigned", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("PASS") == 8 and "audit passed" in out and "verify passed" in out
    assert main(["verify", str(path)]) == 1  # an unsigned log proves nothing by default


@pytest.mark.parametrize("name", ["legacy-sqlite-export", "legacy-postgres-export"])
def test_exports_made_before_revision_0002_still_audit(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--allow-unsigned", str(FIXTURES / f"{name}.ndjson")]) == 0
    out = capsys.readouterr().out
    assert "audit passed" in out and "legacy records" in out


def test_verify_a_tampered_export_names_the_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = to_ndjson(chain(bot_match(4))).splitlines()
    third = lines[2]  # v3: the first card dealt
    assert '"card_dealt"' in third
    card = third.split('"card":"')[1].split('"')[0]
    other = "lion#1" if card != "lion#1" else "lion#2"
    lines[2] = third.replace(card, other)
    path = tmp_path / "tampered.ndjson"
    path.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL hash chain at v3" in out
    assert "FAIL re-execution of the decisions at v3" in out
    assert "audit FAILED" in out


def test_verify_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "junk.ndjson"
    path.write_text("{}\n")
    assert main(["verify", str(path)]) == 2
    assert "line 1" in capsys.readouterr().err


def test_verify_a_stored_match_by_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cuccu.db'}"
    assert main(["--database-url", url, "db", "upgrade"]) == 0
    assert main(["--database-url", url, "simulate", "-n", "1", "--store", "--seed", "3"]) == 0
    with sqlite3.connect(tmp_path / "cuccu.db") as db:
        (match_id,) = db.execute("SELECT id FROM matches").fetchone()
    capsys.readouterr()
    # signed with the key made beside the database file, trusted through the same settings
    assert main(["--database-url", url, "verify", match_id]) == 0
    out = capsys.readouterr().out
    assert "audit passed" in out and "PASS signature: signed by trusted key" in out
    assert (tmp_path / "cuccu.db.signing-key.pem").is_file()
    assert main(["--database-url", url, "verify", "no-such-match"]) == 2


def test_the_audit_passes_on_every_match_the_service_stores(tmp_path: Path) -> None:
    """Matches played and stored by the real service (bots, seeded shuffles, hash chain)."""
    import asyncio

    from api.store import EventStore, create_engine
    from domain.audit import audit, render

    url = f"sqlite:///{tmp_path / 'cuccu.db'}"
    assert main(["--database-url", url, "db", "upgrade"]) == 0
    for level, seats in (("basic", "4"), ("random", "3"), ("basic", "6")):
        args = ["simulate", "-n", "10", "--store", "--level", level, "--seats", seats]
        assert main(["--database-url", url, *args]) == 0

    async def reports() -> list[str]:
        engine = create_engine(url)
        try:
            store = EventStore(engine)
            found = []
            for match in await store.list_matches(limit=100):
                stored = await store.load(match.id)
                report = audit(parse_ndjson(export_lines(stored)))
                found.append("ok" if report.ok else render(report))
            return found
        finally:
            await engine.dispose()

    results = asyncio.run(reports())
    assert len(results) == 30
    assert results == ["ok"] * 30, next(r for r in results if r != "ok")
