"""Latency of unrelated requests while expert tables are being played.

    python bench/bot_load.py [--tables 4] [--seats 20] [--lives 2] [--duration 20]
                             [--bot-workers 2] [--root DIR] [--database-url URL]

Starts the API (``cuccu run``, one uvicorn process) on a fresh PostgreSQL database, then runs
at the same time:

- **tables**: ``--tables`` clients, each playing seat 0 of a match against ``--seats - 1``
  expert bots (a random choice each time, ``next_round`` included), match after match: every
  command makes the experts think;
- **probe**: one client that alternates ``GET /matches/{id}`` of a small, unrelated match and
  ``GET /health`` every 10 ms, and records each latency.

It prints the probe's p50/p95/p99/max and the tables' commands and their latency. With
``--root`` the server is started from another checkout (e.g. a worktree of an older commit,
to measure "before" on the same box); ``--bot-workers`` sets ``CUCCU_BOT_WORKERS`` (0 plays
every table on the event loop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.engine import make_url  # noqa: E402

from api.store.db import admin_connection  # noqa: E402
from bench.api_load import DEFAULT_ADMIN, HttpConn, free_port, pct, stop, wait_http  # noqa: E402


def start_api(root: Path, db_url: str, bot_workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "CUCCU_DATABASE_URL": db_url,
        "CUCCU_RATE_LIMIT": "0",
        "CUCCU_BOT_WORKERS": str(bot_workers),
        "PYTHONPATH": str(root),
    }
    cmd = [sys.executable, "-m", "api.cli", "run", "--no-viewer", "--port", str(port)]
    cmd += ["--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=root, env=env)
    wait_http(port, "/health", proc, timeout=60)
    return proc, port


async def table_client(
    port: int, seats: int, lives: int, seed: int, stop_at: float, out: list[float]
) -> int:
    """Plays expert tables until ``stop_at``; appends each command's latency; matches played."""
    rng = random.Random(seed)
    conn = HttpConn("127.0.0.1", port)
    body = {
        "seats": [{"name": "me"}]
        + [{"name": f"ai{i}", "kind": "bot", "bot_level": "expert"} for i in range(seats - 1)],
        "starting_lives": lives,
    }
    matches = 0
    try:
        while time.perf_counter() < stop_at:
            status, raw = await conn.request("POST", "/matches", json.dumps(body).encode())
            if status != 201:
                raise RuntimeError(f"create: {status} {raw[:200]!r}")
            created = json.loads(raw)
            mid, token = created["match_id"], created["seat_tokens"][0]["token"]
            auth = {"Authorization": f"Bearer {token}"}
            status, raw = await conn.request("GET", f"/matches/{mid}", headers=auth)
            pending = json.loads(raw)["view"]["pending"]
            while pending is not None and time.perf_counter() < stop_at:
                if pending["seat"] not in (0, None):  # seat 0 is out: the bots play on
                    break
                cmd = {"type": rng.choice(pending["choices"])}
                t0 = time.perf_counter()
                status, raw = await conn.request(
                    "POST", f"/matches/{mid}/commands", json.dumps(cmd).encode(), auth
                )
                out.append(time.perf_counter() - t0)
                if status != 200:
                    raise RuntimeError(f"command: {status} {raw[:200]!r}")
                pending = json.loads(raw)["view"]["pending"]
            matches += 1
    finally:
        conn.close()
    return matches


async def probe_client(port: int, start_at: float, stop_at: float) -> list[float]:
    conn = HttpConn("127.0.0.1", port)
    small = {"seats": [{"name": "a"}, {"name": "b"}], "starting_lives": 2}
    status, raw = await conn.request("POST", "/matches", json.dumps(small).encode())
    assert status == 201, raw
    mid = json.loads(raw)["match_id"]
    latencies: list[float] = []
    paths = [f"/matches/{mid}", "/health"]
    i = 0
    try:
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            status, _ = await conn.request("GET", paths[i % 2])
            if status != 200:
                raise RuntimeError(f"probe: {status}")
            done = time.perf_counter()
            if done >= start_at:  # answered inside the measured window
                latencies.append(done - t0)
            i += 1
            await asyncio.sleep(0.01)
    finally:
        conn.close()
    return latencies


async def run(args: argparse.Namespace, port: int) -> None:
    begin = time.perf_counter()
    start_at, stop_at = begin + args.warmup, begin + args.warmup + args.duration
    commands: list[float] = []
    tables = [
        table_client(port, args.seats, args.lives, 100 + i, stop_at, commands)
        for i in range(args.tables)
    ]
    results = await asyncio.gather(probe_client(port, start_at, stop_at), *tables)
    probe: list[float] = results[0]  # type: ignore[assignment]
    ms = [x * 1000 for x in probe] or [float("nan")]
    print(
        f"probe    {len(ms)} requests  p50 {pct(ms, 50):.1f} ms  p95 {pct(ms, 95):.1f} ms  "
        f"p99 {pct(ms, 99):.1f} ms  max {max(ms):.1f} ms",
        flush=True,
    )
    cms = [x * 1000 for x in commands]
    print(
        f"tables   {len(cms)} commands ({sum(results[1:])} matches)  "  # type: ignore[arg-type]
        f"p50 {pct(cms, 50):.0f} ms  p99 {pct(cms, 99):.0f} ms",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seats", type=int, default=20)
    parser.add_argument("--lives", type=int, default=2)
    parser.add_argument("--duration", "-d", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to serve from")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("CUCCU_BENCH_DATABASE_URL") or DEFAULT_ADMIN,
        help="a PostgreSQL server and a role that may create databases",
    )
    args = parser.parse_args(argv)
    admin = make_url(args.database_url)
    dbname = f"cuccu_bench_{uuid.uuid4().hex[:10]}"
    with admin_connection(admin) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    db_url = admin.set(drivername="postgresql+psycopg", database=dbname).render_as_string(
        hide_password=False
    )
    print(
        f"bot_load: {args.tables} tables of {args.seats} seats ({args.seats - 1} experts), "
        f"{args.lives} lives, {args.duration:g} s after {args.warmup:g} s; bot workers "
        f"{args.bot_workers}; served from {args.root}; {os.cpu_count()} cores, "
        f"{platform.machine()}, Python {platform.python_version()}",
        flush=True,
    )
    proc: subprocess.Popen[bytes] | None = None
    try:
        migrate = [sys.executable, "-m", "api.cli", "db", "upgrade"]
        env: dict[str, Any] = {**os.environ, "CUCCU_DATABASE_URL": db_url}
        subprocess.run(migrate, cwd=args.root, env=env, check=True, stdout=subprocess.DEVNULL)
        proc, port = start_api(args.root, db_url, args.bot_workers)
        asyncio.run(run(args, port))
    finally:
        if proc is not None:
            stop(proc)
        with admin_connection(admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
