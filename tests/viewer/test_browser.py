"""End to end in a real browser: `cuccu run` (API + viewer), a bot match, Replay, Audit.

Needs Debian's chromium at /usr/bin/chromium and Playwright for Python (never its own browser
download). Without them the test is skipped, except under CI=true, where it fails.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
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


def _need_browser() -> None:
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


def _settle(page: Page) -> None:
    """Wait until Streamlit has finished the run (its "running" indicator is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=TIMEOUT_MS
    )


@pytest.fixture
def service(tmp_path: Path) -> Iterator[tuple[Api, str]]:
    _need_browser()
    env = {**os.environ, "CUCCU_DATABASE_URL": f"sqlite:///{tmp_path / 'cuccu.db'}"}
    command = [sys.executable, "-m", "api.cli", "run", "--port", str(free_port()),
               "--viewer-port", str(free_port()), "--log-level", "warning"]  # fmt: skip
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)  # fmt: skip
    try:
        api_url, viewer_url = _read_urls(proc)
        wait_http(f"{api_url}/health", proc)
        wait_http(f"{viewer_url}/_stcore/health", proc)
        yield Api(api_url), viewer_url
    finally:
        stop(proc)


def test_replay_and_audit_a_bot_match_in_a_browser(
    service: tuple[Api, str], tmp_path: Path
) -> None:
    from playwright.sync_api import expect, sync_playwright

    api, viewer_url = service
    match_id = api.bot_match(21, ("Ann", "Bob", "Cy", "Di"))
    export = httpx.get(f"{api.base}/matches/{match_id}/export", timeout=30).text
    total = sum('"record"' in line for line in export.splitlines())  # not the seal line

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1100})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(viewer_url)
            expect(page.get_by_text("Finished match to open")).to_be_visible()
            page.screenshot(path=tmp_path / "matches.png")
            page.get_by_role("button", name="Open in Replay").click()

            next_button = page.get_by_role("button", name="Next ▶")
            expect(next_button).to_be_visible()
            expect(page.get_by_text(f"Open: {match_id[:8]}")).to_be_visible()
            for step in (1, 2, 3):
                next_button.click()
                expect(page.get_by_text(f"Event {step} of {total}")).to_be_visible()
                _settle(page)
            caption = page.locator('[data-testid="stAlertContentInfo"]').inner_text()
            assert "is dealt" in caption
            expect(page.get_by_text("Round 1 starts").first).to_be_visible()  # the running log
            page.screenshot(path=tmp_path / "replay.png")

            page.locator('[data-testid="stSidebarNav"] a', has_text="Audit").click()
            expect(page.get_by_text("Every check passes")).to_be_visible()
            expect(page.get_by_text("Re-execution of the decisions")).to_be_visible()
            _settle(page)
            page.screenshot(path=tmp_path / "audit.png", full_page=True)
        finally:
            browser.close()
    for name in ("matches.png", "replay.png", "audit.png"):
        assert (tmp_path / name).stat().st_size > 10_000
