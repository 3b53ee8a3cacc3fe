"""Through the API: a match is signed when it ends, its export carries the seal and the keys, the
keys are served at the well-known path, and ``cuccu verify`` trusts what that path served."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.cli import main
from api.settings import Settings
from api.store import create_engine, upgrade_database
from tests.api.helpers import BOTS_ONLY, HUMAN_VS_BOTS, Client, bearer, create
from tests.conftest import PgServer


async def seal_rows(url: str, match_id: str) -> list[tuple[str, int, str]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as conn:
            rows = await conn.execute(
                sa.text("SELECT key_id, version, final_hash FROM match_seals WHERE match_id = :m"),
                {"m": match_id},
            )
            return [tuple(r) for r in rows]  # type: ignore[misc]
    finally:
        await engine.dispose()


async def test_a_finished_match_is_signed_and_verifies_with_the_served_keys(
    client: Client, migrated_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    created = await create(client, BOTS_ONLY)  # bots only: over within the creation
    mid = created["match_id"]
    keys = (await client.get("/.well-known/cuccu-keys.json")).json()
    [key] = keys["keys"]
    assert (key["kty"], key["crv"], key["status"]) == ("OKP", "Ed25519", "active")

    # sealed when it ended, before anyone asked for the export
    [(key_id, version, final_hash)] = await seal_rows(migrated_url, mid)
    assert key_id == key["kid"]

    resp = await client.get(f"/matches/{mid}/export")
    *records, last = [json.loads(line) for line in resp.text.splitlines()]
    assert last["keys"] == keys["keys"]
    assert last["seal"]["match_id"] == mid
    assert (last["seal"]["version"], last["seal"]["final_hash"]) == (version, final_hash)
    assert records[-1]["hash"] == final_hash and records[-1]["record"]["version"] == version

    export = tmp_path / "match.ndjson"
    export.write_text(resp.text)
    trusted = tmp_path / "keys.json"
    trusted.write_text(json.dumps(keys))
    capsys.readouterr()
    assert (
        await asyncio.to_thread(main, ["verify", str(export), "--trusted-key", str(trusted)]) == 0
    )
    assert "PASS signature" in capsys.readouterr().out


async def test_a_match_played_to_its_end_by_a_human_is_signed(
    client: Client, migrated_url: str
) -> None:
    created = await create(client, HUMAN_VS_BOTS)
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    for _ in range(500):
        match = (await client.get(f"/matches/{mid}", headers=bearer(token))).json()
        if match["view"]["status"] == "over":
            break
        assert await seal_rows(migrated_url, mid) == []  # not before the end
        pending = match["view"]["pending"]
        choice = pending["choices"][0] if pending and pending["seat"] == 0 else "next_round"
        resp = await client.post(
            f"/matches/{mid}/commands", json={"type": choice}, headers=bearer(token)
        )
        assert resp.status_code == 200, resp.text
    [(_, version, _)] = await seal_rows(migrated_url, mid)
    assert version == match["version"]


async def test_a_deleted_seal_is_not_made_again_from_what_the_database_holds(
    client: Client, migrated_url: str
) -> None:
    """Signing later would attest to whatever was written into the database meanwhile."""
    mid = (await create(client, BOTS_ONLY))["match_id"]
    assert len(await seal_rows(migrated_url, mid)) == 1
    engine = create_engine(migrated_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(sa.text("DELETE FROM match_seals WHERE match_id = :m"), {"m": mid})
    finally:
        await engine.dispose()
    export = (await client.get(f"/matches/{mid}/export")).text
    assert '"seal"' not in export and await seal_rows(migrated_url, mid) == []


@pytest.fixture
def private_pg(pg_server: PgServer) -> Iterator[str]:
    url = pg_server.create_database("unsigned")
    yield url
    pg_server.drop_database(url)


async def test_signing_is_off_on_postgresql_without_a_key(
    private_pg: str, caplog: pytest.LogCaptureFixture
) -> None:
    """No key file is made up where nobody set one: the server says so, serves no keys, and
    its exports carry no seal (which `cuccu verify` then refuses)."""
    await upgrade_database(private_pg)
    app = create_app(Settings(database_url=private_pg))
    logger = logging.getLogger("cuccu")
    logger.addHandler(caplog.handler)  # Litestar reconfigures the root logger's handlers
    try:
        async with AsyncTestClient(app=app) as client:
            assert (await client.get("/.well-known/cuccu-keys.json")).json() == {"keys": []}
            mid = (await create(client, BOTS_ONLY))["match_id"]
            export = (await client.get(f"/matches/{mid}/export")).text
    finally:
        logger.removeHandler(caplog.handler)
    assert '"seal"' not in export and '"record"' in export
    assert "signing is off: set CUCCU_SIGNING_KEY" in caplog.text


def test_keys_show_prints_the_key_ring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUCCU_SIGNING_KEY", str(tmp_path / "k.pem"))
    assert main(["keys", "show"]) == 0  # made on first use
    [key] = json.loads(capsys.readouterr().out)["keys"]
    assert (key["status"], key["kty"]) == ("active", "OKP")
    assert (tmp_path / "k.pem").stat().st_mode & 0o077 == 0  # the private key is private
    assert main(["keys", "show"]) == 0
    assert json.loads(capsys.readouterr().out)["keys"] == [key]  # the same key next time
