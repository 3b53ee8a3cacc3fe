"""``/metrics`` on a real server (issue 21, item 1): a known number of commands, one refused
and one replayed, read back from the Prometheus text; streams measured apart; no label with a
match id or a token; several processes (``cuccu run --workers 2``) summed.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.api.helpers import HUMAN_VS_BOTS, bearer
from tests.conftest import PgServer
from tests.integration.server import Server

COMMANDS = "/matches/{match_id}/commands"
STREAM = "/matches/{match_id}/stream"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(base: str) -> tuple[str, Samples]:
    resp = httpx.get(f"{base}/metrics", timeout=10)
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith("text/plain"), resp.headers
    samples: Samples = {}
    for family in text_string_to_metric_families(resp.text):
        for s in family.samples:
            samples[(s.name, frozenset(s.labels.items()))] = s.value
    return resp.text, samples


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= ls)


def play(base: str, mid: str, token: str, commands: int) -> int:
    """Send up to ``commands`` legal commands for seat 0 (new connections each: with several
    processes they land on several); the number answered 200."""
    ok = 0
    for _ in range(commands):
        view = httpx.get(f"{base}/matches/{mid}", headers=bearer(token), timeout=10).json()
        pending = view["view"]["pending"]
        if view["view"]["status"] == "over" or pending is None:
            break
        choice = "next_round" if pending["seat"] is None else pending["choices"][0]
        resp = httpx.post(
            f"{base}/matches/{mid}/commands", json={"type": choice}, headers=bearer(token),
            timeout=10,
        )  # fmt: skip
        assert resp.status_code == 200, resp.text
        ok += 1
    return ok


def drive(base: str) -> dict[str, Any]:
    """Create a match, play some commands, one replayed, one refused; what was sent."""
    created = httpx.post(
        f"{base}/matches", json={**HUMAN_VS_BOTS, "seed": 11, "starting_lives": 6}, timeout=30
    )
    assert created.status_code == 201, created.text
    body = created.json()
    mid, token = body["match_id"], body["seat_tokens"][0]["token"]
    ok = play(base, mid, token, 4)
    # one command sent twice with one Idempotency-Key: the second is a replay
    view = httpx.get(f"{base}/matches/{mid}", headers=bearer(token), timeout=10).json()
    pending = view["view"]["pending"]
    choice = "next_round" if pending["seat"] is None else pending["choices"][0]
    key = {"Idempotency-Key": str(uuid.uuid4()), **bearer(token)}
    for _ in range(2):
        resp = httpx.post(f"{base}/matches/{mid}/commands", json={"type": choice}, headers=key)
        assert resp.status_code == 200, resp.text
        ok += 1
    assert resp.headers.get("Idempotent-Replayed") == "true"
    # one refused: a choice the game has, but not offered now
    view = httpx.get(f"{base}/matches/{mid}", headers=bearer(token), timeout=10).json()
    offered = set((view["view"]["pending"] or {}).get("choices") or [])
    wrong = next(c for c in ("inn_ask_pay", "next_round", "keep", "exchange") if c not in offered)
    refused = httpx.post(
        f"{base}/matches/{mid}/commands", json={"type": wrong}, headers=bearer(token)
    )
    assert refused.status_code == 409, refused.text
    slug = refused.json()["type"].rsplit(":", 1)[1]
    return {"mid": mid, "token": token, "ok": ok, "slug": slug, "posted": ok + 1}


def assert_counts(base: str, sent: dict[str, Any]) -> str:
    text, samples = scrape(base)
    ok = total(samples, "cuccu_commands_total", game="cuccu", outcome="ok")
    assert ok == sent["ok"], text
    refused = total(
        samples, "cuccu_commands_total", game="cuccu", outcome="refused", problem=sent["slug"]
    )
    assert refused == 1, text
    assert total(samples, "cuccu_commands_total") == sent["posted"], text
    assert total(samples, "cuccu_idempotent_replays_total", operation="command") == 1, text
    posted = total(samples, "cuccu_http_requests_total", method="POST", path=COMMANDS)
    assert posted == sent["posted"], text
    assert total(samples, "cuccu_http_requests_total", path=COMMANDS, status_code="409") == 1
    timed = total(samples, "cuccu_http_request_duration_seconds_count", path=COMMANDS)
    assert timed == sent["posted"], text
    # no label carries a match id or a token (nor anything that looks like a match id)
    assert sent["mid"] not in text and sent["token"] not in text
    assert not UUID.search(text), UUID.search(text)
    return text


def test_metrics_count_what_was_sent(database_url: str, servers: list[Server]) -> None:
    server = Server(database_url, viewer=False).start()
    servers.append(server)
    sent = drive(server.base)
    assert_counts(server.base, sent)
    _, samples = scrape(server.base)
    assert total(samples, "cuccu_sse_subscribers") == 0
    # a stream is an open subscriber while it lasts, never a request duration
    fresh = httpx.post(f"{server.base}/matches", json={**HUMAN_VS_BOTS, "starting_lives": 6})
    assert fresh.status_code == 201, fresh.text
    mid = fresh.json()["match_id"]
    with httpx.stream("GET", f"{server.base}/matches/{mid}/stream", timeout=20) as r:
        assert r.status_code == 200
        lines = r.iter_lines()  # kept: a dropped iterator closes the connection
        assert next(lines).startswith("id:")  # the view is on its way: the stream is open
        _, samples = scrape(server.base)
        assert total(samples, "cuccu_sse_subscribers") == 1
        assert total(samples, "cuccu_http_requests_in_progress", path=STREAM) == 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the server notices the hang-up at its next keep-alive
        text, samples = scrape(server.base)
        if total(samples, "cuccu_sse_subscribers") == 0:
            break
        time.sleep(0.2)
    assert total(samples, "cuccu_sse_subscribers") == 0, text
    assert total(samples, "cuccu_http_requests_total", path=STREAM) == 1, text
    assert f'path="{STREAM}"' not in "".join(
        line for line in text.splitlines() if line.startswith("cuccu_http_request_duration")
    )
    # /metrics is not rate-limited, and not in the public schema
    schema = httpx.get(f"{server.base}/schema/openapi.json", timeout=10).json()
    assert "/metrics" not in schema["paths"]
    server.assert_quiet()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    url = pg_server.create_database(uuid.uuid4().hex[:8])
    yield url
    pg_server.drop_database(url)


def test_metrics_of_two_processes_are_summed(pg_url: str, servers: list[Server]) -> None:
    server = Server(pg_url, viewer=False, args=("--workers", "2")).start()
    servers.append(server)
    sent = drive(server.base)
    assert_counts(server.base, sent)
    # requests on fresh connections land on either process: the generated request ids name
    # the process (a random prefix each), and /metrics counts them all, whichever answers
    _, samples = scrape(server.base)
    before = total(samples, "cuccu_http_requests_total", path="/health")
    processes: set[str] = set()
    pings = 0
    while pings < 60 or (len(processes) < 2 and pings < 600):
        resp = httpx.get(f"{server.base}/health", timeout=10)
        processes.add(resp.headers["X-Request-ID"].split("-")[0])
        pings += 1
    _, samples = scrape(server.base)
    after = total(samples, "cuccu_http_requests_total", path="/health")
    assert after - before == pings, (before, after, pings, processes)
    assert len(processes) == 2, processes
    server.assert_quiet()
