"""Driving the viewer in Debian's Chromium with Playwright (never Playwright's own browser).

Without /usr/bin/chromium or Playwright the browser tests are skipped, except under CI=true,
where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.viewer.support import ROOT, Api, free_port, stop, wait_http

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
TIMEOUT_MS = 60_000


def need_browser() -> None:
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    if importlib.util.find_spec("playwright") is None:
        missing.append("playwright (pip install playwright)")
    if missing:
        message = "browser test needs " + " and ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true: " + message)
        pytest.skip(message)


def _read_urls(proc: subprocess.Popen[str], timeout: float = 60.0) -> tuple[str, str]:
    """The API and viewer URLs that `cuccu run` prints."""
    api = viewer = None
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while (api is None or viewer is None) and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"cuccu run exited with {proc.wait()}")
        if found := re.search(r"serving on (http://\S+)", line):
            api = found.group(1)
        if found := re.search(r"viewer on (http://\S+)", line):
            viewer = found.group(1)
    assert api is not None and viewer is not None, "cuccu run did not print both URLs"
    return api, viewer


def _drain(proc: subprocess.Popen[str]) -> None:
    assert proc.stdout is not None
    try:
        for _ in proc.stdout:
            pass
    except (OSError, ValueError):  # closed by stop()
        pass


def open_app(page: Page, url: str) -> None:
    """``page.goto(url)``, and once more if the app has not drawn its sidebar within 30 s (a
    first load of Streamlit's scripts on a loaded machine has been seen never to finish)."""
    for attempt in (1, 2):
        page.goto(url)
        try:
            page.locator('[data-testid="stSidebar"]').wait_for(timeout=30_000)
            return
        except Exception:
            if attempt == 2:
                raise


@contextmanager
def cuccu_run(database: Path) -> Iterator[tuple[Api, str]]:
    """`cuccu run` (the API and its viewer) on free ports and a fresh SQLite file."""
    env = {**os.environ, "CUCCU_DATABASE_URL": f"sqlite:///{database}"}
    command = [sys.executable, "-m", "api.cli", "run", "--port", str(free_port()),
               "--viewer-port", str(free_port()), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)  # fmt: skip
    try:
        api_url, viewer_url = _read_urls(proc)
        wait_http(f"{api_url}/health", proc)
        wait_http(f"{viewer_url}/_stcore/health", proc)
        # keep reading what the two servers print: a pipe nobody reads fills up, and then a
        # server blocks on its next line (a page that never loads)
        threading.Thread(target=_drain, args=(proc,), daemon=True).start()
        yield Api(api_url), viewer_url
    finally:
        stop(proc)


def settle(page: Page) -> None:
    """Wait until Streamlit has finished the run (its "running" indicator is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=TIMEOUT_MS
    )


def choose_language(page: Page, label: str) -> None:
    """Pick ``label`` in the sidebar's language selector."""
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name=label, exact=True).click()
    settle(page)


def main_text(page: Page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()
