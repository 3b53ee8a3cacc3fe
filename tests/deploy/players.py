"""Players that drive matches over HTTP only (the API may change shape behind them), keeping
what the service acknowledged so a test can check that nothing acknowledged was lost.

Each decision carries its own Idempotency-Key, reused on every retry: a command whose answer was
lost (a crashed replica, a 502 from the balancer, a refused connection) is sent again and applies
at most once.
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from api.cli import main as cli_main
from api.signing import WELL_KNOWN_PATH

REPLICA_HEADER = "x-cuccu-replica"  # set by the balancer (docker/haproxy/haproxy.cfg)
TRANSIENT = {429, 502, 503, 504}  # answers a retry may outlive
SEATS = [
    {"name": "me"},
    {"name": "Bo", "kind": "bot", "bot_level": "basic"},
    {"name": "Cy", "kind": "bot", "bot_level": "random"},
    {"name": "Di", "kind": "bot", "bot_level": "basic"},
]


class GaveUp(Exception):
    """A request that kept failing for longer than the player's patience."""


@dataclass
class Player:
    """One human seat against three bots, on one match, over plain HTTP."""

    base: str
    patience: float = 60.0  # seconds a request is retried before giving up
    match_id: str = ""
    token: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_version: int = 0
    acked: list[dict[str, Any]] = field(default_factory=list)  # 200 answers to commands
    command_replicas: list[str] = field(default_factory=list)  # who gave each of those answers
    replicas: Counter[str] = field(default_factory=Counter)  # who answered, per the balancer
    retries: int = 0
    http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=10))

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        deadline = time.monotonic() + self.patience
        while True:
            try:
                response = self.http.request(method, self.base + path, **kwargs)
                self.replicas[response.headers.get(REPLICA_HEADER, "direct")] += 1
                if response.status_code not in TRANSIENT:
                    return response
                last: object = response.status_code
            except httpx.TransportError as exc:
                last = exc
            if time.monotonic() > deadline:
                raise GaveUp(f"{method} {path}: {last!r}")
            self.retries += 1
            time.sleep(0.2)

    def create(self, starting_lives: int = 2) -> Player:
        response = self._send(
            "POST",
            "/matches",
            json={"seats": SEATS, "starting_lives": starting_lives},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )
        assert response.status_code == 201, response.text
        body = response.json()
        self.match_id, self.token = body["match_id"], body["seat_tokens"][0]["token"]
        self.view, self.version = body["view"], body["version"]
        self.created_version = self.version
        return self

    @property
    def over(self) -> bool:
        return self.view.get("pending") is None

    def decide(self) -> bool:
        """Send one decision (or next_round); False when the match is over."""
        if self.over:
            return False
        choices = self.view["pending"]["choices"]
        body = {"type": choices[len(self.acked) % len(choices)], "expected_version": self.version}
        headers = {"Authorization": f"Bearer {self.token}", "Idempotency-Key": uuid.uuid4().hex}
        response = self._send(
            "POST", f"/matches/{self.match_id}/commands", json=body, headers=headers
        )
        assert response.status_code == 200, (response.status_code, response.text)
        answer = response.json()
        self.acked.append(answer)
        self.command_replicas.append(response.headers.get(REPLICA_HEADER, "direct"))
        self.view, self.version = answer["view"], answer["version"]
        return not self.over

    def play(self, stop: threading.Event | None = None) -> None:
        while (stop is None or not stop.is_set()) and self.decide():
            pass

    def export(self) -> str:
        response = self._send("GET", f"/matches/{self.match_id}/export")
        assert response.status_code == 200, response.text
        return response.text

    def signing_keys(self) -> dict[str, Any]:
        """The key ring the service serves (``GET /.well-known/cuccu-keys.json``)."""
        response = self._send("GET", WELL_KNOWN_PATH)
        assert response.status_code == 200, response.text
        keys: dict[str, Any] = response.json()
        return keys

    def close(self) -> None:
        self.http.close()


def verify(export: Path, *trusted_keys: str) -> tuple[int, str]:
    """``cuccu verify FILE --trusted-key KEY...`` in this process: its exit code and output.

    Only the given keys are trusted: the key store the host's own settings would name is
    replaced by a missing one in ``export``'s directory."""
    report = io.StringIO()
    nowhere = f"sqlite+aiosqlite:///{export.parent / 'no-such.db'}"
    args = ["--database-url", nowhere, "verify", str(export)]
    for key in trusted_keys:
        args += ["--trusted-key", key]
    with contextlib.redirect_stdout(report), contextlib.redirect_stderr(report):
        code = cli_main(args)
    return code, report.getvalue()


def check_log(player: Player, tmp: Path) -> list[dict[str, Any]]:
    """The finished match's export, after checking that it holds every acknowledged event once
    and nothing else (versions 1..n, no gap, no duplicate) and that ``cuccu verify`` passes on it
    (hash chain, shuffle commitments, re-execution of every decision, and the signature, against
    the key ring the service serves, saved to a file and given as ``--trusted-key``)."""
    text = player.export()
    # each record line carries the hashed record (docs/API.md "Exports"); a seal line may close it
    parsed = [json.loads(line) for line in text.split("\n") if line.strip()]
    lines = [line["record"] for line in parsed if "record" in line]
    versions = [line["version"] for line in lines]
    assert versions == list(range(1, len(lines) + 1)), "gap or duplicate in the log"
    # The acknowledged answers account for every event after the creation, each exactly once:
    # answer i carries the versions right after answer i-1's, and the log ends at the last one.
    assert player.acked, "the player never got an answer"
    previous = player.created_version
    for answer in player.acked:
        carried = [out["version"] for out in answer["events"]]
        assert carried == list(range(previous + 1, answer["version"] + 1)), (previous, carried)
        for out in answer["events"]:
            stored = lines[out["version"] - 1]
            assert stored["type"] == out["event"]["type"], (out, stored)
        previous = answer["version"]
    assert len(lines) == previous, "events in the log that no acknowledged command produced"
    assert "seal" in parsed[-1], "the finished match is not signed"
    path = tmp / f"{player.match_id}.ndjson"
    path.write_text(text)
    keys = tmp / f"{player.match_id}.keys.json"
    keys.write_text(json.dumps(player.signing_keys()))
    code, report = verify(path, str(keys))
    assert code == 0 and "PASS signature" in report, report
    return lines
