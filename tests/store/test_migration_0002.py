"""Migration 0002 on a database holding matches written before it (revision 0001).

Old rows keep their hashes (computed over the bare event, envelope 1) and get the exact bytes
that were hashed as their record; they verify, audit, export and can be signed. A match in
progress at the migration goes on with envelope-2 records chained onto the old ones.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine

from api.cli import main
from api.export import export_lines
from api.store import ChainBroken, EventStore, MatchSummary, create_engine, upgrade, verify_chain
from api.store.migrate import current_revision, head_revision
from domain.audit import audit, parse_export, parse_record, render
from domain.envelope import LEGACY_ENVELOPE, RECORD_ENVELOPE
from domain.games import CUCCU
from domain.games.cuccu.evolve import fold

FIXTURES = Path(__file__).parents[1] / "audit" / "fixtures"
JsonType = sa.JSON().with_variant(JSONB(), "postgresql")

# the tables as revision 0001 had them
OLD_MATCHES = sa.table(
    "matches",
    sa.column("id", sa.String),
    sa.column("status", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("updated_at", sa.DateTime(timezone=True)),
    sa.column("seats", JsonType),
    sa.column("starting_lives", sa.Integer),
    sa.column("lives", JsonType),
    sa.column("winner", sa.Integer),
    sa.column("rounds", sa.Integer),
    sa.column("version", sa.Integer),
)
OLD_EVENTS = sa.table(
    "events",
    sa.column("match_id", sa.String),
    sa.column("version", sa.Integer),
    sa.column("type", sa.String),
    sa.column("data", JsonType),
    sa.column("meta", JsonType),
    sa.column("recorded_at", sa.DateTime(timezone=True)),
    sa.column("prev_hash", sa.String),
    sa.column("hash", sa.String),
)


def old_lines(name: str) -> list[dict[str, Any]]:
    text = (FIXTURES / f"{name}.ndjson").read_bytes()
    return [msgspec.json.decode(line) for line in text.splitlines()]


async def store_old_match(engine: AsyncEngine, lines: list[dict[str, Any]]) -> str:
    """Write an exported pre-0002 match back as revision 0001 stored it."""
    first = lines[0]
    match_id: str = first["match_id"]
    stamp = dt.datetime.fromisoformat(first["recorded_at"])
    last = lines[-1]["data"]
    async with engine.begin() as conn:
        await conn.execute(
            sa.insert(OLD_MATCHES).values(
                id=match_id,
                status="over" if last["type"] == "match_won" else "in_round",
                created_at=stamp,
                updated_at=stamp,
                seats=first["data"]["seats"],
                starting_lives=first["data"]["starting_lives"],
                lives=[0] * len(first["data"]["seats"]),
                winner=last.get("winner"),
                rounds=0,
                version=len(lines),
            )
        )
        await conn.execute(
            sa.insert(OLD_EVENTS),
            [
                {
                    "match_id": match_id,
                    "version": ln["version"],
                    "type": ln["type"],
                    "data": ln["data"],
                    "meta": ln["meta"],
                    "recorded_at": dt.datetime.fromisoformat(ln["recorded_at"]),
                    "prev_hash": ln["prev_hash"],
                    "hash": ln["hash"],
                }
                for ln in lines
            ],
        )
    return match_id


@pytest.fixture
async def old_engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(database_url)
    await upgrade(engine, "0001")
    yield engine
    await engine.dispose()


@pytest.mark.parametrize("fixture", ["legacy-sqlite-export", "legacy-postgres-export"])
async def test_an_old_finished_match_verifies_audits_and_is_signed_after_migrating(
    old_engine: AsyncEngine,
    database_url: str,
    fixture: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = old_lines(fixture)
    match_id = await store_old_match(old_engine, lines)
    await upgrade(old_engine)
    assert await current_revision(old_engine) == head_revision()

    store = EventStore(old_engine)
    stored = await store.load(match_id)
    assert [s.envelope for s in stored] == [LEGACY_ENVELOPE] * len(lines)
    assert [s.hash for s in stored] == [ln["hash"] for ln in lines]  # never recomputed
    verify_chain(stored)
    exported = parse_export(export_lines(stored))
    report = audit(exported.records)
    assert report.ok, render(report)
    assert (report.match_id, report.envelope, report.final_hash) == (
        match_id,
        LEGACY_ENVELOPE,
        lines[-1]["hash"],
    )

    # the finished old match is signed when first exported (verify alone signs nothing), and
    # then verifies through the service's settings (the CLI runs its own loop: in a thread)
    monkeypatch.setenv("CUCCU_SIGNING_KEY", str(tmp_path / "signing-key.pem"))
    url = database_url.replace("+aiosqlite", "").replace("+psycopg", "")
    verify = ["--database-url", url, "verify", match_id]
    assert await asyncio.to_thread(main, verify) == 1
    assert "FAIL signature: the export carries no signature" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["--database-url", url, "export", match_id]) == 0
    assert '"seal"' in capsys.readouterr().out.splitlines()[-1]
    assert await asyncio.to_thread(main, verify) == 0
    out = capsys.readouterr().out
    assert "PASS signature" in out and "legacy records" in out

    # the stored record bytes are what is verified: altering them breaks the chain
    third = stored[2]
    async with old_engine.begin() as conn:
        await conn.execute(
            sa.text("UPDATE events SET body = :body WHERE match_id = :m AND version = 3"),
            {"m": match_id, "body": third.body.replace('"seat":', '"seat": ')},
        )
    with pytest.raises(ChainBroken):
        verify_chain(await store.load(match_id))


async def test_a_match_in_progress_goes_on_with_current_records(
    old_engine: AsyncEngine,
) -> None:
    lines = old_lines("legacy-sqlite-export")
    cut = 10
    match_id = await store_old_match(old_engine, lines[:cut])
    await upgrade(old_engine)
    store = EventStore(old_engine)
    before = await store.load(match_id)
    state = fold([s.event_of(CUCCU) for s in before])
    events = [parse_record(ln).event for ln in lines[cut:]]
    final = fold(events, state)
    await store.commit(
        match_id,
        expected_version=cut,
        prev_hash=before[-1].hash,
        events=events,
        metas=[{"actor": "service", "command": {"type": "test"}}] * len(events),
        summary=MatchSummary(
            status=final.status,
            standing=list(final.lives),
            winners=[] if final.winner is None else [final.winner],
            rounds=final.rounds_played,
            version=final.version,
        ),
    )
    stored = await store.load(match_id)
    assert [s.envelope for s in stored] == [LEGACY_ENVELOPE] * cut + [RECORD_ENVELOPE] * (
        len(lines) - cut
    )
    verify_chain(stored)
    report = audit(parse_export(export_lines(stored)).records)
    assert report.ok, render(report)
    assert report.envelope == LEGACY_ENVELOPE and report.match_id == match_id
