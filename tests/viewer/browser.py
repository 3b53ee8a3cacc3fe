"""Driving the viewer in Debian's Chromium with Playwright (never Playwright's own browser).

Without /usr/bin/chromium or Playwright the browser tests are skipped, except under CI=true,
where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.viewer.support import ROOT, Api, free_port, stop, wait_http

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

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


def _read_urls(lines: queue.Queue[str | None], timeout: float = 60.0) -> tuple[str, str]:
    """The API and viewer URLs that `cuccu run` prints (its lines come from ``_drain``)."""
    api = viewer = None
    deadline = time.monotonic() + timeout
    while api is None or viewer is None:
        try:
            # never a bare readline(): it would wait forever on a server that hangs silently
            line = lines.get(timeout=max(0.001, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            raise RuntimeError("cuccu run exited before printing its URLs")
        if found := re.search(r"serving on (http://\S+)", line):
            api = found.group(1)
        if found := re.search(r"viewer on (http://\S+)", line):
            viewer = found.group(1)
    assert api is not None and viewer is not None, "cuccu run did not print both URLs"
    return api, viewer


def _drain(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Read everything the server prints, to its end: a pipe nobody reads fills up, and then
    the server blocks on its next line (a page that never loads)."""
    assert proc.stdout is not None
    try:
        for line in proc.stdout:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def open_app(page: Page, url: str) -> None:
    """``page.goto(url)``, and once more if the app has not drawn its sidebar within 30 s (a
    first load of Streamlit's scripts on a loaded machine has been seen never to finish)."""
    for attempt in (1, 2):
        page.goto(url)
        try:
            # attached: on a phone the sidebar is drawn collapsed
            page.locator('[data-testid="stSidebar"]').wait_for(state="attached", timeout=30_000)
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
                            stderr=subprocess.STDOUT, text=True, bufsize=1,
                            start_new_session=True)  # stop() ends the viewer with it  # fmt: skip
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_drain, args=(proc, lines), daemon=True).start()
    try:
        api_url, viewer_url = _read_urls(lines)
        wait_http(f"{api_url}/health", proc)
        wait_http(f"{viewer_url}/_stcore/health", proc)
        yield Api(api_url), viewer_url
    finally:
        stop(proc)


#: Streamlit's "running" sign, shown while it runs the page's script or a fragment of it
STATUS_WIDGET = '[data-testid="stStatusWidget"]'


def running(page: Page) -> bool:
    """Streamlit is running the page or a fragment of it: the elements of the run before may
    still stand."""
    return page.locator(STATUS_WIDGET).count() > 0


def settle(page: Page, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until Streamlit has finished the run (its "running" indicator is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(f"() => !document.querySelector('{STATUS_WIDGET}')", timeout=timeout_ms)


#: the buttons of the choices this seat is offered now (one per choice, on the main page)
CHOICES = '[data-testid="stMain"] [class*="st-key-do_"] button:visible'


def choices(page: Page) -> Locator:
    """The choices' buttons (Play, or a seat at a table), in the order they are offered."""
    return page.locator(CHOICES)


# The buttons that carry a Play match on: a choice, the paced steps' skip or watch, a refresh
# while another seat decides. Never Rematch, Open in Replay or Leave: clicking "the first button"
# once picked Rematch just as the match ended, and the test then waited for a finished match on
# the rematch's page (a fresh-clone CI failure).
PLAYING_ON = (
    '[data-testid="stMain"] :is([class*="st-key-do_"], .st-key-play_watch, .st-key-play_skip_end,'
    " .st-key-play_skip, .st-key-refresh) button:visible"
)


def play_on(page: Page, timeout_ms: int = 5_000) -> bool:
    """Click the first button that carries the match on; False if none came within the time (a
    button of the run before may still be fading out: the caller settles and looks again)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.locator(PLAYING_ON).first.click(timeout=timeout_ms)
    except PlaywrightTimeout:
        return False
    return True


def settle_paced(page: Page, timeout_ms: int = 15_000) -> None:
    """``settle`` on a Play page that may be showing the bots' steps one at a time: their
    fragment runs again and again, and on a loaded box a run can outlast its interval, so the
    page may never stop running for long. Wait a while for it, then go on (the caller waits for
    what it needs to see)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with suppress(PlaywrightTimeout):
        settle(page, timeout_ms)


def choose_language(page: Page, label: str) -> None:
    """Pick ``label`` in the sidebar's language selector."""
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name=label, exact=True).click()
    settle(page)


def main_text(page: Page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()
