"""Load benchmark of the API on PostgreSQL, against PostgreSQL's own limit.

    python bench/api_load.py [--concurrency 8] [--duration 20] [--database-url URL]
    python bench/api_load.py --smoke          # a few seconds, for CI (no targets checked)
    python bench/api_load.py --api-workers 2  # two API processes, clients spread over them
    python bench/api_load.py --root /tmp/before --only service   # the API of another checkout
    python bench/api_load.py --only service --only ceiling --rounds 5   # medians of 5 pairs

Creates a fresh database on the server of ``--database-url`` (default: $CUCCU_BENCH_DATABASE_URL
or the local ``postgresql://postgres@127.0.0.1:5432/postgres``), migrates it, and measures with
the same C concurrent clients:

- **service**: the real API (``cuccu run``, one uvicorn process); each client plays whole
  matches over HTTP (one human seat driven by a random policy, three bots), sending every
  command with ``expected_version``; it plays its first move from the creation answer (which
  carries the seat's own view), as a client written from docs/API.md would. Commands/s,
  events/s, latency p50/p95/p99 (of commands; the creations are load, not counted).
- **ceiling**: ``bench/ceiling_app.py``, a bare Litestar + psycopg endpoint served the same
  way, running the SQL of one command (read the version, update the match row, insert the
  same event rows, commit) with no game logic.
- **raw**: ``pgbench`` running that SQL directly, one transaction per command, C clients:
  PostgreSQL's commit rate for the same rows with no HTTP and no Python.

It prints the ratios service/ceiling and service/raw, then drops the database.
``--profile FILE`` records the service process with py-spy meanwhile (collapsed stacks), and
the ceiling's into ``FILE.ceiling``. ``--root DIR`` serves the API from another checkout (the
same clients, the same ceiling app): before/after comparisons in the same minutes.
``--rounds N`` alternates the service and ceiling phases N times (fresh servers each time) and
prints the median of each figure and of the per-round ratios, with the lowest ratio.

The box is shared, so each phase also prints where the CPU went while it was measured: the
server process(es) in milliseconds per command and in % of one core, the load generator, and
every PostgreSQL process of the machine (other databases' work included). The server's CPU
per command is the figure that the neighbours disturb least.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy.engine import URL, make_url  # noqa: E402

from api.store.db import admin_connection  # noqa: E402
from bench.asgi_calls import HUMAN_VS_BOTS  # noqa: E402  (the match every client plays)

DEFAULT_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"


# --- a minimal keep-alive HTTP/1.1 client (cheap, so the load generator stays light) ---------


class HttpConn:
    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None and self.writer is not None
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        if body or method == "POST":
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        hdrs = {}
        for line in lines[1:]:
            if ":" in line:
                k, _, v = line.partition(":")
                hdrs[k.strip().lower()] = v.strip()
        if "content-length" in hdrs:
            data = await self.reader.readexactly(int(hdrs["content-length"]))
        elif hdrs.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(chunk[:-2])
            data = b"".join(parts)
        else:
            data = await self.reader.read()
            self.writer.close()
            self.writer = None
        if hdrs.get("connection", "").lower() == "close" and self.writer is not None:
            self.writer.close()
            self.writer = None
        return status, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    commands: int = 0
    events: int = 0
    errors: dict[int, int] = field(default_factory=dict)
    matches: int = 0

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.commands += other.commands
        self.events += other.events
        self.matches += other.matches
        for k, v in other.errors.items():
            self.errors[k] = self.errors.get(k, 0) + v


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def cpu_times(pid: int) -> tuple[float, float]:
    """(user, system) CPU seconds a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far."""
    return sum(cpu_times(pid))


def postgres_pids() -> list[int]:
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().strip() == "postgres":
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


class CpuWatch:
    """CPU seconds used by the servers, this process and PostgreSQL between two marks."""

    def __init__(self, server_pids: list[int]) -> None:
        self.server_pids = server_pids
        self.start: tuple[float, float, float, dict[int, float], float] | None = None
        self.used: tuple[float, float, float, float, float] | None = None

    def _now(self) -> tuple[float, float, float, dict[int, float], float]:
        times = [cpu_times(p) for p in self.server_pids]
        user, system = sum(u for u, _ in times), sum(s for _, s in times)
        pg = {p: cpu_seconds(p) for p in postgres_pids()}
        return user, system, time.process_time(), pg, time.perf_counter()

    def mark_start(self) -> None:
        self.start = self._now()

    def mark_end(self) -> None:
        assert self.start is not None
        user, system, me, pg, wall = self._now()
        u0, s0, me0, pg0, wall0 = self.start
        pg_used = sum(v - pg0.get(p, 0.0) for p, v in pg.items())
        self.used = (user - u0, system - s0, me - me0, pg_used, wall - wall0)

    def figures(self, commands: int) -> dict[str, float]:
        if self.used is None or not commands:
            return {"cpu_ms_per_command": float("nan")}
        user, system, _, _, _ = self.used
        return {"cpu_ms_per_command": (user + system) / commands * 1000}

    def line(self, commands: int) -> str:
        if self.used is None:
            return ""
        user, system, me, pg, wall = self.used
        servers = user + system
        per = f"{servers / commands * 1000:.2f} ms/command, " if commands else ""
        return (
            f"         cpu: server {per}{100 * servers / wall:.0f} % of a core "
            f"({100 * system / servers if servers else 0:.0f} % of it in the kernel); "
            f"load generator {100 * me / wall:.0f} %; PostgreSQL (all) {100 * pg / wall:.0f} %"
        )


# --- the load phases -------------------------------------------------------------------------


async def service_client(
    port: int, seed: int, start: float, warm_until: float, stop_at: float
) -> Stats:
    rng = random.Random(seed)
    conn = HttpConn("127.0.0.1", port)
    stats = Stats()
    try:
        while time.perf_counter() < stop_at:
            status, body = await conn.request(
                "POST", "/matches", json.dumps(HUMAN_VS_BOTS).encode()
            )
            if status != 201:
                stats.errors[status] = stats.errors.get(status, 0) + 1
                continue
            created = json.loads(body)
            mid, own = created["match_id"], created["seat_tokens"][0]
            auth = {"Authorization": f"Bearer {own['token']}"}
            # the creation answer carries the seat's own view: no read before the first command
            version, pending = created["version"], own["view"]["pending"]
            while pending is not None and time.perf_counter() < stop_at:
                cmd = {"type": rng.choice(pending["choices"]), "expected_version": version}
                t0 = time.perf_counter()
                status, body = await conn.request(
                    "POST", f"/matches/{mid}/commands", json.dumps(cmd).encode(), auth
                )
                elapsed = time.perf_counter() - t0
                if status != 200:
                    stats.errors[status] = stats.errors.get(status, 0) + 1
                    break
                reply = json.loads(body)
                version, pending = reply["version"], reply["view"]["pending"]
                if t0 >= warm_until:
                    stats.latencies.append(elapsed)
                    stats.commands += 1
                    stats.events += len(reply["events"])
            if pending is None:
                stats.matches += 1
    finally:
        conn.close()
    return stats


async def ceiling_client(port: int, client: int, warm_until: float, stop_at: float) -> Stats:
    conn = HttpConn("127.0.0.1", port)
    stats = Stats()
    try:
        while time.perf_counter() < stop_at:
            t0 = time.perf_counter()
            status, body = await conn.request("POST", f"/commands/{client}", b"")
            elapsed = time.perf_counter() - t0
            if status != 200:
                stats.errors[status] = stats.errors.get(status, 0) + 1
                continue
            if t0 >= warm_until:
                stats.latencies.append(elapsed)
                stats.commands += 1
                stats.events += json.loads(body)["events"]
    finally:
        conn.close()
    return stats


async def run_clients(
    kind: str,
    ports: list[int],
    concurrency: int,
    warmup: float,
    duration: float,
    watch: CpuWatch | None = None,
) -> Stats:
    """C clients; with several service processes, client i talks to ``ports[i % n]`` (as a
    load balancer would spread connections)."""
    start = time.perf_counter()
    warm_until, stop_at = start + warmup, start + warmup + duration
    if watch is not None:
        asyncio.get_running_loop().call_later(warmup, watch.mark_start)
        asyncio.get_running_loop().call_later(warmup + duration, watch.mark_end)
    if kind == "service":
        coros = [
            service_client(ports[i % len(ports)], 1000 + i, start, warm_until, stop_at)
            for i in range(concurrency)
        ]
    else:
        coros = [ceiling_client(ports[0], i, warm_until, stop_at) for i in range(concurrency)]
    total = Stats()
    for s in await asyncio.gather(*coros):
        total.merge(s)
    return total


# --- servers ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_http(port: int, path: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"server on port {port} did not answer {path}")


def start_service(
    db_url: str, root: Path = ROOT, log_level: str = "warning"
) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "CUCCU_DATABASE_URL": db_url,
        "CUCCU_RATE_LIMIT": "0",  # the benchmark's clients must not be throttled
        "CUCCU_LOG_FORMAT": "json",  # as in a container (read only by APIs that have it)
    }
    cmd = [sys.executable, "-m", "api.cli", "run", "--no-migrate", "--no-viewer"]
    cmd += ["--port", str(port), "--log-level", log_level]
    # below warning the server writes a line per request: written (as to a log collector),
    # but to /dev/null, not into the bench's report
    sink = subprocess.DEVNULL if log_level != "warning" else None
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=sink, stderr=sink)
    wait_http(port, "/health", proc)
    return proc, port


def start_ceiling(dsn: str, batches_file: str, pool: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "BENCH_DSN": dsn, "BENCH_BATCHES": batches_file, "BENCH_POOL": str(pool)}
    cmd = [sys.executable, "-m", "uvicorn", "bench.ceiling_app:create_app", "--factory"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    _wait_port(port, proc)
    return proc, port


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on port {port}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- the rows a command writes ---------------------------------------------------------------


def sample_batches(matches: int, seed: int) -> list[list[list[str]]]:
    """Event rows (type, data, meta, prev_hash, hash, record) of real human commands vs three
    bots (the record as the service writes it, for a placeholder match id)."""
    from api.service import Step, _meta, advance, rng_for
    from domain.envelope import GENESIS_HASH, chain_hash, record_body
    from domain.event_codec import event_type
    from domain.games import CUCCU
    from domain.games.cuccu.commands import Choose, CreateMatch
    from domain.games.cuccu.decide import apply
    from domain.games.cuccu.events import encode_event
    from domain.games.cuccu.pending import pending
    from domain.games.cuccu.state import initial_state
    from domain.seats import SeatSpec

    rng = random.Random(seed)
    seats = tuple(
        SeatSpec(s["name"], s.get("kind", "human"), s.get("bot_level"))
        for s in HUMAN_VS_BOTS["seats"]
    )
    batches: list[list[list[str]]] = []
    for m in range(matches):
        state, _ = apply(initial_state(), CreateMatch(seats, 3, m % 4))
        state, _ = advance(state, seed + m, CUCCU)
        prev = GENESIS_HASH
        while (decision := pending(state)) is not None:
            if decision.kind == "next_round":
                command: Any = CUCCU.host_command(
                    state, rng_for(seed + m, state.version, "shuffle")
                )
            else:
                command = Choose(0, rng.choice(decision.choices))  # type: ignore[arg-type]
            state, events = apply(state, command)
            steps = [Step(command, "seat:0", events, CUCCU.name)]
            state, more = advance(state, seed + m, CUCCU)
            steps += more
            rows = []
            for step in steps:
                meta = json.dumps(_meta(step), separators=(",", ":"))
                for e in step.events:
                    body = record_body(
                        match_id="raw", version=state.version, event=e, meta=_meta(step),
                        recorded_at="2026-12-01T00:00:00.000000Z",
                    )  # fmt: skip
                    h = chain_hash(prev, body)
                    rows.append(
                        [event_type(e), encode_event(e).decode(), meta, prev, h, body.decode()]
                    )
                    prev = h
            batches.append(rows)
    return batches


def pgbench_script(batch: list[list[str]]) -> str:
    def lit(s: str) -> str:
        return "'" + s.replace("'", "''") + "'"

    values = ",\n  ".join(
        f"('raw-' || :client_id, :v + {i}, {lit(t)}, {lit(d)}::jsonb, {lit(m)}::jsonb, now(), "
        f"{lit(p)}, {lit(h)}, {lit(b)}, 2)"
        for i, (t, d, m, p, h, b) in enumerate(batch, start=1)
    )
    return (
        "BEGIN;\n"
        "SELECT version AS v FROM matches WHERE id = 'raw-' || :client_id \\gset\n"
        f"UPDATE matches SET version = :v + {len(batch)}, updated_at = now() "
        "WHERE id = 'raw-' || :client_id AND version = :v;\n"
        "INSERT INTO events (match_id, version, type, data, meta, recorded_at, prev_hash, hash, "
        f"body, envelope) VALUES\n  {values};\n"
        "END;\n"
    )


def find_pgbench() -> str | None:
    found = shutil.which("pgbench")
    if found:
        return found
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / "pgbench").exists():
            return str(d / "pgbench")
    return None


def run_pgbench(
    admin: URL,
    dbname: str,
    batches: list[list[list[str]]],
    concurrency: int,
    duration: float,
    tmp: Path,
) -> tuple[float, float] | None:
    exe = find_pgbench()
    if exe is None:
        return None
    scripts = []
    for i, batch in enumerate(batches):
        path = tmp / f"raw{i}.sql"
        path.write_text(pgbench_script(batch))
        scripts += ["-f", str(path)]
    cmd = [exe, "-n", "-c", str(concurrency), "-j", str(min(concurrency, os.cpu_count() or 1))]
    cmd += ["-T", str(max(1, round(duration))), "-h", admin.host or "127.0.0.1"]
    cmd += ["-p", str(admin.port or 5432), "-U", admin.username or "postgres", *scripts, dbname]
    env = {**os.environ}
    if admin.password:
        env["PGPASSWORD"] = admin.password
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=duration + 60)
    if out.returncode != 0:
        print(out.stderr, file=sys.stderr)
        return None
    tps = lat = float("nan")
    for line in out.stdout.splitlines():
        if line.startswith("tps ="):
            tps = float(line.split()[2])
        if line.startswith("latency average"):
            lat = float(line.split("=")[1].split()[0]) / 1000
    return tps, lat


# --- database set-up -------------------------------------------------------------------------


def prepare_rows(admin: URL, dbname: str, concurrency: int) -> None:
    with admin_connection(admin, dbname) as conn:
        for prefix in ("ceiling", "raw"):
            for i in range(concurrency):
                conn.execute(
                    "INSERT INTO matches (id, status, created_at, updated_at, seats, "
                    "starting_lives, lives, rounds, version) VALUES "
                    "(%s, 'in_round', now(), now(), %s::jsonb, 3, '[3,3,3,3]'::jsonb, 1, 0)",
                    (f"{prefix}-{i}", json.dumps(HUMAN_VS_BOTS["seats"])),
                )


def report(name: str, stats: Stats, duration: float) -> dict[str, float]:
    cps = stats.commands / duration
    out = {
        "commands_per_s": cps,
        "events_per_s": stats.events / duration,
        "events_per_command": stats.events / stats.commands if stats.commands else float("nan"),
        "p50_ms": pct(stats.latencies, 50) * 1000,
        "p95_ms": pct(stats.latencies, 95) * 1000,
        "p99_ms": pct(stats.latencies, 99) * 1000,
    }
    errors = f"  errors {stats.errors}" if stats.errors else ""
    extra = f"  matches {stats.matches}" if name == "service" else ""
    print(
        f"{name:8s} {cps:8.1f} commands/s  {out['events_per_s']:8.1f} events/s  "
        f"({out['events_per_command']:.2f} events/command)  "
        f"p50 {out['p50_ms']:.1f} ms  p95 {out['p95_ms']:.1f} ms  p99 {out['p99_ms']:.1f} ms"
        f"{extra}{errors}",
        flush=True,
    )
    return out


def measure_service(args: argparse.Namespace, db_url: str) -> dict[str, float]:
    """One service phase: fresh API process(es), C clients, CPU watched."""
    # Separate processes on separate ports, not `cuccu run --workers N`: uvicorn's
    # workers share one listening socket, and one of them accepted nearly all of the
    # C keep-alive connections (a py-spy profile showed 90 % / 9 %).
    services = [
        start_service(db_url, args.root, args.server_log_level) for _ in range(args.api_workers)
    ]
    try:
        spies = [
            _spy(args, p.pid, f"{args.profile}.{i}" if i else args.profile)
            for i, (p, _) in enumerate(services)
        ]
        ports = [port for _, port in services]
        watch = CpuWatch([p.pid for p, _ in services])
        stats = asyncio.run(
            run_clients("service", ports, args.concurrency, args.warmup, args.duration, watch)
        )
        for spy in spies:
            if spy is not None:
                spy.wait(timeout=60)
    finally:
        for p, _ in services:
            stop(p)
    return _summary("service", stats, watch, args.duration)


def measure_ceiling(args: argparse.Namespace, dsn: str, batches_file: Path) -> dict[str, float]:
    """One ceiling phase: a fresh ceiling app, the same C clients, CPU watched."""
    proc, port = start_ceiling(dsn, str(batches_file), args.pool)
    spy = _spy(args, proc.pid, f"{args.profile}.ceiling")
    try:
        watch = CpuWatch([proc.pid])
        stats = asyncio.run(
            run_clients("ceiling", [port], args.concurrency, args.warmup, args.duration, watch)
        )
        if spy is not None:
            spy.wait(timeout=60)
    finally:
        stop(proc)
    return _summary("ceiling", stats, watch, args.duration)


def _spy(args: argparse.Namespace, pid: int, path: str) -> subprocess.Popen[bytes] | None:
    """With ``--profile``: py-spy recording ``pid`` for the phase into ``path`` (collapsed)."""
    if not args.profile:
        return None
    seconds = str(round(args.warmup + args.duration))
    return subprocess.Popen(
        [_pyspy(), "record", "-p", str(pid), "-f", "raw", "-r", "200", "-o", path, "-d", seconds],
        stdout=subprocess.DEVNULL,
    )


def _summary(name: str, stats: Stats, watch: CpuWatch, duration: float) -> dict[str, float]:
    """A phase's figures, printed (the load line, then where the CPU went) and returned."""
    out = report(name, stats, duration)
    print(watch.line(stats.commands), flush=True)
    out.update(watch.figures(stats.commands))
    return out


def median_results(rounds: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Each phase's figures, the median of each over the rounds."""
    merged: dict[str, dict[str, float]] = {}
    for phase in ("service", "ceiling"):
        runs = [r[phase] for r in rounds if phase in r]
        if runs:
            merged[phase] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    return merged


def print_medians(rounds: list[dict[str, dict[str, float]]]) -> None:
    m = median_results(rounds)
    print(f"-- medians of {len(rounds)} rounds", flush=True)
    for phase, figures in m.items():
        print(
            f"{phase:8s} {figures['commands_per_s']:8.1f} commands/s  "
            f"p99 {figures['p99_ms']:.1f} ms  "
            f"server CPU {figures['cpu_ms_per_command']:.2f} ms/command",
            flush=True,
        )
    ratios = [
        r["service"]["ratio_to_ceiling"]
        for r in rounds
        if "ratio_to_ceiling" in r.get("service", {})
    ]
    if ratios:
        print(
            f"service/ceiling per round: {', '.join(f'{x:.2f}' for x in ratios)}; "
            f"median {statistics.median(ratios):.2f}, lowest {min(ratios):.2f}",
            flush=True,
        )
        cpu = [
            r["ceiling"]["cpu_ms_per_command"] / r["service"]["cpu_ms_per_command"]
            for r in rounds
            if "service" in r and "ceiling" in r and r["service"]["cpu_ms_per_command"]
        ]
        if cpu:
            print(
                f"server CPU per command, ceiling/service (the same ratio measured in CPU, "
                f"which neighbours disturb less): median {statistics.median(cpu):.2f}",
                flush=True,
            )


def _pyspy() -> str:
    return shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", "-c", type=int, default=8)
    parser.add_argument("--duration", "-d", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds not counted")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("CUCCU_BENCH_DATABASE_URL") or DEFAULT_ADMIN,
        help="a PostgreSQL server and a role that may create databases",
    )
    parser.add_argument("--pool", type=int, default=10, help="ceiling app connections")
    parser.add_argument(
        "--only", choices=["service", "ceiling", "raw"], action="append", help="phases to run"
    )
    parser.add_argument("--profile", help="py-spy the service phase into this file (collapsed)")
    parser.add_argument(
        "--api-workers", type=int, default=1, help="API processes to measure (one port each)"
    )
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="checkout whose API to serve (default: this one)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure service then ceiling this many times, alternating, and report medians "
        "(the box's speed drifts between minutes: a ratio of one pair can mislead)",
    )
    parser.add_argument(
        "--server-log-level",
        default="warning",
        help="the API's --log-level (info: a JSON line per request, written to /dev/null)",
    )
    parser.add_argument("--smoke", action="store_true", help="a few seconds, for CI")
    parser.add_argument("--keep", action="store_true", help="do not drop the database")
    args = parser.parse_args(argv)
    if args.smoke:
        args.duration, args.warmup = 2.0, 0.5
        args.concurrency = min(args.concurrency, 4)
    phases = args.only or ["service", "ceiling", "raw"]
    admin = make_url(args.database_url)
    dbname = f"cuccu_bench_{uuid.uuid4().hex[:10]}"
    with admin_connection(admin) as conn:
        conn.execute(f'CREATE DATABASE "{dbname}"')
    db = admin.set(drivername="postgresql+psycopg", database=dbname)
    db_url = db.render_as_string(hide_password=False)
    dsn = db.set(drivername="postgresql").render_as_string(hide_password=False)
    results: dict[str, dict[str, float]] = {}
    rounds: list[dict[str, dict[str, float]]] = []
    print(
        f"api_load: C={args.concurrency}, {args.api_workers} API process(es), "
        f"{args.duration:g} s per phase after {args.warmup:g} s "
        f"warm-up; {os.cpu_count()} cores, {platform.machine()}, Python "
        f"{platform.python_version()}, database {dbname}; API from {args.root}; "
        f"load average {Path('/proc/loadavg').read_text().split(' ', 1)[0]}",
        flush=True,
    )
    try:
        from api.store import upgrade_database

        asyncio.run(upgrade_database(db_url))
        prepare_rows(admin, dbname, args.concurrency)
        batches = sample_batches(3 if args.smoke else 20, 7)
        with tempfile.TemporaryDirectory() as tmpdir:
            tmp = Path(tmpdir)
            batches_file = tmp / "batches.json"
            batches_file.write_text(json.dumps(batches))
            for n in range(1, args.rounds + 1):
                if args.rounds > 1:
                    print(f"-- round {n} of {args.rounds}", flush=True)
                got: dict[str, dict[str, float]] = {}
                if "service" in phases:
                    got["service"] = measure_service(args, db_url)
                if "ceiling" in phases:
                    got["ceiling"] = measure_ceiling(args, dsn, batches_file)
                if "service" in got and "ceiling" in got:
                    ratio = got["service"]["commands_per_s"] / got["ceiling"]["commands_per_s"]
                    got["service"]["ratio_to_ceiling"] = ratio
                    if args.rounds > 1:
                        print(f"service/ceiling (round {n}): {ratio:.2f}", flush=True)
                rounds.append(got)
            results.update(rounds[-1])
            if "raw" in phases:
                # 24 batches evenly spread over the sizes: the same mean rows per command
                ordered = sorted(batches, key=len)
                sample = [ordered[(2 * i + 1) * len(ordered) // 48] for i in range(24)]
                raw = run_pgbench(admin, dbname, sample, args.concurrency, args.duration, tmp)
                if raw is None:
                    print("raw      pgbench not found or failed: no raw figure")
                else:
                    tps, lat = raw
                    per = statistics.mean(len(b) for b in sample)
                    results["raw"] = {"commands_per_s": tps, "latency_avg_ms": lat * 1000}
                    print(
                        f"raw      {tps:8.1f} commands/s  {tps * per:8.1f} events/s  "
                        f"({per:.2f} events/command)  avg latency {lat * 1000:.1f} ms  (pgbench)",
                        flush=True,
                    )
        if args.rounds > 1:
            print_medians(rounds)
            results.update(median_results(rounds))
        svc = results.get("service", {}).get("commands_per_s")
        for ref in ("ceiling", "raw"):
            if svc is not None and ref in results:
                ratio = svc / results[ref]["commands_per_s"]
                print(f"service/{ref}: {ratio:.2f}", flush=True)
    finally:
        if not args.keep:
            with admin_connection(admin) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
