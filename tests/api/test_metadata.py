"""Event metadata names who acted and how, and never carries a card."""

from __future__ import annotations

import json
from typing import Any

from litestar.testing import AsyncTestClient

from domain.games.cuccu.cards import CARDS

BOTS = [{"name": f"bot {i}", "kind": "bot", "bot_level": "basic"} for i in range(4)]


async def test_exported_metadata_holds_no_card(client: AsyncTestClient[Any]) -> None:
    created = await client.post("/matches", json={"seats": BOTS, "seed": 7})
    assert created.status_code == 201
    export = await client.get(f"/matches/{created.json()['match_id']}/export")
    assert export.status_code == 200
    lines = [json.loads(ln)["record"] for ln in export.text.split("\n") if '"record"' in ln]
    assert any(line["meta"]["command"]["type"] == "start_round" for line in lines)
    for line in lines:
        meta = json.dumps(line["meta"])
        assert not [card for card in CARDS if f'"{card}"' in meta], meta
