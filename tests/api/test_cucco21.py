"""Cucco 21 over HTTP, on both databases: create, play, list, claim, idempotency, export."""

from __future__ import annotations

import json
from typing import Any

from tests.api.helpers import Client, assert_problem, bearer, create

ANN_VS_BOTS: dict[str, Any] = {
    "game": "cucco21",
    "seats": [
        {"name": "Ann"},
        {"name": "Bo", "kind": "bot", "bot_level": "basic"},
        {"name": "Cy", "kind": "bot", "bot_level": "random"},
    ],
    "starting_chips": 3,
    "max_sets": 1,
    "seed": 21,
    "first_dealer": 2,
}


async def play_to_the_end(client: Client, match_id: str, token: str) -> dict[str, Any]:
    """Ann answers every prompt with its first choice; returns the last command's answer."""
    body: dict[str, Any] = {}
    for _ in range(3_000):
        got = (await client.get(f"/matches/{match_id}", headers=bearer(token))).json()
        if got["view"]["status"] == "over":
            return body
        step = got["view"]["pending"]
        choice = "next_round" if step["seat"] is None else step["choices"][0]
        resp = await client.post(
            f"/matches/{match_id}/commands", json={"type": choice}, headers=bearer(token)
        )
        assert resp.status_code == 200, resp.text
        body = resp.json()
    raise AssertionError("the game did not end")


async def test_a_cucco21_match_is_created_played_listed_and_exported(client: Client) -> None:
    created = await create(client, ANN_VS_BOTS)
    match_id, token = created["match_id"], created["seat_tokens"][0]["token"]
    assert created["game"] == "cucco21" and created["view"]["game"] == "cucco21"
    mine = created["seat_tokens"][0]["view"]
    assert mine["hand"] is not None and mine["pending"]["seat"] == 0  # Ann's card and prompt
    assert created["view"]["hand"] is None  # the spectator sees no card
    assert [s["chips"] for s in mine["seats"]] == [2, 2, 2]  # the ante of round card 1 paid
    last = await play_to_the_end(client, match_id, token)
    assert all(e["game"] == "cucco21" for e in last["events"])
    assert last["events"][-1]["event"]["type"] == "game_ended"
    listed = (await client.get("/matches")).json()["matches"]
    row = next(m for m in listed if m["match_id"] == match_id)
    assert row["game"] == "cucco21" and row["status"] == "over"
    assert row["options"] == {"starting_chips": 3, "powers": True, "max_sets": 1}
    assert row["winners"] == last["view"]["winners"] and row["winners"]
    assert [s["chips"] for s in row["seats"]] == [s["chips"] for s in last["view"]["seats"]]
    assert row["starting_lives"] is None and all(s["lives"] is None for s in row["seats"])
    page = (await client.get(f"/matches/{match_id}/events", params={"limit": 1000})).json()
    assert page["game"] == "cucco21" and page["events"][0]["event"]["type"] == "game_created"
    export = await client.get(f"/matches/{match_id}/export")
    assert export.status_code == 200
    lines = [json.loads(line) for line in export.text.splitlines()]
    assert [ln["record"]["version"] for ln in lines if "record" in ln] == list(
        range(1, page["version"] + 1)
    )
    assert "seal" in lines[-1]


async def test_cuccu_stays_the_default_and_both_games_are_listed(client: Client) -> None:
    cuccu = await create(client, {"seats": [{"name": "Ann"}, {"name": "Ben"}]})
    assert cuccu["game"] == "cuccu" and cuccu["view"]["game"] == "cuccu"
    cucco21 = await create(client, ANN_VS_BOTS)
    listed = {m["match_id"]: m for m in (await client.get("/matches")).json()["matches"]}
    assert listed[cuccu["match_id"]]["game"] == "cuccu"
    assert listed[cuccu["match_id"]]["starting_lives"] == 3
    assert [s["lives"] for s in listed[cuccu["match_id"]]["seats"]] == [3, 3]
    assert listed[cucco21["match_id"]]["game"] == "cucco21"


async def test_an_unknown_game_is_422_and_names_the_games(client: Client) -> None:
    resp = await client.post("/matches", json={**ANN_VS_BOTS, "game": "chess"})
    body = assert_problem(resp, 422, "unknown-game")
    assert "cuccu" in body["detail"] and "cucco21" in body["detail"]


async def test_an_invalid_config_is_422_in_the_games_words(client: Client) -> None:
    resp = await client.post("/matches", json={**ANN_VS_BOTS, "first_dealer": 3})
    body = assert_problem(resp, 422, "invalid-config")
    assert "the first dealer must be a seat from 0 to 2" in body["detail"]
    resp = await client.post("/matches", json={**ANN_VS_BOTS, "starting_lives": 2})
    body = assert_problem(resp, 422, "invalid-config")
    assert "starting_lives" in body["detail"]
    resp = await client.post(
        "/matches", json={"seats": [{"name": "A"}, {"name": "B"}], "powers": False}
    )
    assert_problem(resp, 422, "invalid-config")


async def test_a_command_of_the_other_game_is_refused(client: Client) -> None:
    created = await create(client, ANN_VS_BOTS)
    token = created["seat_tokens"][0]["token"]
    resp = await client.post(
        f"/matches/{created['match_id']}/commands",
        json={"type": "exchange"},
        headers=bearer(token),
    )
    body = assert_problem(resp, 409, "illegal-choice")
    assert "trade" in body["detail"]


async def test_open_seats_are_claimed_and_idempotent_commands_apply_once(client: Client) -> None:
    body = {
        "game": "cucco21",
        "seats": [{"name": "open", "kind": "open"}, {"name": "Bo", "kind": "bot"}],
        "seed": 5,
        "first_dealer": 1,
    }
    created = await create(client, body)
    match_id = created["match_id"]
    lobby = (await client.get("/matches", params={"open_seats": "true"})).json()["matches"]
    assert any(m["match_id"] == match_id and m["open_seats"] == [0] for m in lobby)
    resp = await client.post(f"/matches/{match_id}/seats/0/claim", json={"name": "Ann"})
    assert resp.status_code == 201, resp.text
    claimed = resp.json()
    token = claimed["token"]
    assert claimed["view"]["game"] == "cucco21" and claimed["view"]["hand"] is not None
    step = claimed["view"]["pending"]
    assert step["seat"] == 0
    key = {"Idempotency-Key": "k-1", **bearer(token)}
    command = {"type": step["choices"][0]}
    first = await client.post(f"/matches/{match_id}/commands", json=command, headers=key)
    again = await client.post(f"/matches/{match_id}/commands", json=command, headers=key)
    assert first.status_code == again.status_code == 200, (first.text, again.text)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["version"] == first.json()["version"]
    assert again.json()["events"] == first.json()["events"]


async def test_the_stream_sends_the_view_then_events_of_the_game(client: Client) -> None:
    bots = {
        "game": "cucco21",
        "seats": [{"name": f"b{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)],
        "starting_chips": 2,
        "max_sets": 1,
        "seed": 9,
    }
    created = await create(client, bots)
    assert created["status"] == "over"
    url = f"/matches/{created['match_id']}/stream"

    async def messages(headers: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
        got: list[tuple[str, dict[str, Any]]] = []
        async with client.stream("GET", url, headers=headers) as resp:
            event = ""
            async for line in resp.aiter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    got.append((event, json.loads(line[5:])))
        return got

    first = await messages({})
    assert [m[0] for m in first] == ["view", "end"] and first[0][1]["view"]["game"] == "cucco21"
    *resumed, end = await messages({"Last-Event-ID": "0"})  # every event, from the first
    assert [m[1]["version"] for m in resumed] == list(range(1, created["version"] + 1))
    assert all(m[0] == "event" and m[1]["game"] == "cucco21" for m in resumed)
    assert end == ("end", {"match_id": created["match_id"], "version": created["version"],
                           "status": "over"})  # fmt: skip


def test_the_command_schema_lists_every_games_commands_and_no_other() -> None:
    from typing import get_args

    from api.models import CommandType
    from domain.games import GAMES

    assert set(get_args(CommandType)) == {c for g in GAMES.values() for c in g.choices}
