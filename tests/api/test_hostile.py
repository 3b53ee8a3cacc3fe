"""Hostile input on both databases: deep and huge JSON, unknown fields, wrong types, every
command in every wrong state, tokens of other seats and matches, garbage tokens, idempotency
keys replayed with other bodies. Complements test_api.py (basic auth errors, malformed JSON)
and test_no_500.py (random bodies); the live-server side is tests/integration/test_schemathesis.
"""

from __future__ import annotations

import json

from tests.api.helpers import JSON, TWO_HUMANS, Client, assert_problem, bearer, create

CHOICES = ["keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse", "next_round"]
WRONG_STATE = {"not-your-turn", "illegal-choice", "round-in-progress", "match-over"}


async def test_deep_and_huge_json_is_refused_cleanly(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    url = f"/matches/{created['match_id']}/commands"
    t0 = bearer(created["seat_tokens"][0]["token"])
    deep = "[" * 1500 + "]" * 1500  # under the 4 KiB limit of the test app
    bodies = [
        deep,
        '{"type": ' + deep + "}",
        '{"seats": ' + deep + "}",
        '{"type": "keep", "expected_version": ' + "9" * 2000 + "}",
        '{"type": "keep", "expected_version": 1e999}',
        '{"type": "' + "k" * 3000 + '"}',
        "{" + ",".join(f'"k{i}": {i}' for i in range(400)) + "}",
        '{"type": "keep", "type": "exchange", "type": {}}',
    ]
    for raw in bodies:
        for path in (url, "/matches"):
            resp = await client.post(path, content=raw, headers={**t0, **JSON})
            assert resp.status_code in (400, 413, 422), (raw[:40], resp.status_code, resp.text)
            assert resp.headers["content-type"].startswith("application/problem+json")
    # nothing was applied by any of them
    assert (await client.get(f"/matches/{created['match_id']}")).json()["version"] == created[
        "version"
    ]


async def test_unknown_fields_and_wrong_types_are_422(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    url = f"/matches/{created['match_id']}/commands"
    t0 = bearer(created["seat_tokens"][0]["token"])
    for body in (
        {"type": "keep", "extra": 1},
        {"type": "keep", "expected_version": "3"},
        {"type": "keep", "expected_version": True},
        {"type": "keep", "expected_version": 1.5},
        {"type": 1},
        {"type": None},
        {"type": ["keep"]},
        {"type": "KEEP"},
        {"type": "keep "},
    ):
        assert_problem(await client.post(url, json=body, headers=t0), 422, "validation-error")
    seats = [{"name": "a"}, {"name": "b"}]
    for body in (
        {"seats": [{"name": "a", "colour": "red"}, {"name": "b"}]},
        {"seats": seats, "starting_lives": "3"},
        {"seats": seats, "starting_lives": 2.5},
        {"seats": seats, "starting_lives": 21},
        {"seats": seats, "seed": 1.0},
        {"seats": seats, "seed": 2**64},
        {"seats": seats, "first_dealer": True},
        {"seats": {"0": {"name": "a"}, "1": {"name": "b"}}},
        {"seats": [{"name": "a\u0000b"}, {"name": "b"}]},
        {"seats": [{"name": "a\nb"}, {"name": "b"}]},
        {"seats": [{"name": "   "}, {"name": "b"}]},
        {"seats": [{"name": "x" * 41}, {"name": "b"}]},
        {"seats": [{"name": "a"}] * 21},
    ):
        resp = await client.post("/matches", json=body)
        assert_problem(resp, 422, "validation-error")
    # the error names the offending field, and never echoes a stored value back
    resp = await client.post(url, json={"type": "keep", "expected_version": "x"}, headers=t0)
    assert "expected_version" in assert_problem(resp, 422, "validation-error")["detail"]


async def test_every_command_in_every_wrong_state_is_refused_and_changes_nothing(
    client: Client,
) -> None:
    created = await create(client, {**TWO_HUMANS, "starting_lives": 2, "seed": 3})
    mid = created["match_id"]
    tokens = [bearer(t["token"]) for t in created["seat_tokens"]]
    url = f"/matches/{mid}/commands"
    states: set[str] = set()
    for _ in range(200):
        current = (await client.get(f"/matches/{mid}", headers=tokens[0])).json()
        version, pending = current["version"], current["view"]["pending"]
        states.add(pending["kind"] if pending else "over")
        for seat, token in enumerate(tokens):
            legal = set()
            if pending and pending["seat"] in (seat, None):
                legal = set(pending["choices"])
            for choice in CHOICES:
                if choice in legal:
                    continue
                resp = await client.post(url, json={"type": choice}, headers=token)
                problem = resp.json()
                assert resp.status_code == 409, (choice, seat, pending, resp.text)
                assert problem["type"].rpartition(":")[2] in WRONG_STATE, problem
                if pending is None:
                    assert problem["type"].endswith("match-over")
                elif pending["seat"] not in (seat, None) and choice != "next_round":
                    assert problem["type"].endswith("not-your-turn")
        after = (await client.get(f"/matches/{mid}")).json()["version"]
        assert after == version, "a refused command changed the match"
        if pending is None:
            break
        seat = pending["seat"] if pending["seat"] is not None else 1
        resp = await client.post(
            url, json={"type": pending["choices"][-1], "expected_version": version},
            headers=tokens[seat],
        )  # fmt: skip
        assert resp.status_code == 200, resp.text
    assert {"turn", "dealer_turn", "next_round", "over"} <= states, states


async def test_tokens_of_other_seats_and_matches_and_garbage_tokens(client: Client) -> None:
    a = await create(client, TWO_HUMANS)
    b = await create(client, TWO_HUMANS)
    mid = a["match_id"]
    mine = a["seat_tokens"][0]["token"]
    theirs = b["seat_tokens"][1]["token"]
    reads = [f"/matches/{mid}", f"/matches/{mid}/events", f"/matches/{mid}/stream"]
    for path in reads:
        assert_problem(await client.get(path, headers=bearer(theirs)), 403, "wrong-match")
    resp = await client.post(f"/matches/{mid}/commands", json={"type": "keep"},
                             headers=bearer(theirs))  # fmt: skip
    assert_problem(resp, 403, "wrong-match")
    garbage = [
        "Bearer",
        "Bearer ",
        "bearer " + mine[:-1],
        "Bearer " + mine + "x",
        "Bearer " + mine.upper(),
        "Token " + mine,
        "Basic " + mine,
        mine,
        "Bearer " + "A" * 4000,
        "Bearer ../../etc/passwd",
        "Bearer ' OR '1'='1",
        "Bearer %00",
        "Bearer é€😀",
    ]
    for value in garbage:
        headers = {"Authorization": value.encode("utf-8")}  # raw bytes, as a client may send
        for path in reads[:2]:
            resp = await client.get(path, headers=headers)
            assert resp.status_code == 401, (value[:30], resp.text)
            assert resp.headers["www-authenticate"].startswith("Bearer")
            assert mine not in resp.text
        resp = await client.post(f"/matches/{mid}/commands", json={"type": "keep"},
                                 headers=headers)  # fmt: skip
        assert resp.status_code == 401, (value[:30], resp.text)
    # the scheme is case-insensitive, the token is not; seat 1 may not act for seat 0
    ok = await client.get(f"/matches/{mid}", headers={"Authorization": "bEaReR " + mine})
    assert ok.status_code == 200 and ok.json()["seat"] == 0
    seat1 = bearer(a["seat_tokens"][1]["token"])
    resp = await client.post(f"/matches/{mid}/commands", json={"type": "keep"}, headers=seat1)
    assert_problem(resp, 409, "not-your-turn")


async def test_idempotency_keys_replayed_with_other_bodies(client: Client) -> None:
    a = await create(client, TWO_HUMANS)
    b = await create(client, TWO_HUMANS)
    url = f"/matches/{a['match_id']}/commands"
    t0, t1 = (bearer(t["token"]) for t in a["seat_tokens"])
    key = {"Idempotency-Key": "k"}
    first = await client.post(url, json={"type": "keep"}, headers={**t0, **key})
    assert first.status_code == 200
    version = first.json()["version"]
    # any other body under the same key is refused, whatever it would do now
    for body in (
        {"type": "exchange"},
        {"type": "keep", "expected_version": a["version"]},
        {"type": "next_round"},
    ):
        resp = await client.post(url, json=body, headers={**t0, **key})
        assert_problem(resp, 422, "idempotency-key-reused")
    # the key is scoped to a seat and a match: the same key elsewhere is a new request
    resp = await client.post(url, json={"type": "keep"}, headers={**t1, **key})
    assert resp.status_code == 200 and resp.headers.get("idempotent-replayed") is None
    moved = resp.json()["version"]
    other = f"/matches/{b['match_id']}/commands"
    resp = await client.post(other, json={"type": "keep"},
                             headers={**bearer(b["seat_tokens"][0]["token"]), **key})  # fmt: skip
    assert resp.status_code == 200 and resp.headers.get("idempotent-replayed") is None
    # the original body still replays its original answer after the match moved on
    again = await client.post(url, json={"type": "keep"}, headers={**t0, **key})
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"
    assert (await client.get(f"/matches/{a['match_id']}")).json()["version"] == moved > version
    # a refused command stores no key: its retry is judged afresh
    refused = await client.post(url, json={"type": "inn_accept"},
                                headers={**t0, "Idempotency-Key": "r"})  # fmt: skip
    assert refused.status_code == 409
    retry = await client.post(url, json={"type": "inn_accept"},
                              headers={**t0, "Idempotency-Key": "r"})  # fmt: skip
    assert retry.status_code == 409 and retry.headers.get("idempotent-replayed") is None
    assert json.loads(retry.text)["type"] == json.loads(refused.text)["type"]
