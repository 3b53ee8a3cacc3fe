"""Commands/s through the balancer of the scaled-out stack, with 1 and then 2 API replicas.

    make images
    python bench/balancer.py [--replicas 1,2] [--concurrency 8] [--duration 20] [--warmup 3]

Starts compose.scale.yaml (local images: HAProxy, the service, PostgreSQL) under its own
project name with the API published on a free 127.0.0.1 port and the per-token rate limit off,
then, for each replica count, scales the API to it and drives it with the same clients as
``bench/api_load.py`` (C concurrent clients playing whole matches over keep-alive HTTP, one human
seat and three bots, every command with ``expected_version``). Prints one line per replica count
and takes the stack down (``down -v``). Needs a Docker engine (root) and the compose client.

The load generator runs on the same machine as every container, so the figures say what this
machine can do, not what more hosts would: with 2 cores, a second replica competes for the same
CPU as the first, PostgreSQL, HAProxy and the clients.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from api_load import report, run_clients  # noqa: E402

from tests.deploy.stack import Stack, wait_for  # noqa: E402
from tests.integration.server import free_port  # noqa: E402


def replicas_ready(port: int, count: int, timeout: float = 120) -> None:
    import httpx

    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while len(seen) < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"only {len(seen)} of {count} replicas became ready")
        try:
            response = httpx.get(f"http://127.0.0.1:{port}/ready", timeout=2)
            if response.status_code == 200:
                seen.add(response.headers["x-cuccu-replica"])
        except httpx.HTTPError:
            pass
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", default="1,2", help="replica counts, in order (1,2)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.replicas.split(",")]

    machine = f"{platform.machine()}, {os.cpu_count()} cores"
    print(f"machine: {machine}, Python {platform.python_version()}")
    print(f"clients: {args.concurrency}, {args.duration:.0f} s per replica count after "
          f"{args.warmup:.0f} s of warm-up, through HAProxy (compose.scale.yaml)")  # fmt: skip
    port = free_port()
    stack = Stack(
        ["compose.scale.yaml"],
        publish={"CUCCU_PUBLISH_API_PORT": port},
        extra_env={"CUCCU_RATE_LIMIT": "0"},  # one token per match; measure the service
    )
    try:
        for count in counts:
            stack.up("--scale", f"api={count}")
            wait_for(f"http://127.0.0.1:{port}/ready")
            replicas_ready(port, count)
            stats = asyncio.run(
                run_clients("service", port, args.concurrency, args.warmup, args.duration)
            )
            report(f"{count} API", stats, args.duration)
    finally:
        stack.down()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
