"""Hidden information at the API level for Ranter-Go-Round (CHASE §5), over matches played on
a live server.

As for the other games (``hidden.py``): two human seats (a random policy) and two bots per
match; for every seat token and for spectators, everything the API sends is recorded with the
stream version it reflects (views, event pages, SSE messages, command replies with the bot
turns they triggered, error bodies). Once the match is over its export is folded, and the §5
model says which cards each viewer could know after each version. Every round is shuffled
afresh (A5), so knowledge is the current round's only: a card known in round 1 (every card,
once its pack is opened) tells nothing of round 2, and is not allowed there. A round's pack
and salt stay null until its end, and error bodies and stored metadata carry no card at all.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.games import CHASE
from domain.games.chase.cards import CARDS
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    CutExchanged,
    KingBlocked,
    LowCardAnnounced,
    RoundEnded,
    RoundScored,
    RoundStarted,
    StockCut,
)
from tests.integration import hidden
from tests.integration.server import Server

MATCHES = 4
VIEWERS: tuple[hidden.Viewer, ...] = (None, 0, 1, 2, 3)
#: a card id as a whole word: "JS" in "JSON" is no Jack of spades
_CARD = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(CARDS) + r")(?![A-Za-z0-9_])")
SECRETS = hidden.Secrets(
    lambda text: set(_CARD.findall(text)),
    public_cards_in_meta=False,
    never_in_meta=("pack", "salt"),
    null_fields={"round_started": ("pack", "salt")},
)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from hidden.serve(tmp_path / "hidden_chase.db", monkeypatch)


def play_and_record(base: str, seed: int) -> hidden.Table:
    """Play one match at a watched table, and return the table."""
    rng = random.Random(seed)
    seats = [
        {"name": "Ann"},
        {"name": "Bot1", "kind": "bot", "bot_level": ("basic", "expert")[seed % 2]},
        {"name": "Cy"},
        {"name": "Bot3", "kind": "bot", "bot_level": "random"},
    ]
    body = {"game": "chase", "seats": seats, "starting_lives": 2, "seed": seed,
            "announce_low": seed % 2 == 0, "king_cut_loses": seed % 3 == 0}  # fmt: skip
    table = hidden.Table(base, body)
    tokens, record = table.tokens, table.record
    for t in table.created["seat_tokens"]:
        record.add(t["seat"], table.created["version"], "view", t["view"])
    for _ in range(600):
        current = table.read()
        for got in current.values():
            assert got["game"] == "chase" and got["view"]["game"] == "chase"
        version = current[None]["version"]
        if current[None]["view"]["status"] == "over":
            break
        table.export_too_early(version)
        mine = {s: current[s]["view"]["pending"] for s in tokens}
        for seat in tokens:
            step = mine[seat]
            asked = step is not None and step["seat"] == seat
            wrong = next(
                x for x in ("cut", "exchange", "keep") if not asked or x not in step["choices"]
            )
            resp = table.command(seat, {"type": wrong})
            assert resp.status_code != 200, resp.text
            record.add(seat, version, "error", resp.text)
        step = current[0]["view"]["pending"]
        if step is None:
            break
        if step["seat"] is None:  # between rounds: a human starts the next one
            alive = [s for s in tokens if current[s]["view"]["seats"][s]["lives"] > 0]
            seat, choice = rng.choice(alive or list(tokens)), "next_round"
        else:
            seat = step["seat"]
            choice = rng.choice(current[seat]["view"]["pending"]["choices"])
        table.play(seat, choice, version)
    table.close()
    return table


def known_in_round(log: list[Any], viewer: hidden.Viewer) -> set[str]:
    """The cards ``viewer`` may know in a round, after the round's events in ``log`` (§5)."""
    known: set[str] = set()
    for event in log:
        if isinstance(event, CardDealt) and event.seat == viewer:
            known.add(event.card or "")
        elif isinstance(event, CardsExchanged) and viewer in (event.requester, event.target):
            known |= {event.requester_gets or "", event.target_gets or ""}
        elif isinstance(event, KingBlocked | LowCardAnnounced | StockCut):
            known.add(event.card)
        elif isinstance(event, CutExchanged):
            known.add(event.got)
            if viewer == event.seat:
                known.add(event.gave or "")
        elif isinstance(event, RoundScored):
            known |= {r.card for r in event.revealed}
        elif isinstance(event, RoundEnded):
            known |= set(event.pack)  # the round's commitment is opened: all of it is public
    return known


def allowed(stored: list[dict[str, Any]]) -> list[dict[hidden.Viewer, frozenset[str]]]:
    """What each viewer may know right after each version of a finished match (0: nothing)."""
    events = [
        CHASE.read_event(s["type"], s["schema"], json.dumps(s["data"]).encode()) for s in stored
    ]
    known: list[dict[hidden.Viewer, frozenset[str]]] = [{v: frozenset() for v in VIEWERS}]
    log: list[Any] = []
    for e in events:
        if isinstance(e, RoundStarted):
            log = []  # a fresh shuffle: nothing known of the last round holds in this one
        log.append(e)
        known.append({v: frozenset(known_in_round(log, v)) for v in VIEWERS})
    return known


def test_no_card_leaks_through_the_api_in_chase(server: Server) -> None:
    seeds = range(300, 300 + MATCHES)
    coverage = hidden.assert_no_card_leaks(server.base, seeds, play_and_record, allowed, SECRETS)
    assert coverage.checked > 500, coverage.checked
    hidden.assert_every_channel_checked(coverage)
