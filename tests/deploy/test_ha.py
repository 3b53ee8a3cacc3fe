"""The highly available stack (compose.ha.yaml): three PostgreSQL nodes under Patroni in strict
synchronous mode, one etcd, HAProxy routing to the leader, two API replicas.

Through the published ports only (the API, and any live node's Patroni REST API), plus
``docker kill``/``start`` of a node and ``psql`` inside the leader's container:

- the leader is killed under 8 clients: a standby is promoted, the API reconnects by itself
  (the same processes), no acknowledged command is lost and none applied twice; the old leader
  comes back as a standby;
- the synchronous standby is killed, then the other one: strict mode moves the synchronous role
  to the survivor, then, with no standby left, acknowledges nothing until one comes back; a
  commit cut while waiting for the standby is answered 503 with ``Retry-After`` and its retry
  with the same ``Idempotency-Key`` applies once.

The figures (time without a successful command, acknowledged, lost, duplicated) are printed:
run with ``-s`` to see them (docs/DEPLOY.md, section 10).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.containers import HA_IMAGES, need_engine
from tests.deploy.players import REPLICA_HEADER, Player, check_log
from tests.deploy.stack import Stack, docker, inspect
from tests.integration.server import free_port

pytestmark = pytest.mark.containers

MEMBERS = ("pg1", "pg2", "pg3")
STANDBY_ROLES = ("replica", "sync_standby")
Cluster = dict[str, dict[str, Any]]  # member name -> its entry in GET /cluster


@pytest.fixture(scope="module")
def ha() -> Iterator[Stack]:
    need_engine(*HA_IMAGES)
    s = Stack(
        ["compose.ha.yaml"],
        publish={"CUCCU_PUBLISH_API_PORT": free_port(), "CUCCU_PUBLISH_PATRONI_PORT": free_port()},
    )
    try:
        started = time.monotonic()
        s.up()
        wait_cluster(s, healthy, 180, "a leader and two standbys, one synchronous")
        wait_for_replicas(s, 2)
        print(f"\nHA stack up and ready in {time.monotonic() - started:.0f} s")
        yield s
    finally:
        s.down()
        assert s.leftovers() == {"containers": [], "networks": [], "volumes": []}


def api(stack: Stack) -> str:
    return f"http://127.0.0.1:{stack.publish['CUCCU_PUBLISH_API_PORT']}"


def cluster(stack: Stack) -> Cluster:
    """Patroni's view (``GET /cluster`` on any live node, through the balancer); {} if none."""
    url = f"http://127.0.0.1:{stack.publish['CUCCU_PUBLISH_PATRONI_PORT']}/cluster"
    try:
        members = httpx.get(url, timeout=2).json()["members"]
    except (httpx.HTTPError, ValueError, KeyError):
        return {}
    return {m["name"]: m for m in members}


def leader_of(c: Cluster) -> str | None:
    found = [n for n, m in c.items() if m["role"] == "leader" and m["state"] == "running"]
    return found[0] if found else None


def standbys(c: Cluster) -> dict[str, str]:
    """Streaming standbys on the leader's timeline: name -> role (replica or sync_standby)."""
    lead = leader_of(c)
    if lead is None:
        return {}
    timeline = c[lead].get("timeline")
    return {
        n: m["role"]
        for n, m in c.items()
        if m["role"] in STANDBY_ROLES
        and m["state"] in ("running", "streaming")
        and m.get("timeline") == timeline
    }


def healthy(c: Cluster) -> bool:
    s = standbys(c)
    return len(s) == 2 and "sync_standby" in s.values()


def wait_cluster(stack: Stack, ok: Callable[[Cluster], bool], timeout: float, what: str) -> Cluster:
    deadline = time.monotonic() + timeout
    c: Cluster = {}
    while time.monotonic() < deadline:
        c = cluster(stack)
        if c and ok(c):
            return c
        time.sleep(0.5)
    raise AssertionError(f"not {what} within {timeout:.0f} s: {json.dumps(c)}\n{stack.logs()}")


def wait_for_replicas(stack: Stack, count: int, timeout: float = 120) -> None:
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(seen) < count:
        try:
            response = httpx.get(f"{api(stack)}/ready", timeout=2)
            if response.status_code == 200:
                seen.add(response.headers[REPLICA_HEADER])
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    assert len(seen) >= count, f"API replicas ready: {sorted(seen)}\n{stack.logs()}"


def node(stack: Stack, member: str) -> str:
    """The container of a Patroni member (compose.ha.yaml names the services after them)."""
    [container] = stack.container_ids(member)
    return container


def leader_sql(stack: Stack, leader: str, sql: str) -> str:
    return docker("exec", node(stack, leader), "psql", "-U", "postgres", "-tAc", sql)


@dataclass
class TimedPlayer(Player):
    """A Player that also notes when each of its commands was acknowledged."""

    times: list[float] = field(default_factory=list)

    def decide(self) -> bool:
        before = len(self.acked)
        more = super().decide()
        if len(self.acked) > before:
            self.times.append(time.monotonic())
        return more


def keep_playing(url: str, stop: threading.Event, players: list[Player]) -> None:
    """One client: match after match until ``stop`` (as test_scaled_out.py's)."""
    while not stop.is_set():
        player = TimedPlayer(url, patience=90).create(starting_lives=3)
        players.append(player)
        player.play(stop)


@dataclass
class Load:
    """``clients`` threads playing matches until stopped."""

    url: str
    clients: int
    stop: threading.Event = field(default_factory=threading.Event)
    players: list[Player] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Load:
        for _ in range(self.clients):
            t = threading.Thread(target=keep_playing, args=(self.url, self.stop, self.players))
            t.start()
            self.threads.append(t)
        return self

    def finish(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=180)
        assert not any(t.is_alive() for t in self.threads)

    @property
    def acked(self) -> int:
        return sum(len(p.acked) for p in list(self.players))

    def times(self) -> list[float]:
        return sorted(t for p in list(self.players) if isinstance(p, TimedPlayer) for t in p.times)


def outage(times: list[float], since: float) -> tuple[float, float]:
    """(longest stretch without an acknowledgement from ``since`` to the first one after the
    longest gap, seconds from ``since`` to the first acknowledgement after that gap)."""
    marks = [since] + [t for t in times if t > since]
    gaps = [(b - a, b) for a, b in zip(marks, marks[1:], strict=False)]
    assert gaps, "no command acknowledged after the event"
    longest, resumed = max(gaps)
    return longest, resumed - since


def play_all(players: list[Player]) -> None:
    threads = [threading.Thread(target=p.play) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)


def tally(player: Player) -> tuple[int, int]:
    """(acknowledged events missing from the log, logged events no acknowledgement accounts
    for): what was lost and what was applied more than once."""
    lines = [
        json.loads(line)["record"]
        for line in player.export().split("\n")
        if line.strip() and "record" in json.loads(line)
    ]
    logged = {r["version"]: r["type"] for r in lines}
    acked = {out["version"]: out["event"]["type"] for a in player.acked for out in a["events"]}
    lost = sum(logged.get(v) != kind for v, kind in acked.items())
    extra = sum(v > player.created_version and v not in acked for v in logged)
    extra += len(lines) - len(logged)  # a version twice
    return lost, extra


def audit(players: list[Player], tmp: Path) -> tuple[int, int, int]:
    """Finish every match, then (acknowledged, lost, duplicated) over all of them; every log
    is also checked and verified (``check_log``)."""
    play_all(players)
    lost = duplicated = 0
    for p in players:
        a, b = tally(p)
        lost, duplicated = lost + a, duplicated + b
    for p in players:
        check_log(p, tmp)
    return sum(len(p.acked) for p in players), lost, duplicated


def api_started(stack: Stack) -> dict[str, str]:
    return {c: inspect(c, "{{.State.StartedAt}}") for c in stack.container_ids("api")}


def test_leader_killed_under_load_a_standby_takes_over_and_nothing_acknowledged_is_lost(
    ha: Stack, tmp_path: Path
) -> None:
    before = cluster(ha)
    old = leader_of(before)
    assert old is not None, before
    apis = api_started(ha)
    load = Load(api(ha), clients=8).start()
    try:
        leader_killed(ha, tmp_path, old, apis, load)
    finally:
        load.stop.set()


def leader_killed(ha: Stack, tmp_path: Path, old: str, apis: dict[str, str], load: Load) -> None:
    time.sleep(3)
    victim = node(ha, old)
    acked_at_kill = load.acked
    killed = time.monotonic()
    docker("kill", victim)  # no restart: the node stays down until started again
    after = wait_cluster(ha, lambda c: leader_of(c) not in (None, old), 90, "a new leader")
    promoted = time.monotonic() - killed
    new = leader_of(after)
    deadline = time.monotonic() + 90
    while not [t for t in load.times() if t > killed + 0.5] and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # load on the new leader
    load.finish()
    gap, first = outage(load.times(), killed)
    assert acked_at_kill > 0 and load.acked > acked_at_kill
    # the API reconnected by itself: the same processes serve
    assert api_started(ha) == apis

    # the old leader comes back as a standby of the new one (rewound if its WAL forked)
    docker("start", victim)
    back = wait_cluster(
        ha, lambda c: old in standbys(c) and healthy(c), 120, f"{old} a streaming standby"
    )
    rejoined = time.monotonic() - killed

    acknowledged, lost, duplicated = audit(load.players, tmp_path)
    print(
        f"\nleader {old} killed under 8 clients: {new} promoted after {promoted:.1f} s "
        f"(Patroni /cluster); first acknowledged command after the kill at +{first:.1f} s; "
        f"longest time without an acknowledged command {gap:.1f} s; {old} a standby again "
        f"at +{rejoined:.0f} s ({standbys(back)}); {len(load.players)} matches, "
        f"{acknowledged} commands acknowledged, {lost} lost, {duplicated} applied twice"
    )
    assert (lost, duplicated) == (0, 0)


def test_standbys_killed_strict_mode_acknowledges_nothing_unreplicated_and_a_cut_commit_is_503(
    ha: Stack, tmp_path: Path
) -> None:
    c = wait_cluster(ha, healthy, 60, "healthy")
    leader = leader_of(c)
    assert leader is not None
    sync = next(n for n, role in standbys(c).items() if role == "sync_standby")
    other = next(n for n, role in standbys(c).items() if role == "replica")
    own = TimedPlayer(api(ha), patience=90).create(starting_lives=3)  # the command cut below
    load = Load(api(ha), clients=4).start()
    try:
        cut_and_retried(ha, tmp_path, leader, sync, other, own, load)
    finally:
        load.stop.set()


def cut_and_retried(
    ha: Stack, tmp_path: Path, leader: str, sync: str, other: str, own: Player, load: Load
) -> None:
    time.sleep(2)

    # 1. the synchronous standby dies: Patroni makes the other one synchronous
    killed = time.monotonic()
    docker("kill", node(ha, sync))
    wait_cluster(ha, lambda c: standbys(c).get(other) == "sync_standby", 60, f"{other} synchronous")
    moved = time.monotonic() - killed
    deadline = time.monotonic() + 60
    while not [t for t in load.times() if t > killed + moved] and time.monotonic() < deadline:
        time.sleep(0.2)
    gap_sync, _ = outage(load.times(), killed)

    # 2. the other one dies too: no standby left, so in strict mode every commit waits
    docker("kill", node(ha, other))
    alone = time.monotonic()
    time.sleep(2)  # commands whose standby confirmed just before
    blocked_at = load.acked
    body = {"type": own.view["pending"]["choices"][0], "expected_version": own.version}
    headers = {"Authorization": f"Bearer {own.token}", "Idempotency-Key": uuid.uuid4().hex}
    url = f"{api(ha)}/matches/{own.match_id}/commands"
    answers: list[httpx.Response] = []
    sender = threading.Thread(
        target=lambda: answers.append(httpx.post(url, json=body, headers=headers, timeout=60))
    )
    sender.start()
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
    deadline = time.monotonic() + 20
    while int(leader_sql(ha, leader, waiting) or 0) == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(3)  # they keep waiting
    assert answers == [], "a command was answered with no standby"
    assert load.acked == blocked_at, "acknowledged with no synchronous standby"
    waiters = int(leader_sql(ha, leader, waiting))
    assert waiters >= 1

    # 3. the commits are cut (pg_cancel_backend: done locally, replication unconfirmed); until
    # ours is among them (it may still be queued behind the clients' waiting commits)
    cuts = 0
    deadline = time.monotonic() + 30
    while not answers and time.monotonic() < deadline:
        cuts += int(
            leader_sql(ha, leader, waiting.replace("count(*)", "count(pg_cancel_backend(pid))"))
        )
        time.sleep(0.5)
    sender.join(timeout=10)
    [cut] = answers
    assert cut.status_code == 503, (cut.status_code, cut.text)
    assert cut.headers["retry-after"] == "2"
    assert cut.json()["type"].endswith("database-unavailable"), cut.text
    # the clients' retries find their commands' records but wait for a standby to confirm them
    time.sleep(4)
    assert load.acked == blocked_at, "acknowledged with no synchronous standby"
    no_standby = time.monotonic() - alone
    retried: list[httpx.Response] = []
    retry = threading.Thread(
        target=lambda: retried.append(httpx.post(url, json=body, headers=headers, timeout=90))
    )
    retry.start()

    # 4. a standby comes back: the retries are answered, commands flow again
    back = time.monotonic()
    docker("start", node(ha, other))
    retry.join(timeout=120)
    [again] = retried
    resumed = time.monotonic() - back
    assert again.status_code == 200, (again.status_code, again.text)
    answer = again.json()
    own.acked.append(answer)
    own.view, own.version = answer["view"], answer["version"]
    deadline = time.monotonic() + 60
    while load.acked == blocked_at and time.monotonic() < deadline:
        time.sleep(0.2)
    assert load.acked > blocked_at
    load.finish()
    docker("start", node(ha, sync))

    acknowledged, lost, duplicated = audit([*load.players, own], tmp_path)
    print(
        f"\nsynchronous standby {sync} killed: {other} synchronous after {moved:.1f} s, "
        f"longest time without an acknowledged command {gap_sync:.1f} s; then {other} killed "
        f"too: {no_standby:.0f} s with no standby, 0 commands acknowledged, {waiters} commits "
        f"waiting, {cuts} cut: ours answered 503 Retry-After {cut.headers['retry-after']}, "
        f"none acknowledged; {other} started: the "
        f"cut command's retry answered 200 after {resumed:.1f} s; {len(load.players) + 1} "
        f"matches, {acknowledged} commands acknowledged, {lost} lost, {duplicated} applied twice"
    )
    assert (lost, duplicated) == (0, 0)
    wait_cluster(ha, healthy, 120, "healthy again")
