"""The "ceiling" reference of ``bench/api_load.py``: Litestar + psycopg, no game logic.

One endpoint, ``POST /commands/{client}``, runs the SQL a service command needs on
PostgreSQL and nothing else: read the stream's version, move the match row on with the
optimistic lock, insert the same event rows the service would, commit. It is served by
uvicorn exactly like the API (one process), so ``service / ceiling`` is the share of the
framework-and-database budget that the game logic, redaction and the ORM leave.

Configured by environment: ``BENCH_DSN`` (libpq URI), ``BENCH_BATCHES`` (a JSON file of
event batches written by ``api_load.py``), ``BENCH_POOL`` (connections, default 10).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from litestar import Litestar, post
from litestar.datastructures import State

INSERT = (
    "INSERT INTO events (match_id, version, type, data, meta, recorded_at, prev_hash, hash, "
    "body, envelope) VALUES (%s, %s, %s, %s::jsonb, %s::jsonb, now(), %s, %s, %s, 2)"
)


@post("/commands/{client:int}", status_code=200)
async def command(client: int, state: State) -> dict[str, Any]:
    pool: asyncio.Queue[psycopg.AsyncConnection[Any]] = state.pool
    batches: list[list[list[str]]] = state.batches
    match_id = f"ceiling-{client}"
    conn = await pool.get()
    try:
        async with conn.transaction():
            cur = await conn.execute("SELECT version FROM matches WHERE id = %s", (match_id,))
            row = await cur.fetchone()
            assert row is not None
            version: int = row[0]
            batch = batches[next(state.turns) % len(batches)]
            await conn.execute(
                "UPDATE matches SET version = %s, updated_at = now() "
                "WHERE id = %s AND version = %s",
                (version + len(batch), match_id, version),
            )
            async with conn.cursor() as c:
                await c.executemany(
                    INSERT,
                    [
                        (match_id, version + i, typ, data, meta, prev, h, body)
                        for i, (typ, data, meta, prev, h, body) in enumerate(batch, start=1)
                    ],
                )
    finally:
        pool.put_nowait(conn)
    return {"version": version + len(batch), "events": len(batch)}


def create_app() -> Litestar:
    dsn = os.environ["BENCH_DSN"]
    size = int(os.environ.get("BENCH_POOL", "10"))
    with open(os.environ["BENCH_BATCHES"]) as f:
        batches = json.load(f)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool: asyncio.Queue[psycopg.AsyncConnection[Any]] = asyncio.Queue()
        conns = [await psycopg.AsyncConnection.connect(dsn) for _ in range(size)]
        for c in conns:
            pool.put_nowait(c)
        app.state.pool = pool
        app.state.batches = batches
        app.state.turns = itertools.count()
        try:
            yield
        finally:
            for c in conns:
                await c.close()

    return Litestar(route_handlers=[command], lifespan=[lifespan], openapi_config=None)
