"""What the hidden-information tests of every game share: a table that records everything the
API sends each viewer, and the scan of that record for a card its viewer could not know.

A game's test plays each match at a :class:`Table` and gives :func:`assert_no_card_leaks` its
own model of what each viewer may know after each version of a finished match (from the stored
records of its export), with its :class:`Secrets`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import bearer
from tests.integration.server import Server

Viewer = int | None  # a seat, or None for a spectator
#: what each viewer may know right after each version (index 0: before the first event)
Allowed = Sequence[Mapping[Viewer, frozenset[str]]]


def card_finder(cards: Iterable[str]) -> Callable[[str], set[str]]:
    """The card ids of a game that stand in a text (a view, an event, an error body)."""
    pattern = "|".join(re.escape(c) for c in cards)
    card_re = re.compile(r"(?<![A-Za-z0-9_#])(" + pattern + r")(?![0-9])")
    return lambda text: set(card_re.findall(text))


@dataclass(frozen=True)
class Secrets:
    """What a game hides, as the scan checks it."""

    #: the card ids in a text
    cards: Callable[[str], set[str]]
    #: stored metadata may show the cards a spectator may know at its event (else none at all)
    public_cards_in_meta: bool
    #: words stored metadata never holds (the name of a secret field)
    never_in_meta: tuple[str, ...] = ()
    #: event type -> its fields that every copy sent before the match is over shows as null
    null_fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


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
                elif event == "end":  # the finished match's last message: no card in it
                    record.add(viewer, body["version"], "error", body, "stream")
                else:
                    record.add(viewer, body["version"], "event", body["event"], "stream")
                event = data = ""


def serve(database: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A live server on a fresh SQLite file, for a fixture to yield from."""
    monkeypatch.setenv("CUCCU_RATE_LIMIT", "0")  # these tests read a lot with each token
    s = Server(f"sqlite+aiosqlite:///{database}", keepalive=0.3).start()
    try:
        yield s
    finally:
        s.stop()


class Table:
    """A created match, watched by its spectator and every seat token: each one's stream is
    recorded from the start, and so is everything they are sent through this client."""

    def __init__(self, base: str, creation: dict[str, Any]) -> None:
        """Create the match (``creation`` is the body of ``POST /matches``) and watch it."""
        self.client = httpx.Client(base_url=base, timeout=30)
        resp = self.client.post("/matches", json=creation)
        assert resp.status_code == 201, resp.text
        created: dict[str, Any] = resp.json()
        self.created = created  # the match, its seat tokens and their first views
        self.mid: str = created["match_id"]
        self.tokens: dict[int, str] = {t["seat"]: t["token"] for t in created["seat_tokens"]}
        self.record = Record()
        self.record.add(None, created["version"], "view", created["view"])
        self.viewers: list[tuple[Viewer, str | None]] = [(None, None), *self.tokens.items()]
        self.last_sent = float("inf")  # when the last command was sent
        self._listeners = [
            threading.Thread(target=listen, args=(base, self.mid, v, t, self.record), daemon=True)
            for v, t in self.viewers
        ]
        for t in self._listeners:
            t.start()

    def read(self) -> dict[Viewer, dict[str, Any]]:
        """Each viewer's match body now, with its view and its page of events recorded."""
        c, mid = self.client, self.mid
        current: dict[Viewer, dict[str, Any]] = {}
        for viewer, token in self.viewers:
            h = bearer(token) if token else {}
            body = c.get(f"/matches/{mid}", headers=h).json()
            current[viewer] = body
            self.record.add(viewer, body["version"], "view", body["view"])
            page = c.get(f"/matches/{mid}/events", params={"limit": 1000}, headers=h).json()
            for e in page["events"]:
                self.record.add(viewer, e["version"], "event", e["event"], "get", page["version"])
        return current

    def export_too_early(self, version: int) -> None:
        """The export of the unfinished match is refused; its error body is recorded."""
        export = self.client.get(f"/matches/{self.mid}/export")
        assert export.status_code == 409
        self.record.add(None, version, "error", export.text)

    def command(self, seat: int, body: dict[str, Any]) -> httpx.Response:
        return self.client.post(
            f"/matches/{self.mid}/commands", json=body, headers=bearer(self.tokens[seat])
        )

    def play(self, seat: int, choice: str, version: int) -> None:
        """A legal command, recorded with the bot turns it triggered."""
        self.last_sent = time.monotonic()
        resp = self.command(seat, {"type": choice, "expected_version": version})
        assert resp.status_code == 200, resp.text
        self.record.reply(seat, resp.json())

    def close(self) -> None:
        for t in self._listeners:
            t.join(timeout=30)  # a stream ends once its finished match has been sent
        self.client.close()


def _exported(base: str, mid: str) -> list[dict[str, Any]]:
    """The stored records of a finished match, from its export."""
    lines = httpx.get(f"{base}/matches/{mid}/export", timeout=30).text.splitlines()
    return [json.loads(line)["record"] for line in lines if '"record"' in line]


@dataclass
class Coverage:
    """How many payloads were checked, and on which channels."""

    checked: int = 0
    sources: set[tuple[Viewer, str, str]] = field(default_factory=set)


def assert_no_card_leaks(
    base: str,
    seeds: Iterable[int],
    play: Callable[[str, int], Table],
    allowed: Callable[[list[dict[str, Any]]], Allowed],
    secrets: Secrets,
) -> Coverage:
    """Play a match for each seed (``play`` returns its closed table), then check everything
    its table recorded against what each viewer could know, by ``allowed`` over the stored
    records of its export."""
    coverage = Coverage()
    for seed in seeds:
        table = play(base, seed)
        stored = _exported(base, table.mid)
        _assert_nothing_hidden_sent(table, stored, allowed(stored), secrets, coverage)
    return coverage


def _assert_nothing_hidden_sent(
    table: Table,
    stored: list[dict[str, Any]],
    allowed: Allowed,
    secrets: Secrets,
    coverage: Coverage,
) -> None:
    """Every card recorded at ``table`` is one its viewer could know at the version it
    reflects; error bodies carry none, stored metadata none beyond what ``secrets`` leaves it.
    What is sent once the match may be over is public, and not checked."""
    cards, final = secrets.cards, len(stored)
    for s in stored:  # stored metadata names commands, never a card or a secret
        meta = json.dumps(s["meta"])
        public = allowed[s["version"]][None] if secrets.public_cards_in_meta else frozenset()
        assert cards(meta) <= public, (s["version"], s["meta"])
        for word in secrets.never_in_meta:
            assert word not in meta, s["meta"]
    for seen in table.record.seen:
        shown = cards(seen.text)
        if seen.kind == "error":
            assert not shown, (seen.viewer, seen.text)
            continue
        if seen.at >= final:
            continue  # sent once the match was over: everything is public
        if seen.source == "stream" and seen.when >= table.last_sent:
            continue  # sent once the match may be over: then unredacted by design
        leak = shown - allowed[seen.version][seen.viewer]
        assert not leak, (table.mid, seen.viewer, seen.kind, seen.version, sorted(leak), seen.text)
        if seen.kind == "event":
            _assert_null_fields(seen.text, secrets.null_fields)
        coverage.checked += 1
        coverage.sources.add((seen.viewer, seen.kind, seen.source))


def _assert_null_fields(text: str, null_fields: Mapping[str, tuple[str, ...]]) -> None:
    for event_type, names in null_fields.items():
        if f'"{event_type}"' in text:
            for name in names:
                assert f'"{name}":null' in text.replace(" ", ""), text


def assert_every_channel_checked(coverage: Coverage) -> None:
    """The spectator and two seats were checked on every channel, and replies were too."""
    sources = coverage.sources
    for viewer in (None, 0, 2):
        for kind, source in (("view", "get"), ("event", "get"), ("view", "stream"),
                             ("event", "stream")):  # fmt: skip
            assert (viewer, kind, source) in sources, (viewer, kind, source)
    assert (0, "event", "reply") in sources and (2, "view", "reply") in sources
