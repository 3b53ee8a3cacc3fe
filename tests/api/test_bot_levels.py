"""AI opponents: expert unless told otherwise, and never a table that would hold a request."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient


async def test_a_bot_without_a_level_is_an_expert(client: AsyncTestClient[Any]) -> None:
    seats = [{"name": "me"}, *({"name": f"ai {i}", "kind": "bot"} for i in range(3))]
    created = await client.post("/matches", json={"seats": seats, "seed": 3})
    assert created.status_code == 201, created.text
    levels = [s["bot_level"] for s in created.json()["view"]["seats"]]
    assert levels == [None, "expert", "expert", "expert"]


async def test_large_tables_default_to_basic_and_refuse_expert(
    client: AsyncTestClient[Any],
) -> None:
    bots = [{"name": f"ai {i}", "kind": "bot"} for i in range(17)]
    created = await client.post("/matches", json={"seats": bots, "starting_lives": 3})
    assert created.status_code == 201, created.text
    assert {s["bot_level"] for s in created.json()["view"]["seats"]} == {"basic"}
    experts = [{**seat, "bot_level": "expert"} for seat in bots]
    refused = await client.post("/matches", json={"seats": experts, "starting_lives": 3})
    assert refused.status_code == 422
    assert "seat-lives" in refused.json()["detail"]


async def test_an_expert_table_plays_a_bots_only_match_to_its_end(
    client: AsyncTestClient[Any],
) -> None:
    bots = [{"name": f"ai {i}", "kind": "bot", "bot_level": "expert"} for i in range(4)]
    created = await client.post("/matches", json={"seats": bots, "seed": 11})
    assert created.status_code == 201, created.text
    assert created.json()["status"] == "over"
