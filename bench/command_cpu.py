"""CPU per command of the API application on a real database, in one process.

    python bench/command_cpu.py [--database sqlite|postgres] [--commands 2000] [--profile FILE]
    python bench/command_cpu.py --root /tmp/before      # another checkout's application
    python bench/command_cpu.py --database postgres --instructions --commands 150   # Valgrind

Serves the application of ``create_app`` (its lifespan: the real store, the LISTEN connection
on PostgreSQL, the signing of finished matches, the metrics) through ASGI calls, no server and
no sockets of its own, and plays what one client of ``bench/api_load.py`` plays: create a
match (one human seat against three ``basic`` bots), then send the human's commands with
``expected_version`` from the creation answer on, until the match ends; and again. One client,
so each command's work is not spread over others' waits.

Prints the CPU time per command spent inside the app's calls (user + system, the process's
threads included; every request counted, the creations too, as the server's CPU in
api_load.py counts them; the background tasks' work, such as the LISTEN connection's, when it
runs during a call, as it does with one client), events per command, and, with
``--profile FILE``, writes cProfile's statistics of the measured part (``FILE`` for
``pstats``, ``FILE.txt`` the top functions by own and cumulative time). The database is a
fresh SQLite file in a temporary directory, or a fresh database on the PostgreSQL server of
``--admin-url`` (dropped at the end). CPU time, not wall time: the neighbours of a shared box
change it much less than a throughput (the process's own database client is counted; the
PostgreSQL server's processes are not, SQLite's work is).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import itertools
import json
import os
import pstats
import random
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# the benchmarks' shared parts, from this checkout (appended: another checkout's ``--root``
# application, put first on the path later, still wins for everything else)
sys.path.append(str(Path(__file__).resolve().parent.parent))
from bench.asgi_calls import HUMAN_VS_BOTS, call  # noqa: E402

DEFAULT_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


#: CPU seconds spent inside the app's ASGI calls (the client's JSON work is not in them)
inside = [0.0]


def _count(seconds: float) -> None:
    inside[0] += seconds


class Lifespan:
    """The ASGI lifespan protocol, as uvicorn speaks it, so the app's own start-up runs."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Lifespan:
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        self.task = asyncio.create_task(self.app(scope, self.inbox.get, self.outbox.put))
        await self.inbox.put({"type": "lifespan.startup"})
        answer = await self.outbox.get()
        assert answer["type"] == "lifespan.startup.complete", answer
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.inbox.put({"type": "lifespan.shutdown"})
        await self.outbox.get()
        assert self.task is not None
        await self.task


async def play(
    app: Any, rng: random.Random, commands: int, seeds: Iterator[int] | None
) -> tuple[int, int]:
    """Whole matches until ``commands`` commands are answered: (commands, events). With
    ``seeds``, each match is created with the next one (the same deals on every run)."""
    done = events = 0
    while done < commands:
        create = HUMAN_VS_BOTS if seeds is None else {**HUMAN_VS_BOTS, "seed": next(seeds)}
        status, body = await call(
            app, "POST", "/matches", json.dumps(create).encode(), spent=_count
        )
        assert status == 201, body
        created = json.loads(body)
        mid, own = created["match_id"], created["seat_tokens"][0]
        version, pending = created["version"], own["view"]["pending"]
        while pending is not None and done < commands:
            command = {"type": rng.choice(pending["choices"]), "expected_version": version}
            status, body = await call(
                app, "POST", f"/matches/{mid}/commands", json.dumps(command).encode(),
                own["token"], spent=_count,
            )  # fmt: skip
            assert status == 200, body
            reply = json.loads(body)
            version, pending = reply["version"], reply["view"]["pending"]
            done += 1
            events += len(reply["events"])
    return done, events


async def run(args: argparse.Namespace, database_url: str) -> None:
    from api.app import create_app
    from api.settings import Settings
    from api.store import upgrade_database

    await upgrade_database(database_url)
    settings = Settings(database_url=database_url, rate_limit_per_second=0, log_format="json")
    app = create_app(settings)
    rng = random.Random(args.seed)
    seeds = itertools.count(1) if args.seeded else None
    async with Lifespan(app):
        await play(app, rng, args.warmup, seeds)
        profiler = cProfile.Profile(time.process_time) if args.profile else None
        start, inside[0] = time.process_time(), 0.0
        if profiler is not None:
            profiler.enable()
        done, events = await play(app, rng, args.commands, seeds)
        if profiler is not None:
            profiler.disable()
        spent = time.process_time() - start
    print(
        f"command_cpu: {args.database}, {done} commands, {events / done:.1f} events a command: "
        f"app CPU {inside[0] / done * 1000:.3f} ms a command (whole process, the client's "
        f"JSON included: {spent / done * 1000:.3f} ms)"
        + (" (under cProfile)" if profiler is not None else ""),
        flush=True,
    )
    if profiler is not None:
        profiler.dump_stats(args.profile)
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text)
        stats.sort_stats("tottime").print_stats(60)
        stats.sort_stats("cumulative").print_stats(120)
        Path(f"{args.profile}.txt").write_text(text.getvalue())


_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def count_instructions(args: argparse.Namespace) -> int:
    """Instructions of the process per command: ``--commands`` N and 3N seeded commands
    under Valgrind's cachegrind (no cache simulation), the difference over 2N. Neighbours on
    the box change times, not instruction counts (the sweepers' work, which follows the wall
    clock, is the part that moves with it)."""
    counts = []
    for n in (args.commands, 3 * args.commands):
        cmd = [
            "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, __file__, "--database", args.database, "--admin-url", args.admin_url,
            "--commands", str(n), "--warmup", str(args.warmup), "--seeded",
            "--root", str(args.root),
        ]  # fmt: skip
        done = subprocess.run(
            cmd, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
        )
        found = _REFS.search(done.stderr)
        if done.returncode != 0 or found is None:
            raise SystemExit(f"valgrind run failed ({done.returncode}):\n{done.stderr[-3000:]}")
        counts.append(int(found.group(1).replace(",", "")))
        print(f"  {n} commands: {counts[-1]:,} instructions; {done.stdout.strip()}", flush=True)
    per = (counts[1] - counts[0]) / (2 * args.commands)
    print(f"command_cpu: {args.database}, {per:,.0f} instructions a command ({args.root})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument(
        "--admin-url", default=os.environ.get("CUCCU_BENCH_DATABASE_URL", DEFAULT_ADMIN)
    )
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200, help="commands not counted")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", help="cProfile the measured commands into this file")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--seeded", action="store_true", help="create seeded matches")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count instructions instead (Valgrind; seeded; N and 3N commands, the difference)",
    )
    args = parser.parse_args()
    if args.instructions:
        return count_instructions(args)
    sys.path.insert(0, str(args.root.resolve()))
    import logging

    logging.basicConfig(level=logging.WARNING)  # as `cuccu run --log-level warning` serves
    from sqlalchemy.engine import make_url

    from api.store.db import admin_connection

    if args.database == "sqlite":
        with tempfile.TemporaryDirectory() as tmp:
            asyncio.run(run(args, f"sqlite+aiosqlite:///{tmp}/bench.db"))
        return 0
    admin = make_url(args.admin_url)
    dbname = f"cuccu_cpu_{uuid.uuid4().hex[:10]}"
    with admin_connection(admin) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    try:
        db = admin.set(drivername="postgresql+psycopg", database=dbname)
        asyncio.run(run(args, db.render_as_string(hide_password=False)))
    finally:
        with admin_connection(admin) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
