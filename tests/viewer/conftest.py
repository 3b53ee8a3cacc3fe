"""Fixtures for the viewer tests: exports of bot matches, a real API, a real browser."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from domain.audit import chain, to_ndjson
from tests.viewer.browser import ARGS, CHROMIUM, TIMEOUT_MS, cuccu_run, need_browser
from tests.viewer.support import ROOT, Api, free_port, stop, wait_http
from viewer.games.cuccu import bot_match

if TYPE_CHECKING:
    from playwright.sync_api import Page


@pytest.fixture(scope="session")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """The real API (``cuccu run`` without its viewer) on a free port and a temp SQLite DB."""
    db = tmp_path_factory.mktemp("api") / "cuccu.db"
    port = free_port()
    env = {**os.environ, "CUCCU_DATABASE_URL": f"sqlite:///{db}"}
    # its output goes to a file: a pipe nobody reads fills up, and the server then blocks
    log = (db.parent / "api.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "run", "--port", str(port), "--no-viewer",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,  # stop() ends its bot workers with it
    )  # fmt: skip
    try:
        try:
            wait_http(f"http://127.0.0.1:{port}/health", proc)
        except (RuntimeError, TimeoutError) as e:
            raise RuntimeError(f"{e}: {(db.parent / 'api.log').read_text()[-3000:]}") from e
        yield Api(f"http://127.0.0.1:{port}")
    finally:
        stop(proc)
        log.close()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, str]]:
    """`cuccu run`, API and viewer, shared by one module's browser tests."""
    need_browser()
    with cuccu_run(tmp_path_factory.mktemp("service") / "cuccu.db") as found:
        yield found


@pytest.fixture(scope="module")
def browser(service: tuple[Api, str]) -> Iterator[Any]:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)  # 2 shared cores: a page may take more than 5 s
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


#: the window of a test's browser unless it asks for another
DESKTOP = {"width": 1400, "height": 1300}


def _console_error(message: Any, page: int, errors: list[str]) -> None:
    """A page's console error, kept beside its thrown errors: Streamlit reports there what
    breaks its connection (a page that then shows nothing new says why only there). Not the
    404s of its own probes for a page's base path (``/tables/_stcore/health``), which it
    answers itself by trying the root next."""
    if message.type == "error" and not message.text.startswith("Failed to load resource"):
        errors.append(f"page {page} console: {message.text[:300]}")


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Page]]:
    """Makes fresh browser pages, each in a context of its own (so a fresh Streamlit session,
    as another person's browser): ``new_page(**options)`` takes Playwright's context options
    (a desktop-sized window unless ``viewport`` says otherwise; ``reduced_motion``,
    ``has_touch``, ``is_mobile``, ...). Every context made is closed after the test; the
    errors its pages' scripts threw, and their consoles' errors, are printed then (shown with
    a failed test's output: a page the viewer's own code broke in the browser says so there)."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(**{"viewport": DESKTOP, **options})
        contexts.append(context)
        found: Page = context.new_page()
        found.set_default_timeout(TIMEOUT_MS)
        number = len(contexts)
        found.on("pageerror", lambda error: errors.append(f"page {number}: {error}"))
        found.on("console", lambda message: _console_error(message, number, errors))
        return found

    try:
        yield make
    finally:
        for context in contexts:
            context.close()
        if errors:
            print("\nerrors thrown in the browser pages:\n" + "\n".join(errors[:20]))


@pytest.fixture
def page(new_page: Callable[..., Page]) -> Page:
    """A fresh browser page, so a fresh Streamlit session, on a desktop-sized window."""
    return new_page()


@pytest.fixture(scope="session")
def export_text() -> str:
    """The NDJSON export of a finished 4-seat bot match."""
    return to_ndjson(chain(bot_match(5, levels=("basic", "random"))))


@pytest.fixture(scope="session")
def tampered_text(export_text: str) -> tuple[str, int]:
    """The same export with one dealt card changed (hashes untouched), and its version."""
    lines = export_text.splitlines()
    for index, line in enumerate(lines):
        if '"type":"card_dealt"' in line and index > 10:
            card = line.split('"card":"')[1].split('"')[0]
            other = "lion#1" if card != "lion#1" else "lion#2"
            lines[index] = line.replace(f'"card":"{card}"', f'"card":"{other}"')
            return "\n".join(lines) + "\n", index + 1
    raise AssertionError("no deal to tamper with")
