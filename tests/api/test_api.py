"""The REST API, in process, on SQLite and on PostgreSQL (every case runs on both)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec
import sqlalchemy as sa
from litestar.testing import AsyncTestClient

from api.store import create_engine
from domain.games import CUCCU
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.events import decode_event
from domain.games.cuccu.evolve import fold
from domain.games.cuccu.state import initial_state
from domain.games.cuccu.views import view
from tests.api.helpers import (
    BOTS_ONLY,
    HUMAN_VS_BOTS,
    JSON,
    TWO_HUMANS,
    Client,
    assert_problem,
    bearer,
    create,
)


async def test_health_and_ready(client: Client) -> None:
    assert (await client.get("/health")).json() == {"status": "ok"}
    resp = await client.get("/ready")
    assert resp.status_code == 200 and resp.json() == {"status": "ready"}


async def test_create_gives_one_secret_token_per_human_stored_only_hashed(
    client: Client, migrated_url: str
) -> None:
    created = await create(client, HUMAN_VS_BOTS)  # Ann speaks first: round 1 waits for her
    tokens = created["seat_tokens"]
    assert [t["seat"] for t in tokens] == [0]
    token = tokens[0]["token"]
    assert len(token) >= 43  # 32 random bytes, base64url
    engine = create_engine(migrated_url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT token_sha256 FROM seat_tokens"))).all()
    finally:
        await engine.dispose()
    assert [r[0] for r in rows] == [hashlib.sha256(token.encode()).hexdigest()]
    assert created["status"] == "in_round"  # round 1 is dealt at creation
    assert created["view"]["viewer"] is None
    assert all(h is None for h in created["view"]["hands"])


async def test_seat_sees_its_card_spectator_sees_none(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    mid = created["match_id"]
    t0, t1 = (t["token"] for t in created["seat_tokens"])
    seat0 = (await client.get(f"/matches/{mid}", headers=bearer(t0))).json()
    assert seat0["seat"] == 0
    assert seat0["view"]["hand"] in CARDS
    assert seat0["view"]["pending"] == {
        "seat": 0,
        "kind": "turn",
        "choices": ["keep", "exchange"],
    }
    assert seat0["version"] == created["version"]
    spectator = (await client.get(f"/matches/{mid}")).json()
    assert spectator["seat"] is None
    assert spectator["view"]["hand"] is None
    assert all(h is None for h in spectator["view"]["hands"])
    seat1 = (await client.get(f"/matches/{mid}", headers=bearer(t1))).json()
    assert seat0["view"]["hand"] not in json.dumps(seat1["view"])  # seat 1 is not dealt yet
    spectator_text = json.dumps(spectator)
    assert seat0["view"]["hand"] not in spectator_text


async def test_auth_errors(client: Client) -> None:
    a = await create(client, TWO_HUMANS)
    b = await create(client, TWO_HUMANS)
    url = f"/matches/{a['match_id']}/commands"
    assert_problem(await client.post(url, json={"type": "keep"}), 401, "missing-token")
    resp = await client.post(url, json={"type": "keep"}, headers=bearer("nope"))
    assert_problem(resp, 401, "unknown-token")
    resp = await client.post(url, json={"type": "keep"}, headers={"Authorization": "Basic x"})
    assert_problem(resp, 401, "missing-token")
    other = b["seat_tokens"][0]["token"]
    assert_problem(
        await client.post(url, json={"type": "keep"}, headers=bearer(other)), 403, "wrong-match"
    )
    assert_problem(
        await client.get(f"/matches/{a['match_id']}", headers=bearer(other)), 403, "wrong-match"
    )
    assert_problem(
        await client.post("/matches/00000000-0000-0000-0000-000000000000/commands",
                          json={"type": "keep"}, headers=bearer(other)),
        404, "match-not-found",
    )  # fmt: skip
    assert_problem(await client.get("/matches/unknown"), 404, "match-not-found")


async def test_turn_order_versions_and_illegal_choices(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    mid = created["match_id"]
    t0, t1 = (bearer(t["token"]) for t in created["seat_tokens"])
    url = f"/matches/{mid}/commands"
    body = assert_problem(await client.post(url, json={"type": "keep"}, headers=t1), 409,
                          "not-your-turn")  # fmt: skip
    assert body["code"] == "not_your_turn"
    assert_problem(await client.post(url, json={"type": "inn_accept"}, headers=t0), 409,
                   "illegal-choice")  # fmt: skip
    assert_problem(await client.post(url, json={"type": "next_round"}, headers=t0), 409,
                   "round-in-progress")  # fmt: skip
    version = created["version"]
    stale = await client.post(url, json={"type": "keep", "expected_version": version - 1},
                              headers=t0)  # fmt: skip
    assert assert_problem(stale, 409, "stale-version")["version"] == version
    ok = await client.post(url, json={"type": "keep", "expected_version": version}, headers=t0)
    assert ok.status_code == 200, ok.text
    reply = ok.json()
    assert reply["version"] > version
    assert [e["version"] for e in reply["events"]] == list(range(version + 1, reply["version"] + 1))
    assert reply["events"][0]["event"] == {"type": "kept", "seat": 0}
    assert reply["view"]["pending"]["seat"] == 1  # the dealer now
    # the state did not move on any of the refused commands
    assert (await client.get(f"/matches/{mid}")).json()["version"] == reply["version"]


async def test_invalid_values_and_malformed_bodies(client: Client) -> None:
    bad_bodies: list[Any] = [
        {"seats": [{"name": "solo"}]},
        {"seats": [{"name": "a"}, {"name": "b", "kind": "bot", "bot_level": "genius"}]},
        {"seats": [{"name": "a"}, {"name": "b", "kind": "alien"}]},
        {"seats": [{"name": ""}, {"name": "b"}]},
        {"seats": [{"name": "a"}, {"name": "b"}], "starting_lives": 0},
        {"seats": [{"name": "a"}, {"name": "b"}], "seed": -1},
        {"seats": [{"name": "a"}, {"name": "b"}], "surprise": True},
        {"seats": "two"},
        [],
        None,
    ]
    for body in bad_bodies:
        resp = await client.post("/matches", content=json.dumps(body), headers=JSON)
        assert_problem(resp, 422, "validation-error")
    # well-formed, but not a match the rules allow: the domain's own checks say why
    for body in (
        {"seats": [{"name": "a"}, {"name": "b", "bot_level": "basic"}]},
        {"seats": [{"name": "a"}, {"name": "b"}], "first_dealer": 2},
    ):
        resp = await client.post("/matches", json=body)
        assert_problem(resp, 422, "invalid-config")
    for raw in (b"{", b"not json", b'{"seats": [}', b"\xff\xfe"):
        assert_problem(
            await client.post("/matches", content=raw, headers=JSON), 400, "malformed-request"
        )
    big = json.dumps({"seats": [{"name": "x" * 40}] * 200})
    assert_problem(await client.post("/matches", content=big, headers=JSON), 413, "body-too-large")
    created = await create(client, TWO_HUMANS)
    url = f"/matches/{created['match_id']}/commands"
    t0 = bearer(created["seat_tokens"][0]["token"])
    for body in ({"type": "fold"}, {"type": "keep", "expected_version": -1}, {}, {"x": 1}):
        assert_problem(await client.post(url, json=body, headers=t0), 422, "validation-error")
    assert_problem(
        await client.post(url, content=b"{", headers={**t0, **JSON}), 400, "malformed-request"
    )
    for query in ("limit=0", "limit=abc", "status=weird", "cursor=%%%"):
        assert_problem(await client.get(f"/matches?{query}"), 422, "validation-error")
    resp = await client.get(f"/matches/{created['match_id']}/events?after=-1")
    assert_problem(resp, 422, "validation-error")
    assert_problem(await client.delete("/matches"), 405, "method-not-allowed")
    assert_problem(await client.get("/nowhere"), 404, "not-found")


async def test_idempotency_key_same_response_no_second_effect(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    mid = created["match_id"]
    t0 = bearer(created["seat_tokens"][0]["token"])
    headers = {**t0, "Idempotency-Key": "k-1"}
    url = f"/matches/{mid}/commands"
    first = await client.post(url, json={"type": "keep"}, headers=headers)
    assert first.status_code == 200
    again = await client.post(url, json={"type": "keep"}, headers=headers)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert again.headers.get("idempotent-replayed") == "true"
    assert (await client.get(f"/matches/{mid}")).json()["version"] == first.json()["version"]
    other = await client.post(url, json={"type": "exchange"}, headers=headers)
    assert_problem(other, 422, "idempotency-key-reused")


async def test_bots_only_match_plays_to_its_end_and_exports(client: Client) -> None:
    created = await create(client, BOTS_ONLY)
    assert created["seat_tokens"] == []
    assert created["status"] == "over"
    mid = created["match_id"]
    match = (await client.get(f"/matches/{mid}")).json()
    assert match["view"]["winner"] is not None
    resp = await client.get(f"/matches/{mid}/export")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("application/x-ndjson")
    exported = [json.loads(line) for line in resp.text.splitlines()]
    assert "seal" in exported[-1]  # the service's signature over the finished match
    lines = [ln["record"] for ln in exported[:-1]]
    assert [ln["version"] for ln in lines] == list(range(1, match["version"] + 1))
    events = [decode_event(json.dumps({"type": ln["type"], **ln["data"]})) for ln in lines]
    state = fold(events, initial_state())
    # the API's view is the domain's, tagged with its game (API 0.5)
    assert {**json.loads(msgspec.json.encode(view(state, None))), "game": "cuccu"} == match["view"]
    # the same seed gives the same match
    again = await create(client, BOTS_ONLY)
    resp2 = await client.get(f"/matches/{again['match_id']}/export")
    assert [ln["record"]["data"] for ln in map(json.loads, resp2.text.splitlines()[:-1])] == [
        ln["data"] for ln in lines
    ]


async def test_export_only_when_over(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    resp = await client.get(f"/matches/{created['match_id']}/export")
    assert_problem(resp, 409, "match-not-finished")


async def test_list_newest_first_with_cursor_and_status(client: Client) -> None:
    ids = [(await create(client, TWO_HUMANS))["match_id"] for _ in range(3)]
    over = (await create(client, BOTS_ONLY))["match_id"]
    page = (await client.get("/matches?limit=2")).json()
    assert [m["match_id"] for m in page["matches"]] == [over, ids[2]]
    assert page["next_cursor"]
    rest = (await client.get(f"/matches?limit=2&cursor={page['next_cursor']}")).json()
    assert [m["match_id"] for m in rest["matches"]] == [ids[1], ids[0]]
    assert rest["next_cursor"] is None
    finished = (await client.get("/matches?status=over")).json()
    assert [m["match_id"] for m in finished["matches"]] == [over]
    assert finished["matches"][0]["winner"] is not None


async def test_event_log_is_redacted_for_the_caller(client: Client) -> None:
    created = await create(client, HUMAN_VS_BOTS)
    mid = created["match_id"]
    t0 = bearer(created["seat_tokens"][0]["token"])
    spectator = (await client.get(f"/matches/{mid}/events")).json()
    mine = (await client.get(f"/matches/{mid}/events", headers=t0)).json()
    assert spectator["version"] == created["version"]
    for page in (spectator, mine):
        started = [e["event"] for e in page["events"] if e["event"]["type"] == "round_started"]
        assert started and all(e["pack"] is None and e["salt"] is None for e in started)
        assert all("hash" not in e for e in page["events"])
    for e in spectator["events"]:
        if e["event"]["type"] == "card_dealt":
            assert e["event"]["card"] is None
    for e in mine["events"]:
        ev = e["event"]
        if ev["type"] == "card_dealt":
            assert (ev["card"] is not None) == (ev["seat"] == 0)
    page = (await client.get(f"/matches/{mid}/events?after=1&limit=2")).json()
    assert [e["version"] for e in page["events"]] == [2, 3]
    assert page["next_after"] == (3 if created["version"] > 3 else None)


async def test_stream_of_a_finished_match(client: Client) -> None:
    created = await create(client, BOTS_ONLY)
    mid = created["match_id"]
    resp = await client.get(f"/matches/{mid}/stream")
    assert resp.status_code == 200
    assert resp.headers["content-type"].startswith("text/event-stream")
    frames = parse_sse(resp.text)
    assert [f["event"] for f in frames] == ["view", "end"]
    assert int(frames[0]["id"]) == created["version"]
    resumed = parse_sse(
        (await client.get(f"/matches/{mid}/stream", headers={"Last-Event-ID": "3"})).text
    )
    *events, end = resumed
    assert [int(f["id"]) for f in events] == list(range(4, created["version"] + 1))
    assert all(f["event"] == "event" for f in events)
    assert json.loads(events[0]["data"])["version"] == 4
    # the closing message names no game: the close that follows is the end, not a drop
    assert end["event"] == "end" and int(end["id"]) == created["version"]
    last = {"match_id": mid, "version": created["version"], "status": "over"}
    assert json.loads(end["data"]) == last
    again = await client.get(f"/matches/{mid}/stream", headers={"Last-Event-ID": end["id"]})
    assert parse_sse(again.text) == [end]  # resuming after it: the end again, nothing else


def parse_sse(text: str) -> list[dict[str, str]]:
    frames = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        frame: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            frame[key] = frame.get(key, "") + value.lstrip(" ")
        if frame:
            frames.append(frame)
    return frames


async def test_full_match_over_http_against_three_bots(client: Client) -> None:
    created = await create(client, {**HUMAN_VS_BOTS, "seed": 7})
    mid = created["match_id"]
    me = bearer(created["seat_tokens"][0]["token"])
    url = f"/matches/{mid}/commands"
    for _ in range(500):
        current = (await client.get(f"/matches/{mid}", headers=me)).json()
        pending = current["view"]["pending"]
        if pending is None:
            break
        assert pending["kind"] == "next_round" or pending["seat"] == 0
        choice = pending["choices"][-1 if current["version"] % 3 == 0 else 0]
        resp = await client.post(
            url, json={"type": choice, "expected_version": current["version"]}, headers=me
        )
        assert resp.status_code == 200, resp.text
    final = (await client.get(f"/matches/{mid}")).json()
    assert final["view"]["status"] == "over"
    assert final["view"]["winner"] is not None
    export = (await client.get(f"/matches/{mid}/export")).text.splitlines()
    records = [json.loads(line)["record"] for line in export if '"record"' in line]
    # read as the registry's game reads them: Cuccù's events and the decks' entropy
    # (docs/API.md "Fairness") around them
    events = [
        CUCCU.read_event(r["type"], r["schema"], json.dumps(r["data"]).encode()) for r in records
    ]
    refolded = CUCCU.view(CUCCU.fold(events, CUCCU.initial()), None)
    assert {**json.loads(msgspec.json.encode(refolded)), "game": "cuccu"} == final["view"]


async def test_openapi_describes_every_route_and_error(client: Client) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    assert spec["openapi"].startswith("3.1")
    paths = spec["paths"]
    expected = {
        ("/matches", "post"): {"201", "400", "413", "422", "503"},
        ("/matches", "get"): {"200", "422"},
        ("/matches/{match_id}", "get"): {"200", "401", "403", "404"},
        ("/matches/{match_id}/commands", "post"): {
            "200", "400", "401", "403", "404", "409", "413", "422", "503",
        },
        ("/matches/{match_id}/events", "get"): {"200", "401", "403", "404", "422"},
        ("/matches/{match_id}/stream", "get"): {"200", "401", "404"},
        ("/matches/{match_id}/export", "get"): {"200", "404", "409"},
        ("/health", "get"): {"200"},
        ("/ready", "get"): {"200", "503"},
    }  # fmt: skip
    for (path, method), statuses in expected.items():
        op = paths[path][method]
        assert op.get("description"), (path, method)
        assert statuses <= set(op["responses"]), (path, method, op["responses"].keys())
        for status in statuses - {"200", "201"}:
            content = op["responses"][status].get("content", {})
            assert "application/problem+json" in content or status == "400", (path, status)
    assert "seatToken" in spec["components"]["securitySchemes"]
    ui = await client.get("/schema")
    assert ui.status_code == 200 and "html" in ui.headers["content-type"]


async def test_database_unavailable_is_503() -> None:
    from api.app import create_app
    from api.settings import Settings

    dead = "postgresql+psycopg://postgres@127.0.0.1:1/none"
    async with AsyncTestClient(app=create_app(Settings(database_url=dead))) as c:
        assert (await c.get("/health")).status_code == 200
        for resp in (
            await c.get("/ready"),
            await c.post("/matches", json=TWO_HUMANS),
            await c.get("/matches"),
        ):
            assert_problem(resp, 503, "database-unavailable")
            assert resp.headers["Retry-After"] == "2"  # every 503 says when to come back
