"""Small helpers shared by the API tests."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient

Client = AsyncTestClient[Any]
#: the header of a JSON body sent as raw bytes (without it a command is 415)
JSON = {"Content-Type": "application/json"}

HUMAN_VS_BOTS: dict[str, Any] = {
    "seats": [
        {"name": "Ann"},
        {"name": "Bo", "kind": "bot", "bot_level": "basic"},
        {"name": "Cy", "kind": "bot", "bot_level": "random"},
        {"name": "Di", "kind": "bot", "bot_level": "basic"},
    ],
    "starting_lives": 2,
    # Di deals, so Ann speaks first and is always asked in round 1: with Bo or Cy dealing,
    # the bots' exchanges end round 1 at creation in about 2 % of matches (her card refusing
    # them), which a test expecting Ann's turn would take for a failure
    "first_dealer": 3,
}

BOTS_ONLY: dict[str, Any] = {
    "seats": [
        {"name": f"bot{i}", "kind": "bot", "bot_level": "basic" if i % 2 else "random"}
        for i in range(4)
    ],
    "starting_lives": 2,
    "seed": 42,
}

TWO_HUMANS: dict[str, Any] = {
    "seats": [{"name": "Ann"}, {"name": "Ben"}],
    "starting_lives": 3,
    "first_dealer": 1,  # seat 0 plays first, seat 1 deals
}


async def create(client: Client, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /matches``, asserting 201; the answer's body."""
    resp = await client.post("/matches", json=body)
    assert resp.status_code == 201, resp.text
    data: dict[str, Any] = resp.json()
    return data


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_problem(resp: Any, status: int, slug: str) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.headers["content-type"].startswith("application/problem+json"), resp.headers
    body: dict[str, Any] = resp.json()
    assert body["type"] == f"urn:cuccu:problem:{slug}", body
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body
