"""AI opponents: expert unless told otherwise, on tables of any size."""

from __future__ import annotations

from typing import Any

from litestar.testing import AsyncTestClient


async def test_a_bot_without_a_level_is_an_expert(client: AsyncTestClient[Any]) -> None:
    seats = [{"name": "me"}, *({"name": f"ai {i}", "kind": "bot"} for i in range(3))]
    created = await client.post("/matches", json={"seats": seats, "seed": 3})
    assert created.status_code == 201, created.text
    levels = [s["bot_level"] for s in created.json()["view"]["seats"]]
    assert levels == [None, "expert", "expert", "expert"]


async def test_a_full_table_of_experts_is_accepted_and_answers_with_their_turns(
    client: AsyncTestClient[Any],
) -> None:
    # 20 seats of 5 lives: once refused (more than 48 seat-lives), now the experts think in
    # worker processes (api.bots_pool) and a table of any size is played
    seats = [{"name": "me"}, *({"name": f"ai {i}", "kind": "bot"} for i in range(19))]
    created = await client.post(
        "/matches", json={"seats": seats, "starting_lives": 5, "seed": 5, "first_dealer": 19}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert {s["bot_level"] for s in body["view"]["seats"][1:]} == {"expert"}
    mine = body["seat_tokens"][0]
    assert mine["view"]["hand"] is not None  # the creator's own card, in the creation answer
    assert mine["view"]["pending"]["seat"] == 0  # seat 0 plays first after dealer 19
    headers = {"Authorization": f"Bearer {mine['token']}"}
    played = await client.post(f"/matches/{body['match_id']}/commands", json={"type": "keep"},
                               headers=headers)  # fmt: skip
    assert played.status_code == 200, played.text
    actors = [e["event"]["type"] for e in played.json()["events"]]
    assert len(actors) > 19  # every expert answered within the same request


async def test_an_expert_table_plays_a_bots_only_match_to_its_end(
    client: AsyncTestClient[Any],
) -> None:
    bots = [{"name": f"ai {i}", "kind": "bot", "bot_level": "expert"} for i in range(4)]
    created = await client.post("/matches", json={"seats": bots, "seed": 11})
    assert created.status_code == 201, created.text
    assert created.json()["status"] == "over"
