"""Decks mixed with the players' entropy (docs/API.md "Fairness"), over the real API.

A person claims a seat and plays with ``entropy`` in every request; the export is then checked
the way a third party would, with ``json`` and ``hashlib`` alone (nothing of this repository),
and the order of the protocol's events is read off the log. A creator's entropy goes into the
first deck for the human seats it is handed (tests/api/test_queue.py checks a queued waiter's).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
import os
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from api import precommitments
from api.cli import main

Client = AsyncTestClient[Any]

#: a short match of each hosted game: one open seat for the person, two bots
TABLES: dict[str, dict[str, Any]] = {
    "cuccu": {"game": "cuccu", "starting_lives": 1},
    "cucco21": {"game": "cucco21", "starting_chips": 3, "max_sets": 1},
    "chase": {"game": "chase", "starting_lives": 1},
}
SEATS = [
    {"name": "open", "kind": "open"},
    {"name": "Bo", "kind": "bot", "bot_level": "random"},
    {"name": "Cy", "kind": "bot", "bot_level": "random"},
]
#: each game's deal event and the field naming its deck
DEALS = {
    "cuccu": ("round_started", "round"),
    "cucco21": ("deck_shuffled", "number"),
    "chase": ("round_started", "round"),
}
#: each game's opening event: the field naming its deck, and the one holding its order
OPENINGS = {
    "cuccu": ("round_ended", "round", "pack"),
    "cucco21": ("deck_opened", "number", "order"),
    "chase": ("round_ended", "round", "pack"),
}


def _hex(n: int = 32) -> str:
    return os.urandom(n).hex()


async def _play(client: Client, game: str) -> tuple[str, str, list[dict[str, Any]]]:
    """A whole match with a person at seat 0 who sends entropy with every request: its id,
    the person's token, and every event the person was served while it was not over."""
    created = await client.post("/matches", json={**TABLES[game], "seats": SEATS})
    assert created.status_code == 201, created.text
    mid = created.json()["match_id"]
    claimed = await client.post(
        f"/matches/{mid}/seats/0/claim", json={"name": "Ann", "entropy": _hex()}
    )
    assert claimed.status_code == 201, claimed.text
    token = claimed.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    served: list[dict[str, Any]] = [e["event"] for e in claimed.json()["events"]]
    choose = random.Random(7)
    for _ in range(3000):
        view = (await client.get(f"/matches/{mid}", headers=auth)).json()["view"]
        if view["status"] == "over":
            break
        pending = view["pending"]
        choice = "next_round" if pending["seat"] is None else choose.choice(pending["choices"])
        sent = await client.post(
            f"/matches/{mid}/commands", json={"type": choice, "entropy": _hex(16)}, headers=auth
        )
        assert sent.status_code == 200, sent.text
        if sent.json()["view"]["status"] != "over":  # once over, everything is public
            served += [e["event"] for e in sent.json()["events"]]
    else:
        raise AssertionError("the match did not end")
    return mid, token, served


async def exported(client: Client, mid: str) -> list[dict[str, Any]]:
    text = (await client.get(f"/matches/{mid}/export")).text
    return [json.loads(line)["record"] for line in text.splitlines() if '"record"' in line]


# --- the third party: the algorithm of docs/API.md "Fairness", from its text alone ------------


def _stream(seed: bytes, label: bytes) -> Iterator[int]:
    counter = 0
    while True:
        yield from hashlib.sha256(seed + label + counter.to_bytes(8, "big")).digest()
        counter += 1


def _recompute(
    secret: str, contributions: list[tuple[int, str]], cards: list[str], salt_len: int
) -> tuple[list[str], str]:
    h = hashlib.sha256(b"cuccu-deck-v1" + bytes.fromhex(secret))
    for seat, entropy in contributions:
        raw = bytes.fromhex(entropy)
        h.update(seat.to_bytes(4, "big") + len(raw).to_bytes(4, "big") + raw)
    seed = h.digest()
    order = _stream(seed, b"order")
    deck = sorted(cards)
    for i in range(len(deck) - 1, 0, -1):
        limit = 2**32 - 2**32 % (i + 1)
        while True:
            r = int.from_bytes(bytes(next(order) for _ in range(4)), "big")
            if r < limit:
                break
        j = r % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    salt = _stream(seed, b"salt")
    return deck, bytes(next(salt) for _ in range(salt_len)).hex()


def third_party_check(game: str, records: list[dict[str, Any]]) -> list[list[int]]:
    """Recompute every mixed deck of an export; each one's contributing seats."""
    deal, deck_field = DEALS[game]
    opening, key, field = OPENINGS[game]
    committed: dict[int, str] = {}
    contributions: dict[int, list[tuple[int, str]]] = {}
    pending: int | None = None
    dealt: dict[int, int] = {}  # the game's deck -> the mixed deck number
    opened: dict[int, tuple[list[str], str]] = {}
    checked: list[list[int]] = []
    for record in records:
        kind, data = record["type"], record["data"]
        if kind == "entropy_committed":
            pending = data["deck"]
            committed[data["deck"]] = data["commitment"]
            contributions[data["deck"]] = []
        elif kind == "entropy_contributed":
            assert data["deck"] == pending
            contributions[data["deck"]].append((data["seat"], data["entropy"]))
        elif kind == deal and pending is not None:
            dealt[data[deck_field]] = pending
            pending = None
        elif kind == opening:
            opened[data[key]] = (data[field], data["salt"])
        elif kind == "entropy_revealed":
            deck = data["deck"]
            assert hashlib.sha256(bytes.fromhex(data["secret"])).hexdigest() == committed[deck]
            (game_deck,) = [k for k, v in dealt.items() if v == deck]
            order, salt = opened[game_deck]
            mine = _recompute(data["secret"], contributions[deck], order, len(salt) // 2)
            assert mine == (order, salt), f"deck {deck} is not the one its inputs give"
            checked.append(sorted({seat for seat, _ in contributions[deck]}))
    return checked


async def test_a_third_party_recomputes_every_deck_with_hashlib(client: Client) -> None:
    for game in TABLES:
        mid, _, _ = await _play(client, game)
        checked = third_party_check(game, await exported(client, mid))
        assert checked, game
        # the person's entropy is in every deck dealt while the person still played: a deck
        # committed after the person's last command (out of the match, the bots playing on
        # through a void round, say) has none, and neither has any deck after it
        played = sum(seats == [0] for seats in checked)
        assert played >= 1 and checked == [[0]] * played + [[]] * (len(checked) - played), (
            game,
            checked,
        )


async def test_the_service_commits_before_any_contribution_and_reveals_only_after(
    client: Client,
) -> None:
    """The protocol's order, on the events: each mixed deck's commitment comes before every
    contribution to it, the contributions before its deal, its secret after it was opened; and
    no secret is served before the match is over."""
    for game in TABLES:
        mid, _, served = await _play(client, game)
        records = await exported(client, mid)
        at: dict[tuple[str, int], int] = {}
        deals: dict[int, int] = {}  # mixed deck -> version of its deal
        pending: int | None = None
        for version, record in enumerate(records, start=1):
            kind, data = record["type"], record["data"]
            if kind == "entropy_committed":
                assert pending is None
                pending = data["deck"]
                at["committed", data["deck"]] = version
            elif kind == "entropy_contributed":
                assert ("committed", data["deck"]) in at and data["deck"] == pending
                assert data["deck"] not in deals  # before its deal
            elif kind == DEALS[game][0] and pending is not None:
                deals[pending] = version
                pending = None
            elif kind == "entropy_revealed":
                assert data["deck"] in deals and version > deals[data["deck"]]
                assert records[version - 2]["type"] == OPENINGS[game][0]  # right after the opening
        contributed = [r for r in records if r["type"] == "entropy_contributed"]
        assert contributed and all(r["data"]["seat"] == 0 for r in contributed)
        # the seat was served every commitment, never a secret before the reveal
        commitments = [e for e in served if e["type"] == "entropy_committed"]
        assert commitments and all(e["secret"] is None for e in commitments)
        revealed = {e["secret"] for e in served if e["type"] == "entropy_revealed"}
        secrets = {r["data"]["secret"] for r in records if r["type"] == "entropy_committed"}
        before_end = json.dumps([e for e in served if e["type"] != "entropy_revealed"])
        assert not any(s in before_end for s in secrets - revealed)


async def test_contributions_from_bots_or_spectators_are_not_taken(client: Client) -> None:
    created = await client.post("/matches", json={"seats": SEATS[1:]})
    assert created.status_code == 201, created.text
    records = await exported(client, created.json()["match_id"])
    assert not [r for r in records if r["type"].startswith("entropy_")]  # bots only: as before
    bad = await client.post("/matches", json={"seats": SEATS})
    mid = bad.json()["match_id"]
    refused = await client.post(
        f"/matches/{mid}/seats/0/claim", json={"name": "Ann", "entropy": "00"}
    )
    assert refused.status_code == 422  # too short: 16 bytes at least


# --- the first deck of a match created with its people seated ----------------------------------

#: two people the creator seats (it is handed both tokens) and a bot
PEOPLE = [
    {"name": "Ann"},
    {"name": "Bea"},
    {"name": "Bo", "kind": "bot", "bot_level": "random"},
]


async def play_seats(client: Client, mid: str, tokens: dict[int, str]) -> None:
    """Each seat of ``tokens`` answers its prompts (a random choice) until the match is over."""
    choose = random.Random(5)
    for _ in range(10_000):
        acted = False
        for seat, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            view = (await client.get(f"/matches/{mid}", headers=auth)).json()["view"]
            if view["status"] == "over":
                return
            pending = view["pending"]
            if pending["seat"] is None or pending["seat"] == seat and pending["choices"]:
                choice = (
                    "next_round" if pending["seat"] is None else choose.choice(pending["choices"])
                )
                sent = await client.post(
                    f"/matches/{mid}/commands", json={"type": choice}, headers=auth
                )
                assert sent.status_code in (200, 409), sent.text  # 409: another seat was first
                acted = True
        if not acted:
            await asyncio.sleep(0.005)
    raise AssertionError("the match did not end")


def first_deck(game: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records from the first commitment to the first deal, both included."""
    kinds = [r["type"] for r in records]
    start, deal = kinds.index("entropy_committed"), kinds.index(DEALS[game][0])
    assert start < deal
    return records[start : deal + 1]


async def verified(client: Client, mid: str, tmp_path: Path, capsys: Any) -> str:
    """``cuccu verify`` of the match's export against the service's published keys: its
    report (the check must pass)."""
    export, keys = tmp_path / f"{mid}.ndjson", tmp_path / "keys.json"
    export.write_text((await client.get(f"/matches/{mid}/export")).text)
    keys.write_text((await client.get("/.well-known/cuccu-keys.json")).text)
    capsys.readouterr()
    code = await asyncio.to_thread(main, ["verify", str(export), "--trusted-key", str(keys)])
    out: str = capsys.readouterr().out
    assert code == 0, out
    assert "PASS shuffle entropy" in out
    return out


async def test_the_creators_entropy_goes_into_the_first_deck_for_each_person(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: Any
) -> None:
    """A match created with two people seated: the creator's entropy is contributed for both
    seats after the service's commitment and before the first deal (all in the creation), the
    third party recomputes that deck with it, and ``cuccu verify`` passes."""
    caplog.set_level(logging.DEBUG, logger="cuccu")
    sent: list[str] = []
    for game in TABLES:
        mixed = _hex()
        sent.append(mixed)
        created = await client.post(
            "/matches", json={**TABLES[game], "seats": PEOPLE, "entropy": mixed}
        )
        assert created.status_code == 201, created.text
        mid = created.json()["match_id"]
        assert mixed not in created.text  # the deck's inputs are in the log, not the answer
        tokens = {t["seat"]: t["token"] for t in created.json()["seat_tokens"]}
        assert sorted(tokens) == [0, 1]
        await play_seats(client, mid, tokens)
        records = await exported(client, mid)
        deck = first_deck(game, records)
        assert [r["data"] for r in deck if r["type"] == "entropy_contributed"] == [
            {"deck": 1, "seat": 0, "entropy": mixed},
            {"deck": 1, "seat": 1, "entropy": mixed},
        ], game
        checked = third_party_check(game, records)
        assert checked[0] == [0, 1], (game, checked)
        assert "mixed with players' entropy (seats 0, 1)" in await verified(
            client, mid, tmp_path, capsys
        )
    # no log line of the service carries a contribution
    assert not any(m in caplog.text for m in sent)


async def test_a_creation_without_entropy_deals_as_before(client: Client) -> None:
    """Nothing sent, nothing contributed: the first deck is the service's committed secret's
    alone (no weaker than before), and a table of open seats ignores the creator's entropy
    (the claimers contribute)."""
    created = await client.post("/matches", json={**TABLES["cuccu"], "seats": PEOPLE})
    assert created.status_code == 201, created.text
    events = (await client.get(f"/matches/{created.json()['match_id']}/events")).json()["events"]
    kinds = [e["event"]["type"] for e in events]
    assert "entropy_committed" in kinds and "round_started" in kinds
    assert "entropy_contributed" not in kinds
    lobby = await client.post(
        "/matches", json={**TABLES["cuccu"], "seats": SEATS, "entropy": _hex()}
    )
    assert lobby.status_code == 201, lobby.text
    events = (await client.get(f"/matches/{lobby.json()['match_id']}/events")).json()["events"]
    assert "entropy_contributed" not in [e["event"]["type"] for e in events]


@pytest.mark.parametrize("bad", ["00", "AB" * 16, "ab" * 16 + "a", "zz" * 16, "ab" * 65])
async def test_a_bad_creation_entropy_is_a_422_that_does_not_echo_it(
    client: Client, bad: str, caplog: Any
) -> None:
    caplog.set_level(logging.DEBUG, logger="cuccu")
    refused = await client.post(
        "/matches", json={**TABLES["cuccu"], "seats": PEOPLE, "entropy": bad}
    )
    assert refused.status_code == 422, refused.text
    assert refused.json()["type"].endswith("validation-error")
    assert "entropy" in refused.text and bad not in refused.text
    assert bad not in caplog.text


async def test_a_creation_retried_with_other_entropy_answers_the_first_match(
    client: Client,
) -> None:
    """The entropy is no part of what an Idempotency-Key stands for: the retry answers the
    match the first request made (its tokens, its first deck's contributions), none other."""
    body = {**TABLES["cucco21"], "seats": PEOPLE}
    key = {"Idempotency-Key": os.urandom(16).hex()}
    first = await client.post("/matches", json={**body, "entropy": _hex()}, headers=key)
    again = await client.post("/matches", json={**body, "entropy": _hex()}, headers=key)
    assert (first.status_code, again.status_code) == (201, 201), again.text
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["match_id"] == first.json()["match_id"]
    assert again.json()["seat_tokens"] == first.json()["seat_tokens"]
    assert again.json()["version"] == first.json()["version"]


# --- a creation's first deck committed to before the creator's entropy (POST /commitments) ----


async def precommit(client: Client) -> dict[str, Any]:
    answered = await client.post("/commitments")
    assert answered.status_code == 201, answered.text
    shown = answered.json()
    assert sorted(shown) == ["commitment", "expires_at", "id"]  # never the secret
    assert len(bytes.fromhex(shown["commitment"])) == 32
    return dict(shown)


async def test_a_third_party_finds_the_commitment_it_was_shown_before_its_entropy_in_the_export(
    client: Client, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: Any
) -> None:
    """The creator is shown the service's commitment, then sends its entropy with the
    pre-commitment's id: the match's first ``entropy_committed`` carries that very commitment,
    the creator's entropy follows it for each person, the secret revealed at the end opens it
    and gives the deck (recomputed with hashlib alone), and ``cuccu verify`` passes."""
    caplog.set_level(logging.DEBUG, logger="cuccu")
    for game in TABLES:
        shown = await precommit(client)
        mixed = _hex()  # drawn only once the commitment is in hand
        body = {**TABLES[game], "seats": PEOPLE, "entropy": mixed}
        created = await client.post("/matches", json={**body, "precommitment": shown["id"]})
        assert created.status_code == 201, created.text
        served = (await client.get(f"/matches/{created.json()['match_id']}/events")).json()
        first = [e["event"] for e in served["events"] if e["event"]["type"] == "entropy_committed"]
        assert first[0]["commitment"] == shown["commitment"] and first[0]["secret"] is None
        mid = created.json()["match_id"]
        await play_seats(
            client, mid, {t["seat"]: t["token"] for t in created.json()["seat_tokens"]}
        )
        records = await exported(client, mid)
        deck = first_deck(game, records)
        assert deck[0]["data"]["commitment"] == shown["commitment"], game
        assert [r["data"]["entropy"] for r in deck if r["type"] == "entropy_contributed"] == [
            mixed,
            mixed,
        ]
        revealed = next(
            r["data"]["secret"]
            for r in records
            if r["type"] == "entropy_revealed" and r["data"]["deck"] == 1
        )
        assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == shown["commitment"]
        assert third_party_check(game, records)[0] == [0, 1], game
        await verified(client, mid, tmp_path, capsys)
        assert revealed not in caplog.text  # no log line carries the secret


async def test_a_precommitment_is_used_once_and_only_while_fresh(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reused by another creation: 409; unknown or expired: 422; a table with no person: 422,
    and the pre-commitment stays usable; a retry of the same creation (its Idempotency-Key)
    answers the match it made."""
    body = {**TABLES["cuccu"], "seats": PEOPLE, "entropy": _hex()}
    shown = await precommit(client)
    bots = {**TABLES["cuccu"], "seats": SEATS[1:], "precommitment": shown["id"]}
    unusable = await client.post("/matches", json=bots)
    assert unusable.status_code == 422, unusable.text
    assert unusable.json()["type"].endswith("precommitment-unusable")
    key = {"Idempotency-Key": os.urandom(16).hex()}
    first = await client.post("/matches", json={**body, "precommitment": shown["id"]}, headers=key)
    again = await client.post("/matches", json={**body, "precommitment": shown["id"]}, headers=key)
    assert (first.status_code, again.status_code) == (201, 201), again.text
    assert again.json()["match_id"] == first.json()["match_id"]
    reused = await client.post("/matches", json={**body, "precommitment": shown["id"]})
    assert reused.status_code == 409, reused.text
    assert reused.json()["type"].endswith("precommitment-used")
    unknown = await client.post("/matches", json={**body, "precommitment": str(uuid.uuid4())})
    assert unknown.status_code == 422, unknown.text
    assert unknown.json()["type"].endswith("unknown-precommitment")
    monkeypatch.setattr(precommitments, "LIFETIME", dt.timedelta(seconds=-1))
    stale = await precommit(client)
    expired = await client.post("/matches", json={**body, "precommitment": stale["id"]})
    assert expired.status_code == 422, expired.text
    assert expired.json()["type"].endswith("unknown-precommitment")
    assert "expired" in expired.json()["detail"]
