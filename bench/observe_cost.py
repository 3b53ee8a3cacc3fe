"""CPU of watching one request: the metrics and request-log middlewares (api/observe.py) around
a route that does nothing, the service's counters of one command, and the JSON request line.

    python bench/observe_cost.py [--requests 50000]

No server, no database: the ASGI calls of ``api.observe`` on a dummy inner app, timed with
``time.process_time``. Prints microseconds per request: the bare route, with the two
middlewares (the request line off, as at ``--log-level warning``), and with the JSON request
line written to /dev/null (``--log-level info``). docs/LOAD.md section 13.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import logging.config
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from api import metrics  # noqa: E402
from api.logs import log_config  # noqa: E402
from api.observe import PROMETHEUS, RouteMetrics, watch_requests  # noqa: E402

MATCH = "0f6c0e4e-6f2a-4d0e-9a57-2f1f3c1c9d11"


async def inner(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}", "more_body": False})


async def sink(message: Any) -> None:
    return None


async def receive() -> Any:
    return {"type": "http.request"}


def scope() -> dict[str, Any]:
    """A command's scope as the router leaves it (a bench client's headers)."""
    return {
        "type": "http",
        "method": "POST",
        "path": f"/matches/{MATCH}/commands",
        "path_template": "/matches/{match_id:str}/commands",
        "path_params": {"match_id": MATCH},
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"accept", b"*/*"),
            (b"user-agent", b"python-httpx/0.28.1"),
            (b"authorization", b"Bearer abc"),
            (b"content-type", b"application/json"),
            (b"content-length", b"40"),
        ],
    }


async def per_request(app: Any, n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        await app(scope(), receive, sink)
    return (time.process_time() - start) / n * 1e6


async def main(n: int) -> None:
    logging.getLogger("cuccu.request").setLevel(logging.WARNING)
    watched = watch_requests(RouteMetrics(inner, PROMETHEUS))
    await per_request(watched, 1000)  # the label sets made once
    bare = await per_request(inner, n)
    quiet = await per_request(watched, n)
    start = time.process_time()
    for _ in range(n):
        metrics.command_answered("cuccu")
        metrics.bot_turns("inline", 0.0001)
    counters = (time.process_time() - start) / n * 1e6
    config = log_config("json", "info")
    with open("/dev/null", "w") as devnull:
        config["handlers"]["cuccu"]["stream"] = devnull
        logging.config.dictConfig(config)
        logging.getLogger("cuccu.request").setLevel(logging.INFO)
        loud = await per_request(watched, n // 5)
    print(f"bare route               {bare:6.2f} µs/request")
    print(f"metrics + request ids    {quiet:6.2f} µs/request  (+{quiet - bare:.2f})")
    print(f"the service's counters   {counters:6.2f} µs/command")
    print(f"and the JSON line (info) {loud:6.2f} µs/request  (+{loud - bare:.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=50_000)
    asyncio.run(main(parser.parse_args().requests))
