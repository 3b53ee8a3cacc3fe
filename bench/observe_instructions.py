"""Instructions per command of the API application with its watching on and off: a measure of
what the metrics and the request log cost that a busy machine does not blur (issue 21, item 7).

    python bench/observe_instructions.py [--commands 300] [--repeat 1]

Runs the in-process workload of ``bench/app_cpu.py`` (the Litestar app on the in-memory store
of the service tests; create a match of one human against three ``basic`` bots, read it, send
the human's commands until it ends, again), seeded so that every run deals the same cards and
plays the same commands, under Valgrind (``cachegrind``, no cache simulation), and reads the
instructions executed. Each configuration runs with N and 2N commands; the difference divided
by N is the instructions of one command, with the interpreter's start and the imports taken
out. Three configurations:

- ``on``, as ``cuccu run`` serves by default: the Prometheus middleware (api/observe.py), the
  service's own counters (api/metrics.py), request ids and one JSON log line per request at
  info level (written to /dev/null);
- ``metrics``: the same at ``--log-level warning`` (no request lines);
- ``off``: the same application with the watching taken out (the middlewares replaced by
  pass-throughs, the counters by no-ops, the log at warning).

Instruction counts do not depend on what else the machine runs (only the interpreter's hash
seed moves them slightly: it is fixed here), so the ratio resolves a few per cent on a loaded
box where CPU times cannot. They are not time: an instruction of the watching may cost more or
less than an average one. Needs ``valgrind`` (Debian's package). docs/LOAD.md section 13.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import logging.config
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def unwatch() -> None:
    """Take the watching out of the application ``create_app`` builds (the ``off`` run)."""
    import api.app as app_module
    from api import metrics

    class Bare:
        @staticmethod
        def middleware(app: Any) -> Any:
            return app

    app_module.PROMETHEUS = Bare  # type: ignore[assignment]
    app_module.watch_requests = lambda app: app  # type: ignore[assignment]
    for name in ("command_answered", "retried", "replayed", "bot_turns", "sealed", "store_error"):
        setattr(metrics, name, lambda *args, **kwargs: None)


def configure_logs(level: str) -> None:
    """The log as ``cuccu run`` writes it when not on a terminal (JSON lines), to /dev/null."""
    from api.logs import log_config

    config = log_config("json", level)
    for handler in config.get("handlers", {}).values():
        if "stream" in handler:
            handler["stream"] = open(os.devnull, "w")  # noqa: SIM115
    logging.config.dictConfig(config)


async def play(commands: int) -> int:
    """The seeded workload: ``commands`` human commands; returns the requests sent."""
    from app_cpu import HUMAN_VS_BOTS, Clock, call

    from api.app import create_app
    from api.bots_pool import BotPool
    from api.service import MatchService
    from api.settings import Settings
    from tests.service.fakes import InMemoryStore

    app = create_app(Settings(rate_limit_per_second=0, bot_workers=0))
    store = InMemoryStore()
    app.state.store, app.state.sealer = store, None
    app.state.service = MatchService(store, bots=BotPool(0))
    rng = random.Random(1)
    clock = Clock()
    done = requests = seed = 0
    while done < commands:
        seed += 1
        body = json.dumps({**HUMAN_VS_BOTS, "seed": seed, "first_dealer": 3}).encode()
        status, answer = await call(app, "POST", "/matches", body, spent=clock.spent)
        assert status == 201, answer
        created = json.loads(answer)
        mid, token = created["match_id"], created["seat_tokens"][0]["token"]
        status, answer = await call(app, "GET", f"/matches/{mid}", token=token, spent=clock.spent)
        requests += 2
        current = json.loads(answer)
        version, pending = current["version"], current["view"]["pending"]
        while pending is not None and done < commands:
            command = {"type": rng.choice(pending["choices"]), "expected_version": version}
            body = json.dumps(command).encode()
            status, answer = await call(
                app, "POST", f"/matches/{mid}/commands", body, token, spent=clock.spent
            )
            assert status == 200, answer
            reply = json.loads(answer)
            version, pending = reply["version"], reply["view"]["pending"]
            done += 1
            requests += 1
    return requests


def child(watch: str, commands: int, served_gc: bool = False) -> None:
    if served_gc:  # the collector's thresholds of a served process (the lifespan's tune_gc)
        from api.runtime import tune_gc

        tune_gc()
    if watch == "off":
        unwatch()
    configure_logs("info" if watch == "on" else "warning")  # "metrics": no request lines
    requests = asyncio.run(play(commands))
    from prometheus_client import REGISTRY

    counted = sum(
        sample.value
        for metric in REGISTRY.collect()
        if metric.name == "cuccu_commands"
        for sample in metric.samples
        if sample.name == "cuccu_commands_total"
    )
    # the commands the service's counters saw: all of them, or none with the watching off
    print(f"requests={requests} counted={counted:.0f}")


_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(watch: str, commands: int, served_gc: bool = False) -> tuple[int, int]:
    """Instructions of one child run under Valgrind, and the requests it sent."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind", "--tool=cachegrind", "--cache-sim=no",
                f"--cachegrind-out-file={tmp}/out", sys.executable, __file__,
                "--child", watch, "--commands", str(commands),
                *(["--served-gc"] if served_gc else []),
            ],
            capture_output=True, text=True, check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )  # fmt: skip
    found = _REFS.search(done.stderr)
    sent = re.search(r"requests=(\d+)", done.stdout)
    if done.returncode != 0 or found is None or sent is None:
        raise SystemExit(f"valgrind run failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return int(found.group(1).replace(",", "")), int(sent.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=300, help="N: runs of N and 2N")
    parser.add_argument("--repeat", type=int, default=1, help="pairs per configuration")
    parser.add_argument(
        "--served-gc", action="store_true",
        help="the garbage collector's thresholds of a served process (api.runtime.tune_gc)",
    )  # fmt: skip
    parser.add_argument("--child", choices=["on", "metrics", "off"], help=argparse.SUPPRESS)
    parser.add_argument(
        "--configs", default="off,metrics,on", help="configurations to measure, in this order"
    )
    args = parser.parse_args()
    if args.child:
        child(args.child, args.commands, args.served_gc)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("needs valgrind (apt-get install valgrind)")
    n = args.commands
    configs = args.configs.split(",")
    per: dict[str, list[float]] = {c: [] for c in configs}
    for _ in range(args.repeat):
        for watch in configs:  # interleaved
            small, sent_small = instructions(watch, n, args.served_gc)
            large, sent_large = instructions(watch, 2 * n, args.served_gc)
            per[watch].append((large - small) / n)
            print(
                f"{watch:>7}: {small:,} instructions for {n} commands ({sent_small} requests), "
                f"{large:,} for {2 * n} ({sent_large} requests): "
                f"{(large - small) / n:,.0f} per command",
                flush=True,
            )
    median = {c: sorted(v)[len(v) // 2] for c, v in per.items()}
    print(f"instructions per command (median of {args.repeat}):")
    base = median.get("off")
    for c in configs:
        added = (
            f"; {median[c] - base:+,.0f} ({100 * (median[c] / base - 1):+.1f} %) over off"
            if base and c != "off"
            else ""
        )
        print(f"  {c:>7}: {median[c]:,.0f}{added}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
