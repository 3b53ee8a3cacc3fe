"""A server killed right after the commit that ends a match, before it answers (the crash
point ``after-final-commit``, api/faults.py): after a restart the match is signed and verifies,
on both databases, whether the last command was answered by a replay or nobody asked again
(issue 19: the seal was once written in a step after that commit, and such a kill left the
match unsigned for ever)."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import httpx

from api.cli import main
from tests.api.helpers import BOTS_ONLY, HUMAN_VS_BOTS, bearer
from tests.integration.server import Server

CRASH = {"CUCCU_CRASH_AT": "after-final-commit"}


def start(url: str, key: Path, servers: list[Server], env: dict[str, str] | None = None) -> Server:
    server = Server(url, viewer=False, env={"CUCCU_SIGNING_KEY": str(key), **(env or {})})
    servers.append(server.start())
    return server


def died_by_sigkill(server: Server) -> None:
    assert server.proc is not None
    assert server.proc.wait(timeout=30) == -signal.SIGKILL, "".join(server.output[-20:])


def verify(base: str, match_id: str, tmp_path: Path) -> str:
    """``cuccu verify`` of the match's export against the key ring the service serves."""
    export = httpx.get(f"{base}/matches/{match_id}/export", timeout=30)
    assert export.status_code == 200, export.text
    assert '"seal"' in export.text.splitlines()[-1], "the finished match is not signed"
    (tmp_path / "match.ndjson").write_text(export.text)
    ring = httpx.get(f"{base}/.well-known/cuccu-keys.json", timeout=10).json()
    (tmp_path / "keys.json").write_text(json.dumps(ring))
    args = [str(tmp_path / "match.ndjson"), "--trusted-key", str(tmp_path / "keys.json")]
    assert main(["verify", *args]) == 0
    return export.text


def play_until_the_server_dies(base: str, match_id: str, token: str) -> tuple[dict[str, Any], str]:
    """Play Ann's first choice until a command gets no answer; that command and its key."""
    me = bearer(token)
    for step in range(1000):
        view = httpx.get(f"{base}/matches/{match_id}", headers=me, timeout=30).json()
        pending = view["view"]["pending"]
        assert pending is not None, "the match ended without reaching the crash point"
        body = {"type": pending["choices"][0], "expected_version": view["version"]}
        key = f"step-{step}"
        try:
            resp = httpx.post(
                f"{base}/matches/{match_id}/commands",
                json=body,
                headers={**me, "Idempotency-Key": key},
                timeout=30,
            )
        except httpx.HTTPError:
            return body, key
        assert resp.status_code == 200, resp.text
    raise AssertionError("the match did not end in 1000 commands")


def test_a_kill_after_the_final_command_commits_leaves_the_match_signed(
    database_url: str, servers: list[Server], tmp_path: Path
) -> None:
    key = tmp_path / "signing.key"
    server = start(database_url, key, servers, CRASH)
    created = httpx.post(f"{server.base}/matches", json={**HUMAN_VS_BOTS, "seed": 7}, timeout=30)
    mid, token = created.json()["match_id"], created.json()["seat_tokens"][0]["token"]
    body, idempotency_key = play_until_the_server_dies(server.base, mid, token)
    died_by_sigkill(server)

    server = start(database_url, key, servers)
    # signed already, before anyone asks again
    assert httpx.get(f"{server.base}/matches/{mid}", timeout=10).json()["view"]["status"] == "over"
    first = verify(server.base, mid, tmp_path)
    # the client's retry of the unanswered command is answered by a replay; nothing changes
    retry = httpx.post(
        f"{server.base}/matches/{mid}/commands",
        json=body,
        headers={**bearer(token), "Idempotency-Key": idempotency_key},
        timeout=30,
    )
    assert retry.status_code == 200, retry.text
    assert retry.headers.get("idempotent-replayed") == "true"
    assert verify(server.base, mid, tmp_path) == first


def test_a_kill_after_a_creation_that_ends_the_match_leaves_it_signed(
    database_url: str, servers: list[Server], tmp_path: Path
) -> None:
    """Bots only: the match is over within its creation, and the creator never hears of it."""
    key = tmp_path / "signing.key"
    server = start(database_url, key, servers, CRASH)
    try:
        httpx.post(f"{server.base}/matches", json=BOTS_ONLY, timeout=30)
    except httpx.HTTPError:
        pass
    else:
        raise AssertionError("the server answered a creation that ended the match")
    died_by_sigkill(server)

    server = start(database_url, key, servers)
    listed = httpx.get(f"{server.base}/matches", params={"status": "over"}, timeout=10).json()
    [match] = listed["matches"]
    verify(server.base, match["match_id"], tmp_path)
