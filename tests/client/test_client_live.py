"""The Python client against the real server (a ``cuccu run`` subprocess): every endpoint,
errors as exceptions, live streaming, and a stream that survives a server restart."""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from api.client import (
    AsyncClient,
    Client,
    Conflict,
    NotFound,
    RetryPolicy,
    StreamMessage,
    Unauthorized,
    ValidationFailed,
    bot,
    human,
    open_seat,
)
from domain.audit import audit, parse_ndjson
from tests.integration.server import Server


def play_turn(players: dict[int, Client], match_id: str) -> bool:
    """One decision by whoever must decide (any player starts a round); False once over."""
    any_player = next(iter(players.values()))
    current = any_player.get_match(match_id)
    pending = current["view"]["pending"]
    if pending is None:
        return False
    seat = pending["seat"]
    player = any_player if seat is None else players[seat]
    choice = pending["choices"][current["version"] % len(pending["choices"])]
    player.send_command(match_id, choice, expected_version=current["version"])
    return True


def test_sync_client_every_endpoint(server: Server) -> None:
    with Client(server.base) as anon, Client(server.base) as ann, Client(server.base) as bea:
        assert anon.health() == {"status": "ok"}
        assert anon.ready() == {"status": "ready"}
        assert "/matches/{match_id}/seats/{seat}/claim" in anon.openapi()["paths"]
        created = anon.create_match(
            [open_seat(), bot("Bo", "basic"), open_seat("waiting")], starting_lives=2, seed=3
        )
        mid = created["match_id"]
        assert created["seat_tokens"] == [] and created["status"] == "between_rounds"
        # the service committed to the first deck's secret before the client's entropy was
        # sent (POST /commitments): the match's first commitment is the one it showed
        committed = [e["event"] for e in anon.events(mid)["events"]]
        first = next(e for e in committed if e["type"] == "entropy_committed")
        assert first["commitment"] == created["commitment"] and first["secret"] is None
        assert [m["match_id"] for m in anon.lobby()] == [mid]
        assert anon.lobby()[0]["open_seats"] == [0, 2]
        assert ann.claim_seat(mid, 0, "Ann")["seat"] == 0
        assert ann.token is not None
        with pytest.raises(Conflict) as taken:
            bea.claim_seat(mid, 0, "Bea")
        assert taken.value.slug == "seat-taken" and taken.value.code == "seat_taken"
        assert taken.value.status == 409 and taken.value.detail
        with pytest.raises(NotFound) as nowhere:
            bea.claim_seat(mid, 7, "Bea")
        assert nowhere.value.slug == "seat-not-found"
        with pytest.raises(ValidationFailed):
            bea.claim_seat(mid, 2, " ")
        last = bea.claim_seat(mid, 2, "Bea")
        assert last["view"]["round"] == 1 and bea.token == last["token"]
        assert anon.lobby() == []
        assert ann.get_match(mid)["seat"] == 0
        assert anon.get_match(mid)["seat"] is None
        with pytest.raises(Unauthorized), Client(server.base, "not-a-token") as stranger:
            stranger.get_match(mid)
        with pytest.raises(NotFound):
            anon.get_match("no-such-match")
        with pytest.raises(Conflict) as early:
            anon.export(mid)
        assert early.value.slug == "match-not-finished"

        players = {0: ann, 2: bea}
        for _ in range(2000):
            if not play_turn(players, mid):
                break
        final = anon.get_match(mid)
        assert final["view"]["status"] == "over"
        version = final["version"]
        with pytest.raises(Conflict) as over:
            ann.send_command(mid, "next_round")
        assert over.value.slug == "match-over"

        assert [e["version"] for e in ann.iter_events(mid)] == list(range(1, version + 1))
        page = anon.events(mid, after=2, limit=3)
        assert [e["version"] for e in page["events"]] == [3, 4, 5]
        assert page["next_after"] == 5
        full = list(anon.stream(mid, last_event_id=0))
        # it stopped by itself after the last event (the server's `end` message is not handed
        # over): the client knows no game's last event
        assert [m.id for m in full] == list(range(1, version + 1))
        assert not any(m.ends_match for m in full)
        only_view = list(ann.stream(mid))
        assert [m.event for m in only_view] == ["view"] and only_view[0].ends_match
        records = anon.export_records(mid)
        assert [r["record"]["version"] for r in records] == list(range(1, version + 1))
        assert audit(parse_ndjson(anon.export(mid))).ok
        assert mid in {m["match_id"] for m in anon.iter_matches(status="over")}
        assert mid in {m["match_id"] for m in anon.iter_matches(open_seats=False)}

        # a rematch: each person's own request gives their own seat of one new match
        again = ann.rematch(mid)
        assert again["rematch_of"] == mid and again["seat"] == 0 and ann.token == again["token"]
        assert bea.rematch(mid)["match_id"] == again["match_id"]
        assert ann.get_match(again["match_id"])["seat"] == 0
        assert anon.get_match(mid)["rematch"] == again["match_id"]
        with pytest.raises(Conflict) as unfinished:
            ann.rematch(again["match_id"])
        assert unfinished.value.slug == "match-not-finished"


async def test_async_client_plays_while_streaming(sqlite_server: Server) -> None:
    async with AsyncClient(sqlite_server.base) as me, AsyncClient(sqlite_server.base) as watcher:
        created = await me.create_match(
            [open_seat(), bot("Bo"), bot("Cy", "random"), bot("Di")], starting_lives=2
        )
        mid = created["match_id"]
        assert [m["match_id"] for m in await watcher.lobby()] == [mid]
        seen: list[StreamMessage] = []

        async def watch() -> None:
            async for message in watcher.stream(mid):
                seen.append(message)

        task = asyncio.create_task(watch())
        await me.claim_seat(mid, 0, "Ann")
        for _ in range(2000):
            current = await me.get_match(mid)
            pending = current["view"]["pending"]
            if pending is None:
                break
            await me.send_command(mid, pending["choices"][0], expected_version=current["version"])
        await asyncio.wait_for(task, timeout=30)
        final = await me.get_match(mid)
        assert final["view"]["status"] == "over"
        assert seen[0].event == "view"
        assert [m.id for m in seen[1:]] == list(range(seen[0].id + 1, final["version"] + 1))
        assert [e["version"] async for e in me.iter_events(mid)][-1] == final["version"]
        assert mid in [m["match_id"] async for m in me.iter_matches(status="over")]
        records = await me.export_records(mid)
        assert records[-1]["record"]["type"] == "match_won"
        assert (await me.health())["status"] == "ok" and (await me.ready())["status"] == "ready"
        assert "paths" in await me.openapi()


def test_stream_resumes_across_a_server_restart(sqlite_server: Server) -> None:
    with Client(sqlite_server.base) as setup:
        created = setup.create_match([human("Ann"), human("Ben")], starting_lives=2)
    mid = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["seat_tokens"]}
    seen: list[StreamMessage] = []
    errors: list[BaseException] = []

    def watch() -> None:
        try:
            with Client(sqlite_server.base, tokens[0]) as watcher:
                seen.extend(watcher.stream(mid, max_reconnects=30))
        except BaseException as exc:  # reported below
            errors.append(exc)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    players = {s: Client(sqlite_server.base, t) for s, t in tokens.items()}
    try:
        for _ in range(5):
            play_turn(players, mid)
        sqlite_server.kill9()
        sqlite_server.start()
        for _ in range(2000):
            if not play_turn(players, mid):
                break
    finally:
        for p in players.values():
            p.close()
    thread.join(timeout=60)
    assert not thread.is_alive() and not errors, errors
    with Client(sqlite_server.base) as spectator:
        final = spectator.get_match(mid)
    assert final["view"]["status"] == "over"  # the stream stopped at the end, not before
    assert seen[0].event == "view"
    assert [m.id for m in seen[1:]] == list(range(seen[0].id + 1, final["version"] + 1))


class LostAnswers:
    """Real connections to the server whose first claim reaches it and is answered, but whose
    answer is lost on the way back (the connection drops), as a flaky network does."""

    def __init__(self) -> None:
        self.claims: list[httpx.Request] = []

    def lose(self, request: httpx.Request) -> bool:
        if not request.url.path.endswith("/claim"):
            return False
        self.claims.append(request)
        return len(self.claims) == 1


class LosesFirstClaimAnswer(LostAnswers, httpx.BaseTransport):
    def __init__(self) -> None:
        super().__init__()
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if self.lose(request):
            response.read()  # the server has claimed the seat and answered: drop the answer
            response.close()
            raise httpx.ReadError("connection reset by peer", request=request)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncLosesFirstClaimAnswer(LostAnswers, httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        super().__init__()
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if self.lose(request):
            await response.aread()
            await response.aclose()
            raise httpx.ReadError("connection reset by peer", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def test_a_claim_survives_its_lost_answer(server: Server) -> None:
    lossy = LosesFirstClaimAnswer()
    fast = RetryPolicy(backoff=0.01)
    with Client(server.base, transport=lossy, retry=fast) as ann, Client(server.base) as anon:
        mid = anon.create_match([open_seat(), bot("Bo"), open_seat()], seed=4)["match_id"]
        claimed = ann.claim_seat(mid, 0, "Ann")
        assert len(lossy.claims) == 2  # the first answer was lost, and the claim retried
        assert len({r.headers["Idempotency-Key"] for r in lossy.claims}) == 1
        assert claimed["seat"] == 0 and ann.token == claimed["token"]
        assert ann.get_match(mid)["seat"] == 0  # the retry's token is the seat's token
        assert anon.lobby()[0]["open_seats"] == [2]  # claimed once
        seated = [e for e in anon.iter_events(mid) if e["event"]["type"] == "seat_claimed"]
        assert len(seated) == 1
        with pytest.raises(Conflict):  # someone else (another key) still cannot take it
            anon.claim_seat(mid, 0, "Bea")


async def test_an_async_claim_survives_its_lost_answer(sqlite_server: Server) -> None:
    lossy = AsyncLosesFirstClaimAnswer()
    fast = RetryPolicy(backoff=0.01)
    async with (
        AsyncClient(sqlite_server.base, transport=lossy, retry=fast) as ann,
        AsyncClient(sqlite_server.base) as anon,
    ):
        mid = (await anon.create_match([open_seat(), bot("Bo")], seed=4))["match_id"]
        claimed = await ann.claim_seat(mid, 0, "Ann")
        assert len(lossy.claims) == 2
        assert claimed["view"]["round"] == 1 and ann.token == claimed["token"]
        assert (await ann.get_match(mid))["seat"] == 0


def test_sync_client_plays_a_cucco21_game_while_streaming(server: Server) -> None:
    with Client(server.base) as me, Client(server.base) as watcher:
        created = me.create_match(
            [open_seat(), bot("Bo"), bot("Cy", "random")],
            game="cucco21",
            starting_chips=3,
            max_sets=1,
            seed=12,
        )
        mid = created["match_id"]
        assert created["game"] == "cucco21" and created["view"]["game"] == "cucco21"
        assert mid in [m["match_id"] for m in watcher.lobby()]
        with pytest.raises(ValidationFailed) as refused:
            me.create_match([human("A"), human("B")], game="cucco21", starting_lives=3)
        assert refused.value.slug == "invalid-config"
        seen: list[StreamMessage] = []
        thread = threading.Thread(target=lambda: seen.extend(watcher.stream(mid)), daemon=True)
        thread.start()
        me.claim_seat(mid, 0, "Ann")
        for _ in range(3000):
            current = me.get_match(mid)
            pending = current["view"]["pending"]
            if pending is None:
                break
            me.send_command(mid, pending["choices"][0], expected_version=current["version"])
        thread.join(timeout=30)
        final = me.get_match(mid)
        assert final["view"]["status"] == "over" and final["view"]["winners"]
        assert seen[-1].id == final["version"]
        listed = next(m for m in me.iter_matches(status="over") if m["match_id"] == mid)
        assert listed["game"] == "cucco21" and listed["winners"] == final["view"]["winners"]
        records = me.export_records(mid)
        assert records[0]["record"]["type"] == "game_created"
        assert records[-1]["record"]["type"] == "game_ended"
