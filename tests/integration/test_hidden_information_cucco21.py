"""Hidden information at the API level for Cucco 21 (CUCCO21 §9), over matches played on a
live server.

As for Cuccù (test_hidden_information.py, with the same recording table and scan: ``hidden.py``):
two human seats (a random policy) and two bots per match; for every seat token and for
spectators, everything the API sends is recorded with the stream version it reflects (views,
event pages, SSE messages, command replies with the bot turns they triggered, error bodies).
Once the match is over its export is folded, and the §9 model of the domain's property tests
(``tests.cucco21.test_properties.Knowledge``) says which cards each viewer could know after each
version; every recorded card must be one of those. A deck's order and salt stay hidden until it
is opened (C27), and error bodies and stored metadata carry no card at all.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.clock import inner, is_clock_event
from domain.games import CUCCO21
from domain.games.cucco21.cards import CARDS
from tests.cucco21.test_properties import Knowledge
from tests.integration import hidden
from tests.integration.server import Server

MATCHES = 4
VIEWERS: tuple[hidden.Viewer, ...] = (None, 0, 1, 2, 3)
#: stored metadata holds no card and no deck order; a shuffle's order is sent as null (C27)
SECRETS = hidden.Secrets(
    hidden.card_finder(CARDS),
    public_cards_in_meta=False,
    never_in_meta=("order",),
    null_fields={"deck_shuffled": ("order",), "entropy_committed": ("secret",)},
)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from hidden.serve(tmp_path / "hidden21.db", monkeypatch)


def play_and_record(base: str, seed: int) -> hidden.Table:
    """Play one match at a watched table, and return the table."""
    rng = random.Random(seed)
    seats = [
        {"name": "Ann"},
        {"name": "Bot1", "kind": "bot", "bot_level": ("basic", "expert")[seed % 2]},
        {"name": "Cy"},
        {"name": "Bot3", "kind": "bot", "bot_level": "random"},
    ]
    body: dict[str, Any] = {
        "game": "cucco21",
        "seats": seats,
        "starting_chips": 3,
        "max_sets": 1,
        "seed": seed,
    }
    if seed % 2:  # half the matches with a clock: its events and views go through the scan
        body["clock"] = {}
    table = hidden.Table(base, body)
    tokens, record = table.tokens, table.record
    for t in table.created["seat_tokens"]:
        record.add(t["seat"], table.created["version"], "view", t["view"])
    for _ in range(600):
        current = table.read()
        for got in current.values():
            assert got["game"] == "cucco21" and got["view"]["game"] == "cucco21"
        version = current[None]["version"]
        if current[None]["view"]["status"] == "over":
            break
        table.export_too_early(version)
        mine = {s: current[s]["view"]["pending"] for s in tokens}
        for seat in tokens:
            step = mine[seat]
            asked = step is not None and step["seat"] == seat
            wrong = next(
                x for x in ("claim", "refuse", "trade", "exchange")
                if not asked or x not in step["choices"]
            )  # fmt: skip
            resp = table.command(seat, {"type": wrong})
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
        table.play(seat, choice, version)
    table.close()
    return table


def allowed(stored: list[dict[str, Any]]) -> list[dict[hidden.Viewer, frozenset[str]]]:
    """What each viewer may know right after each version of a finished match (0: nothing)."""
    events = [
        CUCCO21.read_event(s["type"], s["schema"], json.dumps(s["data"]).encode()) for s in stored
    ]
    knowledge = Knowledge(4)
    state = CUCCO21.initial()
    known: list[dict[hidden.Viewer, frozenset[str]]] = [{v: frozenset() for v in VIEWERS}]
    for e in events:
        state = CUCCO21.evolve(state, e)
        if is_clock_event(e):  # a clock's event (domain/clock.py) tells nobody a card
            known.append(known[-1])
            continue
        knowledge.learn(e)
        known.append({v: frozenset(knowledge.allowed(inner(state), v)) for v in VIEWERS})
    return known


def test_no_card_leaks_through_the_api_in_cucco21(server: Server) -> None:
    seeds = range(200, 200 + MATCHES)
    coverage = hidden.assert_no_card_leaks(server.base, seeds, play_and_record, allowed, SECRETS)
    assert coverage.checked > 500, coverage.checked
    hidden.assert_every_channel_checked(coverage)
