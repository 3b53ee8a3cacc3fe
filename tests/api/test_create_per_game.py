"""`POST /matches`: one body schema per game, chosen by `game` (absent: Cuccù), on both
databases; and the OpenAPI document that says so."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tests.api.helpers import Client, assert_problem, create

TWO = [{"name": "Ann"}, {"name": "Ben", "kind": "bot", "bot_level": "random"}]
#: every game's own options, as a client would set them (none of them a default)
OWN_OPTIONS: dict[str, dict[str, Any]] = {
    "cuccu": {"starting_lives": 5},
    "cucco21": {"starting_chips": 7, "powers": False, "max_sets": 2},
    "chase": {"starting_lives": 4, "announce_low": True, "king_cut_loses": True},
}
SCHEMAS = {
    "cuccu": "CreateCuccuMatch",
    "cucco21": "CreateCucco21Match",
    "chase": "CreateChaseMatch",
}


async def listed(client: Client, match_id: str) -> dict[str, Any]:
    """The match's row in the list, paging through it (the database may hold other tests')."""
    params: dict[str, Any] = {"limit": 100}
    while True:
        page = (await client.get("/matches", params=params)).json()
        for row in page["matches"]:
            if row["match_id"] == match_id:
                return dict(row)
        assert page["next_cursor"], f"match {match_id} is not listed"
        params["cursor"] = page["next_cursor"]


async def test_each_game_is_created_with_its_own_options(client: Client) -> None:
    # Ben deals, so Ann speaks first and no round can end before she does (with Ann dealing,
    # Ben's exchange can be refused by her card and end round 1 at creation: 82 creations in
    # 1,500, so 1 in 37 with a random dealer)
    body = {"game": "cuccu", "seats": TWO, "first_dealer": 1, **OWN_OPTIONS["cuccu"]}
    cuccu = await create(client, body)
    assert cuccu["game"] == "cuccu"
    assert cuccu["view"]["starting_lives"] == 5
    row = await listed(client, cuccu["match_id"])
    assert row["options"] == {"starting_lives": 5}
    assert [s["lives"] for s in row["seats"]] == [5, 5]

    cucco21 = await create(client, {"game": "cucco21", "seats": TWO, **OWN_OPTIONS["cucco21"]})
    assert cucco21["game"] == "cucco21"
    view = cucco21["view"]
    assert (view["starting_chips"], view["powers"], view["max_sets"]) == (7, False, 2)
    row = await listed(client, cucco21["match_id"])
    assert row["options"] == {"starting_chips": 7, "powers": False, "max_sets": 2}
    assert row["starting_lives"] is None

    # Ben deals here too: with Ann dealing, Ben's request can meet her King, which shows her
    # and ends round 1 at creation with Ben a life down (A8, A9; a CI run saw lives [4, 3])
    body = {"game": "chase", "seats": TWO, "first_dealer": 1, **OWN_OPTIONS["chase"]}
    chase = await create(client, body)
    assert chase["game"] == "chase"
    view = chase["view"]
    assert (view["starting_lives"], view["announce_low"], view["king_cut_loses"]) == (4, True, True)
    row = await listed(client, chase["match_id"])
    assert row["options"] == OWN_OPTIONS["chase"] and row["starting_lives"] == 4
    assert [s["lives"] for s in row["seats"]] == [4, 4]


async def test_without_game_the_match_is_cuccu_with_its_defaults(client: Client) -> None:
    absent = await create(client, {"seats": TWO})
    assert absent["game"] == "cuccu" and absent["view"]["game"] == "cuccu"
    row = await listed(client, absent["match_id"])
    assert row["game"] == "cuccu" and row["options"] == {"starting_lives": 3}
    cucco21 = await create(client, {"game": "cucco21", "seats": TWO})
    row = await listed(client, cucco21["match_id"])
    assert row["options"] == {"starting_chips": 15, "powers": True, "max_sets": None}
    chase = await create(client, {"game": "chase", "seats": TWO})
    row = await listed(client, chase["match_id"])
    assert row["options"] == {"starting_lives": 3, "announce_low": False, "king_cut_loses": False}


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("cucco21", "starting_lives", 2),
        ("cuccu", "starting_chips", 10),
        ("cuccu", "powers", False),
        ("cuccu", "max_sets", 3),
        (None, "powers", True),  # no game: a Cuccù match, which has no powers
        ("chase", "max_sets", 3),
        ("cucco21", "king_cut_loses", True),
    ],
)
async def test_an_option_of_the_other_game_is_refused_by_name(
    client: Client, game: str | None, option: str, value: Any
) -> None:
    body: dict[str, Any] = {"seats": TWO, option: value}
    if game is not None:
        body["game"] = game
    resp = await client.post("/matches", json=body)
    detail = assert_problem(resp, 422, "invalid-config")["detail"]
    named = game or "cuccu"
    other = {"cuccu": "cucco21", "cucco21": "chase" if "king" in option else "cuccu"}.get(
        named, "cucco21"
    )
    assert f"`{option}`" in detail and named in detail and other in detail, detail
    assert (await client.get("/matches")).json()["matches"] == []  # nothing was created


async def test_each_game_has_its_own_bounds(client: Client) -> None:
    thirteen = [{"name": f"p{i}"} for i in range(13)]
    await create(client, {"seats": thirteen})  # Cuccù seats up to 20
    resp = await client.post("/matches", json={"game": "cucco21", "seats": thirteen})
    assert "<= 12" in assert_problem(resp, 422, "validation-error")["detail"]
    resp = await client.post("/matches", json={"game": "cucco21", "seats": TWO, "max_sets": 0})
    assert "max_sets" in assert_problem(resp, 422, "validation-error")["detail"]


async def test_an_unknown_or_mistyped_game_is_refused(client: Client) -> None:
    resp = await client.post("/matches", json={"game": "tarot", "seats": TWO})
    detail = assert_problem(resp, 422, "unknown-game")["detail"]
    assert "tarot" in detail and all(game in detail for game in SCHEMAS)
    for game in (None, 21, ["cuccu"]):
        resp = await client.post("/matches", json={"game": game, "seats": TWO})
        assert "game" in assert_problem(resp, 422, "validation-error")["detail"]


async def test_the_document_describes_one_body_schema_per_game(client: Client) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    body = spec["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"]
    schema = body["schema"]
    refs = {f"#/components/schemas/{name}" for name in SCHEMAS.values()}
    assert {branch["$ref"] for branch in schema["oneOf"]} == refs
    assert schema["discriminator"] == {
        "propertyName": "game",
        "mapping": {game: f"#/components/schemas/{name}" for game, name in SCHEMAS.items()},
    }
    assert "absent" in schema["description"]
    components = spec["components"]["schemas"]
    cuccu, cucco21, chase = (components[name] for name in SCHEMAS.values())
    # only Cucco 21 requires `game`: a body without it is Cuccù's
    assert "game" not in cuccu["required"] and cuccu["properties"]["game"]["default"] == "cuccu"
    assert "game" in cucco21["required"] and "game" in chase["required"]
    for game, name in SCHEMAS.items():
        assert components[name]["properties"]["game"]["const"] == game
    for game, own in OWN_OPTIONS.items():
        properties = components[SCHEMAS[game]]["properties"]
        assert set(own) <= set(properties)
        others = {o for g, opts in OWN_OPTIONS.items() if g != game for o in opts} - set(own)
        assert not others & set(properties), game
        assert components[SCHEMAS[game]]["additionalProperties"] is False
    lives = cuccu["properties"]["starting_lives"]
    assert (lives["minimum"], lives["maximum"], lives["default"]) == (1, 20, 3)
    chips = cucco21["properties"]["starting_chips"]
    assert (chips["minimum"], chips["maximum"], chips["default"]) == (1, 100, 15)
    assert cucco21["properties"]["powers"]["default"] is True
    lives = chase["properties"]["starting_lives"]
    assert (lives["minimum"], lives["maximum"], lives["default"]) == (1, 9, 3)
    assert chase["properties"]["king_cut_loses"]["default"] is False
    seats = (
        cuccu["properties"]["seats"],
        cucco21["properties"]["seats"],
        chase["properties"]["seats"],
    )
    assert [s["maxItems"] for s in seats] == [20, 12, 20]
    assert body["schema"]["examples"]


async def test_every_documented_example_fits_one_schema_and_is_accepted(client: Client) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    schema = spec["paths"]["/matches"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]
    validator = jsonschema.Draft202012Validator(
        {"oneOf": schema["oneOf"], "components": spec["components"]}
    )
    games = set()
    for example in schema["examples"]:
        validator.validate(example)  # exactly one branch: oneOf
        created = await create(client, example)
        assert created["game"] == example.get("game", "cuccu")
        games.add(created["game"])
    assert games == set(SCHEMAS)
    cross = {"game": "cucco21", "seats": TWO, "starting_lives": 2}
    assert not validator.is_valid(cross)  # what the server refuses, the document refuses
