"""Run the real ``cuccu`` server as a subprocess for integration tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from tests.ports import free_port, lost_port

ROOT = Path(__file__).resolve().parents[2]

#: log lines that once hid real errors (issue 11): each had a cause, now fixed
NOISE = (
    "error ignored terminating",  # psycopg: an aborted pipeline left by an exception
    "Task was destroyed but it is pending",  # SQLAlchemy's close of a cancelled read
    "garbage collector is trying to clean up",  # a connection never checked back in
    "Task exception was never retrieved",
)


def cuccu(*args: str, database_url: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUCCU_DATABASE_URL": database_url}
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,  # type: ignore[arg-type]
    )


class Server:
    def __init__(
        self,
        database_url: str,
        *,
        migrate: bool = True,
        keepalive: float = 0.5,
        viewer: bool = False,  # Streamlit too: no integration test reads it, and it costs CPU
        env: dict[str, str] | None = None,
        log_level: str = "warning",
        args: tuple[str, ...] = (),
    ) -> None:
        self.database_url = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.migrate = migrate
        self.keepalive = keepalive
        self.viewer = viewer
        self.env = env or {}
        self.log_level = log_level
        #: more arguments of ``cuccu run`` (``--workers 2``)
        self.args = args
        self.proc: subprocess.Popen[str] | None = None
        #: everything the server printed (drained as it comes, so the pipe never fills)
        self.output: list[str] = []

    def start(self, wait: bool = True) -> Server:
        """Start the server (and wait until it answers ``/health``). A server that finds its
        port taken (by something outside this run: tests.ports) starts again on another."""
        for attempt in range(3):
            self._spawn()
            if not wait:
                return self
            try:
                self.wait_healthy()
                return self
            except RuntimeError as exc:
                if attempt == 2 or not lost_port(str(exc)):
                    raise
                self.output.clear()
                self.port = free_port()
                self.base = f"http://127.0.0.1:{self.port}"
        raise AssertionError("unreachable")

    def _spawn(self) -> None:
        env = {
            **os.environ,
            "CUCCU_DATABASE_URL": self.database_url,
            "CUCCU_SSE_KEEPALIVE": str(self.keepalive),
            **self.env,
        }
        args = [sys.executable, "-m", "api.cli", "run", "--port", str(self.port)]
        args += ["--log-level", self.log_level, *self.args]
        if not self.migrate:
            args.append("--no-migrate")
        if not self.viewer:
            args.append("--no-viewer")
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            # its own process group, so that a crash takes its bot workers and viewer with it
            # (as a container's would) instead of leaving them orphaned on the machine
            start_new_session=True,
        )
        threading.Thread(target=self._drain, args=(self.proc,), daemon=True).start()

    def _drain(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.output.append(line)

    def noise(self) -> list[str]:
        """The lines of known noise the server printed so far."""
        return [line for line in list(self.output) if any(n in line for n in NOISE)]

    def wait_healthy(self, timeout: float = 30.0) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                time.sleep(0.2)  # let the drain thread read the last lines
                out = "".join(self.output)
                raise RuntimeError(f"server exited with {self.proc.returncode}: {out}")
            try:
                if httpx.get(self.base + "/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise TimeoutError("server did not become healthy")

    def kill9(self) -> None:
        """Crash the server: SIGKILL to its whole process group."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        time.sleep(0.1)  # the drain thread reads to the end of the closed pipe

    def assert_quiet(self) -> None:
        """Stop the server; fail if it printed any known noise while it ran."""
        self.stop()
        assert not self.noise(), "".join(self.noise()[:20])
