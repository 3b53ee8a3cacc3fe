"""compose.yaml for real, with the local images (compose.local.yaml), through HTTP only.

Up, healthy; a whole match through the containerized API; the containerized viewer answers; the
API container crashes mid-match and its restart policy brings it back with no acknowledged
command lost; the database stops (503 problems within 2 s, /ready fails, /health stays up) and
starts again (the same API process recovers); ``down -v`` leaves nothing behind. The signing
key: made once by ``migrate`` in its named volume, private to the service's user, kept across
``down`` + ``up``, rotated, backed up and restored as docs/DEPLOY.md says; every finished match
verifies against the key ring the stack serves, and not against another key.
"""

from __future__ import annotations

import io
import json
import os
import signal
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.keys import b64u, key_id_of, raw_public
from tests.containers import HAPROXY_IMAGE, LOCAL_IMAGES, need_engine
from tests.deploy.players import Player, check_log, verify
from tests.deploy.stack import Stack, docker, inspect, wait_for
from tests.integration.server import free_port

pytestmark = pytest.mark.containers

PROBLEM = "application/problem+json"
KEY_DIR = "/var/lib/cuccu"  # the signing-key volume, in migrate and api (compose.yaml)


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


def played(base: str, tmp: Path) -> Player:
    """A whole match through the stack, its export checked and verified (``check_log``)."""
    player = Player(base).create()
    player.play()
    check_log(player, tmp)
    return player


def sealed_by(player: Player) -> str:
    """The id of the key whose seal closes the player's export."""
    last = json.loads(player.export().strip().split("\n")[-1])
    key_id: str = last["seal"]["key_id"]
    return key_id


def migrate_log(stack: Stack) -> str:
    return stack.compose("logs", "--no-color", "migrate")


def up_and_ready(stack: Stack) -> None:
    stack.up()
    wait_for(f"{api_base(stack)}/ready")


def test_the_signing_key_is_made_once_kept_rotated_and_restored(
    stack: Stack, tmp_path: Path
) -> None:
    up_and_ready(stack)
    base = api_base(stack)
    assert "made)" in migrate_log(stack)  # `cuccu keys init` made it, before the API started

    # a finished match is signed; it verifies against the served ring, not against another key
    first = played(base, tmp_path)
    [key] = first.signing_keys()["keys"]
    assert key["status"] == "active" and sealed_by(first) == key["kid"]
    stranger = b64u(raw_public(Ed25519PrivateKey.generate().public_key()))
    code, report = verify(tmp_path / f"{first.match_id}.ndjson", stranger)
    assert code == 1 and "FAIL signature" in report and "untrusted" in report, report

    # down (without -v) and up: the same key, so the earlier match still verifies
    stack.compose("down", "--timeout", "5")
    up_and_ready(stack)
    assert "already there, kept" in migrate_log(stack)  # made exactly once
    assert first.signing_keys()["keys"] == [key]
    check_log(first, tmp_path)
    assert sealed_by(played(base, tmp_path)) == key["kid"]

    # rotation as docs/DEPLOY.md says: a new active key, the old one retired and still trusted
    stack.compose("run", "--rm", "--no-deps", "-T", "migrate", "cuccu", "keys", "rotate")
    stack.compose("restart", "--timeout", "5", "api")
    wait_for(f"{base}/ready")
    ring = first.signing_keys()["keys"]
    assert [(k["kid"], k["status"]) for k in ring] == [
        (key["kid"], "retired"),
        (ring[1]["kid"], "active"),
    ]
    check_log(first, tmp_path)  # signed with the retired key: verifies with the ring
    after_rotation = played(base, tmp_path)
    assert sealed_by(after_rotation) == ring[1]["kid"]

    # back-up and restore as docs/DEPLOY.md says: a tar of the volume, into a brand-new volume
    backup = stack.compose_bytes(
        "run", "--rm", "--no-deps", "-T", "migrate", "tar", "-C", KEY_DIR, "-cf", "-", "."
    )
    with tarfile.open(fileobj=io.BytesIO(backup)) as archive:
        # the key and its directory are the service user's (uid 10001) and nobody else's
        owners = {m.name: (m.uid, oct(m.mode)) for m in archive.getmembers()}
        assert owners["."] == (10001, "0o700") and owners["./signing-key.pem"] == (10001, "0o600")
        assert "./signing-key.keys.json" in owners
        pem = archive.extractfile("./signing-key.pem")
        assert pem is not None
        private = serialization.load_pem_private_key(pem.read(), None)
    assert isinstance(private, Ed25519PrivateKey)
    assert key_id_of(raw_public(private.public_key())) == ring[1]["kid"]
    stack.down()  # -v: the database and the key are gone
    stack.compose_bytes(
        "run", "--rm", "--no-deps", "-T", "migrate", "tar", "-C", KEY_DIR, "-xf", "-",
        stdin=backup,
    )  # fmt: skip
    up_and_ready(stack)
    assert "already there, kept" in migrate_log(stack)
    assert Player(base).signing_keys()["keys"] == ring
    # the matches were in the deleted database; their exports, kept on the host, verify
    # against the key ring the restored stack serves
    restored = tmp_path / "restored.keys.json"
    restored.write_text(json.dumps(Player(base).signing_keys()))
    for earlier in (first, after_rotation):
        code, report = verify(tmp_path / f"{earlier.match_id}.ndjson", str(restored))
        assert code == 0 and "PASS signature" in report, report
