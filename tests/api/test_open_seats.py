"""Open seats over the API, on SQLite and on PostgreSQL: claims, the lobby, races, a full match."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from domain.audit import audit, parse_ndjson
from tests.api.helpers import JSON, Client, assert_problem, bearer, create

LOBBY: dict[str, Any] = {
    "seats": [
        {"name": "Ann"},
        {"name": "open", "kind": "open"},
        {"name": "Bo", "kind": "bot", "bot_level": "basic"},
        {"name": "open", "kind": "open"},
    ],
    "starting_lives": 2,
    "first_dealer": 3,
    "seed": 5,
}


async def claim(client: Client, mid: str, seat: int, name: str) -> Any:
    return await client.post(f"/matches/{mid}/seats/{seat}/claim", json={"name": name})


async def test_open_seats_wait_in_the_lobby_and_refuse_play(client: Client) -> None:
    created = await create(client, LOBBY)
    mid = created["match_id"]
    assert [t["seat"] for t in created["seat_tokens"]] == [0]  # no token for open seats
    assert created["status"] == "between_rounds"
    assert created["view"]["pending"] == {"seat": None, "kind": "claim_seat", "choices": ["claim"]}
    assert created["view"]["round"] == 0
    ann = bearer(created["seat_tokens"][0]["token"])
    url = f"/matches/{mid}/commands"
    for choice in ("keep", "next_round"):
        body = assert_problem(await client.post(url, json={"type": choice}, headers=ann), 409,
                              "seats-open")  # fmt: skip
        assert body["code"] == "seats_open"
    lobby = (await client.get("/matches?open_seats=true")).json()
    assert [m["match_id"] for m in lobby["matches"]] == [mid]
    assert lobby["matches"][0]["open_seats"] == [1, 3]
    assert [s["kind"] for s in lobby["matches"][0]["seats"]] == ["human", "open", "bot", "open"]
    other = await create(client, {"seats": [{"name": "a"}, {"name": "b"}]})
    full = (await client.get("/matches?open_seats=false")).json()
    assert [m["match_id"] for m in full["matches"]] == [other["match_id"]]
    assert full["matches"][0]["open_seats"] == []
    assert (await client.get(f"/matches/{mid}/export")).status_code == 409


async def test_claims_issue_tokens_once_and_the_last_deals_round_one(client: Client) -> None:
    created = await create(client, LOBBY)
    mid = created["match_id"]
    version = created["version"]
    first = await claim(client, mid, 1, "  Cleo ")
    assert first.status_code == 201, first.text
    one = first.json()
    assert one["seat"] == 1 and one["status"] == "between_rounds"
    assert one["version"] == version + 1
    assert [e["event"] for e in one["events"]] == [
        {"type": "seat_claimed", "seat": 1, "name": "Cleo"}
    ]
    token1 = one["token"]
    assert len(token1) >= 43 and token1 != created["seat_tokens"][0]["token"]
    me = (await client.get(f"/matches/{mid}", headers=bearer(token1))).json()
    assert me["seat"] == 1 and me["view"]["seats"][1]["name"] == "Cleo"
    assert me["view"]["seats"][1]["kind"] == "human"
    # taken, unknown seat, unknown match, a bot's or a human's seat, bad names
    body = assert_problem(await claim(client, mid, 1, "Dan"), 409, "seat-taken")
    assert body["code"] == "seat_taken"
    assert_problem(await claim(client, mid, 0, "Dan"), 409, "seat-taken")
    assert_problem(await claim(client, mid, 2, "Dan"), 409, "seat-taken")
    assert_problem(await claim(client, mid, 4, "Dan"), 404, "seat-not-found")
    assert_problem(await claim(client, mid, -1, "Dan"), 404, "seat-not-found")
    assert (await client.post(f"/matches/{mid}/seats/x/claim", json={"name": "D"})).status_code \
        == 404  # fmt: skip
    unknown = "00000000-0000-0000-0000-000000000000"
    assert_problem(await claim(client, unknown, 1, "Dan"), 404, "match-not-found")
    for bad in ({"name": ""}, {"name": "   "}, {"name": "x" * 41}, {}, {"name": "a", "x": 1}):
        resp = await client.post(f"/matches/{mid}/seats/3/claim", json=bad)
        assert_problem(resp, 422, "validation-error")
    resp = await client.post(f"/matches/{mid}/seats/3/claim", content=b"{", headers=JSON)
    assert_problem(resp, 400, "malformed-request")
    # the last claim deals round 1 in the same transaction
    last = await claim(client, mid, 3, "Dan")
    assert last.status_code == 201, last.text
    done = last.json()
    types = [e["event"]["type"] for e in done["events"]]
    assert types[:3] == ["seat_claimed", "round_started", "card_dealt"]
    assert done["status"] in ("in_round", "between_rounds", "over")
    assert done["view"]["round"] == 1
    assert done["view"]["pending"]["kind"] != "claim_seat"
    for e in done["events"]:  # the claimant sees only its own cards
        if e["event"]["type"] == "card_dealt":
            assert (e["event"]["card"] is not None) == (e["event"]["seat"] == 3)
    lobby = (await client.get("/matches?open_seats=true")).json()
    assert lobby["matches"] == []
    listed = (await client.get("/matches")).json()["matches"][0]
    assert [s["name"] for s in listed["seats"]] == ["Ann", "Cleo", "Bo", "Dan"]
    assert listed["open_seats"] == []
    assert_problem(await claim(client, mid, 3, "Eve"), 409, "seat-taken")


async def test_racing_claimers_exactly_one_wins_each_seat(client: Client) -> None:
    seats = [{"name": "open", "kind": "open"} for _ in range(4)]
    created = await create(client, {"seats": seats, "starting_lives": 1})
    mid = created["match_id"]
    results = await asyncio.gather(
        *(claim(client, mid, seat, f"p{seat}-{n}") for n in range(3) for seat in range(4))
    )
    wins = [r for r in results if r.status_code == 201]
    losses = [r for r in results if r.status_code != 201]
    assert sorted(r.json()["seat"] for r in wins) == [0, 1, 2, 3]
    assert len(losses) == 8
    for r in losses:
        assert_problem(r, 409, "seat-taken")
    for r in wins:
        got = (await client.get(f"/matches/{mid}", headers=bearer(r.json()["token"]))).json()
        assert got["seat"] == r.json()["seat"]
    events = (await client.get(f"/matches/{mid}/events")).json()["events"]
    claimed = [e["event"]["seat"] for e in events if e["event"]["type"] == "seat_claimed"]
    assert sorted(claimed) == [0, 1, 2, 3]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert sum(e["event"]["type"] == "round_started" for e in events) == 1


async def test_a_match_of_claimed_seats_plays_to_the_end_and_audits(client: Client) -> None:
    body = {
        "seats": [
            {"name": "open", "kind": "open"},
            {"name": "Bo", "kind": "bot", "bot_level": "basic"},
            {"name": "open", "kind": "open"},
        ],
        "starting_lives": 2,
        "seed": 21,
    }
    mid = (await create(client, body))["match_id"]
    tokens = {}
    for seat in (2, 0):
        resp = await claim(client, mid, seat, f"player{seat}")
        assert resp.status_code == 201, resp.text
        tokens[seat] = bearer(resp.json()["token"])
    for _ in range(1000):
        current = (await client.get(f"/matches/{mid}", headers=tokens[0])).json()
        pending = current["view"]["pending"]
        if pending is None:
            break
        seat = 0 if pending["seat"] is None else pending["seat"]
        resp = await client.post(
            f"/matches/{mid}/commands",
            json={"type": pending["choices"][0], "expected_version": current["version"]},
            headers=tokens[seat],
        )
        assert resp.status_code == 200, resp.text
    final = (await client.get(f"/matches/{mid}")).json()
    assert final["view"]["status"] == "over"
    export = await client.get(f"/matches/{mid}/export")
    lines = [json.loads(line)["record"] for line in export.text.splitlines()[:-1]]
    claims = [ln for ln in lines if ln["type"] == "seat_claimed"]
    assert [ln["meta"]["actor"] for ln in claims] == ["seat:2", "seat:0"]
    # the service committed to the first deck's secret before either claim (docs/API.md
    # "Fairness"), and dealt it only after both
    assert [ln["type"] for ln in lines[1:4]] == [
        "entropy_committed",
        "seat_claimed",
        "seat_claimed",
    ]
    report = audit(parse_ndjson(export.text))
    assert report.ok, report


async def claim_with_key(client: Client, mid: str, seat: int, name: str, key: str) -> Any:
    return await client.post(
        f"/matches/{mid}/seats/{seat}/claim", json={"name": name},
        headers={"Idempotency-Key": key},
    )  # fmt: skip


async def test_a_claim_retried_with_its_key_gets_a_new_token_that_replaces_the_first(
    client: Client,
) -> None:
    mid = (await create(client, LOBBY))["match_id"]
    first = await claim_with_key(client, mid, 1, "Cy", "claim-1")
    assert first.status_code == 201, first.text
    assert first.headers.get("idempotent-replayed") is None
    old = bearer(first.json()["token"])
    # the first token works (and this process has seen it) until the retry replaces it
    assert (await client.get(f"/matches/{mid}", headers=old)).json()["seat"] == 1
    again = await claim_with_key(client, mid, 1, "Cy", "claim-1")
    assert again.status_code == 201, again.text
    assert again.headers["idempotent-replayed"] == "true"
    new = bearer(again.json()["token"])
    assert new != old and len(again.json()["token"]) >= 40
    assert {**again.json(), "token": ""} == {**first.json(), "token": ""}
    assert_problem(await client.get(f"/matches/{mid}", headers=old), 401, "unknown-token")
    mine = await client.get(f"/matches/{mid}", headers=new)
    assert mine.status_code == 200 and mine.json()["seat"] == 1
    assert mine.json()["version"] == first.json()["version"]  # claimed once: no second event
    events = (await client.get(f"/matches/{mid}/events")).json()["events"]
    assert [e["event"]["type"] for e in events].count("seat_claimed") == 1
    # a third try with the key: yet another token, and the second one stops working
    third = await claim_with_key(client, mid, 1, "Cy", "claim-1")
    assert third.status_code == 201
    assert_problem(await client.get(f"/matches/{mid}", headers=new), 401, "unknown-token")
    latest = bearer(third.json()["token"])
    assert (await client.get(f"/matches/{mid}", headers=latest)).json()["seat"] == 1


async def test_a_claim_key_with_another_name_or_another_key_is_refused(client: Client) -> None:
    mid = (await create(client, LOBBY))["match_id"]
    first = await claim_with_key(client, mid, 1, "Cy", "claim-1")
    assert first.status_code == 201, first.text
    token = bearer(first.json()["token"])
    other_name = await claim_with_key(client, mid, 1, "Eve", "claim-1")
    body = assert_problem(other_name, 422, "idempotency-key-reused")
    assert "another name" in body["detail"]
    assert_problem(await claim_with_key(client, mid, 1, "Cy", "claim-2"), 409, "seat-taken")
    assert_problem(await claim(client, mid, 1, "Cy"), 409, "seat-taken")
    assert_problem(await claim_with_key(client, mid, 0, "Cy", "claim-1"), 409, "seat-taken")
    # none of these refused tries touched the claimer's token
    assert (await client.get(f"/matches/{mid}", headers=token)).json()["seat"] == 1
    # keys are per seat: the same key claims another open seat normally
    last = await claim_with_key(client, mid, 3, "Di", "claim-1")
    assert last.status_code == 201 and last.headers.get("idempotent-replayed") is None
    assert last.json()["view"]["round"] == 1


async def test_twin_claims_with_one_key_claim_once_and_both_succeed(client: Client) -> None:
    mid = (await create(client, LOBBY))["match_id"]
    answers = await asyncio.gather(
        *(claim_with_key(client, mid, 3, "Di", "twin") for _ in range(4))
    )
    assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
    assert sum(a.headers.get("idempotent-replayed") != "true" for a in answers) == 1
    events = (await client.get(f"/matches/{mid}/events")).json()["events"]
    assert [e["event"]["type"] for e in events].count("seat_claimed") == 1
    working = [
        a for a in answers
        if (await client.get(f"/matches/{mid}", headers=bearer(a.json()["token"]))).status_code
        == 200
    ]  # fmt: skip
    assert len(working) == 1  # the seat has one token: the last one issued


async def test_a_replaced_token_is_refused_by_every_api_process(migrated_url: str) -> None:
    """Two app instances on one database stand for two API processes: the one that saw the
    first token must refuse it once a retry through the other replaced it."""
    settings = Settings(database_url=migrated_url, max_body_bytes=4096)
    async with (
        AsyncTestClient(app=create_app(settings)) as one,
        AsyncTestClient(app=create_app(settings)) as two,
    ):
        mid = (await create(one, LOBBY))["match_id"]
        first = await claim_with_key(one, mid, 1, "Cy", "k")
        assert first.status_code == 201, first.text
        old = bearer(first.json()["token"])
        for process in (one, two):  # both have seen (and could remember) the first token
            assert (await process.get(f"/matches/{mid}", headers=old)).json()["seat"] == 1
        retry = await claim_with_key(two, mid, 1, "Cy", "k")
        assert retry.status_code == 201, retry.text
        new = bearer(retry.json()["token"])
        for process in (one, two):
            assert_problem(await process.get(f"/matches/{mid}", headers=old), 401, "unknown-token")
            assert (await process.get(f"/matches/{mid}", headers=new)).json()["seat"] == 1
