"""Ranter-Go-Round over HTTP, on both databases: create with its options, claim, play a whole
match, list, stream, export; and what each caller is shown of the hidden cards (CHASE §5).
A live match's stream is checked on a real server (test_hidden_information_chase.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from domain.games.chase.cards import CARD_SET
from tests.api.helpers import Client, assert_problem, bearer, create

ANN_VS_BOTS: dict[str, Any] = {
    "game": "chase",
    "seats": [
        {"name": "Ann"},
        {"name": "Bo", "kind": "bot", "bot_level": "expert"},
        {"name": "Cy", "kind": "bot", "bot_level": "basic"},
        {"name": "Di", "kind": "bot", "bot_level": "random"},
    ],
    "starting_lives": 2,
    "announce_low": True,
    "king_cut_loses": True,
    "seed": 23,
    # Di deals, so Ann speaks first in round 1: no card but hers is known when she is asked
    "first_dealer": 3,
}

BOTS_ONLY: dict[str, Any] = {
    "game": "chase",
    "seats": [
        {"name": f"b{i}", "kind": "bot", "bot_level": level}
        for i, level in enumerate(("random", "basic", "expert"))
    ],
    "starting_lives": 2,
    "seed": 7,
}


def cards_in(payload: Any) -> set[str]:
    """The card ids a JSON payload holds as values (the game's ids are whole strings)."""
    if isinstance(payload, str):
        return {payload} if payload in CARD_SET else set()
    if isinstance(payload, dict):
        return {c for v in payload.values() for c in cards_in(v)}
    if isinstance(payload, list):
        return {c for v in payload for c in cards_in(v)}
    return set()


async def play_to_the_end(client: Client, match_id: str, token: str) -> dict[str, Any]:
    """Ann answers every prompt with its first choice and starts every round she may; returns
    the last command's answer."""
    body: dict[str, Any] = {}
    for _ in range(1_000):
        got = (await client.get(f"/matches/{match_id}", headers=bearer(token))).json()
        if got["view"]["status"] == "over":
            return body
        step = got["view"]["pending"]
        assert step is not None and step["seat"] in (None, 0), step  # the bots answered theirs
        choice = "next_round" if step["seat"] is None else step["choices"][0]
        resp = await client.post(
            f"/matches/{match_id}/commands", json={"type": choice}, headers=bearer(token)
        )
        assert resp.status_code == 200, resp.text
        body = resp.json()
    raise AssertionError("the match did not end")


async def test_a_chase_match_is_created_played_listed_and_exported(client: Client) -> None:
    created = await create(client, ANN_VS_BOTS)
    match_id, token = created["match_id"], created["seat_tokens"][0]["token"]
    assert created["game"] == "chase" and created["view"]["game"] == "chase"
    mine = created["seat_tokens"][0]["view"]
    assert mine["game"] == "chase" and mine["status"] == "in_round"
    assert (mine["starting_lives"], mine["announce_low"], mine["king_cut_loses"]) == (2, True, True)
    assert mine["pending"] == {"seat": 0, "kind": "turn", "choices": ["keep", "exchange"]}
    assert mine["hand"] in CARD_SET and mine["hands"] == [mine["hand"], None, None, None]
    assert created["view"]["hand"] is None and created["view"]["hands"] == [None] * 4
    early = await client.get(f"/matches/{match_id}/export")
    assert_problem(early, 409, "match-not-finished")

    last = await play_to_the_end(client, match_id, token)
    assert all(e["game"] == "chase" for e in last["events"])
    assert last["events"][-1]["event"]["type"] == "match_won"
    winner = last["view"]["winner"]
    assert winner is not None and last["view"]["seats"][winner]["lives"] > 0

    listed = (await client.get("/matches")).json()["matches"]
    row = next(m for m in listed if m["match_id"] == match_id)
    assert row["game"] == "chase" and row["status"] == "over" and row["winner"] == winner
    assert row["options"] == {"starting_lives": 2, "announce_low": True, "king_cut_loses": True}
    assert row["starting_lives"] == 2
    assert [s["lives"] for s in row["seats"]] == [s["lives"] for s in last["view"]["seats"]]
    assert all(s["chips"] is None for s in row["seats"])

    page = (await client.get(f"/matches/{match_id}/events", params={"limit": 1000})).json()
    assert page["game"] == "chase"
    assert page["events"][0]["event"]["type"] == "chase_match_created"
    export = await client.get(f"/matches/{match_id}/export")
    assert export.status_code == 200
    lines = [json.loads(line) for line in export.text.splitlines()]
    records = [ln["record"] for ln in lines if "record" in ln]
    assert [r["version"] for r in records] == list(range(1, page["version"] + 1))
    # the export is complete: every round's pack and salt, every dealt card
    started = [r["data"] for r in records if r["type"] == "round_started"]
    assert started and all(len(s["pack"]) == 52 and s["salt"] for s in started)
    assert all(r["data"]["card"] for r in records if r["type"] == "card_dealt")
    assert "seal" in lines[-1]


async def test_views_events_and_the_stream_hide_what_the_rules_hide(client: Client) -> None:
    body = {**ANN_VS_BOTS, "seats": [{"name": "Ann"}, {"name": "Ben"}, *ANN_VS_BOTS["seats"][2:]]}
    created = await create(client, body)
    match_id = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    assert set(tokens) == {0, 1}
    hands = {seat: t["view"]["hand"] for seat, t in enumerate(created["seat_tokens"])}
    assert hands[0] in CARD_SET and hands[1] in CARD_SET and hands[0] != hands[1]

    for seat, headers in ((None, {}), (0, bearer(tokens[0])), (1, bearer(tokens[1]))):
        own = set() if seat is None else {hands[seat]}
        view = (await client.get(f"/matches/{match_id}", headers=headers)).json()["view"]
        assert cards_in(view) == own, (seat, view)
        page = (await client.get(f"/matches/{match_id}/events", headers=headers)).json()
        events = [e["event"] for e in page["events"]]
        deal = next(e for e in events if e["type"] == "round_started")
        assert deal["pack"] is None and deal["salt"] is None and deal["commitment"]
        dealt = {e["seat"]: e["card"] for e in events if e["type"] == "card_dealt"}
        assert set(dealt) == {0, 1, 2, 3}
        assert {s: c for s, c in dealt.items() if c is not None} == (
            {} if seat is None else {seat: hands[seat]}
        )
        assert cards_in(events) == own, seat

    # Ann exchanges with Ben: only the two of them are shown which cards changed hands
    resp = await client.post(
        f"/matches/{match_id}/commands", json={"type": "exchange"}, headers=bearer(tokens[0])
    )
    assert resp.status_code == 200, resp.text
    swapped = [e["event"] for e in resp.json()["events"] if e["event"]["type"] == "cards_exchanged"]
    if swapped:  # Ben held no King
        assert swapped[0]["requester_gets"] == hands[1] and swapped[0]["target_gets"] == hands[0]
        spectator = (await client.get(f"/matches/{match_id}/events")).json()["events"]
        seen = next(e["event"] for e in spectator if e["event"]["type"] == "cards_exchanged")
        assert seen["requester_gets"] is None and seen["target_gets"] is None
    else:  # a King blocks, shown to everyone (A8)
        blocked = [
            e["event"] for e in resp.json()["events"] if e["event"]["type"] == "king_blocked"
        ]
        assert blocked and blocked[0]["card"] == hands[1] and hands[1].startswith("K")


async def test_an_open_seat_is_claimed_and_a_command_is_idempotent(client: Client) -> None:
    body = {
        "game": "chase",
        "seats": [{"name": "open", "kind": "open"}, {"name": "Bo", "kind": "bot"}],
        "seed": 5,
        "first_dealer": 1,
    }
    created = await create(client, body)
    match_id = created["match_id"]
    assert created["view"]["status"] == "between_rounds"  # nothing is dealt before the claim
    lobby = (await client.get("/matches", params={"open_seats": "true"})).json()["matches"]
    assert any(m["match_id"] == match_id and m["open_seats"] == [0] for m in lobby)
    resp = await client.post(f"/matches/{match_id}/seats/0/claim", json={"name": "Ann"})
    assert resp.status_code == 201, resp.text
    claimed = resp.json()
    view = claimed["view"]
    assert view["game"] == "chase" and view["hand"] in CARD_SET
    assert view["pending"] == {"seat": 0, "kind": "turn", "choices": ["keep", "exchange"]}
    key = {"Idempotency-Key": "k-1", **bearer(claimed["token"])}
    first = await client.post(f"/matches/{match_id}/commands", json={"type": "keep"}, headers=key)
    again = await client.post(f"/matches/{match_id}/commands", json={"type": "keep"}, headers=key)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["events"] == first.json()["events"]


async def test_a_wrong_choice_or_option_is_refused_in_the_games_words(client: Client) -> None:
    created = await create(client, ANN_VS_BOTS)
    token = created["seat_tokens"][0]["token"]
    url = f"/matches/{created['match_id']}/commands"
    resp = await client.post(url, json={"type": "cut"}, headers=bearer(token))  # not the dealer
    body = assert_problem(resp, 409, "illegal-choice")
    assert "cut" in body["detail"] and not cards_in(body)
    resp = await client.post(url, json={"type": "trade"}, headers=bearer(token))  # Cucco 21's
    assert "trade" in assert_problem(resp, 409, "illegal-choice")["detail"]
    resp = await client.post("/matches", json={**ANN_VS_BOTS, "starting_lives": 10})
    assert "starting_lives" in assert_problem(resp, 422, "validation-error")["detail"]
    resp = await client.post("/matches", json={**ANN_VS_BOTS, "max_sets": 2})
    detail = assert_problem(resp, 422, "invalid-config")["detail"]
    assert "`max_sets`" in detail and "chase" in detail and "cucco21" in detail


@pytest.mark.parametrize("level", ["random", "basic", "expert"])
async def test_bots_of_every_level_play_a_match_to_its_end_at_creation(
    client: Client, level: str
) -> None:
    body = {**BOTS_ONLY, "seats": [{"name": f"b{i}", "kind": "bot", "bot_level": level}
                                   for i in range(3)]}  # fmt: skip
    created = await create(client, body)
    assert created["status"] == "over" and created["view"]["winner"] is not None
    assert [s["bot_level"] for s in created["view"]["seats"]] == [level] * 3


async def test_a_finished_matchs_stream_sends_every_event_then_its_end(client: Client) -> None:
    created = await create(client, BOTS_ONLY)
    assert created["status"] == "over"
    url = f"/matches/{created['match_id']}/stream"
    frames: list[tuple[str, dict[str, Any]]] = []
    async with client.stream("GET", url, headers={"Last-Event-ID": "0"}) as resp:
        name = ""
        async for line in resp.aiter_lines():
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                frames.append((name, json.loads(line[5:])))
    assert frames[-1][0] == "end" and frames[-1][1]["version"] == created["version"]
    messages = [data for name, data in frames[:-1]]
    assert [name for name, _ in frames[:-1]] == ["event"] * created["version"]
    assert [m["version"] for m in messages] == list(range(1, created["version"] + 1))
    assert all(m["game"] == "chase" for m in messages)
    assert messages[-1]["event"]["type"] == "match_won"
    # once over, nothing is hidden: the spectator's stream opens every pack
    assert all(m["event"]["pack"] for m in messages if m["event"]["type"] == "round_started")
