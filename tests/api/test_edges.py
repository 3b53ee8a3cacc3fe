"""The protocol's edges, on both databases: what docs/API.md promises at the margins."""

from __future__ import annotations

from typing import Any

import pytest

from api.controllers.matches import MAX_VERSION, resume_after
from api.service import InvalidRequest
from tests.api.helpers import BOTS_ONLY, Client, assert_problem, create

CUCCO21_BOTS: dict[str, Any] = {
    "game": "cucco21",
    "seats": [{"name": f"b{i}", "kind": "bot", "bot_level": "basic"} for i in range(3)],
    "starting_chips": 2,
    "max_sets": 1,
    "seed": 9,
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


@pytest.mark.parametrize("body", [BOTS_ONLY, CUCCO21_BOTS], ids=["cuccu", "cucco21"])
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
