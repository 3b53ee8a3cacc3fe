"""The scaled-out stack (compose.scale.yaml): two API replicas behind HAProxy, one PostgreSQL.

Everything goes through the balancer, which names the replica that answered in a response
header (docker/haproxy/haproxy.cfg), so the tests can see requests spread over the replicas.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.containers import LOCAL_IMAGES, need_engine
from tests.deploy.players import REPLICA_HEADER, Player, check_log
from tests.deploy.stack import Stack, docker
from tests.integration.server import free_port

pytestmark = pytest.mark.containers

REPLICAS = 2


@pytest.fixture(scope="module")
def scaled() -> Iterator[Stack]:
    need_engine(*LOCAL_IMAGES)
    s = Stack(["compose.scale.yaml"], publish={"CUCCU_PUBLISH_API_PORT": free_port()})
    try:
        s.up("--scale", f"api={REPLICAS}")
        wait_for_replicas(s, REPLICAS)
        yield s
    finally:
        s.down()
        assert s.leftovers() == {"containers": [], "networks": [], "volumes": []}


def base(stack: Stack) -> str:
    return f"http://127.0.0.1:{stack.publish['CUCCU_PUBLISH_API_PORT']}"


def wait_for_replicas(stack: Stack, count: int, timeout: float = 120) -> set[str]:
    """Poll /ready through the balancer until ``count`` distinct replicas have answered 200."""
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{base(stack)}/ready", timeout=2)
            if response.status_code == 200:
                seen.add(response.headers[REPLICA_HEADER])
                if len(seen) >= count:
                    return seen
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"only {sorted(seen)} of {count} replicas ready:\n{stack.logs()}")


def play_all(players: list[Player], stop: threading.Event | None = None) -> None:
    threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)


def test_many_clients_spread_over_replicas_lose_and_duplicate_nothing(
    scaled: Stack, tmp_path: Path
) -> None:
    players = [Player(base(scaled)).create() for _ in range(8)]
    play_all(players)
    for p in players:
        assert p.view["status"] == "over"
        check_log(p, tmp_path)
    served: Counter[str] = sum((p.replicas for p in players), Counter())
    assert len(served) == REPLICAS, served
    # round robin: most matches had their commands answered by more than one replica
    assert sum(len(p.replicas) > 1 for p in players) >= len(players) // 2, served


def test_a_stream_on_one_replica_gets_events_committed_through_another(
    scaled: Stack, tmp_path: Path
) -> None:
    player = Player(base(scaled)).create(starting_lives=3)
    received: list[int] = []
    opened = threading.Event()
    stream_replica: list[str] = []

    def follow() -> None:
        path = f"{base(scaled)}/matches/{player.match_id}/stream"
        with httpx.stream("GET", path, timeout=httpx.Timeout(5, read=30)) as response:
            stream_replica.append(response.headers[REPLICA_HEADER])
            opened.set()
            for line in response.iter_lines():
                if line.startswith("id:"):
                    received.append(int(line[3:]))
                if received and received[-1] >= player.version and player.over:
                    return

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    assert opened.wait(10)
    committed_elsewhere: set[int] = set()
    while player.decide():
        pass
    for answer, replica in zip(player.acked, player.command_replicas, strict=True):
        if replica != stream_replica[0]:
            committed_elsewhere.update(out["version"] for out in answer["events"])
    follower.join(timeout=30)
    assert committed_elsewhere, "every command landed on the stream's replica"
    assert committed_elsewhere <= set(received), sorted(committed_elsewhere - set(received))
    check_log(player, tmp_path)


def keep_playing(url: str, stop: threading.Event, players: list[Player]) -> None:
    """One client: match after match until ``stop``; every match it starts goes to ``players``."""
    while not stop.is_set():
        player = Player(url, patience=60).create(starting_lives=3)
        players.append(player)
        player.play(stop)


def acked(players: list[Player]) -> int:
    return sum(len(p.acked) for p in list(players))


def test_killing_a_replica_under_load_loses_nothing_acknowledged(
    scaled: Stack, tmp_path: Path
) -> None:
    stop = threading.Event()
    players: list[Player] = []
    clients = [
        threading.Thread(target=keep_playing, args=(base(scaled), stop, players)) for _ in range(6)
    ]
    for t in clients:
        t.start()
    time.sleep(2)
    victim = scaled.container_ids("api")[0]
    acked_at_kill = acked(players)
    docker("kill", victim)  # an operator's kill: the engine leaves it down
    time.sleep(4)
    acked_soon_after = acked(players)
    time.sleep(4)
    stop.set()
    for t in clients:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in clients)
    assert acked_at_kill > 0
    assert acked(players) > acked_soon_after, "no progress on the surviving replica"
    # the balancer routes around the dead replica: every request now lands on the survivor
    answered = {httpx.get(f"{base(scaled)}/ready").headers[REPLICA_HEADER] for _ in range(6)}
    assert len(answered) == 1
    # finish every match, then check each log against what was acknowledged
    play_all(players)
    for p in players:
        check_log(p, tmp_path)
    docker("start", victim)
    wait_for_replicas(scaled, REPLICAS)


def test_with_no_replica_up_the_balancer_answers_a_problem_with_retry_after(
    scaled: Stack,
) -> None:
    """HAProxy's own 503 is a problem document with ``Retry-After``, like the API's 503s."""
    replicas = scaled.container_ids("api")
    for replica in replicas:
        docker("stop", replica)
    try:
        deadline = time.monotonic() + 30
        response = httpx.get(f"{base(scaled)}/matches", timeout=5)
        while response.status_code != 503 and time.monotonic() < deadline:
            time.sleep(0.5)
            response = httpx.get(f"{base(scaled)}/matches", timeout=5)
        assert response.status_code == 503, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.headers["retry-after"] == "2"
        problem = response.json()
        assert (problem["type"], problem["status"]) == ("urn:cuccu:problem:no-replica", 503)
    finally:
        for replica in replicas:
            docker("start", replica)
        wait_for_replicas(scaled, REPLICAS)
