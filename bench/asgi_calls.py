"""What the in-process benchmarks share: the load's match and one ASGI request to an app.

``HUMAN_VS_BOTS`` is the match every client of ``bench/api_load.py`` plays (one human seat
against three ``basic`` bots); ``bench/app_cpu.py`` and ``bench/command_cpu.py`` play the same.
This module imports nothing of the application, so a script may still serve another
checkout's (``--root``) after importing it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

HUMAN_VS_BOTS: dict[str, Any] = {
    "seats": [
        {"name": "Ann"},
        {"name": "Bo", "kind": "bot", "bot_level": "basic"},
        {"name": "Cy", "kind": "bot", "bot_level": "basic"},
        {"name": "Di", "kind": "bot", "bot_level": "basic"},
    ],
    "starting_lives": 3,
}


async def call(
    app: Any,
    method: str,
    path: str,
    body: bytes = b"",
    token: str | None = None,
    spent: Callable[[float], None] | None = None,
) -> tuple[int, bytes]:
    """One HTTP request through ``app``'s ASGI interface, as uvicorn would hand it over:
    (status, body). ``spent`` is given the CPU seconds the app's call took (the process's,
    its threads included), the request's and the answer's JSON on the client's side not."""
    headers = [(b"host", b"bench")]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if method == "POST":
        headers += [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": headers, "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80), "state": {},
    }  # fmt: skip
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    start = time.process_time()
    await app(scope, receive, send)
    if spent is not None:
        spent(time.process_time() - start)
    return status, b"".join(chunks)
