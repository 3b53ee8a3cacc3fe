"""Hidden information at the API level (RULES §7), over many matches played on a live server.

Two human seats (a simple random policy) and two bots per match. For every seat token and for
spectators, everything the API sends is recorded with the stream version it reflects: views,
event pages, SSE messages, command replies (including the bot turns they triggered) and error
bodies (refused commands, the export of an unfinished match). Once a match is over, its full
log (the export) is replayed through an independent model of what each seat may know after each
event (``Knowledge``, shared with the domain's property tests) and every recorded card must be
one its receiver could know then. After a round's ``round_ended`` its pack is public by design
(docs/ARCHITECTURE.md); once the match is over everything is. Error bodies carry no card at
all, and stored event metadata never holds more than a spectator may know.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.events import decode_event
from tests.api.helpers import bearer
from tests.domain.test_invariants import Knowledge
from tests.integration.server import Server

CARD_RE = re.compile(r"(?<![A-Za-z0-9_#])(" + "|".join(re.escape(c) for c in CARDS) + r")(?![0-9])")
MATCHES = 12
Viewer = int | None  # a seat, or None for a spectator


def cards(text: str) -> set[str]:
    return set(CARD_RE.findall(text))


@dataclass
class Seen:
    viewer: Viewer
    version: int  # the stream version the payload reflects
    kind: str  # view | event | error
    text: str
    source: str  # get | reply | stream
    at: int  # the stream version when it was sent (its own version for an SSE message)
    when: float = field(default_factory=time.monotonic)


@dataclass
class Record:
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(
        self,
        viewer: Viewer,
        version: int,
        kind: str,
        payload: Any,
        source: str = "get",
        at: int | None = None,
    ) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        with self.lock:
            self.seen.append(
                Seen(viewer, version, kind, text, source, version if at is None else at)
            )

    def reply(self, viewer: Viewer, body: dict[str, Any]) -> None:
        """A view-bearing body: its view at body.version, each event at its own version."""
        self.add(viewer, body["version"], "view", body["view"], "reply")
        for e in body.get("events", []):
            self.add(viewer, e["version"], "event", e["event"], "reply", body["version"])


def listen(base: str, mid: str, viewer: Viewer, token: str | None, record: Record) -> None:
    headers = bearer(token) if token else {}
    event = data = ""
    with httpx.stream("GET", f"{base}/matches/{mid}/stream", headers=headers, timeout=60) as r:
        for line in r.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data = line[5:].strip()
            elif line == "" and data:
                body = json.loads(data)
                if event == "view":
                    record.add(viewer, body["version"], "view", body["view"], "stream")
                else:
                    record.add(viewer, body["version"], "event", body["event"], "stream")
                event = data = ""


@pytest.fixture
def server(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("CUCCU_RATE_LIMIT", "0")  # this test reads a lot with each token
    s = Server(f"sqlite+aiosqlite:///{tmp_path / 'hidden.db'}", keepalive=0.3).start()
    try:
        yield s
    finally:
        s.stop()


def play_and_record(base: str, seed: int) -> tuple[str, Record, float, int]:
    """Play one match; returns its id, the record, when its last command was sent, humans."""
    rng = random.Random(seed)
    levels = ["basic", "random"]
    seats = [
        {"name": "Ann"},
        {"name": "Bot1", "kind": "bot", "bot_level": levels[seed % 2]},
        {"name": "Cy"},
        {"name": "Bot3", "kind": "bot", "bot_level": levels[(seed + 1) % 2]},
    ]
    c = httpx.Client(base_url=base, timeout=30)
    created = c.post("/matches", json={"seats": seats, "starting_lives": 2, "seed": seed}).json()
    mid = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    record = Record()
    record.add(None, created["version"], "view", created["view"])
    viewers: list[tuple[Viewer, str | None]] = [(None, None), *tokens.items()]
    listeners = [
        threading.Thread(target=listen, args=(base, mid, v, t, record), daemon=True)
        for v, t in viewers
    ]
    for t in listeners:
        t.start()
    last_sent = float("inf")
    for _ in range(400):
        current: dict[Viewer, dict[str, Any]] = {}
        for viewer, token in viewers:
            h = bearer(token) if token else {}
            body = c.get(f"/matches/{mid}", headers=h).json()
            current[viewer] = body
            record.add(viewer, body["version"], "view", body["view"])
            page = c.get(f"/matches/{mid}/events", params={"limit": 1000}, headers=h).json()
            for e in page["events"]:
                record.add(viewer, e["version"], "event", e["event"], "get", page["version"])
        version = current[None]["version"]
        pending = current[None]["view"]["pending"]
        if pending is None:
            break
        # refused commands and an early export: their error bodies must not carry cards
        export = c.get(f"/matches/{mid}/export")
        assert export.status_code == 409
        record.add(None, version, "error", export.text)
        for seat, token in tokens.items():
            wrong = next(x for x in ("inn_refuse", "next_round", "keep")
                         if pending["seat"] != seat or x not in pending["choices"])  # fmt: skip
            resp = c.post(f"/matches/{mid}/commands", json={"type": wrong}, headers=bearer(token))
            if resp.status_code != 200:
                record.add(seat, version, "error", resp.text)
            else:  # a legal next_round from a seat not asked: a real command, recorded as one
                record.reply(seat, resp.json())
        version = c.get(f"/matches/{mid}").json()["version"]
        view = c.get(f"/matches/{mid}", headers=bearer(tokens[0])).json()
        pending = view["view"]["pending"]
        if pending is None:
            break
        seat = pending["seat"] if pending["seat"] is not None else rng.choice(list(tokens))
        last_sent = time.monotonic()
        resp = c.post(
            f"/matches/{mid}/commands",
            json={"type": rng.choice(pending["choices"]), "expected_version": version},
            headers=bearer(tokens[seat]),
        )
        assert resp.status_code == 200, resp.text
        record.reply(seat, resp.json())  # includes the bot turns it triggered
    for t in listeners:
        t.join(timeout=30)  # a stream ends once its finished match has been sent
    c.close()
    return mid, record, last_sent, len(tokens)


def test_no_card_leaks_through_the_api(server: Server) -> None:
    checked = 0
    sources: set[tuple[Viewer, str, str]] = set()
    for seed in range(MATCHES):
        mid, record, last_sent, _ = play_and_record(server.base, 100 + seed)
        lines = httpx.get(f"{server.base}/matches/{mid}/export", timeout=30).text.splitlines()
        stored = [json.loads(line)["record"] for line in lines if '"record"' in line]
        events = [decode_event(json.dumps({"type": s["type"], **s["data"]})) for s in stored]
        final = len(events)
        # what each viewer may know right after each version (version 0: nothing yet)
        knowledge = Knowledge(4)
        allowed: list[dict[Viewer, frozenset[str]]] = [{v: frozenset() for v in (None, 0, 1, 2, 3)}]
        for e in events:
            knowledge.learn(e)
            allowed.append({v: frozenset(knowledge.allowed(v)) for v in (None, 0, 1, 2, 3)})
        # stored metadata never holds more than a spectator may know at its event
        for s in stored:
            meta_cards = cards(json.dumps(s["meta"]))
            assert meta_cards <= allowed[s["version"]][None], (s["version"], s["meta"])
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
            checked += 1
            sources.add((seen.viewer, seen.kind, seen.source))
    assert checked > 1000, checked
    # every viewer was checked on every channel
    for viewer in (None, 0, 2):
        for kind, source in (("view", "get"), ("event", "get"), ("view", "stream"),
                             ("event", "stream")):  # fmt: skip
            assert (viewer, kind, source) in sources, (viewer, kind, source)
    assert (0, "event", "reply") in sources and (2, "view", "reply") in sources
