"""The server's log lines (issue 21, item 2): whole matches of both games on a real server with
JSON logs at info level. Every line is a JSON object; every request has its line, with its
request id (the client's when sane, else a new one, returned in ``X-Request-ID``), route
template, status and duration, and the match id and seat where there are; and no line holds a
card, a salt, a seat token or an Idempotency-Key, collected once the matches are over from
their exports (as tests/integration/hidden.py does) and from the answers.
"""

from __future__ import annotations

import json
import os
import re
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.players import KEY_PREFIX
from domain.games.cucco21.cards import CARDS as CUCCO21_CARDS
from domain.games.cuccu.cards import CARDS as CUCCU_CARDS
from tests.api.helpers import HUMAN_VS_BOTS, bearer
from tests.api.test_cucco21 import ANN_VS_BOTS
from tests.integration.hidden import card_finder
from tests.integration.server import Server

CARDS = card_finder({*CUCCU_CARDS, *CUCCO21_CARDS})
SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:\-]{0,35}")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(
        f"sqlite+aiosqlite:///{tmp_path / 'logs.db'}",
        viewer=False,
        log_level="info",
        env={"CUCCU_LOG_FORMAT": "json", "CUCCU_RATE_LIMIT": "0"},
    )
    s.start()
    try:
        yield s
    finally:
        s.stop()


def _follow(base: str, mid: str, token: str | None) -> None:
    """Read a match's stream to its end (it ends once the finished match is sent)."""
    headers = bearer(token) if token else {}
    with httpx.stream("GET", f"{base}/matches/{mid}/stream", headers=headers, timeout=60) as r:
        for _ in r.iter_lines():
            pass


def _salts(value: Any) -> set[str]:
    """Every string stored under a key naming a salt or a deck's secret (docs/API.md
    "Fairness"), anywhere in ``value``."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            if ("salt" in k.lower() or k == "secret") and isinstance(v, str) and v:
                found.add(v)
            elif "salt" in k.lower() and isinstance(v, list):
                found.update(x for x in v if isinstance(x, str) and x)
            found |= _salts(v)
    elif isinstance(value, list):
        for v in value:
            found |= _salts(v)
    return found


def play_match(c: httpx.Client, creation: dict[str, Any], secrets: set[str]) -> str:
    """Create (with a secret Idempotency-Key), watch and play a match to its end: seat 0
    answers every prompt with its first choice. Its id; its secrets are added to ``secrets``."""
    key = str(uuid.uuid4())
    secrets.add(key)
    created = c.post("/matches", json=creation, headers={"Idempotency-Key": key})
    assert created.status_code == 201, created.text
    again = c.post("/matches", json=creation, headers={"Idempotency-Key": key})  # a replay
    assert again.headers.get("Idempotent-Replayed") == "true"
    body = created.json()
    mid, token = body["match_id"], body["seat_tokens"][0]["token"]
    secrets.update(t["token"] for t in body["seat_tokens"])
    watchers = [
        threading.Thread(target=_follow, args=(c.base_url, mid, t), daemon=True)
        for t in (None, token)
    ]
    for w in watchers:
        w.start()
    for _ in range(3_000):
        view = c.get(f"/matches/{mid}", headers=bearer(token)).json()["view"]
        if view["status"] == "over":
            break
        pending = view["pending"]
        choice = "next_round" if pending["seat"] is None else pending["choices"][0]
        resp = c.post(f"/matches/{mid}/commands", json={"type": choice}, headers=bearer(token))
        assert resp.status_code == 200, resp.text
        c.get(f"/matches/{mid}/events", params={"limit": 1000}, headers=bearer(token))
    else:
        raise AssertionError("the match did not end")
    for w in watchers:
        w.join(timeout=60)
    export = c.get(f"/matches/{mid}/export")
    assert export.status_code == 200, export.text
    records = [json.loads(line) for line in export.text.splitlines() if line.strip()]
    salts = _salts(records)
    assert salts, "the export holds the rounds' salts"
    secrets.update(salts)
    return mid


def accounts(c: httpx.Client, secrets: set[str]) -> None:
    """Register an account, rotate its key, claim a seat with it, and send a forged key;
    every key is added to ``secrets``."""
    made = c.post("/players", json={"name": f"logbot-{uuid.uuid4().hex[:8]}", "kind": "bot"})
    assert made.status_code == 201, made.text
    key = made.json()["key"]
    secrets.add(key)
    rotated = c.post("/players/me/key", headers=bearer(key))
    assert rotated.status_code == 201, rotated.text
    key = rotated.json()["key"]
    secrets.add(key)
    lobby = c.post(
        "/matches",
        json={"seats": [{"name": "open", "kind": "open"}, {"name": "Bo", "kind": "bot"}]},
    )
    assert lobby.status_code == 201, lobby.text
    claim = f"/matches/{lobby.json()['match_id']}/seats/0/claim"
    claimed = c.post(claim, json={"name": "logbot"}, headers=bearer(key))
    assert claimed.status_code == 201, claimed.text
    secrets.add(claimed.json()["token"])
    # the queue: a table filled with bots at once, its seat taken with entropy (drawn after
    # the table's commitment was shown) and answered with a seat token
    ticket = c.post(
        "/queue", json={"game": "cuccu", "seats": 2, "bots_after": 0}, headers=bearer(key)
    )
    assert ticket.status_code == 201, ticket.text
    ticket_id = ticket.json()["ticket_id"]
    at_table = c.get(
        f"/queue/{ticket_id}", params={"wait": 10, "seen": "waiting"}, headers=bearer(key)
    ).json()
    assert at_table["status"] == "seating" and at_table["commitment"], at_table
    entropy = os.urandom(32).hex()
    secrets.add(entropy)
    seated = c.post(
        f"/queue/{ticket_id}/claim", json={"entropy": entropy}, headers=bearer(key)
    ).json()
    assert seated["status"] == "matched" and seated["contributed"], seated
    secrets.add(seated["token"])
    forged = KEY_PREFIX + uuid.uuid4().hex + "Zq"
    secrets.add(forged)
    assert c.post("/players/me/key", headers=bearer(forged)).status_code == 401


def test_json_log_lines_carry_request_ids_and_no_secret(server: Server) -> None:
    secrets: set[str] = set()
    sent: list[str] = []

    def count(request: httpx.Request) -> None:
        sent.append(request.url.path)

    with httpx.Client(base_url=server.base, timeout=30, event_hooks={"request": [count]}) as c:
        mids = [
            play_match(c, {**HUMAN_VS_BOTS, "seed": 5}, secrets),
            play_match(c, ANN_VS_BOTS, secrets),
        ]
        # a request id sent by the client is kept when sane, replaced when not (a string
        # shaped like a seat token, 43 characters, is never taken)
        mine = c.get("/health", headers={"X-Request-ID": "trace-42"})
        assert mine.headers["X-Request-ID"] == "trace-42"
        token_shaped = "A" * 43
        other = c.get("/health", headers={"X-Request-ID": token_shaped})
        assert other.headers["X-Request-ID"] != token_shaped
        assert SANE_ID.fullmatch(other.headers["X-Request-ID"])
        # player accounts: registering, rotating and claiming with API keys, a wrong key
        accounts(c, secrets)
        # a wrong token is refused, and not logged either
        wrong = "w" + uuid.uuid4().hex + "Xy"
        secrets.add(wrong)
        refused = c.get(f"/matches/{mids[0]}", headers=bearer(wrong))
        assert refused.status_code == 401
        assert SANE_ID.fullmatch(refused.headers["X-Request-ID"])
    server.assert_quiet()
    lines = [line for line in server.output if line.strip()]
    requests: list[dict[str, Any]] = []
    for line in lines:
        record = json.loads(line)  # every line is one JSON object
        assert isinstance(record, dict) and record["event"] and record["level"], line
        if record.get("logger") == "cuccu.request":
            requests.append(record)
        assert not CARDS(line), (sorted(CARDS(line)), line)
        assert KEY_PREFIX not in line, line  # no API key, whole or in part
        for secret in secrets:
            assert secret not in line, line
    assert token_shaped not in "".join(lines)
    # one line per request, each with its id, route template, status and duration
    assert len(requests) >= len(sent) + 4  # and the streams, and the start's /health
    for r in requests:
        assert SANE_ID.fullmatch(r["request_id"]), r
        assert r["route"].startswith("/") and isinstance(r["status"], int), r
        assert isinstance(r["duration_ms"], float | int), r
        assert "/matches/" not in r["route"] or "{match_id}" in r["route"], r
    ids = [r["request_id"] for r in requests]
    assert len(set(ids)) == len(ids)  # unique
    assert "trace-42" in ids
    commands = [r for r in requests if r["route"] == "/matches/{match_id}/commands"]
    assert commands and all(r["match_id"] in mids and r["seat"] == 0 for r in commands)
    assert {r["match_id"] for r in commands} == set(mids)
    streams = [r for r in requests if r["route"] == "/matches/{match_id}/stream"]
    assert len(streams) == 4 and all(r["status"] == 200 for r in streams), streams
    assert any(r["status"] == 401 and "seat" not in r for r in requests)
    # the server's own lines (start-up, signing) are JSON too, and the CLI's banner
    assert any(json.loads(line).get("logger") == "uvicorn.error" for line in lines)
    assert any("serving on" in json.loads(line)["event"] for line in lines)
