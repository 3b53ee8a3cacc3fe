"""Rematches of a table whose seats were claimed, on SQLite and on PostgreSQL (docs/API.md,
"Rematches"): each claimed seat is kept for its person, who takes it through their rematch
request as the account that claimed it in the first match (so the rematch is rated like it),
and a seat claimed without an account stays without one; `GET /matches/{id}` shows the links
in the reads it made before rematches existed."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from tests.api.helpers import Client, assert_problem, bearer, create
from tests.api.test_players import claim, play_out, register

TABLE: dict[str, Any] = {
    "seats": [
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
        {"name": "Di", "kind": "bot", "bot_level": "random"},
    ],
    "starting_lives": 1,
    "seed": 21,
}


def claims_in(export: str) -> dict[int, str | None]:
    """Each claim of an export: its seat and the account its metadata names (or None)."""
    found: dict[int, str | None] = {}
    for line in export.splitlines():
        entry = json.loads(line)
        if "record" not in entry:
            continue  # the seal line
        record = entry["record"]
        record = json.loads(record) if isinstance(record, str) else record
        meta = record.get("meta") or {}
        if (meta.get("command") or {}).get("type") == "claim_seat":
            found[int(meta["actor"].removeprefix("seat:"))] = meta.get("account")
    return found


async def test_a_rematch_keeps_each_seats_account(client: Client) -> None:
    ann, bob = await register(client, "ann"), await register(client, "bob")
    created = await create(client, TABLE)
    mid = created["match_id"]
    tokens = {}
    for seat, (name, key) in enumerate([("ann", ann["key"]), ("bob", bob["key"]), ("Cy", None)]):
        resp = await claim(client, mid, seat, name, key)
        assert resp.status_code == 201, resp.text
        tokens[seat] = resp.json()["token"]
    await play_out(client, mid, tokens, last={1})
    assert claims_in((await client.get(f"/matches/{mid}/export")).text) == {
        0: ann["player"]["id"], 1: bob["player"]["id"], 2: None,
    }  # fmt: skip

    first = await client.post(f"/matches/{mid}/rematch", headers=bearer(tokens[0]))
    assert first.status_code == 201, first.text
    new = first.json()["match_id"]
    # the other seats wait for their people: not in the lobby, and no one else may take them
    lobby = (await client.get("/matches", params={"open_seats": "true"})).json()["matches"]
    assert new not in [m["match_id"] for m in lobby]
    assert_problem(await claim(client, new, 1, "Eve", None), 409, "seat-taken")
    eve = await register(client, "eve")
    assert_problem(await claim(client, new, 2, "Eve", eve["key"]), 409, "seat-taken")
    # Ann asks again (her answer was lost): a new token, the first one stops working
    again = await client.post(f"/matches/{mid}/rematch", headers=bearer(tokens[0]))
    assert again.status_code == 200, again.text
    assert_problem(
        await client.get(f"/matches/{new}", headers=bearer(first.json()["token"])),
        401,
        "unknown-token",
    )
    rematched = {0: again.json()["token"]}
    for seat in (1, 2):
        resp = await client.post(f"/matches/{mid}/rematch", headers=bearer(tokens[seat]))
        assert resp.status_code == 200, resp.text
        assert resp.json()["seat"] == seat and resp.json()["match_id"] == new
        rematched[seat] = resp.json()["token"]
    mine = (await client.get(f"/matches/{new}", headers=bearer(rematched[2]))).json()
    assert mine["seat"] == 2 and mine["rematch_of"] == mid
    await play_out(client, new, rematched, last={0})

    # the same accounts at the same seats, Cy still without one; both matches are rated
    assert claims_in((await client.get(f"/matches/{new}/export")).text) == {
        0: ann["player"]["id"], 1: bob["player"]["id"], 2: None,
    }  # fmt: skip
    for account, seat in ((ann, 0), (bob, 1)):
        history = (await client.get(f"/players/{account['player']['id']}/matches")).json()
        played = {m["match_id"]: m for m in history["matches"]}
        assert set(played) == {mid, new}
        assert played[new]["seat"] == seat and played[new]["rated"]
        assert played[new]["rating"]["matches"] == 2


#: what only a background sweeper's statements name (the clocks' read of the deadline index
#: starts with its two columns; a match's own row read lists every column)
_SWEEPERS = ("SELECT matches.id, matches.deadline \n", "queue_tickets", "log_leaves", "log_tree")


async def test_viewing_a_match_reads_no_more_for_its_rematch_links(client: Client) -> None:
    """`GET /matches/{id}` of a match this process keeps is one statement, links included:
    the events since the kept version while it goes on, its row once it is over."""
    created = await create(client, {**TABLE, "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    mid = created["match_id"]
    ann = bearer(created["seat_tokens"][0]["token"])
    engine = client.app.state.store.engine
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        # the background sweepers (the clocks' deadlines, the queue, the transparency log) run
        # on their own timers and may read between a request's statements: not the request's
        if not any(name in statement for name in _SWEEPERS):
            statements.append(statement)

    sa.event.listen(engine.sync_engine, "before_cursor_execute", seen)
    try:
        for headers in (None, ann):
            statements.clear()
            shown = (await client.get(f"/matches/{mid}", headers=headers)).json()
            assert (shown["rematch_of"], shown["rematch"]) == (None, None)
            assert len(statements) == 1, statements
            assert "FROM events" in statements[0]
        tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
        await play_out(client, mid, tokens, last=set())
        asked = await client.post(f"/matches/{mid}/rematch", headers=ann)
        assert asked.status_code == 201, asked.text
        new = asked.json()["match_id"]
        statements.clear()
        shown = (await client.get(f"/matches/{mid}")).json()
        assert shown["rematch"] == new
        assert len(statements) == 1 and "FROM matches" in statements[0], statements
        statements.clear()
        shown = (await client.get(f"/matches/{new}")).json()
        assert shown["rematch_of"] == mid
        assert len(statements) == 1, statements
    finally:
        sa.event.remove(engine.sync_engine, "before_cursor_execute", seen)
