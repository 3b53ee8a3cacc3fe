"""A Compose project run by the tests: its own name, loopback ports, always taken down."""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.containers import compose_exe

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Stack:
    """``docker-compose -p PROJECT -f FILE...`` with the publish variables of compose*.yaml."""

    files: list[str]
    publish: dict[str, int]  # CUCCU_PUBLISH_API_PORT, ... -> a free loopback port
    extra_env: dict[str, str] = field(default_factory=dict)
    project: str = field(default_factory=lambda: f"cuccutest{uuid.uuid4().hex[:8]}")

    def compose(self, *args: str, check: bool = True, timeout: float = 300) -> str:
        return self.compose_bytes(*args, check=check, timeout=timeout).decode()

    def compose_bytes(
        self, *args: str, stdin: bytes = b"", check: bool = True, timeout: float = 300
    ) -> bytes:
        """The command's standard output as bytes (e.g. a tar archive), ``stdin`` its input."""
        exe = compose_exe()
        assert exe is not None, "no compose client (apt-get install docker-compose)"
        cmd = [*exe, "-p", self.project]
        for f in self.files:
            cmd += ["-f", str(ROOT / f)]
        env = {**os.environ, "CUCCU_PUBLISH_ADDRESS": "127.0.0.1", **self.extra_env}
        env.update({name: str(port) for name, port in self.publish.items()})
        done = subprocess.run(
            [*cmd, *args], cwd=ROOT, env=env, input=stdin, capture_output=True, timeout=timeout
        )
        if check and done.returncode != 0:
            out, err = done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")
            raise AssertionError(f"{' '.join(args)} failed:\n{out}\n{err}")
        return done.stdout

    def up(self, *args: str) -> None:
        self.compose("up", "-d", "--no-build", *args)

    def down(self) -> None:
        self.compose("down", "-v", "--remove-orphans", "--timeout", "5", check=False)

    def container_ids(self, service: str) -> list[str]:
        return self.compose("ps", "-q", service).split()

    def logs(self) -> str:
        return self.compose("logs", "--no-color", "--tail", "40", check=False)

    def leftovers(self) -> dict[str, list[str]]:
        """Containers, networks and volumes that still carry this project's label."""
        label = f"label=com.docker.compose.project={self.project}"
        found = {}
        for kind, cmd in (
            ("containers", ["docker", "ps", "-aq", "--filter", label]),
            ("networks", ["docker", "network", "ls", "-q", "--filter", label]),
            ("volumes", ["docker", "volume", "ls", "-q", "--filter", label]),
        ):
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            found[kind] = out.split()
        return found


def docker(*args: str) -> str:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def inspect(container: str, template: str) -> str:
    return docker("inspect", "-f", template, container)


def wait_for(url: str, timeout: float = 120.0, expect: int = 200) -> httpx.Response:
    """Poll ``url`` until it answers ``expect``; the last answer or error on timeout."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            response = httpx.get(url, timeout=2)
            if response.status_code == expect:
                return response
            last = response.status_code
        except httpx.HTTPError as exc:
            last = exc
        time.sleep(0.5)
    raise AssertionError(f"{url} did not answer {expect} within {timeout:.0f} s (last: {last!r})")
