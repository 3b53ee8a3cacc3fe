"""Deadlines that survive anything, against the real server on both databases: a server
killed with a deadline pending, and started again, applies the timeout once; two servers on
one database never both apply one timeout; the stream sends the timeout's events."""

from __future__ import annotations

import datetime as dt
import json
import time
from typing import Any

import httpx

from tests.integration.server import Server

#: the shortest clock the API takes: 5 s a decision, no reserve
FAST = {"per_decision": 5, "reserve": 0, "increment": 0, "abandon_after": 10}
TABLE = {
    "seats": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy", "kind": "bot", "bot_level": "basic"}],
    "seed": 17,
    "first_dealer": 2,
}


def create(base: str, clock: dict[str, int]) -> dict[str, Any]:
    resp = httpx.post(f"{base}/matches", json={**TABLE, "clock": clock}, timeout=30)
    assert resp.status_code == 201, resp.text
    body: dict[str, Any] = resp.json()
    return body


def events(base: str, match_id: str) -> list[dict[str, Any]]:
    resp = httpx.get(f"{base}/matches/{match_id}/events", params={"limit": 500}, timeout=30)
    assert resp.status_code == 200, resp.text
    return [e["event"] for e in resp.json()["events"]]


def timeouts(base: str, match_id: str) -> list[dict[str, Any]]:
    return [e for e in events(base, match_id) if e["type"] == "decision_timed_out"]


def wait_for(base: str, match_id: str, count: int, within: float) -> list[dict[str, Any]]:
    end = time.monotonic() + within
    while time.monotonic() < end:
        found = timeouts(base, match_id)
        if len(found) >= count:
            return found
        time.sleep(0.25)
    raise AssertionError(f"{count} timeout(s) not applied within {within} s")


def deadline_of(created: dict[str, Any]) -> dt.datetime:
    return dt.datetime.fromisoformat(created["clock"]["awaiting"]["deadline"])


def test_a_server_killed_with_a_deadline_pending_applies_it_once_after_restart(
    database_url: str, servers: list[Server]
) -> None:
    first = Server(database_url).start()
    servers.append(first)
    created = create(first.base, FAST)
    mid = created["match_id"]
    first.kill9()  # nobody is alive when the deadline passes
    time.sleep(max(0.0, (deadline_of(created) - dt.datetime.now(dt.UTC)).total_seconds()) + 1)
    second = Server(database_url).start()
    servers.append(second)
    (once,) = wait_for(second.base, mid, 1, within=10)
    assert once["seat"] == created["clock"]["awaiting"]["seat"]
    assert once["choice"] == "keep"
    time.sleep(1.5)  # three more sweeps: none applies it again
    assert timeouts(second.base, mid) == [once]
    after = httpx.get(f"{second.base}/matches/{mid}", timeout=30).json()
    assert after["clock"]["awaiting"]["seat"] != once["seat"], "the match went on"


def test_two_servers_on_one_database_never_both_apply_a_timeout(
    database_url: str, servers: list[Server]
) -> None:
    pair = [Server(database_url).start(), Server(database_url).start()]
    servers.extend(pair)
    created = create(pair[0].base, FAST)
    mid = created["match_id"]
    # a spectator's stream on the other server sees the timeouts as they happen
    seen: list[str] = []
    with httpx.stream("GET", f"{pair[1].base}/matches/{mid}/stream", timeout=30) as stream:
        lines = stream.iter_lines()
        deadline = time.monotonic() + 25
        while time.monotonic() < deadline and seen.count("decision_timed_out") < 2:
            line = next(lines)
            if line.startswith("data:") and '"event"' in line:
                data = json.loads(line[5:])
                if "event" in data and isinstance(data["event"], dict):
                    seen.append(data["event"]["type"])
    assert seen.count("decision_timed_out") == 2, seen
    found = timeouts(pair[0].base, mid)
    deadlines = [t["deadline"] for t in found]
    assert len(deadlines) == len(set(deadlines)), "one timeout applied twice"
    opened = [e for e in events(pair[0].base, mid) if e["type"] == "decision_opened"]
    # each opened decision was timed out at most once, and each timeout follows one
    assert len(found) <= len(opened)
    assert {t["deadline"] for t in found} <= {o["deadline"] for o in opened}
