"""Play's speed in a browser: from a choice (a click on its button, or its key) to the frame in
which the table shows the new state.

    python bench/play.py [--choices N] [--seats S] [--pace normal|fast|off] [--root TREE]

Starts `cuccu run` (the API and its viewer) on free ports and a fresh SQLite file, opens Play
in headless Chromium (/usr/bin/chromium), starts a Cuccù match against bots and takes ``N``
choices, alternately by a click on the first choice's button and by its key (``1``). Each is
timed in the page, from the click or the key press until the frame after the table's drawing
changed (Streamlit's script run, the API's answer and the component's redraw included), and
until the page has settled with the next decision offered (pressing *Skip* as soon as it
shows, and *Refresh* when the page caught up before every bot had answered). At the default
pace the first frame shows this seat's own action (the bots' replies follow one at a time;
they are skipped here); at ``--pace off`` it shows the bots' replies too.

``--root TREE`` serves another checkout of the project (``git archive COMMIT | tar -x -C
TREE``) with this script's driver, for a "before" figure. A tree older than the card-table
component (``viewer/card_table/``) draws its table as an SVG, has no pace, no seats setting and
no keys: its choices are all taken by a click, and its first frame includes the bots' replies.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PACES = {"normal": "One at a time", "fast": "One at a time, fast", "off": "All at once"}
CHOICES = '[data-testid="stMain"] [class*="st-key-do_"] button'
# in the page: take the first choice (``how``: "click" or "key") and wait, frame by frame, until
# the table's drawing differs from the one before; the milliseconds to the frame after that
CHOOSE_AND_WAIT = """async (how) => {
    const board = () => document.querySelector('.ct-board, svg.cuccu-table');
    // (a card in flight is not the drawing: it is gone a moment later)
    const flying = /<div[^>]*ct-flying[^>]*><\\/div>/g;
    const drawn = () => (board() ? board().outerHTML.replace(flying, '') : '');
    const before = drawn();
    const start = performance.now();
    if (how === 'key') {
        document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '1', bubbles: true}));
    } else {
        document.querySelector('CHOICES').click();
    }
    while (drawn() === before || !board()) {
        if (performance.now() - start > 30000) return null;  // not taken: not counted
        await new Promise(r => requestAnimationFrame(r));
    }
    await new Promise(r => requestAnimationFrame(r));  // the frame that shows it
    return performance.now() - start;
}""".replace("CHOICES", CHOICES.replace("'", "\\'"))
IDLE = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def _urls(proc: subprocess.Popen[str]) -> tuple[str, str]:
    api = viewer = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if found := re.search(r"serving on (http://\S+)", line):
            api = found.group(1)
        if found := re.search(r"viewer on (http://\S+)", line):
            viewer = found.group(1)
        if api and viewer:
            return api, viewer
    raise RuntimeError("cuccu run exited before printing its URLs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--choices", type=int, default=20, help="choices to time (default 20)")
    parser.add_argument("--seats", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--pace", choices=list(PACES), default="normal",
                        help="the bots' moves: one at a time (default), fast, at once")  # fmt: skip
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout to serve (default: this one)")  # fmt: skip
    args = parser.parse_args()
    args.root = args.root.resolve()
    args.component = (args.root / "viewer" / "card_table").is_dir()

    import httpx
    from playwright.sync_api import sync_playwright

    from tests.viewer.support import free_port, stop

    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CUCCU_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
               "PYTHONPATH": str(args.root)}  # fmt: skip
        viewer_port = free_port()
        command = [sys.executable, "-m", "api.cli", "run", "--port", str(free_port()),
                   "--viewer-port", str(viewer_port), "--log-level", "warning"]  # fmt: skip
        output = subprocess.PIPE if args.component else subprocess.DEVNULL
        proc = subprocess.Popen(command, cwd=args.root, env=env, stdout=output,
                                stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)  # fmt: skip
        try:
            # (an older tree may not print its viewer's address)
            viewer = _urls(proc)[1] if args.component else f"http://127.0.0.1:{viewer_port}"
            for _ in range(300):
                try:
                    if httpx.get(f"{viewer}/_stcore/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            frames, settled = _drive(sync_playwright, viewer, args)
        finally:
            stop(proc)
    tree = "" if args.root == ROOT else f", tree {args.root}"
    how = (f"{args.seats} seats, pace {args.pace!r}" if args.component
           else "4 seats, no pace, clicks only")  # fmt: skip
    print(f"Cuccù, {how}, {len(frames)} choices{tree} "
          "(headless chromium; in the page, from the click or key to the frame)")  # fmt: skip
    for name, figures in (("click/key to frame", frames), ("to the next decision", settled)):
        figures.sort()
        p95 = figures[int(0.95 * (len(figures) - 1))]
        print(f"  {name:22s} median {_ms(statistics.median(figures))}   p95 {_ms(p95)}"
              f"   min {_ms(figures[0])}   max {_ms(figures[-1])}")  # fmt: skip
    return 0


def _drive(sync_playwright: object, viewer: str,
           args: argparse.Namespace) -> tuple[list[float], list[float]]:  # fmt: skip
    """Play ``args.choices`` choices in chromium; each one's time to frame and to settle."""
    frames: list[float] = []
    settled: list[float] = []
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    with sync_playwright() as p:  # type: ignore[operator]
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])  # fmt: skip
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.set_default_timeout(120_000)
        page.goto(f"{viewer}/play")
        if args.component:
            page.get_by_label("Seats at the table (you and the bots)").fill(str(args.seats))
        page.wait_for_function(IDLE)
        page.get_by_role("button", name="Start a match").click()
        if args.component:
            page.get_by_text(PACES[args.pace], exact=True).click()
        while len(frames) < args.choices:
            page.locator(".ct-board, svg.cuccu-table").first.wait_for()
            page.wait_for_timeout(300)
            page.wait_for_function(IDLE)
            rematch = page.get_by_role("button", name="Rematch")
            if rematch.count():
                with suppress(PlaywrightTimeout):
                    rematch.click(timeout=5_000)
                continue
            # a tree without Rematch: leave the match over and start another
            leave = page.get_by_role("button", name="Leave this match")
            if not args.component and leave.count() and not page.locator(CHOICES).count():
                with suppress(PlaywrightTimeout):
                    leave.click(timeout=5_000)
                    page.get_by_role("button", name="Start a match").click(timeout=10_000)
                continue
            choice = page.locator(f"{CHOICES}:visible").first
            try:
                choice.wait_for(timeout=10_000)
            except Exception:  # noqa: BLE001 - no choice yet: a step still playing, or waiting
                refresh = page.get_by_role("button", name="Refresh", exact=True)
                if refresh.count():
                    with suppress(PlaywrightTimeout):
                        refresh.first.click(timeout=2_000)
                skip = page.get_by_role("button", name=re.compile(r"Skip"))
                if skip.count():
                    with suppress(PlaywrightTimeout):
                        skip.first.click(timeout=2_000)
                continue
            how = "key" if len(frames) % 2 and args.component else "click"
            t = time.perf_counter()
            elapsed = page.evaluate(CHOOSE_AND_WAIT, how)
            print(f"  {how}: {elapsed} ms", file=sys.stderr, flush=True)
            if elapsed is None:
                continue
            frames.append(elapsed / 1000)
            # until the next decision: the bots' steps skipped, the page settled
            while True:
                page.wait_for_timeout(50)
                skip = page.get_by_role("button", name=re.compile(r"Skip$"))
                if skip.count():
                    with suppress(PlaywrightTimeout):  # gone meanwhile: the steps ended
                        skip.first.click(timeout=2_000)
                    continue
                page.wait_for_function(IDLE)
                over = rematch.count() or (not args.component and leave.count())
                if page.locator(f"{CHOICES}:visible").count() or over:
                    break
                # the bots had not all answered when the page caught up: ask again, as a person
                # waiting would
                refresh = page.get_by_role("button", name="Refresh", exact=True)
                if refresh.count():
                    with suppress(PlaywrightTimeout):
                        refresh.first.click(timeout=2_000)
                    page.wait_for_timeout(250)
            settled.append(time.perf_counter() - t)
        browser.close()
    return frames, settled


if __name__ == "__main__":
    raise SystemExit(main())
