"""Player accounts, claims as an account and the ratings, on SQLite and on PostgreSQL.

Accounts register, claim open seats with their API keys, play matches of both games to the
end beside the service's bots; the finished matches move their ratings, the leaderboard shows
them, a second pass changes nothing, and ``cuccu ratings rebuild`` makes exactly the same
numbers again from the event log alone.
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.cli import main as cuccu
from api.settings import Settings
from api.store import create_engine
from api.store import tables as t
from domain.audit import audit, parse_ndjson
from tests.api.helpers import Client, assert_problem, bearer, create

CUCCU_TABLE: dict[str, Any] = {
    "seats": [
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
        {"name": "Bo", "kind": "bot", "bot_level": "random"},
    ],
    "starting_lives": 1,
}
CUCCO21_TABLE: dict[str, Any] = {
    "game": "cucco21",
    "seats": [
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
    ],
    "starting_chips": 2,
    "max_sets": 1,
}


async def register(client: Client, name: str, kind: str = "bot") -> dict[str, Any]:
    resp = await client.post("/players", json={"name": name, "kind": kind})
    assert resp.status_code == 201, resp.text
    body: dict[str, Any] = resp.json()
    assert body["key"].startswith("cuccu_key_") and len(body["key"]) >= 50
    return body


async def claim(client: Client, mid: str, seat: int, name: str, key: str | None) -> Any:
    headers = bearer(key) if key else None
    return await client.post(
        f"/matches/{mid}/seats/{seat}/claim", json={"name": name}, headers=headers
    )


async def play_out(client: Client, mid: str, tokens: dict[int, str], last: set[int]) -> None:
    """Every seat answers its prompts, with its first choice (the seats in ``last``: its last)."""
    anyone = next(iter(tokens.values()))
    for _ in range(5_000):
        view = (await client.get(f"/matches/{mid}", headers=bearer(anyone))).json()["view"]
        if view["status"] == "over":
            return
        step = view["pending"]
        seat = step["seat"]
        if seat is None:
            choice, token = "next_round", anyone
        else:  # the choices are in the seat's own view only
            token = tokens[seat]
            own = (await client.get(f"/matches/{mid}", headers=bearer(token))).json()["view"]
            choices = own["pending"]["choices"]
            choice = choices[-1] if seat in last else choices[0]
        resp = await client.post(
            f"/matches/{mid}/commands", json={"type": choice}, headers=bearer(token)
        )
        assert resp.status_code == 200, resp.text
    raise AssertionError("the match did not end")


async def rated_match(
    client: Client, table: dict[str, Any], accounts: list[dict[str, Any]], seed: int
) -> str:
    created = await create(client, {**table, "seed": seed})
    mid = created["match_id"]
    tokens = {}
    for seat, account in enumerate(accounts):
        resp = await claim(client, mid, seat, account["player"]["name"], account["key"])
        assert resp.status_code == 201, resp.text
        tokens[seat] = resp.json()["token"]
    await play_out(client, mid, tokens, last={1})
    return mid


async def ratings_cli(url: str, command: str) -> int:
    """``cuccu ratings COMMAND`` on the database (in a thread: the CLI runs its own loop)."""
    return await asyncio.to_thread(cuccu, ["--database-url", url, "ratings", command])


async def leaderboard(client: Client, game: str) -> list[dict[str, Any]]:
    resp = await client.get("/leaderboard", params={"game": game})
    assert resp.status_code == 200, resp.text
    entries: list[dict[str, Any]] = resp.json()["entries"]
    return entries


async def test_accounts_play_rated_matches_and_a_rebuild_gives_the_same_numbers(
    client: Client, migrated_url: str
) -> None:
    ann, bob, cy = [await register(client, n) for n in ("ann", "bob-bot", "cy.2")]
    assert ann["player"]["kind"] == "bot"
    mids = [
        await rated_match(client, CUCCU_TABLE, [ann, bob], seed=1),
        await rated_match(client, CUCCU_TABLE, [bob, cy], seed=2),
        await rated_match(client, CUCCO21_TABLE, [ann, bob, cy], seed=3),
        await rated_match(client, CUCCU_TABLE, [cy, ann], seed=4),
    ]
    # a match claimed with seat tokens only (no account) is played as before, and not rated
    plain = await create(client, {**CUCCU_TABLE, "seed": 5})
    tokens = {}
    for seat in (0, 1):
        resp = await claim(client, plain["match_id"], seat, f"guest{seat}", None)
        assert resp.status_code == 201, resp.text
        tokens[seat] = resp.json()["token"]
    await play_out(client, plain["match_id"], tokens, last=set())

    board = await leaderboard(client, "cuccu")
    assert {e["player"]["name"] for e in board} == {"ann", "bob-bot", "cy.2"}
    assert [e["rank"] for e in board] == [1, 2, 3]
    ordinals = [e["rating"]["ordinal"] for e in board]
    assert ordinals == sorted(ordinals, reverse=True)
    for e in board:  # every rating moved from the start (mu 25, sigma 25/3)
        r = e["rating"]
        assert r["sigma"] < 25 / 3 and r["matches"] == 2, e
        assert r["ordinal"] == r["mu"] - 3 * r["sigma"]
    c21 = await leaderboard(client, "cucco21")
    assert len(c21) == 3 and all(e["rating"]["matches"] == 1 for e in c21)

    profile = (await client.get(f"/players/{ann['player']['id']}")).json()
    assert profile["player"] == ann["player"]
    assert {r["game"]: r["matches"] for r in profile["ratings"]} == {"cuccu": 2, "cucco21": 1}
    history = (await client.get(f"/players/{ann['player']['id']}/matches")).json()["matches"]
    assert {m["match_id"] for m in history} == {mids[0], mids[2], mids[3]}
    assert {m["match_id"]: m["seat"] for m in history}[mids[3]] == 1
    assert all(m["rated"] for m in history)
    # each rated match shows the rating it left; the latest cuccu one is the profile's
    latest = next(m for m in history if m["game"] == "cuccu")
    assert latest["match_id"] == mids[3]
    assert latest["rating"] == next(r for r in profile["ratings"] if r["game"] == "cuccu")
    assert [m["rating"]["matches"] for m in history if m["game"] == "cuccu"] == [2, 1]

    # the account is in the log: the claim's stored metadata names it
    export = (await client.get(f"/matches/{mids[0]}/export")).text
    assert f'"account":"{ann["player"]["id"]}"' in export
    report = audit(parse_ndjson(export))  # covered by the hash chain, and the audit passes
    assert report.ok, report

    before = {g: await leaderboard(client, g) for g in ("cuccu", "cucco21")}
    assert await ratings_cli(migrated_url, "catch-up") == 0  # idempotent
    assert {g: await leaderboard(client, g) for g in before} == before
    assert await ratings_cli(migrated_url, "rebuild") == 0
    assert {g: await leaderboard(client, g) for g in before} == before  # exactly, floats too

    # a finish taken in late (a match that ended before others already rated, as when two
    # processes end matches at once): the ratings go back to just before it, and it and the
    # matches after it are rated again, equal to the rebuild (the stored ratings are spoiled
    # first, so that only a real recomputation passes)
    engine = create_engine(migrated_url)
    try:
        async with engine.begin() as conn:
            rated = t.rated_matches
            await conn.execute(rated.delete().where(rated.c.match_id == mids[1]))
            await conn.execute(t.player_ratings.update().values(mu=0.0))
            stored = (await conn.execute(sa.select(t.players.c.key_sha256))).scalars().all()
    finally:
        await engine.dispose()
    assert await ratings_cli(migrated_url, "catch-up") == 0
    assert {g: await leaderboard(client, g) for g in before} == before
    # keys are stored as hashes only
    assert hashlib.sha256(ann["key"].encode()).hexdigest() in stored
    assert ann["key"] not in stored


async def test_a_match_claimed_as_accounts_in_one_process_and_ended_in_another_is_rated(
    migrated_url: str, tmp_path: Path
) -> None:
    """Process B creates a match (and keeps it: no claim as an account in it yet), process A
    takes its seats as accounts, and B plays it to the end: B learns of the accounts from the
    stored claims, not from what it kept, so the match is rated. A match B ends whose seats
    were claimed without accounts moves no rating."""

    def app() -> Any:
        return create_app(
            Settings(
                database_url=migrated_url,
                signing_key=str(tmp_path / "signing-key.pem"),
            )
        )

    async with AsyncTestClient(app=app()) as a, AsyncTestClient(app=app()) as b:
        ann, bob = [await register(a, n) for n in ("ann", "bob")]
        for seed, accounts in ((11, None), (12, [ann, bob])):
            created = await create(b, {**CUCCU_TABLE, "seed": seed})
            mid = created["match_id"]
            tokens = {}
            for seat in (0, 1):
                key = accounts[seat]["key"] if accounts else None
                resp = await claim(a, mid, seat, f"p{seat}", key)
                assert resp.status_code == 201, resp.text
                tokens[seat] = resp.json()["token"]
            await play_out(b, mid, tokens, last={1})
            board = await leaderboard(a, "cuccu")
            if accounts is None:
                assert board == []
            else:
                assert {e["player"]["name"]: e["rating"]["matches"] for e in board} == {
                    "ann": 1,
                    "bob": 1,
                }
        history = (await b.get(f"/players/{ann['player']['id']}/matches")).json()["matches"]
        assert [(m["match_id"], m["rated"]) for m in history] == [(mid, True)]


async def test_bad_accounts_and_keys_are_problems(client: Client) -> None:
    ann = await register(client, "Ann", "person")
    assert_problem(await client.post("/players", json={"name": "ANN"}), 409, "name-taken")
    for bad in ("", "a", "x" * 33, "no spaces", "-dash", "émile"):
        assert_problem(await client.post("/players", json={"name": bad}), 422, "validation-error")
    assert_problem(
        await client.post("/players", json={"name": "zed", "kind": "robot"}), 422,
        "validation-error",
    )  # fmt: skip
    assert_problem(await client.get("/players/nobody"), 404, "player-not-found")
    assert_problem(await client.get("/players/nobody/matches"), 404, "player-not-found")
    assert_problem(await client.get("/leaderboard", params={"game": "chess"}), 422, "unknown-game")
    empty = await leaderboard(client, "cuccu")
    assert empty == []

    created = await create(client, {**CUCCU_TABLE, "seed": 9})
    mid = created["match_id"]
    forged = "cuccu_key_" + "A" * 43
    assert_problem(await claim(client, mid, 0, "Ann", forged), 401, "unknown-key")
    assert_problem(await claim(client, mid, 0, "Ann", "a-seat-token"), 401, "unknown-key")
    assert (await claim(client, mid, 0, "Ann", ann["key"])).status_code == 201
    assert_problem(await claim(client, mid, 1, "Ann", ann["key"]), 409, "already-seated")

    # rotation: the old key stops working, the new one works; revocation: none works
    rotated = await client.post("/players/me/key", headers=bearer(ann["key"]))
    assert rotated.status_code == 201, rotated.text
    new_key = rotated.json()["key"]
    assert new_key != ann["key"] and new_key.startswith("cuccu_key_")
    assert_problem(await client.post("/players/me/key", headers=bearer(ann["key"])), 401,
                   "unknown-key")  # fmt: skip
    assert_problem(await client.post("/players/me/key"), 401, "unknown-key")
    assert (await client.delete("/players/me/key", headers=bearer(new_key))).status_code == 204
    other = await create(client, {**CUCCU_TABLE, "seed": 10})
    assert_problem(await claim(client, other["match_id"], 0, "Ann", new_key), 401, "unknown-key")
    # the profile stays, and shows no key
    profile = (await client.get(f"/players/{ann['player']['id']}")).json()
    assert profile["player"]["name"] == "Ann" and "key" not in str(profile).lower()
