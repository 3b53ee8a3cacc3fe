"""The matchmaking queue on both databases: two accounts waiting for the same table are seated
together and play a rated match, whose first deck their joins' entropy went into; a waiter who
accepts bots gets them after its wait; a bot that lost its seat token asks for its ticket again;
bad tables are problems."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from api.players import AlreadySeated, PlayerService
from api.queue import QueueService
from api.service import MatchService, NewSeat
from api.store import EventStore, create_engine, tables
from api.store.players import PlayerStore
from api.store.queue import QueueStore
from domain.games import GAMES
from tests.api.helpers import Client, assert_problem, bearer
from tests.api.test_entropy import exported, first_deck, third_party_check, verified
from tests.api.test_players import register


async def play_seat(client: Client, mid: str, token: str) -> None:
    """One seat answers its prompts with its first choice until the match is over (other
    seats are played by their own players, concurrently)."""
    for _ in range(10_000):
        got = (await client.get(f"/matches/{mid}", headers=bearer(token))).json()
        view = got["view"]
        if view["status"] == "over":
            return
        step = view["pending"]
        if step["seat"] is None or step["seat"] == got["seat"] and step["choices"]:
            choice = "next_round" if step["seat"] is None else step["choices"][0]
            resp = await client.post(
                f"/matches/{mid}/commands", json={"type": choice}, headers=bearer(token)
            )
            assert resp.status_code in (200, 409), resp.text  # 409: the other seat was first
        else:
            await asyncio.sleep(0.005)
    raise AssertionError("the match did not end")


async def join(client: Client, key: str, body: dict[str, Any]) -> dict[str, Any]:
    resp = await client.post("/queue", json=body, headers=bearer(key))
    assert resp.status_code == 201, resp.text
    ticket: dict[str, Any] = resp.json()
    return ticket


@pytest.mark.parametrize("game", list(GAMES))
async def test_two_accounts_are_seated_together_and_rated(
    client: Client,
    game: str,
    migrated_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="cuccu")
    ann, bob = await register(client, "q-ann"), await register(client, "q-bob")
    table = {"game": game, "seats": 2}
    mixed = {"ann": os.urandom(32).hex(), "bob": os.urandom(20).hex()}
    first = await join(client, ann["key"], {**table, "entropy": mixed["ann"]})
    assert first["status"] == "waiting" and first["token"] is None
    assert (await join(client, ann["key"], table))["ticket_id"] == first["ticket_id"]  # same
    second = await join(client, bob["key"], {**table, "entropy": mixed["bob"]})
    assert second["status"] == "matched" and second["token"]
    mine = (
        await client.get(f"/queue/{first['ticket_id']}", params={"wait": 2},
                         headers=bearer(ann["key"]))
    ).json()  # fmt: skip
    assert mine["status"] == "matched" and mine["match_id"] == second["match_id"]
    assert {mine["seat"], second["seat"]} == {0, 1}
    mid = mine["match_id"]
    # another ticket's owner cannot read it
    assert_problem(
        await client.get(f"/queue/{first['ticket_id']}", headers=bearer(bob["key"])), 404,
        "ticket-not-found",
    )  # fmt: skip
    # a lost token: asking again gives a new one, and the old one stops working
    again = (await client.get(f"/queue/{first['ticket_id']}", headers=bearer(ann["key"]))).json()
    assert again["token"] != mine["token"]
    assert (await client.get(f"/matches/{mid}", headers=bearer(mine["token"]))).status_code == 401
    await asyncio.gather(
        play_seat(client, mid, again["token"]), play_seat(client, mid, second["token"])
    )
    board = (await client.get("/leaderboard", params={"game": game})).json()["entries"]
    assert {e["player"]["name"] for e in board} == {"q-ann", "q-bob"}
    # each join's entropy went into the first deck, for its seat, after the service's
    # commitment and before the deal; the third party recomputes that deck, and it verifies
    records = await exported(client, mid)
    assert [r["data"] for r in first_deck(game, records) if r["type"] == "entropy_contributed"] == [
        {"deck": 1, "seat": mine["seat"], "entropy": mixed["ann"]},
        {"deck": 1, "seat": second["seat"], "entropy": mixed["bob"]},
    ]
    assert third_party_check(game, records)[0] == [0, 1]
    await verified(client, mid, tmp_path, capsys)
    # kept with the tickets only until their seats were claimed; never shown, never logged
    engine = create_engine(migrated_url)
    try:
        async with engine.connect() as conn:
            kept = (await conn.execute(sa.select(tables.queue_tickets.c.entropy))).scalars()
            assert list(kept) == [None, None]
    finally:
        await engine.dispose()
    shown = [first, second, mine, again]
    assert not any(m in str(shown) or m in caplog.text for m in mixed.values())
    others = [g for g in GAMES if g != game]
    for other in others:  # rated in its own game only
        assert (await client.get("/leaderboard", params={"game": other})).json()["entries"] == []
    assert_problem(
        await client.delete(f"/queue/{first['ticket_id']}", headers=bearer(ann["key"])), 409,
        "conflict",
    )  # fmt: skip


async def test_bots_fill_the_table_after_the_wait_chosen(client: Client) -> None:
    cy = await register(client, "q-cy")
    ticket = await join(
        client, cy["key"], {"game": "cuccu", "seats": 3, "bots_after": 0, "bot_level": "random"}
    )
    got = (
        await client.get(f"/queue/{ticket['ticket_id']}", params={"wait": 10},
                         headers=bearer(cy["key"]))
    ).json()  # fmt: skip
    assert got["status"] == "matched", got
    match = (await client.get(f"/matches/{got['match_id']}")).json()
    kinds = [s["kind"] for s in match["view"]["seats"]]
    assert kinds.count("bot") == 2 and got["seat"] == 0
    # leaving: a waiting ticket goes, and a left ticket is never seated
    di = await register(client, "q-di")
    waiting = await join(client, di["key"], {"game": "cuccu", "seats": 4})
    gone = await client.delete(f"/queue/{waiting['ticket_id']}", headers=bearer(di["key"]))
    assert gone.status_code == 204
    left = await client.get(f"/queue/{waiting['ticket_id']}", headers=bearer(di["key"]))
    assert left.json()["status"] == "left"


async def test_bad_tables_and_keys_are_problems(client: Client) -> None:
    ann = await register(client, "q-eve")
    me = bearer(ann["key"])
    assert_problem(await client.post("/queue", json={"game": "chess", "seats": 2}, headers=me),
                   422, "unknown-game")  # fmt: skip
    assert_problem(await client.post("/queue", json={"game": "cuccu", "seats": 1}, headers=me),
                   422, "validation-error")  # fmt: skip
    assert_problem(await client.post("/queue", json={"game": "cucco21", "seats": 13},
                                     headers=me), 422, "invalid-config")  # fmt: skip
    assert_problem(await client.post("/queue", json={"game": "cuccu", "seats": 2}), 401,
                   "unknown-key")  # fmt: skip
    assert_problem(await client.get("/queue/nope", headers=me), 404, "ticket-not-found")
    for bad in ("00", "AB" * 16, "ab" * 65):  # as a claim's: 16 to 64 bytes, lower-case hex
        refused = await client.post(
            "/queue", json={"game": "cuccu", "seats": 2, "entropy": bad}, headers=me
        )
        assert_problem(refused, 422, "validation-error")
        assert bad not in refused.text


@pytest.fixture
async def queue(migrated_url: str) -> AsyncIterator[QueueService]:
    """The queue over its own engine, on this test's event loop (the app's runs elsewhere)."""
    engine = create_engine(migrated_url)
    store = EventStore(engine)
    matches = MatchService(store)
    players = PlayerService(PlayerStore(engine, store.load), matches)
    try:
        yield QueueService(QueueStore(engine), players, matches)
    finally:
        await store.close()
        await engine.dispose()


async def test_a_seating_cut_off_by_a_crash_is_finished_later(
    client: Client, queue: QueueService
) -> None:
    """The steps of a seating, stopped where a crash would stop them: after the tickets'
    reservation (they go back to the queue), and after the match's creation (its seats are
    claimed later, with the claim keys kept on the tickets)."""
    fay, gus = await register(client, "q-fay"), await register(client, "q-gus")
    tickets = [await join(client, k["key"], {"game": "cuccu", "seats": 3}) for k in (fay, gus)]
    ids = [t["ticket_id"] for t in tickets]
    later = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)

    assert await queue.store.reserve({ids[0]: (0, "k0"), ids[1]: (1, "k1")})
    await queue.recover(later)  # no match was made: both wait again
    assert [(await queue.store.get(i)).status for i in ids] == ["waiting", "waiting"]  # type: ignore[union-attr]

    assert await queue.store.reserve({ids[0]: (0, "k0"), ids[1]: (1, "k1")})
    seats = [NewSeat("open", "open"), NewSeat("open", "open"), NewSeat("b", "bot", "random")]
    created = await queue.matches.create(seats, game="cuccu")
    await queue.store.created(ids, created.match_id)
    await queue.recover(dt.datetime.now(dt.UTC))  # too recent: a seating may be under way
    assert (await queue.store.get(ids[0])).status == "seating"  # type: ignore[union-attr]
    await queue.recover(later)
    for key, ticket_id, seat in ((fay["key"], ids[0], 0), (gus["key"], ids[1], 1)):
        got = (await client.get(f"/queue/{ticket_id}", headers=bearer(key))).json()
        assert (got["status"], got["match_id"], got["seat"]) == ("matched", created.match_id, seat)
        view = await client.get(f"/matches/{created.match_id}", headers=bearer(got["token"]))
        assert view.json()["seat"] == seat


@pytest.fixture
def idle_sweeps_are_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """An idle sweeper that would next look only seconds later (set before the app starts)."""
    import api.queue

    monkeypatch.setattr(api.queue, "SWEEP_EVERY", 3.0)


async def test_a_join_wakes_an_idle_sweeper(idle_sweeps_are_slow: None, client: Client) -> None:
    # nobody waited at start-up: the sweeper's next look is 6 s away; the join wakes it
    ed = await register(client, "q-ed")
    ticket = await join(
        client, ed["key"], {"game": "cuccu", "seats": 3, "bots_after": 0, "bot_level": "random"}
    )
    got = (
        await client.get(f"/queue/{ticket['ticket_id']}", params={"wait": 2},
                         headers=bearer(ed["key"]))
    ).json()  # fmt: skip
    assert got["status"] == "matched", got


async def test_a_lost_join_answer_is_answered_again_by_a_retry(client: Client) -> None:
    """A join matched at once whose answer never arrived: the retry gets that seated ticket
    (with a new seat token), not a new one, and the match is played to its end; once it is
    over, joining makes a new ticket (the next game)."""
    hal, ivy = await register(client, "q-hal"), await register(client, "q-ivy")
    table = {"game": "cucco21", "seats": 2}
    waiting = await join(client, hal["key"], table)
    lost = await join(client, ivy["key"], table)  # matched at once; say this answer was lost
    assert lost["status"] == "matched"
    retry = await join(client, ivy["key"], table)
    assert (retry["ticket_id"], retry["match_id"], retry["seat"]) == (
        lost["ticket_id"], lost["match_id"], lost["seat"],
    )  # fmt: skip
    mid = retry["match_id"]
    assert retry["token"] != lost["token"]  # each answer replaces the seat's token
    assert (await client.get(f"/matches/{mid}", headers=bearer(lost["token"]))).status_code == 401
    hal_seat = (
        await client.get(f"/queue/{waiting['ticket_id']}", headers=bearer(hal["key"]))
    ).json()
    await asyncio.gather(
        play_seat(client, mid, retry["token"]), play_seat(client, mid, hal_seat["token"])
    )
    board = (await client.get("/leaderboard", params={"game": "cucco21"})).json()["entries"]
    assert {e["player"]["name"] for e in board} == {"q-hal", "q-ivy"}
    after = await join(client, ivy["key"], table)  # the match is over: the next game
    assert after["ticket_id"] != lost["ticket_id"] and after["status"] == "waiting"


async def test_one_account_cannot_take_two_seats_of_a_match_at_once(
    client: Client, queue: QueueService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two claims by one account of two seats of one match at the same moment: the one whose
    check ran before the other's commit is refused (it would leave the match unrated)."""
    jo = await queue.players.authenticate((await register(client, "q-jo"))["key"])
    seats = [NewSeat("open", "open"), NewSeat("open", "open"), NewSeat("b", "bot", "random")]
    mid = (await queue.matches.create(seats, game="cuccu")).match_id
    read = queue.players.store.seats_of
    checks = 0

    async def twin_claims_meanwhile(match_id: str) -> dict[int, str]:
        nonlocal checks
        checks += 1
        seen = await read(match_id)
        if checks == 1:  # the other claim commits between this check and this claim's commit
            await queue.matches.claim(mid, 1, "Jo", None, jo.id)
        return seen

    monkeypatch.setattr(queue.players.store, "seats_of", twin_claims_meanwhile)
    with pytest.raises(AlreadySeated):
        await queue.players.claim(jo, mid, 0, "Jo")
    monkeypatch.undo()
    assert await queue.players.store.seats_of(mid) == {1: jo.id}
