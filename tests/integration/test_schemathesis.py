"""Schemathesis against the live OpenAPI document of the real server on PostgreSQL.

Over a thousand generated requests in CI (a quarter by default: ``EXAMPLES``; examples,
coverage, fuzzing and stateful phases): no 5xx, every status code documented, every response
matching its schema and content type, invalid data rejected, unsupported methods refused.
``/stream`` (Server-Sent Events) is left out: it is not a JSON response and stays open by
design; tests/api and test_concurrency cover it.

Not checked: ``allow_header_conformance``, because Litestar's automatic OPTIONS answer on
``/matches`` lists only the methods of one of its two handlers; and ``positive_data_acceptance``,
because a schema-valid request may still be refused for its meaning (an unknown cursor, a
choice that is not allowed now), which the API answers with a documented 4xx.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import PgServer
from tests.integration.server import Server

#: examples per operation: a quick run's size by default, CI's 100 from .ci/run (README, "Testing")
EXAMPLES = int(os.environ.get("CUCCU_SCHEMATHESIS_EXAMPLES", "25"))

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance,response_headers_conformance,negative_data_rejection,"
    "unsupported_method,missing_required_header,ignored_auth"
)


@pytest.fixture
def live(pg_server: PgServer) -> Iterator[Server]:
    url = pg_server.create_database("schemathesis")
    server = Server(url, keepalive=0.2).start()
    try:
        yield server
    finally:
        server.stop()
        pg_server.drop_database(url)


def test_generated_requests_against_the_live_openapi(live: Server, tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "schemathesis"
    cmd = [
        str(exe), "run", f"{live.base}/schema/openapi.json",
        "--checks", CHECKS,
        "--max-examples", str(EXAMPLES),
        # a cap for a slow box; a quiet one reaches 100 examples in ~60 s
        "--max-time", str(max(60, EXAMPLES * 240 // 100)),
        "--workers", "1",  # hypothesis parses lambdas with ast: not thread-safe on 3.11
        "--exclude-path", "/matches/{match_id}/stream",
        "--request-timeout", "10",
        "--seed", "20261129",
        "--report", "junit", "--report-dir", str(tmp_path),
    ]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    text = out.stdout + out.stderr
    assert out.returncode == 0, text[-6000:]
    found = re.search(r"(\d+) generated, (\d+) passed", text)
    assert found is not None, text[-3000:]
    generated, passed = map(int, found.groups())
    assert generated >= 10 * EXAMPLES and passed == generated, found.group(0)


def test_chunked_body_over_the_limit_is_413_on_the_wire(live: Server) -> None:
    """Without a Content-Length the size limit still holds while the body streams in."""
    import json
    import socket

    host, port = "127.0.0.1", live.port
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(
            b"POST /matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b" " * 4096
        try:
            for _ in range(8):  # 32 KiB, over the default 16 KiB
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before the body is complete
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            part = s.recv(65536)
            if not part:
                break
            reply += part
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head
    assert b"application/problem+json" in head
    assert json.loads(body)["type"] == "urn:cuccu:problem:body-too-large"
