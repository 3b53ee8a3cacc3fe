"""Seed a PostgreSQL database with finished matches, then measure reads on it.

    python bench/seed_matches.py seed --matches 100000 [--database cuccu_scale] [--workers 2]
    python bench/seed_matches.py measure [--database cuccu_scale] [--requests 2000]
    python bench/seed_matches.py storage [--database cuccu_scale]

``seed`` creates the database if needed (on the server of ``--database-url``, default
$CUCCU_BENCH_DATABASE_URL or the local ``postgresql://postgres@127.0.0.1:5432/postgres``),
migrates it, and writes bots-only 4-seat matches played to their end by the service's own code
(``CreateMatch`` + ``api.service.advance``: the deals, bot turns and per-event metadata that
``POST /matches`` stores for a bots-only match), with the same hash chain, through ``COPY``:
the same rows as the API would store, much faster. Matches are spread over time
(``created_at`` one second apart), seeds are ``--first-seed + i``, so runs are reproducible.

``measure`` serves the API on that database (``cuccu run``, one process) and reports p50/p95/p99
of listing pages (first page, a deep page via a cursor, ``status=over``) and of loading one
random match (``GET /matches/{id}`` on a cold per-process cache, and its event page).
``storage`` prints the size of each table and index and the bytes per stored event.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import datetime as dt
import io
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.engine import URL, make_url  # noqa: E402

from api.store.db import admin_connection  # noqa: E402

DEFAULT_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
SEATS = [
    {"name": "Ann", "kind": "bot", "bot_level": "basic"},
    {"name": "Bo", "kind": "bot", "bot_level": "random"},
    {"name": "Cy", "kind": "bot", "bot_level": "basic"},
    {"name": "Di", "kind": "bot", "bot_level": "random"},
]
LIVES = 2
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def _copy_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def play(index: int, first_seed: int) -> tuple[str, list[str], list[str]]:
    """One finished match as COPY lines for ``matches`` and ``events``."""
    import msgspec

    from api.service import Step, _meta, advance, rng_for, summary_of
    from domain.envelope import GENESIS_HASH, chain_hash, record_body
    from domain.event_codec import event_type
    from domain.games import CUCCU
    from domain.games.cuccu.commands import CreateMatch
    from domain.games.cuccu.decide import apply
    from domain.games.cuccu.events import encode_event
    from domain.games.cuccu.state import initial_state
    from domain.seats import SeatSpec

    seed = first_seed + index
    specs = [SeatSpec(s["name"], s["kind"], s["bot_level"]) for s in SEATS]  # type: ignore[arg-type]
    dealer = rng_for(seed, 0, "first_dealer").randrange(len(specs))
    command = CreateMatch(seats=tuple(specs), starting_lives=LIVES, first_dealer=dealer)
    state, events = apply(initial_state(), command)
    state, steps = advance(state, seed, CUCCU)
    steps = [Step(command, "creator", events, CUCCU.name), *steps]
    match_id = str(uuid.UUID(int=random.Random(seed).getrandbits(128), version=4))
    created = EPOCH + dt.timedelta(seconds=index)
    stamp = created.isoformat()
    summary = summary_of(state, CUCCU)
    winner = summary.winners[0] if len(summary.winners) == 1 else "\\N"
    seats_json = msgspec.json.encode([msgspec.to_builtins(s) for s in specs]).decode()
    match_line = "\t".join(
        [
            match_id, summary.status, stamp, stamp, _copy_text(seats_json), str(LIVES),
            json.dumps(summary.standing), str(winner), str(summary.rounds),
            str(summary.version), str(seed), "cuccu", json.dumps({"starting_lives": LIVES}),
            json.dumps(summary.standing), json.dumps(summary.winners),
        ]
    )  # fmt: skip
    lines = []
    prev = GENESIS_HASH
    version = 0
    recorded_at = created.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    for step in steps:
        meta = _copy_text(msgspec.json.encode(_meta(step)).decode())
        for e in step.events:
            version += 1
            body = record_body(
                match_id=match_id, version=version, event=e, meta=_meta(step),
                recorded_at=recorded_at,
            )  # fmt: skip
            h = chain_hash(prev, body)
            data = _copy_text(encode_event(e).decode())
            record = _copy_text(body.decode())
            lines.append(
                f"{match_id}\t{version}\t{event_type(e)}\t{data}\t{meta}\t{stamp}\t{prev}\t{h}"
                f"\t{record}\t2"
            )
            prev = h
    return match_line, lines, []


def seed_chunk(args: tuple[str, str, int, int, int]) -> tuple[int, int]:
    admin_url, dbname, start, stop, first_seed = args
    matches = io.StringIO()
    events = io.StringIO()
    n_events = 0
    for i in range(start, stop):
        m, evs, _ = play(i, first_seed)
        matches.write(m + "\n")
        events.write("\n".join(evs) + "\n")
        n_events += len(evs)
    with (
        admin_connection(make_url(admin_url), dbname, autocommit=False) as conn,
        conn.cursor() as cur,
    ):
        with cur.copy(
            "COPY matches (id, status, created_at, updated_at, seats, starting_lives, lives, "
            "winner, rounds, version, seed, game, options, standing, winners) FROM STDIN"
        ) as cp:
            cp.write(matches.getvalue())
        with cur.copy(
            "COPY events (match_id, version, type, data, meta, recorded_at, prev_hash, hash, "
            "body, envelope) FROM STDIN"
        ) as cp:
            cp.write(events.getvalue())
        conn.commit()
    return stop - start, n_events


def ensure_database(admin: URL, dbname: str) -> str:
    with admin_connection(admin) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{dbname}"')
    db = admin.set(drivername="postgresql+psycopg", database=dbname)
    url = db.render_as_string(hide_password=False)

    from api.store import upgrade_database

    asyncio.run(upgrade_database(url))
    return url


def cmd_seed(args: argparse.Namespace) -> int:
    admin = make_url(args.database_url)
    ensure_database(admin, args.database)
    with admin_connection(admin, args.database) as conn:
        already = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
    start = already
    chunks = [
        (args.database_url, args.database, s, min(s + args.chunk, args.matches), args.first_seed)
        for s in range(start, args.matches, args.chunk)
    ]
    t0 = time.perf_counter()
    done = events = 0
    with multiprocessing.Pool(args.workers) as pool:
        for n, e in pool.imap_unordered(seed_chunk, chunks):
            done += n
            events += e
            rate = done / (time.perf_counter() - t0)
            print(f"\r{start + done}/{args.matches} matches, {events} events, "
                  f"{rate:.0f} matches/s", end="", file=sys.stderr, flush=True)  # fmt: skip
    print(file=sys.stderr)
    with admin_connection(admin, args.database) as conn:
        conn.execute("VACUUM ANALYZE matches")
        conn.execute("VACUUM ANALYZE events")
    elapsed = time.perf_counter() - t0
    print(f"seeded {done} matches ({events} events) in {elapsed:.0f} s into {args.database}")
    return 0


def cmd_storage(args: argparse.Namespace) -> int:
    admin = make_url(args.database_url)
    with admin_connection(admin, args.database) as conn:
        matches = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        print(f"{matches} matches, {events} events ({events / max(1, matches):.1f} per match)")
        for table in ("matches", "events", "seat_tokens", "idempotency_keys"):
            heap, total = conn.execute(
                "SELECT pg_table_size(%s), pg_total_relation_size(%s)", (table, table)
            ).fetchone()
            print(f"  {table:17s} table {heap / 2**20:9.1f} MiB   with indexes "
                  f"{total / 2**20:9.1f} MiB")  # fmt: skip
        for name, size in conn.execute(
            "SELECT indexrelname, pg_relation_size(indexrelid) FROM pg_stat_user_indexes "
            "ORDER BY 2 DESC"
        ).fetchall():
            print(f"  index {name:32s} {size / 2**20:9.1f} MiB")
        total = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        ev_total = conn.execute("SELECT pg_total_relation_size('events')").fetchone()[0]
        if events:
            print(f"bytes per event: {ev_total / events:.0f} (events table with its indexes), "
                  f"{total / events:.0f} (whole database)")  # fmt: skip
    return 0


# --- measuring reads -------------------------------------------------------------------------


def cursor_for(created: dt.datetime, match_id: str) -> str:
    raw = json.dumps([created.isoformat(), match_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def timed(conn: Any, path: str) -> float:
    t0 = time.perf_counter()
    status, _ = await conn.request("GET", path)
    elapsed = time.perf_counter() - t0
    if status != 200:
        raise RuntimeError(f"GET {path}: {status}")
    return elapsed


async def measure_reads(
    port: int, samples: list[tuple[str, dt.datetime]], n: int
) -> dict[str, list[float]]:
    from bench.api_load import HttpConn

    rng = random.Random(5)
    conn = HttpConn("127.0.0.1", port)
    kinds = ("list", "list deep", "list over", "over deep", "match", "events")
    out: dict[str, list[float]] = {k: [] for k in kinds}
    for _ in range(20):  # warm-up
        await timed(conn, "/matches?limit=20")
    for _ in range(n):
        mid, created = rng.choice(samples)
        out["list"].append(await timed(conn, "/matches?limit=20"))
        out["list deep"].append(
            await timed(conn, f"/matches?limit=20&cursor={cursor_for(created, mid)}")
        )
        out["list over"].append(await timed(conn, "/matches?status=over&limit=20"))
        out["over deep"].append(
            await timed(conn, f"/matches?status=over&limit=20&cursor={cursor_for(created, mid)}")
        )
        mid, _ = rng.choice(samples)
        out["match"].append(await timed(conn, f"/matches/{mid}"))
        out["events"].append(await timed(conn, f"/matches/{mid}/events?limit=200"))
    conn.close()
    return out


def cmd_measure(args: argparse.Namespace) -> int:
    from bench.api_load import free_port, pct, stop, wait_http

    admin = make_url(args.database_url)
    db = admin.set(drivername="postgresql+psycopg", database=args.database)
    with admin_connection(admin, args.database) as conn:
        count = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        rows = conn.execute(
            "SELECT id, created_at FROM matches ORDER BY random() LIMIT %s", (args.requests,)
        ).fetchall()
    samples = [(r[0], r[1]) for r in rows]
    port = free_port()
    env = {**os.environ, "CUCCU_DATABASE_URL": db.render_as_string(hide_password=False),
           "CUCCU_RATE_LIMIT": "0"}  # fmt: skip
    cmd = [sys.executable, "-m", "api.cli", "run", "--no-migrate", "--no-viewer",
           "--port", str(port), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    try:
        wait_http(port, "/health", proc)
        result = asyncio.run(measure_reads(port, samples, args.requests))
    finally:
        stop(proc)
    print(f"{args.database}: {count} matches; {args.requests} requests of each kind, one client")
    for name, values in result.items():
        p50, p95, p99 = (pct(values, p) * 1000 for p in (50, 95, 99))
        mean = statistics.mean(values) * 1000
        print(f"  {name:10s} p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  p99 {p99:6.2f} ms  "
              f"mean {mean:6.2f} ms")  # fmt: skip
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", default=os.environ.get("CUCCU_BENCH_DATABASE_URL") or DEFAULT_ADMIN
    )
    parser.add_argument("--database", default="cuccu_scale", help="database name to use")
    sub = parser.add_subparsers(dest="command", required=True)
    seed = sub.add_parser("seed", help="add finished matches up to --matches")
    seed.add_argument("--matches", type=int, default=100_000)
    seed.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    seed.add_argument("--chunk", type=int, default=500)
    seed.add_argument("--first-seed", type=int, default=1)
    seed.set_defaults(func=cmd_seed)
    meas = sub.add_parser("measure", help="p50/p95/p99 of listing and loading through the API")
    meas.add_argument("--requests", type=int, default=1000)
    meas.set_defaults(func=cmd_measure)
    sto = sub.add_parser("storage", help="table and index sizes, bytes per event")
    sto.set_defaults(func=cmd_storage)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
