"""The matchmaking queue on both databases: two accounts waiting for the same table are seated
together at a table that first shows them its commitment to the first deck, send their entropy
after it, and play a rated match whose first deck a third party recomputes; a waiter that never
sends its entropy does not stall its table (it is dealt after the wait, by any process); a
waiter who accepts bots gets them after its wait; a bot that lost its seat token asks for its
ticket again; bad tables are problems."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from api.players import AlreadySeated, PlayerService
from api.queue import CONTRIBUTION_WAIT, QueueService
from api.service import MatchService, NewSeat
from api.store import EventStore, create_engine, tables
from api.store.players import PlayerStore
from api.store.queue import QueueStore
from domain.games import GAMES
from tests.api.helpers import Client, assert_problem, bearer
from tests.api.test_entropy import DEALS, exported, first_deck, third_party_check, verified
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


async def take_seat(client: Client, key: str, ticket_id: str, entropy: str) -> dict[str, Any]:
    """``POST /queue/{ticket}/claim``: the waiter's seat, with its entropy."""
    resp = await client.post(
        f"/queue/{ticket_id}/claim", json={"entropy": entropy}, headers=bearer(key)
    )
    assert resp.status_code == 200, resp.text
    taken: dict[str, Any] = resp.json()
    assert taken["status"] == "matched" and taken["token"], taken
    return taken


def protocol_order(game: str, records: list[dict[str, Any]]) -> list[str]:
    """The first deck's protocol events in log order: ``committed``, ``contributed`` (each),
    ``dealt``."""
    named = {"entropy_committed": "committed", "entropy_contributed": "contributed"}
    return [
        named.get(r["type"], "dealt") for r in first_deck(game, records)
        if r["type"] in named or r["type"] == DEALS[game][0]
    ]  # fmt: skip


@pytest.mark.parametrize("game", list(GAMES))
async def test_two_accounts_are_seated_together_and_rated(
    client: Client,
    game: str,
    migrated_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Two waiters are seated at a table that shows them the commitment to its first deck
    and deals nothing; each then sends its entropy, drawn after it saw that commitment; the
    third party finds that very commitment first in the log, the two contributions after it
    and the deal after them, and recomputes the deck. Entropy sent with a join (before any
    commitment) is in no deck."""
    caplog.set_level(logging.DEBUG, logger="cuccu")
    ann, bob = await register(client, "q-ann"), await register(client, "q-bob")
    table = {"game": game, "seats": 2}
    early = {"ann": os.urandom(32).hex(), "bob": os.urandom(20).hex()}  # ignored
    first = await join(client, ann["key"], {**table, "entropy": early["ann"]})
    assert first["status"] == "waiting" and first["token"] is None
    assert first["commitment"] is None
    assert (await join(client, ann["key"], table))["ticket_id"] == first["ticket_id"]  # same
    second = await join(client, bob["key"], {**table, "entropy": early["bob"]})
    # at a table, not yet playing: the commitment is shown, no token, no card dealt
    assert second["status"] == "seating" and second["token"] is None, second
    assert second["match_id"] and len(bytes.fromhex(second["commitment"])) == 32
    assert second["contribute_by"] is not None
    mine = (
        await client.get(f"/queue/{first['ticket_id']}", params={"wait": 2, "seen": "waiting"},
                         headers=bearer(ann["key"]))
    ).json()  # fmt: skip
    assert mine["status"] == "seating" and mine["match_id"] == second["match_id"]
    assert mine["commitment"] == second["commitment"] and mine["token"] is None
    assert {mine["seat"], second["seat"]} == {0, 1}
    mid = mine["match_id"]
    served = (await client.get(f"/matches/{mid}/events")).json()["events"]
    kinds = [e["event"]["type"] for e in served]
    assert DEALS[game][0] not in kinds  # nothing dealt before the waiters' entropy
    committed = [e["event"] for e in served if e["event"]["type"] == "entropy_committed"]
    assert committed[0]["commitment"] == mine["commitment"] and committed[0]["secret"] is None
    # the table's open seats are its waiters': not in the lobby, not claimable by others
    lobby = (await client.get("/matches", params={"open_seats": "true"})).json()["matches"]
    assert mid not in [m["match_id"] for m in lobby]
    stranger = await client.post(f"/matches/{mid}/seats/0/claim", json={"name": "Eve"})
    assert_problem(stranger, 409, "seat-taken")
    assert_problem(
        await client.delete(f"/queue/{first['ticket_id']}", headers=bearer(ann["key"])), 409,
        "conflict",
    )  # fmt: skip
    # each draws its entropy only now, having seen the commitment
    mixed = {"ann": os.urandom(32).hex(), "bob": os.urandom(20).hex()}
    mine = await take_seat(client, ann["key"], first["ticket_id"], mixed["ann"])
    assert mine["contributed"] is True
    assert DEALS[game][0] not in [  # one seat still waits for its waiter: no deal yet
        e["event"]["type"] for e in (await client.get(f"/matches/{mid}/events")).json()["events"]
    ]
    theirs = await take_seat(client, bob["key"], second["ticket_id"], mixed["bob"])
    assert theirs["contributed"] is True and theirs["match_id"] == mid
    # another ticket's owner cannot read it, nor take its seat
    assert_problem(
        await client.get(f"/queue/{first['ticket_id']}", headers=bearer(bob["key"])), 404,
        "ticket-not-found",
    )  # fmt: skip
    assert_problem(
        await client.post(f"/queue/{first['ticket_id']}/claim", json={},
                          headers=bearer(bob["key"])), 404, "ticket-not-found",
    )  # fmt: skip
    # a lost token: asking again gives a new one, and the old one stops working
    again = (await client.get(f"/queue/{first['ticket_id']}", headers=bearer(ann["key"]))).json()
    assert again["status"] == "matched" and again["token"] != mine["token"]
    assert (await client.get(f"/matches/{mid}", headers=bearer(mine["token"]))).status_code == 401
    # taking the seat again: the same claim, a new token, and no second contribution
    retaken = await take_seat(client, bob["key"], second["ticket_id"], os.urandom(16).hex())
    assert retaken["contributed"] is True and retaken["token"] != theirs["token"]
    await asyncio.gather(
        play_seat(client, mid, again["token"]), play_seat(client, mid, retaken["token"])
    )
    board = (await client.get("/leaderboard", params={"game": game})).json()["entries"]
    assert {e["player"]["name"] for e in board} == {"q-ann", "q-bob"}
    # the third party: the commitment it was shown first, then the entropy it sent after it,
    # then the deal; the revealed secret opens that commitment and gives the deck
    records = await exported(client, mid)
    assert protocol_order(game, records) == ["committed", "contributed", "contributed", "dealt"]
    deck = first_deck(game, records)
    assert deck[0]["data"]["commitment"] == second["commitment"]
    assert [r["data"] for r in deck if r["type"] == "entropy_contributed"] == [
        {"deck": 1, "seat": mine["seat"], "entropy": mixed["ann"]},
        {"deck": 1, "seat": theirs["seat"], "entropy": mixed["bob"]},
    ]
    revealed = next(
        r["data"]["secret"]
        for r in records
        if r["type"] == "entropy_revealed" and r["data"]["deck"] == 1
    )
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == second["commitment"]
    assert third_party_check(game, records)[0] == [0, 1]
    assert "mixed with players' entropy (seats 0, 1)" in await verified(
        client, mid, tmp_path, capsys
    )
    everything = json.dumps(records)
    assert not any(e in everything for e in early.values())  # join entropy: in no deck
    # nothing kept with the tickets; no entropy shown back or logged
    engine = create_engine(migrated_url)
    try:
        async with engine.connect() as conn:
            kept = (await conn.execute(sa.select(tables.queue_tickets.c.entropy))).scalars()
            assert list(kept) == [None, None]
    finally:
        await engine.dispose()
    shown = [first, second, mine, again, theirs, retaken]
    sent = [*early.values(), *mixed.values()]
    assert not any(m in str(shown) or m in caplog.text for m in sent)
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
        await client.get(f"/queue/{ticket['ticket_id']}", params={"wait": 10, "seen": "waiting"},
                         headers=bearer(cy["key"]))
    ).json()  # fmt: skip
    assert got["status"] == "seating" and got["commitment"], got
    got = await take_seat(client, cy["key"], ticket["ticket_id"], os.urandom(16).hex())
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
        await client.get(f"/queue/{ticket['ticket_id']}", params={"wait": 2, "seen": "waiting"},
                         headers=bearer(ed["key"]))
    ).json()  # fmt: skip
    assert got["status"] == "seating" and got["match_id"], got


async def test_a_lost_join_answer_is_answered_again_by_a_retry(client: Client) -> None:
    """A join seated at once whose answer never arrived: the retry gets that ticket at its
    table, not a new one; a seat taken whose answer was lost is answered again by a retried
    join (with a new seat token), and the match is played to its end; once it is over,
    joining makes a new ticket (the next game)."""
    hal, ivy = await register(client, "q-hal"), await register(client, "q-ivy")
    table = {"game": "cucco21", "seats": 2}
    waiting = await join(client, hal["key"], table)
    lost = await join(client, ivy["key"], table)  # at a table at once; say this was lost
    assert lost["status"] == "seating"
    retry = await join(client, ivy["key"], table)
    assert (retry["ticket_id"], retry["match_id"], retry["seat"], retry["commitment"]) == (
        lost["ticket_id"], lost["match_id"], lost["seat"], lost["commitment"],
    )  # fmt: skip
    mid = retry["match_id"]
    taken = await take_seat(client, ivy["key"], retry["ticket_id"], os.urandom(16).hex())
    retry = await join(client, ivy["key"], table)  # the seat's answer lost: join again
    assert (retry["ticket_id"], retry["status"]) == (lost["ticket_id"], "matched")
    assert retry["token"] != taken["token"]  # each answer replaces the seat's token
    assert (await client.get(f"/matches/{mid}", headers=bearer(taken["token"]))).status_code == 401
    hal_seat = await take_seat(client, hal["key"], waiting["ticket_id"], os.urandom(16).hex())
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


async def test_a_waiter_that_never_sends_its_entropy_does_not_stall_its_table(
    client: Client, queue: QueueService, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One waiter takes its seat with its entropy, the other never does: the table is not
    dealt while the other may still come, and once the wait is over a process that did not
    seat it (as after a restart: its own engine, its own queue service) takes the silent
    waiter's seat without entropy, which deals the first deck, mixed with the first waiter's
    entropy alone. The silent waiter's ticket then answers its seat; its late entropy is not
    taken. The match verifies."""
    kim, lou = await register(client, "q-kim"), await register(client, "q-lou")
    table = {"game": "cuccu", "seats": 2}
    tickets = [await join(client, k["key"], table) for k in (kim, lou)]
    shown = tickets[1]
    assert shown["status"] == "seating", shown
    mid = shown["match_id"]
    mixed = os.urandom(32).hex()
    mine = await take_seat(client, kim["key"], tickets[0]["ticket_id"], mixed)
    begun = dt.datetime.fromisoformat(shown["contribute_by"]) - CONTRIBUTION_WAIT

    async def kinds() -> list[str]:
        events = (await client.get(f"/matches/{mid}/events")).json()["events"]
        return [e["event"]["type"] for e in events]

    assert await queue.recover(begun + CONTRIBUTION_WAIT / 2)  # still waiting for the waiter
    assert "round_started" not in await kinds()
    assert not await queue.recover(begun + CONTRIBUTION_WAIT + dt.timedelta(seconds=1))
    assert "round_started" in await kinds()  # dealt, by the other "process"
    theirs = (await client.get(f"/queue/{shown['ticket_id']}", headers=bearer(lou["key"]))).json()
    assert theirs["status"] == "matched" and theirs["token"] and theirs["match_id"] == mid
    late = await client.post(
        f"/queue/{shown['ticket_id']}/claim", json={"entropy": os.urandom(16).hex()},
        headers=bearer(lou["key"]),
    )  # fmt: skip
    assert late.status_code == 200 and late.json()["contributed"] is False, late.text
    await asyncio.gather(
        play_seat(client, mid, mine["token"]), play_seat(client, mid, late.json()["token"])
    )
    records = await exported(client, mid)
    assert protocol_order("cuccu", records) == ["committed", "contributed", "dealt"]
    assert first_deck("cuccu", records)[0]["data"]["commitment"] == shown["commitment"]
    assert third_party_check("cuccu", records)[0] == [mine["seat"]]
    await verified(client, mid, tmp_path, capsys)


async def test_a_ticket_without_a_table_has_no_seat_to_take(client: Client) -> None:
    max_ = await register(client, "q-max")
    ticket = await join(client, max_["key"], {"game": "cuccu", "seats": 4})
    early = await client.post(
        f"/queue/{ticket['ticket_id']}/claim", json={"entropy": os.urandom(16).hex()},
        headers=bearer(max_["key"]),
    )  # fmt: skip
    assert_problem(early, 409, "conflict")
    bad = await client.post(
        f"/queue/{ticket['ticket_id']}/claim", json={"entropy": "00"}, headers=bearer(max_["key"])
    )
    assert_problem(bad, 422, "validation-error")


async def test_a_client_of_before_the_two_steps_still_gets_its_seat(
    client: Client, queue: QueueService
) -> None:
    """A client written before seats were taken in two steps sends its entropy with the join
    and long-polls without ``seen`` until it is matched (a long poll that, without ``seen``,
    waits for ``matched``, so such a client does not ask again and again): the queue takes
    its seat at the end of the wait, it plays, and its join entropy is in no deck."""
    neo, oda = await register(client, "q-neo"), await register(client, "q-oda")
    table = {"game": "cuccu", "seats": 2}
    early = [os.urandom(32).hex(), os.urandom(32).hex()]
    tickets = [
        await join(client, k["key"], {**table, "entropy": e})
        for k, e in zip((neo, oda), early, strict=True)
    ]
    polled = await client.get(
        f"/queue/{tickets[0]['ticket_id']}", params={"wait": 0.5}, headers=bearer(neo["key"])
    )
    assert polled.json()["status"] == "seating" and polled.json()["token"] is None
    begun = dt.datetime.fromisoformat(polled.json()["contribute_by"]) - CONTRIBUTION_WAIT
    assert not await queue.recover(begun + CONTRIBUTION_WAIT + dt.timedelta(seconds=1))
    seated = [
        (
            await client.get(f"/queue/{t['ticket_id']}", params={"wait": 5},
                             headers=bearer(k["key"]))
        ).json()
        for t, k in zip(tickets, (neo, oda), strict=True)
    ]  # fmt: skip
    assert all(s["status"] == "matched" and s["token"] for s in seated), seated
    mid = seated[0]["match_id"]
    await asyncio.gather(*(play_seat(client, mid, s["token"]) for s in seated))
    records = await exported(client, mid)
    assert protocol_order("cuccu", records) == ["committed", "dealt"]
    assert not any(e in json.dumps(records) for e in early)
