"""Faults under load: SIGKILL of the API process, and PostgreSQL stopped and started again.

The shared PostgreSQL (127.0.0.1:5432) is never stopped: the outage test runs its own server
(tests/integration/private_pg.py), and is skipped where the PostgreSQL binaries are missing,
except under CI=true.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.api.helpers import HUMAN_VS_BOTS, bearer
from tests.integration.checks import audited, stored_events
from tests.integration.private_pg import private_postgres
from tests.integration.server import Server

# alone, after the parallel phase of `make test`: their timeouts assume a machine not also busy
# with the rest of the suite
pytestmark = pytest.mark.serial

PROBLEM = "application/problem+json"


@dataclass
class Player:
    """Plays one match over HTTP (one human seat, three bots) until stopped or cut off."""

    base: str
    match_id: str
    token: str
    name: str
    acked: list[dict[str, Any]] = field(default_factory=list)
    inflight: tuple[str, dict[str, Any]] | None = None
    statuses: list[int] = field(default_factory=list)
    step: int = 0
    over: bool = False

    def play(self, stop: threading.Event, until_cut: bool = True) -> None:
        with httpx.Client(timeout=10) as client:
            while not stop.is_set() and not self.over:
                try:
                    current = client.get(
                        f"{self.base}/matches/{self.match_id}", headers=bearer(self.token)
                    )
                except httpx.HTTPError:
                    if until_cut:
                        return
                    continue
                self.statuses.append(current.status_code)
                if current.status_code != 200:
                    time.sleep(0.02)
                    continue
                pending = current.json()["view"]["pending"]
                if pending is None:
                    self.over = True
                    return
                self.step += 1
                key = f"{self.name}-{self.step}"
                body = {"type": pending["choices"][self.step % len(pending["choices"])],
                        "expected_version": current.json()["version"]}  # fmt: skip
                self.inflight = (key, body)
                try:
                    resp = self.send(client, key, body)
                except httpx.HTTPError:
                    if until_cut:
                        return  # the server died with this command in flight
                    continue
                self.statuses.append(resp.status_code)
                if resp.status_code == 200:
                    self.acked.append(resp.json())
                    self.inflight = None

    def send(self, client: httpx.Client, key: str, body: dict[str, Any]) -> httpx.Response:
        return client.post(
            f"{self.base}/matches/{self.match_id}/commands",
            json=body,
            headers={**bearer(self.token), "Idempotency-Key": key},
        )


def start_players(base: str, n: int) -> list[Player]:
    players = []
    for i in range(n):
        created = httpx.post(f"{base}/matches", json=HUMAN_VS_BOTS, timeout=30).json()
        players.append(
            Player(base, created["match_id"], created["seat_tokens"][0]["token"], f"p{i}")
        )
    return players


def run_all(
    players: list[Player], stop: threading.Event, until_cut: bool
) -> list[threading.Thread]:
    threads = [
        threading.Thread(target=p.play, args=(stop, until_cut), daemon=True) for p in players
    ]
    for t in threads:
        t.start()
    return threads


def assert_acked_stored(url: str, player: Player) -> None:
    """Every acknowledged command is stored, with exactly the events its reply announced."""
    stored = {s.version: s for s in audited(url, player.match_id)}
    for reply in player.acked:
        for e in reply["events"]:
            assert stored[e["version"]].type == e["event"]["type"], (player.name, e["version"])


def test_sigkill_under_load_loses_no_acknowledged_command(
    database_url: str, servers: list[Server]
) -> None:
    server = Server(database_url).start()
    servers.append(server)
    players = start_players(server.base, 6)
    for cycle in range(2):
        stop = threading.Event()
        threads = run_all(players, stop, until_cut=True)
        time.sleep(1.0 + 0.4 * cycle)
        server.kill9()  # while the players are sending commands
        for t in threads:
            t.join(timeout=30)
        # nothing acknowledged is lost, nothing is half-applied, every chain verifies
        for p in players:
            assert_acked_stored(database_url, p)
        server = Server(database_url).start()
        servers.append(server)
        for p in players:
            p.base = server.base
            if p.inflight is not None:
                # the client retries its in-flight command with the same key: it applies once
                key, body = p.inflight
                before = len(stored_events(database_url, p.match_id))
                with httpx.Client(timeout=30) as client:
                    resp = p.send(client, key, body)
                if resp.status_code == 200:
                    reply = resp.json()
                    p.acked.append(reply)
                    if resp.headers.get("idempotent-replayed") == "true":
                        assert reply["version"] <= before  # it had been stored before the kill
                    else:
                        assert reply["events"][0]["version"] == before + 1
                else:  # the crash came after a view was read: the command is stale now
                    assert resp.status_code == 409, resp.text
                    assert resp.json()["type"] == "urn:cuccu:problem:stale-version"
                p.inflight = None
            assert_acked_stored(database_url, p)
    # after the restarts, every match plays on to its end
    stop = threading.Event()
    for t in run_all(players, stop, until_cut=False):
        t.join(timeout=120)
    for p in players:
        assert p.over, p.name
        stored = audited(database_url, p.match_id)  # "complete" too: the match is over
        assert stored[-1].type == "match_won"
        assert_acked_stored(database_url, p)


def problem_503(resp: httpx.Response) -> None:
    assert resp.status_code == 503, resp.text
    assert resp.headers["content-type"].startswith(PROBLEM)
    assert resp.json()["type"] == "urn:cuccu:problem:database-unavailable"
    assert int(resp.headers["Retry-After"]) > 0


def test_database_stopped_under_load_then_started(servers: list[Server]) -> None:
    with private_postgres() as pg:
        if pg is None:
            if os.environ.get("CI") == "true":
                pytest.fail("the PostgreSQL server binaries (initdb, pg_ctl) are missing")
            pytest.skip("needs the PostgreSQL server binaries (initdb, pg_ctl) for its own server")
        url = pg.create_database("cuccu_outage")
        server = Server(url).start()
        servers.append(server)
        assert server.proc is not None
        pid = server.proc.pid
        players = start_players(server.base, 4)
        stop = threading.Event()
        threads = run_all(players, stop, until_cut=False)
        time.sleep(1.0)
        pg.stop()  # under load
        mid, token = players[0].match_id, players[0].token
        # every request answers a 503 problem within 2 s (the client gives up after 2 s)
        with httpx.Client(base_url=server.base, timeout=2.0) as c:
            for _ in range(3):
                problem_503(c.get("/ready"))
                assert c.get("/health").json() == {"status": "ok"}
                problem_503(c.post("/matches", json=HUMAN_VS_BOTS))
                problem_503(c.get("/matches"))
                problem_503(c.get(f"/matches/{mid}", headers=bearer(token)))
                problem_503(c.get(f"/matches/{mid}/events"))
                problem_503(
                    c.post(f"/matches/{mid}/commands", json={"type": "keep"},
                           headers=bearer(token))
                )  # fmt: skip
                time.sleep(0.2)
        pg.start()
        # the same process recovers by itself
        deadline = time.monotonic() + 60
        with httpx.Client(base_url=server.base, timeout=10) as c:
            while c.get("/ready").status_code != 200:
                assert time.monotonic() < deadline, "the service did not recover"
                time.sleep(0.2)
            time.sleep(1.0)  # the players carry on for a while
            stop.set()
            for t in threads:
                t.join(timeout=30)
            assert server.proc.poll() is None and server.proc.pid == pid
            for p in players:
                # while the database was down the players saw answers, never a 500 or a hang
                assert set(p.statuses) <= {200, 409, 503}, (p.name, set(p.statuses))
                assert 503 in p.statuses or p.over, p.name
                assert_acked_stored(url, p)
            # and new work goes through: a new match, and commands on the old ones
            assert c.post("/matches", json=HUMAN_VS_BOTS).status_code == 201
        stop = threading.Event()
        for p in players:
            p.step += 1000  # fresh idempotency keys
        for t in run_all(players, stop, until_cut=False):
            t.join(timeout=120)
        for p in players:
            assert p.over, p.name
            assert_acked_stored(url, p)
