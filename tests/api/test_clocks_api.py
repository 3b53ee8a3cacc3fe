"""The clock at the API (docs/API.md, "Clocks"), on both databases: chosen at creation and
validated, shown in every view with absolute deadlines and reserves, `resume`, and the
timeout that no player can send."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.api.helpers import TWO_HUMANS, Client, assert_problem, bearer, create

CLOCKED = {**TWO_HUMANS, "clock": {}}


@pytest.mark.parametrize(
    "clock",
    [
        {"per_decision": 4},
        {"per_decision": 86_401},
        {"reserve": -1},
        {"reserve": 604_801},
        {"increment": 3_601},
        {"abandon_after": 0},
        {"abandon_after": 101},
        {"tempo": "blitz"},
        "fast",
    ],
)
async def test_a_clock_out_of_range_is_a_problem(client: Client, clock: Any) -> None:
    resp = await client.post("/matches", json={**TWO_HUMANS, "clock": clock})
    assert_problem(resp, 422, "validation-error")


async def test_views_carry_absolute_deadlines_and_reserves(client: Client) -> None:
    before = dt.datetime.now(dt.UTC)
    created = await create(client, CLOCKED)
    clock = created["clock"]
    assert clock["settings"] == {
        "per_decision": 60, "reserve": 300, "increment": 0, "abandon_after": 3,
    }  # fmt: skip
    assert clock["reserves"] == [300.0, 300.0]
    assert clock["abandoned"] == [False, False] and clock["timeouts"] == [0, 0]
    awaiting = clock["awaiting"]
    assert awaiting["seat"] == created["view"]["pending"]["seat"] == 0
    opened = dt.datetime.fromisoformat(awaiting["opened_at"])
    deadline = dt.datetime.fromisoformat(awaiting["deadline"])
    assert before - dt.timedelta(seconds=1) <= opened <= dt.datetime.now(dt.UTC)
    assert deadline - opened == dt.timedelta(seconds=360)
    assert dt.datetime.fromisoformat(awaiting["reserve_from"]) - opened == dt.timedelta(seconds=60)
    # every seat and a spectator see the same clock (it is public)
    mid = created["match_id"]
    seen = [(await client.get(f"/matches/{mid}")).json()["clock"]]
    for token in created["seat_tokens"]:
        seen.append(
            (await client.get(f"/matches/{mid}", headers=bearer(token["token"]))).json()["clock"]
        )
    assert all(c == clock for c in seen)
    # an answer moves the clock to the next seat; the events say so
    ann = bearer(created["seat_tokens"][0]["token"])
    reply = (
        await client.post(f"/matches/{mid}/commands", json={"type": "keep"}, headers=ann)
    ).json()
    assert reply["clock"]["awaiting"]["seat"] == 1
    kinds = [e["event"]["type"] for e in reply["events"]]
    assert kinds[-1] == "decision_opened"


async def test_no_clock_unless_asked(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    assert created["clock"] is None
    mid = created["match_id"]
    assert (await client.get(f"/matches/{mid}")).json()["clock"] is None
    ann = bearer(created["seat_tokens"][0]["token"])
    resp = await client.post(f"/matches/{mid}/commands", json={"type": "resume"}, headers=ann)
    assert_problem(resp, 409, "no-clock")


async def test_a_player_cannot_send_a_timeout_nor_resume_a_seat_it_holds(client: Client) -> None:
    created = await create(client, CLOCKED)
    mid = created["match_id"]
    ann = bearer(created["seat_tokens"][0]["token"])
    for choice in ("timeout", "decision_timed_out"):
        resp = await client.post(f"/matches/{mid}/commands", json={"type": choice}, headers=ann)
        assert_problem(resp, 422, "validation-error")
    resp = await client.post(f"/matches/{mid}/commands", json={"type": "resume"}, headers=ann)
    assert_problem(resp, 409, "not-abandoned")
    after = (await client.get(f"/matches/{mid}")).json()
    assert after["version"] == created["version"], "nothing was timed out"


async def play_to_the_end(client: Client, created: dict[str, Any]) -> None:
    """Both people answer the first choice offered until the match is over."""
    mid = created["match_id"]
    tokens = {t["seat"]: bearer(t["token"]) for t in created["seat_tokens"]}
    for _ in range(500):
        view = (await client.get(f"/matches/{mid}")).json()["view"]
        pending = view["pending"]
        if view["status"] == "over" or pending is None:
            return
        seat = pending["seat"] if pending["seat"] is not None else 0
        body = {"type": pending["choices"][0]}
        resp = await client.post(f"/matches/{mid}/commands", json=body, headers=tokens[seat])
        assert resp.status_code == 200, resp.text
    raise AssertionError("the match did not end")


async def test_a_rematch_seats_each_person_through_their_own_request(client: Client) -> None:
    created = await create(client, {**CLOCKED, "starting_lives": 1, "seed": 4})
    mid = created["match_id"]
    ann, ben = (bearer(t["token"]) for t in created["seat_tokens"])
    early = await client.post(f"/matches/{mid}/rematch", headers=ann)
    assert_problem(early, 409, "match-not-finished")
    await play_to_the_end(client, created)
    assert_problem(await client.post(f"/matches/{mid}/rematch"), 401, "missing-token")
    first = await client.post(f"/matches/{mid}/rematch", headers=ann)
    assert first.status_code == 201, first.text
    mine = first.json()
    new = mine["match_id"]
    assert new != mid and mine["seat"] == 0 and mine["rematch_of"] == mid
    assert mine["clock"]["settings"] == created["clock"]["settings"]
    second = await client.post(f"/matches/{mid}/rematch", headers=ben)
    assert second.status_code == 200, second.text
    his = second.json()
    assert his["match_id"] == new and his["seat"] == 1 and his["token"] != mine["token"]
    # linked both ways
    assert (await client.get(f"/matches/{mid}")).json()["rematch"] == new
    assert (await client.get(f"/matches/{new}")).json()["rematch_of"] == mid
    # each new token plays its own seat of the rematch, and nothing else
    for token, seat in ((mine["token"], 0), (his["token"], 1)):
        seen = (await client.get(f"/matches/{new}", headers=bearer(token))).json()
        assert seen["seat"] == seat
    assert_problem(await client.get(f"/matches/{new}", headers=ben), 403, "wrong-match")
    # the deal moved on: the old match's first dealer was 1, the rematch's is 0
    events = (await client.get(f"/matches/{new}/events")).json()["events"]
    assert events[0]["event"]["first_dealer"] == 0
