"""SSE fan-out of one API process: S live streams on one match, and how late each command's
events reach them.

    python bench/sse_fanout.py [--subscribers 50,200,500] [--commands 60]

For each S: a fresh database (on the server of ``--database-url``, default
$CUCCU_BENCH_DATABASE_URL or the local ``postgresql://postgres@127.0.0.1:5432/postgres``), one
API process (``cuccu run``, rate limit off), a match of one human seat against three ``basic``
bots; S spectators open ``GET /matches/{id}/stream``; then one client sends the human's
commands one after the other (waiting, after each, until every stream has the command's last
version), starting new matches as they end. Prints, per S: the delay from each command's
answer to each stream receiving its last event (p50, p99, max), the messages delivered per
second, and the API process's CPU per delivered message (its CPU over the phase divided by
the messages). The streams' reader runs in this process, on the same machine: on a small box
it competes with the server for the cores, so these are lower bounds of what a process serves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.api_load import (  # noqa: E402
    DEFAULT_ADMIN,
    HUMAN_VS_BOTS,
    HttpConn,
    cpu_times,
    pct,
    start_service,
    stop,
)


class Stream:
    """One spectator's stream: the highest event id seen, and when each id arrived."""

    def __init__(self) -> None:
        self.seen: dict[int, float] = {}
        self.messages = 0
        self.last = 0
        self.changed = asyncio.Event()

    async def follow(self, port: int, match_id: str, ready: asyncio.Event) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET /matches/{match_id}/stream HTTP/1.1\r\nHost: bench\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        ready.set()
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"id:"):
                    version = int(line[3:].strip())
                    self.seen[version] = time.perf_counter()
                    self.messages += 1
                    self.last = max(self.last, version)
                    self.changed.set()
        finally:
            writer.close()

    async def reached(self, version: int, timeout: float = 30) -> None:
        deadline = time.perf_counter() + timeout
        while self.last < version:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.perf_counter()))


async def phase(port: int, pid: int, subscribers: int, commands: int) -> dict[str, float]:
    rng = random.Random(subscribers)
    conn = HttpConn("127.0.0.1", port)
    delays: list[float] = []
    delivered = sent = 0
    cpu0 = wall0 = 0.0
    started = False
    while sent < commands:
        conn.close()
        conn.writer = None
        status, body = await conn.request("POST", "/matches", json.dumps(HUMAN_VS_BOTS).encode())
        assert status == 201, body
        created = json.loads(body)
        mid, own = created["match_id"], created["seat_tokens"][0]
        auth = {"Authorization": f"Bearer {own['token']}"}
        streams = [Stream() for _ in range(subscribers)]
        readies = [asyncio.Event() for _ in streams]
        tasks = [
            asyncio.create_task(s.follow(port, mid, r))
            for s, r in zip(streams, readies, strict=True)
        ]
        await asyncio.gather(*(r.wait() for r in readies))
        await asyncio.gather(*(s.reached(created["version"]) for s in streams))
        if not started:
            user, system = cpu_times(pid)
            cpu0, wall0, started = user + system, time.perf_counter(), True
        messages_before = sum(s.messages for s in streams)
        version, pending = created["version"], own["view"]["pending"]
        while pending is not None and sent < commands:
            cmd = {"type": rng.choice(pending["choices"]), "expected_version": version}
            conn.close()  # a fresh connection: the last one may have idled past the keep-alive
            conn.writer = None
            status, body = await conn.request(
                "POST", f"/matches/{mid}/commands", json.dumps(cmd).encode(), auth
            )
            answered = time.perf_counter()
            assert status == 200, body
            reply = json.loads(body)
            version, pending = reply["version"], reply["view"]["pending"]
            await asyncio.gather(*(s.reached(version) for s in streams))
            delays.extend(max(0.0, s.seen[version] - answered) for s in streams)
            sent += 1
        delivered += sum(s.messages for s in streams) - messages_before
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    user, system = cpu_times(pid)
    wall = time.perf_counter() - wall0
    cpu = user + system - cpu0
    conn.close()
    return {
        "p50_ms": pct(delays, 50) * 1000,
        "p99_ms": pct(delays, 99) * 1000,
        "max_ms": max(delays) * 1000,
        "messages_per_s": delivered / wall,
        "cpu_us_per_message": cpu / delivered * 1e6,
        "server_core": cpu / wall,
        "commands": sent,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--subscribers", default="50,200,500")
    parser.add_argument("--commands", type=int, default=60)
    parser.add_argument(
        "--database-url", default=os.environ.get("CUCCU_BENCH_DATABASE_URL") or DEFAULT_ADMIN
    )
    args = parser.parse_args()
    from sqlalchemy.engine import make_url

    from api.store import upgrade_database
    from api.store.db import admin_connection

    admin = make_url(args.database_url)
    print(
        f"sse_fanout: {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}; load average "
        f"{Path('/proc/loadavg').read_text().split(' ', 1)[0]}",
        flush=True,
    )
    for subscribers in (int(s) for s in args.subscribers.split(",")):
        dbname = f"cuccu_bench_{uuid.uuid4().hex[:10]}"
        with admin_connection(admin) as conn:
            conn.execute(f'CREATE DATABASE "{dbname}"')
        db_url = admin.set(drivername="postgresql+psycopg", database=dbname).render_as_string(
            hide_password=False
        )
        try:
            asyncio.run(upgrade_database(db_url))
            proc, port = start_service(db_url)
            try:
                got = asyncio.run(phase(port, proc.pid, subscribers, args.commands))
            finally:
                stop(proc)
        finally:
            with admin_connection(admin) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
        print(
            f"S={subscribers:4d}: {got['commands']:.0f} commands, delivery after the answer "
            f"p50 {got['p50_ms']:.1f} ms, p99 {got['p99_ms']:.1f} ms, max {got['max_ms']:.1f} ms; "
            f"{got['messages_per_s']:,.0f} messages/s; API process "
            f"{got['cpu_us_per_message']:.0f} µs CPU per message "
            f"({100 * got['server_core']:.0f} % of a core)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
