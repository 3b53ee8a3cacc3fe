"""Hidden information at the API level for Cucco 21 (CUCCO21 §9), over matches played on a
live server.

As for Cuccù (test_hidden_information.py): two human seats (a random policy) and two bots per
match; for every seat token and for spectators, everything the API sends is recorded with the
stream version it reflects (views, event pages, SSE messages, command replies with the bot turns
they triggered, error bodies). Once the match is over its export is folded, and the §9 model of
the domain's property tests (``tests.cucco21.test_properties.Knowledge``) says which cards each
viewer could know after each version; every recorded card must be one of those. A deck's order
and salt stay hidden until it is opened (C27), and error bodies and stored metadata carry no
card at all.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domain.games import CUCCO21
from domain.games.cucco21.cards import CARDS
from tests.api.helpers import bearer
from tests.cucco21.test_properties import Knowledge
from tests.integration.server import Server
from tests.integration.test_hidden_information import Record, Viewer, listen

CARD_RE = re.compile(r"(?<![A-Za-z0-9_#])(" + "|".join(re.escape(c) for c in CARDS) + r")(?![0-9])")
MATCHES = 4
VIEWERS: tuple[Viewer, ...] = (None, 0, 1, 2, 3)


def cards(text: str) -> set[str]:
    return set(CARD_RE.findall(text))


@pytest.fixture
def server(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("CUCCU_RATE_LIMIT", "0")  # this test reads a lot with each token
    s = Server(f"sqlite+aiosqlite:///{tmp_path / 'hidden21.db'}", keepalive=0.3).start()
    try:
        yield s
    finally:
        s.stop()


def play_and_record(base: str, seed: int) -> tuple[str, Record, float]:
    """Play one match; returns its id, the record and when its last command was sent."""
    rng = random.Random(seed)
    seats = [
        {"name": "Ann"},
        {"name": "Bot1", "kind": "bot", "bot_level": ("basic", "expert")[seed % 2]},
        {"name": "Cy"},
        {"name": "Bot3", "kind": "bot", "bot_level": "random"},
    ]
    c = httpx.Client(base_url=base, timeout=30)
    body = {"game": "cucco21", "seats": seats, "starting_chips": 3, "max_sets": 1, "seed": seed}
    resp = c.post("/matches", json=body)
    assert resp.status_code == 201, resp.text
    created = resp.json()
    mid = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    record = Record()
    record.add(None, created["version"], "view", created["view"])
    for t in created["seat_tokens"]:
        record.add(t["seat"], created["version"], "view", t["view"])
    viewers: list[tuple[Viewer, str | None]] = [(None, None), *tokens.items()]
    listeners = [
        threading.Thread(target=listen, args=(base, mid, v, t, record), daemon=True)
        for v, t in viewers
    ]
    for t in listeners:
        t.start()
    last_sent = float("inf")
    for _ in range(600):
        current: dict[Viewer, dict[str, Any]] = {}
        for viewer, token in viewers:
            h = bearer(token) if token else {}
            got = c.get(f"/matches/{mid}", headers=h).json()
            assert got["game"] == "cucco21" and got["view"]["game"] == "cucco21"
            current[viewer] = got
            record.add(viewer, got["version"], "view", got["view"])
            page = c.get(f"/matches/{mid}/events", params={"limit": 1000}, headers=h).json()
            for e in page["events"]:
                record.add(viewer, e["version"], "event", e["event"], "get", page["version"])
        version = current[None]["version"]
        if current[None]["view"]["status"] == "over":
            break
        export = c.get(f"/matches/{mid}/export")
        assert export.status_code == 409
        record.add(None, version, "error", export.text)
        mine = {s: current[s]["view"]["pending"] for s in tokens}
        for seat, token in tokens.items():
            step = mine[seat]
            asked = step is not None and step["seat"] == seat
            wrong = next(
                x for x in ("claim", "refuse", "trade", "exchange")
                if not asked or x not in step["choices"]
            )  # fmt: skip
            resp = c.post(f"/matches/{mid}/commands", json={"type": wrong}, headers=bearer(token))
            assert resp.status_code != 200, resp.text
            record.add(seat, version, "error", resp.text)
        step = current[0]["view"]["pending"]
        if step is None:
            break
        if step["seat"] is None:  # between rounds: a human starts the next one
            seat, choice = rng.choice(list(tokens)), "next_round"
        else:
            seat = step["seat"]
            choices = current[seat]["view"]["pending"]["choices"]  # the seat's own prompt
            choice = rng.choice(choices)
        last_sent = time.monotonic()
        resp = c.post(
            f"/matches/{mid}/commands",
            json={"type": choice, "expected_version": version},
            headers=bearer(tokens[seat]),
        )
        assert resp.status_code == 200, resp.text
        record.reply(seat, resp.json())  # includes the bot turns it triggered
    for t in listeners:
        t.join(timeout=30)  # a stream ends once its finished match has been sent
    c.close()
    return mid, record, last_sent


def test_no_card_leaks_through_the_api_in_cucco21(server: Server) -> None:
    checked = 0
    sources: set[tuple[Viewer, str, str]] = set()
    for seed in range(MATCHES):
        mid, record, last_sent = play_and_record(server.base, 200 + seed)
        lines = httpx.get(f"{server.base}/matches/{mid}/export", timeout=30).text.splitlines()
        stored = [json.loads(line)["record"] for line in lines if '"record"' in line]
        events = [
            CUCCO21.read_event(s["type"], s["schema"], json.dumps(s["data"]).encode())
            for s in stored
        ]
        final = len(events)
        knowledge = Knowledge(4)
        state = CUCCO21.initial()
        allowed: list[dict[Viewer, frozenset[str]]] = [{v: frozenset() for v in VIEWERS}]
        for e in events:
            knowledge.learn(e)
            state = CUCCO21.evolve(state, e)
            allowed.append({v: frozenset(knowledge.allowed(state, v)) for v in VIEWERS})
        for s in stored:  # stored metadata names commands, never a card or a salt
            assert not cards(json.dumps(s["meta"])), (s["version"], s["meta"])
            assert "order" not in json.dumps(s["meta"]), s["meta"]
        for seen in record.seen:
            shown = cards(seen.text)
            if seen.kind == "error":
                assert not shown, (seen.viewer, seen.text)
                continue
            if seen.at >= final:
                continue  # sent once the match was over: everything is public
            if seen.source == "stream" and seen.when >= last_sent:
                continue  # sent once the match may be over: then unredacted by design
            leak = shown - allowed[seen.version][seen.viewer]
            assert not leak, (mid, seen.viewer, seen.kind, seen.version, sorted(leak), seen.text)
            if seen.kind == "event" and '"deck_shuffled"' in seen.text:
                assert '"order":null' in seen.text.replace(" ", ""), seen.text
            checked += 1
            sources.add((seen.viewer, seen.kind, seen.source))
    assert checked > 500, checked
    for viewer in (None, 0, 2):
        for kind, source in (("view", "get"), ("event", "get"), ("view", "stream"),
                             ("event", "stream")):  # fmt: skip
            assert (viewer, kind, source) in sources, (viewer, kind, source)
    assert (0, "event", "reply") in sources and (2, "view", "reply") in sources
