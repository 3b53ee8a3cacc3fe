"""Hidden information at the API level (RULES §7), over many matches played on a live server.

Two human seats (a simple random policy) and two bots per match. For every seat token and for
spectators, everything the API sends is recorded with the stream version it reflects: views,
event pages, SSE messages, command replies (including the bot turns they triggered) and error
bodies (refused commands, the export of an unfinished match). Once a match is over, its full
log (the export) is replayed through an independent model of what each seat may know after each
event (``Knowledge``, shared with the domain's property tests) and every recorded card must be
one its receiver could know then. After a round's ``round_ended`` its pack is public by design
(docs/ARCHITECTURE.md); once the match is over everything is. Error bodies carry no card at
all, and stored event metadata never holds more than a spectator may know. The recording
table and the scan are shared with Cucco 21's test (``tests/integration/hidden.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.clock import CLOCK_EVENT_TYPES
from domain.games import CUCCU
from domain.games.cuccu.cards import CARDS
from tests.api.helpers import bearer
from tests.domain.test_invariants import Knowledge
from tests.integration import hidden
from tests.integration.server import Server

MATCHES = 12
VIEWERS: tuple[hidden.Viewer, ...] = (None, 0, 1, 2, 3)
#: stored metadata may name a card a spectator could know at its event (a public reveal)
SECRETS = hidden.Secrets(
    hidden.card_finder(CARDS),
    public_cards_in_meta=True,
    # the pack's order and its salt open only in the export: the commitment alone is public
    # and a deck's secret opens with the deck (docs/API.md "Fairness"), in its own event
    null_fields={"round_started": ("pack", "salt"), "entropy_committed": ("secret",)},
)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from hidden.serve(tmp_path / "hidden.db", monkeypatch)


def play_and_record(base: str, seed: int) -> hidden.Table:
    """Play one match at a watched table, and return the table."""
    rng = random.Random(seed)
    levels = ["basic", "random"]
    seats = [
        {"name": "Ann"},
        {"name": "Bot1", "kind": "bot", "bot_level": levels[seed % 2]},
        {"name": "Cy"},
        {"name": "Bot3", "kind": "bot", "bot_level": levels[(seed + 1) % 2]},
    ]
    creation: dict[str, Any] = {"seats": seats, "starting_lives": 2, "seed": seed}
    if seed % 2:  # half the matches with a clock: its events and views go through the scan
        creation["clock"] = {}
    else:  # the other half with the creator's entropy for the first deck (docs/API.md "Fairness")
        creation["entropy"] = rng.randbytes(32).hex()
    table = hidden.Table(base, creation)
    c, mid, tokens, record = table.client, table.mid, table.tokens, table.record
    for _ in range(400):
        current = table.read()
        version = current[None]["version"]
        pending = current[None]["view"]["pending"]
        if pending is None:
            break
        # refused commands and an early export: their error bodies must not carry cards
        table.export_too_early(version)
        for seat in tokens:
            wrong = next(x for x in ("inn_refuse", "next_round", "keep")
                         if pending["seat"] != seat or x not in pending["choices"])  # fmt: skip
            resp = table.command(seat, {"type": wrong})
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
        table.play(seat, rng.choice(pending["choices"]), version)
    table.close()
    return table


def allowed(stored: list[dict[str, Any]]) -> list[dict[hidden.Viewer, frozenset[str]]]:
    """What each viewer may know right after each version of a finished match (0: nothing)."""
    events = [
        None
        if s["type"] in CLOCK_EVENT_TYPES
        else CUCCU.read_event(s["type"], s["schema"], json.dumps(s["data"]).encode())
        for s in stored
    ]
    knowledge = Knowledge(4)
    known: list[dict[hidden.Viewer, frozenset[str]]] = [{v: frozenset() for v in VIEWERS}]
    for e in events:
        if e is not None:  # a clock's event (domain/clock.py) tells nobody a card
            knowledge.learn(e)
        known.append({v: frozenset(knowledge.allowed(v)) for v in VIEWERS})
    return known


def test_no_card_leaks_through_the_api(server: Server) -> None:
    seeds = range(100, 100 + MATCHES)
    coverage = hidden.assert_no_card_leaks(server.base, seeds, play_and_record, allowed, SECRETS)
    assert coverage.checked > 1000, coverage.checked
    hidden.assert_every_channel_checked(coverage)
