"""The client's creation body: what every game's schema takes (docs/openapi.json), and any
game's own options passed through as given, since the client knows no game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from api.client import Client, SeatIn, human

DOCUMENT = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text(encoding="utf-8")
)
SCHEMAS = DOCUMENT["components"]["schemas"]
#: the keywords of ``create_match`` that every game's body has (the rest are the game's options)
COMMON = {"seats", "game", "seed", "first_dealer", "entropy"}


def creation_schemas() -> list[dict[str, Any]]:
    body = DOCUMENT["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"]
    return [SCHEMAS[ref["$ref"].rsplit("/", 1)[1]] for ref in body["schema"]["oneOf"]]


def test_every_games_body_has_the_clients_common_fields_and_seats() -> None:
    schemas = creation_schemas()
    assert len(schemas) >= 2
    seat_fields = set(SeatIn.__annotations__)
    for schema in schemas:
        assert set(schema["properties"]) >= COMMON, schema["title"]
        assert "seats" in schema["required"]
        seat_ref = schema["properties"]["seats"]["items"]["$ref"].rsplit("/", 1)[1]
        assert set(SCHEMAS[seat_ref]["properties"]) == seat_fields


def test_a_games_options_are_sent_as_given_and_none_is_left_out() -> None:
    sent: list[dict[str, Any]] = []

    asked: list[str] = []

    def server(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/commitments":  # the service commits first
            asked.append(f"p{len(asked)}")
            shown = {"id": asked[-1], "commitment": "c" * 64, "expires_at": "2026-12-03T15:00Z"}
            return httpx.Response(201, json=shown)
        sent.append(json.loads(request.content))
        return httpx.Response(201, json={"match_id": "m", "version": 0})

    with Client("http://cuccu.test", transport=httpx.MockTransport(server)) as client:
        made = client.create_match([human("Ann")], game="some_game", seed=4, laps=3, jokers=None)
        client.create_match([human("Ann")])
    assert made.get("commitment") == "c" * 64  # what the service showed before the entropy
    # every creation carries fresh entropy for the first deck (docs/API.md "Fairness"), with
    # the pre-commitment the service made for it
    mixed = [body.pop("entropy") for body in sent]
    assert all(len(bytes.fromhex(m)) == 32 for m in mixed) and mixed[0] != mixed[1]
    assert [body.pop("precommitment") for body in sent] == ["p0", "p1"]
    assert sent == [
        {"seats": [{"name": "Ann", "kind": "human"}], "game": "some_game", "laps": 3, "seed": 4},
        {"seats": [{"name": "Ann", "kind": "human"}]},
    ]
