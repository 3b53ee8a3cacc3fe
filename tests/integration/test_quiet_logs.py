"""No noise in the server's log: streams dropped mid-read, identical commands at once.

Issue 11 found lines that hid real errors: on SQLite, ``Task was destroyed but it is pending!
... _terminate_graceful_close()`` whenever an SSE client disconnected while its stream was
reading (the disconnect cancelled the read mid-query; SQLAlchemy then invalidated the
connection); once, SQLAlchemy's "garbage collector is trying to clean up non-checked-in
connection" (the same cancelled read); on PostgreSQL, psycopg's ``error ignored terminating
<AsyncPipeline [INERROR]>`` when concurrent identical commands conflicted inside the pipelined
append. These tests fail on any such line (tests/integration/server.py, ``NOISE``); the
concurrency tests (test_concurrency.py) check the same after their bursts.
"""

from __future__ import annotations

import asyncio
import threading

import httpx

from tests.api.helpers import bearer
from tests.integration.server import Server
from tests.integration.test_concurrency import CHOICES, Shot, create, fire


def _drop_after(base: str, mid: str, lines: int, token: str | None) -> None:
    """Read ``lines`` lines of the match's stream, then hang up without a word."""
    headers = bearer(token) if token else {}
    try:
        with httpx.stream("GET", f"{base}/matches/{mid}/stream", headers=headers, timeout=20) as r:
            for i, _ in enumerate(r.iter_lines()):
                if i >= lines:
                    return
    except httpx.HTTPError:
        return


def test_streams_dropped_while_the_match_moves_leave_no_noise(
    database_url: str, servers: list[Server]
) -> None:
    server = Server(database_url, keepalive=0.05, viewer=False).start()
    servers.append(server)
    mid, tokens, _ = create(server.base)
    for burst in range(6):
        listeners = [
            threading.Thread(
                target=_drop_after,
                args=(server.base, mid, 2 + (i * 7 + burst) % 11, tokens[i % 4] if i % 2 else None),
                daemon=True,
            )
            for i in range(24)
        ]
        for t in listeners:
            t.start()
        shots: list[Shot] = [
            (server.base, tokens[i % 4], {"type": CHOICES[i % 7]}, None) for i in range(16)
        ]
        asyncio.run(fire(mid, shots))
        for t in listeners:
            t.join(timeout=20)
    server.assert_quiet()
