"""Helpers of the viewer tests: free ports, waiting for servers, a client of the API."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.ports import free_port as free_port  # the viewer tests' ports

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "viewer" / "app.py")


def wait_http(url: str, proc: subprocess.Popen[str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            # (its output is not read here: a drain thread or a log file has it)
            raise RuntimeError(f"process exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer")


def stop(proc: subprocess.Popen[str]) -> None:
    """Stop a server started with ``start_new_session=True``, and everything it started.

    SIGTERM first, then SIGKILL to its whole process group: `cuccu run`'s viewer and bot
    workers hold its output pipe too, and one left alive would keep that pipe open forever.
    Its stdout is not closed here: a thread draining it may be blocked in a read, holding the
    stream's lock, and close() would wait for that read, which only the pipe's end finishes.
    """
    if proc.poll() is None:
        proc.terminate()
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=15)
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=15)


@dataclass
class Api:
    base: str

    def bot_match(self, seed: int, names: tuple[str, ...] = ("Ann", "Bob", "Cy", "Di")) -> str:
        seats = [{"name": n, "kind": "bot", "bot_level": "basic"} for n in names]
        body = {"seats": seats, "seed": seed}
        response = httpx.post(f"{self.base}/matches", json=body, timeout=30)
        response.raise_for_status()
        match_id: str = response.json()["match_id"]
        return match_id
