"""compose.yaml for real, with the local images (compose.local.yaml), through HTTP only.

Up, healthy; a whole match through the containerized API; the containerized viewer answers; the
API container crashes mid-match and its restart policy brings it back with no acknowledged
command lost; the database stops (503 problems within 2 s, /ready fails, /health stays up) and
starts again (the same API process recovers); ``down -v`` leaves nothing behind.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.containers import HAPROXY_IMAGE, LOCAL_IMAGES, need_engine
from tests.deploy.players import Player, check_log
from tests.deploy.stack import Stack, docker, inspect, wait_for
from tests.integration.server import free_port

pytestmark = pytest.mark.containers

PROBLEM = "application/problem+json"


@pytest.fixture
def stack() -> Iterator[Stack]:
    need_engine(*(image for image in LOCAL_IMAGES if image != HAPROXY_IMAGE))
    s = Stack(
        ["compose.yaml", "compose.local.yaml"],
        publish={"CUCCU_PUBLISH_API_PORT": free_port(), "CUCCU_PUBLISH_VIEWER_PORT": free_port()},
    )
    try:
        yield s
    finally:
        s.down()


def api_base(stack: Stack) -> str:
    return f"http://127.0.0.1:{stack.publish['CUCCU_PUBLISH_API_PORT']}"


def crash(container: str) -> None:
    """SIGKILL the container's main process from the host: a crash, which the restart policy
    answers. (``docker kill`` is an operator's stop: engine 20.10 does not restart after it.)"""
    pid = inspect(container, "{{.State.Pid}}")
    assert int(pid) > 0
    os.kill(int(pid), signal.SIGKILL)


def test_compose_stack_end_to_end(stack: Stack, tmp_path: Path) -> None:
    stack.up()
    base = api_base(stack)
    wait_for(f"{base}/ready")
    assert httpx.get(f"{base}/health").json() == {"status": "ok"}

    # a whole match through the containerized API, its export audited on the host
    whole = Player(base).create()
    whole.play()
    assert whole.view["status"] == "over" and whole.view["winner"] is not None
    check_log(whole, tmp_path)

    # the containerized viewer
    viewer = f"http://127.0.0.1:{stack.publish['CUCCU_PUBLISH_VIEWER_PORT']}"
    wait_for(f"{viewer}/_stcore/health")
    assert httpx.get(f"{viewer}/_stcore/health").text == "ok"
    assert httpx.get(f"{viewer}/").status_code == 200

    # the API crashes mid-match: the restart policy brings it back, nothing acknowledged is lost
    (api,) = stack.container_ids("api")
    player = Player(base, patience=90).create(starting_lives=3)
    for _ in range(2):
        player.decide()
    acked_before = len(player.acked)
    worker = threading.Thread(target=player.play)
    worker.start()
    crash(api)
    worker.join(timeout=180)
    assert not worker.is_alive()
    # the player may finish before the engine has restarted the killed process: wait for it
    deadline = time.monotonic() + 60
    while int(inspect(api, "{{.RestartCount}}")) < 1 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert int(inspect(api, "{{.RestartCount}}")) >= 1
    assert player.view["status"] == "over" and len(player.acked) > acked_before
    check_log(player, tmp_path)

    # the database stops: quick 503 problems, not ready, still alive; then it recovers
    wait_for(f"{base}/ready")
    started_at = inspect(api, "{{.State.StartedAt}}")
    (db,) = stack.container_ids("db")
    docker("stop", db)
    with httpx.Client(base_url=base, timeout=2.0) as http:  # a slower answer raises here
        for path in ("/matches", f"/matches/{player.match_id}/events", "/ready"):
            response = http.get(path)
            assert response.status_code == 503, (path, response.text)
            assert response.headers["content-type"].startswith(PROBLEM)
            assert response.json()["type"] == "urn:cuccu:problem:database-unavailable"
        assert http.get("/health").json() == {"status": "ok"}
    docker("start", db)
    wait_for(f"{base}/ready", timeout=60)
    assert inspect(api, "{{.State.StartedAt}}") == started_at  # the same API process
    after = Player(base).create()
    after.play()
    check_log(after, tmp_path)

    # down -v leaves no container, network or volume of the project
    stack.down()
    time.sleep(0.5)
    assert stack.leftovers() == {"containers": [], "networks": [], "volumes": []}
