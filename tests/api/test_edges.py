"""The protocol's edges, on both databases: what docs/API.md promises at the margins."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
import sqlalchemy as sa

from api.controllers.matches import MAX_VERSION, resume_after
from api.creation_keys import lookup_hash, seal_tokens
from api.service import InvalidRequest, NewSeat, creation_fingerprint, seat_specs
from api.store import CreationRecord, EventStore, create_engine
from api.store.tables import creation_keys
from tests.api.helpers import BOTS_ONLY, HUMAN_VS_BOTS, Client, assert_problem, bearer, create

CUCCO21_BOTS: dict[str, Any] = {
    "game": "cucco21",
    "seats": [{"name": f"b{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)],
    "starting_chips": 2,
    "max_sets": 1,
    "seed": 9,
}

CHASE_BOTS: dict[str, Any] = {
    "game": "chase",
    "seats": [{"name": f"b{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)],
    "starting_lives": 2,
    "seed": 9,
}

LOBBY_CHASE: dict[str, Any] = {
    "game": "chase",
    "seats": [{"name": "Ann"}, {"name": "open", "kind": "open"}, {"name": "Bo", "kind": "bot"}],
}

LOBBY_21: dict[str, Any] = {
    "game": "cucco21",
    "seats": [{"name": "Ann"}, {"name": "open", "kind": "open"}, {"name": "Bo", "kind": "bot"}],
}

# --- Last-Event-ID: an integer from 0, in ASCII digits, and nothing else ---------------------

NOT_VERSIONS = [
    "+3", "-1", "3.0", "0x3", "3_0", "1e3", "3 ", " 3", "\u0663", "３",
    str(MAX_VERSION + 1), "9" * 11, "9" * 5000,
]  # fmt: skip


@pytest.mark.parametrize("value", NOT_VERSIONS)
def test_only_ascii_digits_resume_a_stream(value: str) -> None:
    with pytest.raises(InvalidRequest):
        resume_after(value)


def test_versions_resume_a_stream() -> None:
    assert resume_after(None) is None and resume_after("") is None
    assert resume_after("0") == 0 and resume_after("007") == 7
    assert resume_after(str(MAX_VERSION)) == MAX_VERSION


async def test_a_last_event_id_that_is_not_a_version_is_422(client: Client) -> None:
    mid = (await create(client, BOTS_ONLY))["match_id"]
    # surrounding spaces are not part of an HTTP header's value, so " 3" cannot be sent as such
    for value in ("+3", "-1", "3.0", "0x3", "3_0", str(MAX_VERSION + 1), "9" * 5000):
        resp = await client.get(f"/matches/{mid}/stream", headers={"Last-Event-ID": value})
        body = assert_problem(resp, 422, "validation-error")
        assert "Last-Event-ID" in body["detail"], value
    async with client.stream("GET", f"/matches/{mid}/stream", headers={"Last-Event-ID": "3"}) as r:
        assert r.status_code == 200
        text = "".join([chunk async for chunk in r.aiter_text()])
    assert "id: 4" in text and "event: view" not in text


# --- a finished match's seats are taken, in every game -----------------------------------------


@pytest.mark.parametrize(
    "body", [BOTS_ONLY, CUCCO21_BOTS, CHASE_BOTS], ids=["cuccu", "cucco21", "chase"]
)
async def test_claiming_a_seat_of_a_finished_match_is_seat_taken(
    client: Client, body: dict[str, Any]
) -> None:
    created = await create(client, body)
    assert created["status"] == "over"
    resp = await client.post(f"/matches/{created['match_id']}/seats/0/claim", json={"name": "Ann"})
    problem = assert_problem(resp, 409, "seat-taken")
    assert problem["code"] == "seat_taken"
    resp = await client.post(f"/matches/{created['match_id']}/seats/9/claim", json={"name": "Ann"})
    assert_problem(resp, 404, "seat-not-found")


# --- Idempotency-Key on POST /matches ----------------------------------------------------------


async def create_with_key(client: Client, body: dict[str, Any], key: str) -> Any:
    return await client.post("/matches", json=body, headers={"Idempotency-Key": key})


async def match_ids(client: Client) -> list[str]:
    rows = (await client.get("/matches", params={"limit": 100})).json()["matches"]
    return [r["match_id"] for r in rows]


@pytest.mark.parametrize(
    "body", [HUMAN_VS_BOTS, LOBBY_21, LOBBY_CHASE], ids=["cuccu", "cucco21-lobby", "chase-lobby"]
)
async def test_a_creation_retried_with_its_key_answers_the_same_match_and_tokens(
    client: Client, body: dict[str, Any]
) -> None:
    key = str(uuid.uuid4())
    first = await create_with_key(client, body, key)
    assert first.status_code == 201, first.text
    assert "Idempotent-Replayed" not in first.headers
    again = await create_with_key(client, body, key)
    assert again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # the same answer, seat tokens included
    mid = first.json()["match_id"]
    assert await match_ids(client) == [mid]
    token = first.json()["seat_tokens"][0]["token"]
    assert (await client.get(f"/matches/{mid}", headers=bearer(token))).json()["seat"] == 0
    # a body that spells the defaults out is the same request; without a key, a new match
    spelled = {**body, "game": body.get("game", "cuccu")}
    assert (await create_with_key(client, spelled, key)).json() == first.json()
    assert (await client.post("/matches", json=body)).json()["match_id"] != mid
    assert len(await match_ids(client)) == 2


async def test_the_answer_again_is_the_creations_even_after_the_match_moved_on(
    client: Client,
) -> None:
    key = str(uuid.uuid4())
    first = (await create_with_key(client, HUMAN_VS_BOTS, key)).json()
    token = first["seat_tokens"][0]["token"]
    moved = await client.post(
        f"/matches/{first['match_id']}/commands", json={"type": "keep"}, headers=bearer(token)
    )
    assert moved.status_code == 200 and moved.json()["version"] > first["version"]
    assert (await create_with_key(client, HUMAN_VS_BOTS, key)).json() == first


async def test_a_creation_key_with_another_body_is_422_and_makes_nothing(client: Client) -> None:
    key = str(uuid.uuid4())
    mid = (await create_with_key(client, HUMAN_VS_BOTS, key)).json()["match_id"]
    other = {**HUMAN_VS_BOTS, "starting_lives": 5}
    body = assert_problem(await create_with_key(client, other, key), 422, "idempotency-key-reused")
    assert "Idempotency-Key" in body["detail"]
    assert_problem(await create_with_key(client, CUCCO21_BOTS, key), 422, "idempotency-key-reused")
    assert await match_ids(client) == [mid]


async def test_a_creation_key_is_bounded_as_a_commands(client: Client) -> None:
    assert_problem(await create_with_key(client, HUMAN_VS_BOTS, "k" * 256), 422, "validation-error")
    assert (await create_with_key(client, HUMAN_VS_BOTS, "k" * 255)).status_code == 201
    assert len(await match_ids(client)) == 1
    # a refused configuration reserves nothing: the key stays free for a valid body
    bad = {**HUMAN_VS_BOTS, "first_dealer": 9}
    assert_problem(await create_with_key(client, bad, "fresh"), 422, "invalid-config")
    assert (await create_with_key(client, HUMAN_VS_BOTS, "fresh")).status_code == 201


async def test_a_creation_that_crashed_before_its_match_is_made_once_by_its_retry(
    client: Client, migrated_url: str
) -> None:
    """A process that reserved the key and died before writing the match: the retry makes the
    match under the reserved id and tokens, and only that one."""
    key = str(uuid.uuid4())
    mid = str(uuid.uuid4())
    tokens = {0: "reserved-token-" + "x" * 28}
    fingerprint = creation_fingerprint(
        "cuccu", seat_specs([NewSeat(**s) for s in HUMAN_VS_BOTS["seats"]]), None, 3,
        {"starting_lives": 2},
    )  # fmt: skip
    engine = create_engine(migrated_url)
    try:
        await EventStore(engine).reserve_creation(
            CreationRecord(
                lookup_hash(key), fingerprint, mid, seal_tokens(key, mid, fingerprint, tokens)
            )
        )
        async with engine.connect() as conn:
            stored = (await conn.execute(sa.select(creation_keys))).one()
    finally:
        await engine.dispose()
    # the database holds neither the key nor the token in clear
    assert key not in str(tuple(stored)) and tokens[0] not in str(tuple(stored))
    assert await match_ids(client) == []
    retried = await create_with_key(client, HUMAN_VS_BOTS, key)
    assert retried.status_code == 201, retried.text
    assert retried.json()["match_id"] == mid
    assert retried.json()["seat_tokens"][0]["token"] == tokens[0]
    assert (await client.get(f"/matches/{mid}", headers=bearer(tokens[0]))).json()["seat"] == 0
    again = await create_with_key(client, HUMAN_VS_BOTS, key)
    assert again.json() == retried.json() and again.headers["Idempotent-Replayed"] == "true"
    assert await match_ids(client) == [mid]


async def test_twin_creations_with_one_key_make_one_match(client: Client) -> None:
    key = str(uuid.uuid4())
    answers = await asyncio.gather(*(create_with_key(client, HUMAN_VS_BOTS, key) for _ in range(4)))
    assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
    bodies = [a.json() for a in answers]
    assert all(b == bodies[0] for b in bodies)
    assert await match_ids(client) == [bodies[0]["match_id"]]
