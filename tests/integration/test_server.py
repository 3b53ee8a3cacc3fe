"""The real server in a subprocess: crashes (SIGKILL), restarts, two processes, schema checks."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import httpx

from api.store import EventStore, create_engine, upgrade, verify_chain
from domain.games import CUCCU
from tests.api.helpers import HUMAN_VS_BOTS, bearer
from tests.integration.server import Server, cuccu


async def check_stream(database_url: str, match_id: str) -> int:
    """The stored stream chains, folds, and agrees with the matches row; returns its version."""
    engine = create_engine(database_url)
    try:
        store = EventStore(engine)
        stored = await store.load(match_id)
        verify_chain(stored)
        state = CUCCU.fold([s.event_of(CUCCU) for s in stored], CUCCU.initial())
        record = await store.get_match(match_id)
        assert record is not None
        assert record.version == state.version == len(stored)
        assert record.status == state.status
        return state.version
    finally:
        await engine.dispose()


def next_body(base: str, match_id: str, token: str) -> dict[str, Any]:
    view = httpx.get(f"{base}/matches/{match_id}", headers=bearer(token), timeout=10).json()
    pending = view["view"]["pending"]
    assert pending is not None
    return {"type": pending["choices"][0], "expected_version": view["version"]}


def post(base: str, match_id: str, token: str, key: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{base}/matches/{match_id}/commands",
        json=body,
        headers={**bearer(token), "Idempotency-Key": key},
        timeout=30,
    )


def play_one(base: str, match_id: str, token: str, key: str) -> httpx.Response:
    return post(base, match_id, token, key, next_body(base, match_id, token))


def send(
    base: str, mid: str, token: str, key: str, body: dict[str, Any], result: dict[str, Any]
) -> None:
    try:
        result["resp"] = post(base, mid, token, key, body)
    except httpx.HTTPError as exc:
        result["error"] = exc


def test_sigkill_between_and_during_commands_loses_nothing_acknowledged(
    database_url: str, servers: list[Server]
) -> None:
    server = Server(database_url).start()
    servers.append(server)
    created = httpx.post(f"{server.base}/matches", json={**HUMAN_VS_BOTS, "seed": 11}).json()
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    me = bearer(token)
    acked = created["version"]
    step = 0
    while True:
        view = httpx.get(f"{server.base}/matches/{mid}", headers=me).json()
        assert view["version"] == acked  # nothing acknowledged was lost
        if view["view"]["pending"] is None:
            break
        step += 1
        key = f"cmd-{step}"
        if step % 3 == 1:
            # kill during the command: it either happened completely or not at all
            result: dict[str, Any] = {}

            body = next_body(server.base, mid, token)
            sender = threading.Thread(
                target=send, args=(server.base, mid, token, key, body, result)
            )
            sender.start()
            time.sleep(0.005 * (step % 7))
            server.kill9()
            sender.join(timeout=30)
            version = asyncio.run(check_stream(database_url, mid))
            assert version >= acked
            server = Server(database_url).start()
            servers.append(server)
            # the client retries with the same key: applied once, same answer
            if "resp" in result and result["resp"].status_code == 200:
                acked = result["resp"].json()["version"]
                assert version == acked
                continue
            # the client retries the same request with the same key: applied exactly once
            retry = post(server.base, mid, token, key, body)
            assert retry.status_code == 200, retry.text
            if version > acked:  # it had been applied before the crash: the retry replays it
                assert retry.headers.get("idempotent-replayed") == "true"
                assert retry.json()["version"] == version
            acked = retry.json()["version"]
        else:
            resp = play_one(server.base, mid, token, key)
            assert resp.status_code == 200, resp.text
            acked = resp.json()["version"]
            if step % 3 == 2:  # kill right after the acknowledgement
                server.kill9()
                assert asyncio.run(check_stream(database_url, mid)) == acked
                server = Server(database_url).start()
                servers.append(server)
        assert step < 400
    final = httpx.get(f"{server.base}/matches/{mid}").json()
    assert final["view"]["status"] == "over"
    assert asyncio.run(check_stream(database_url, mid)) == final["version"]


def test_two_processes_on_one_postgres_stream_every_event(
    postgres_url: str, servers: list[Server]
) -> None:
    a = Server(postgres_url).start()
    servers.append(a)
    b = Server(postgres_url).start()
    servers.append(b)
    created = httpx.post(f"{a.base}/matches", json=HUMAN_VS_BOTS).json()
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    seen: list[int] = []
    ready = threading.Event()
    target: dict[str, int] = {}

    def listen() -> None:
        try:
            with httpx.stream("GET", f"{b.base}/matches/{mid}/stream", timeout=20) as resp:
                for line in resp.iter_lines():  # keep-alive comments arrive every 0.5 s
                    if line.startswith("event: view"):
                        ready.set()
                    if line.startswith("id:"):
                        seen.append(int(line[3:].strip()))
                    if "v" in target and seen and seen[-1] >= target["v"]:
                        return
        except httpx.HTTPError:
            return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert ready.wait(10)
    resp = play_one(a.base, mid, token, "k")
    assert resp.status_code == 200
    target["v"] = resp.json()["version"]
    listener.join(timeout=15)
    assert not listener.is_alive(), f"process B saw only {seen}"
    assert seen[0] == created["version"]
    assert seen[1:] == list(range(created["version"] + 1, target["v"] + 1))
    # and B answers commands against the state A wrote
    again = play_one(b.base, mid, token, "k2")
    assert again.status_code in (200, 409)


def test_refuses_to_start_on_an_out_of_date_schema(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.db'}"
    server = Server(url, migrate=False).start(wait=False)
    assert server.proc is not None
    server.proc.wait(timeout=60)
    server.stop()  # lets the output's reader reach the end
    out = "".join(server.output)
    assert server.proc.returncode != 0
    assert "cuccu db upgrade" in out
    done = cuccu("db", "upgrade", database_url=url)
    assert done.returncode == 0, done.stderr
    assert "revision" in done.stdout
    server = Server(url, migrate=False).start()
    try:
        assert httpx.get(server.base + "/ready").json() == {"status": "ready"}
    finally:
        server.stop()


def test_cli_simulate_and_export(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'sim.db'}"
    assert cuccu("db", "upgrade", database_url=url).returncode == 0
    sim = cuccu("simulate", "-n", "3", "--seed", "5", "--store", database_url=url)
    assert sim.returncode == 0, sim.stderr
    assert "3 matches" in sim.stdout and "wins" in sim.stdout
    assert "3/3" in sim.stderr  # the progress bar

    async def first_match() -> str:
        engine = create_engine(url)
        try:
            await upgrade(engine)
            rows = await EventStore(engine).list_matches(limit=1)
            return rows[0].id
        finally:
            await engine.dispose()

    mid = asyncio.run(first_match())
    exported = cuccu("export", mid, database_url=url)
    assert exported.returncode == 0, exported.stderr
    *lines, seal = [json.loads(line) for line in exported.stdout.splitlines()]
    records = [ln["record"] for ln in lines]
    assert records[0]["type"] == "match_created" and records[-1]["type"] == "match_won"
    assert seal["seal"]["match_id"] == mid  # signed with the key made beside the database
    missing = cuccu("export", "no-such-match", database_url=url)
    assert missing.returncode == 1
