"""Helpers of the viewer tests: free ports, waiting for servers, a client of the API."""

from __future__ import annotations

import subprocess
import time
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
            out = proc.stdout.read() if proc.stdout else ""
            raise RuntimeError(f"process exited with {proc.returncode}: {out}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer")


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
    if proc.stdout:
        proc.stdout.close()


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
