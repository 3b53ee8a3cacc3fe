"""Migration 0003: idempotency records keep versions, converted from the stored answers."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import create_engine
from api.store.migrate import upgrade


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    try:
        yield eng
    finally:
        await eng.dispose()


async def test_existing_records_keep_the_versions_of_their_answer(engine: AsyncEngine) -> None:
    await upgrade(engine, "0001")
    stamp = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    answer = {"match_id": "m1", "version": 9, "events": [{"version": 6}, {"version": 9}]}
    claim = {"match_id": "m1", "version": 4, "token": "", "events": []}
    async with engine.begin() as conn:
        await conn.execute(
            sa.text(
                "INSERT INTO matches (id, status, created_at, updated_at, seats, starting_lives,"
                " lives, winner, rounds, version, seed) VALUES ('m1', 'in_round', :t, :t, '[]',"
                " 2, '[]', NULL, 1, 9, NULL)"
            ),
            {"t": stamp},
        )
        for seat, key, body, status in ((0, "k1", answer, 200), (1, "k2", claim, 201)):
            await conn.execute(
                sa.text(
                    "INSERT INTO idempotency_keys (match_id, seat, key, fingerprint, status_code,"
                    " body, created_at) VALUES ('m1', :s, :k, 'f', :c, :b, :t)"
                ),
                {"s": seat, "k": key, "c": status, "b": json.dumps(body), "t": stamp},
            )
    await upgrade(engine)
    async with engine.connect() as conn:
        rows = (
            await conn.execute(
                sa.text(
                    "SELECT key, first_version, last_version FROM idempotency_keys ORDER BY key"
                )
            )
        ).all()
        columns = await conn.run_sync(
            lambda c: {col["name"] for col in sa.inspect(c).get_columns("idempotency_keys")}
        )
    assert [tuple(r) for r in rows] == [("k1", 5, 9), ("k2", 4, 4)]
    assert "body" not in columns and "status_code" not in columns
