"""Replay speed: open a long match in the viewer and time each step's redraw.

    python bench/replay.py [--seats S] [--rounds R] [--steps N] [--browser]

Drives the real Streamlit app with ``streamlit.testing.v1.AppTest`` (the server side: the
script run that builds every step's drawing for the card table component, once per match and
language) and, with ``--browser``, headless Chromium: the time to open the match, and the
time from a key press (→) to the frame that shows the next step, stepped by the component in
the browser with no Streamlit rerun. Targets: load < 2 s, key to frame < 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from domain.audit import audit, chain, parse_ndjson, to_ndjson  # noqa: E402
from domain.games.cuccu.events import RoundEnded  # noqa: E402
from viewer.games.cuccu import long_match  # noqa: E402
from viewer.games.cuccu_replay import Replay  # noqa: E402

APP = str(ROOT / "viewer" / "app.py")
LOAD_TARGET, STEP_TARGET = 2.0, 0.050
# the page shows ``text`` and Streamlit's "running" indicator is gone (checked every frame)
REDRAWN = """text => document.body.innerText.includes(text)
    && !document.querySelector('[data-testid="stStatusWidget"]')"""
# in the page: press → and wait (every frame) until the table's heading reads ``text``; the
# milliseconds from the key to the frame after it (no driver overhead)
KEY_AND_WAIT = """async (text) => {
    const heading = () => document.querySelector('.ct-heading');
    const start = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
    while (!heading() || !heading().textContent.startsWith(text)) {
        await new Promise(r => requestAnimationFrame(r));
    }
    await new Promise(r => requestAnimationFrame(r));  // the frame that shows it
    return performance.now() - start;
}"""


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60, help="steps to time (default 60)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of the match (default 20)")
    parser.add_argument("--seats", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--browser", action="store_true",
                        help="also time it in headless chromium (/usr/bin/chromium)")  # fmt: skip
    args = parser.parse_args()

    events = long_match(args.rounds, args.seats)
    text = to_ndjson(chain(events)).encode()
    rounds = sum(isinstance(e, RoundEnded) for e in events)
    size = f"{len(text) / 1024:.0f} KiB"
    print(f"match: {args.seats} seats, {rounds} rounds, {len(events)} events, {size}")

    # --- the pure parts, timed directly ------------------------------------------------------
    start = time.perf_counter()
    records = parse_ndjson(text)
    parsed = time.perf_counter()
    report = audit(records)
    audited = time.perf_counter()
    replay = Replay(records)
    replay.captions("en")
    built = time.perf_counter()
    frames = [replay.frame(k) for k in range(replay.last_step + 1)]
    framed = time.perf_counter()
    assert report.ok
    print("direct:")
    print(f"  parse NDJSON          {_ms(parsed - start)}")
    print(f"  audit (6 checks)      {_ms(audited - parsed)}")
    print(f"  replay states+labels  {_ms(built - audited)}")
    print(f"  one frame (mean)      {(framed - built) / len(frames) * 1e6:8.1f} µs")

    # --- the app, as a browser session drives it ---------------------------------------------
    t0 = time.perf_counter()
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["api_url"] = "http://127.0.0.1:9"
    at.run()
    at.switch_page("app_pages/replay.py").run()
    t1 = time.perf_counter()
    at.file_uploader(key="upload").set_value(("bench.ndjson", text, "application/x-ndjson"))
    at.run()
    t2 = time.perf_counter()
    assert not at.exception, at.exception
    load = t2 - t1
    data = next(e.proto.json for e in _elements(at.main) if e.type == "bidi_component")
    t = time.perf_counter()
    at.run()  # a rerun (a language kept, a widget touched): the steps come from the cache
    rerun = time.perf_counter() - t

    print("app (AppTest: the script run that builds every step for the browser):")
    print(f"  start app + Replay    {_ms(t1 - t0)}")
    print(f"  load the match        {_ms(load)}   target < {LOAD_TARGET:.0f} s")
    print(f"  steps sent            {len(data) / 1024:8.0f} KiB of JSON, once per match")
    print(f"  a rerun afterwards    {_ms(rerun)}")
    verdicts = [("app load", load, LOAD_TARGET)]
    if args.browser:
        browser_load, browser_steps = _browser(text, min(args.steps, 30))
        browser_steps.sort()
        b50 = statistics.median(browser_steps)
        b95 = browser_steps[int(0.95 * (len(browser_steps) - 1))]
        print("browser (headless chromium; from the key press until the frame that shows the")
        print("next step, drawn by the component in the page, no server round trip):")
        print(f"  load the match        {_ms(browser_load)}")
        print(f"  key to frame, median  {_ms(b50)}")
        print(f"  key to frame, p95     {_ms(b95)}   ({len(browser_steps)} steps)")
        verdicts += [("browser load", browser_load, LOAD_TARGET),
                     ("key to frame median", b50, STEP_TARGET),
                     ("key to frame p95", b95, STEP_TARGET)]  # fmt: skip
    print("targets (figure / budget):")
    for name, figure, budget in verdicts:
        print(f"  {name:20s} {figure / budget:5.0%}  {'met' if figure < budget else 'MISSED'}")
    ok = all(figure < budget for _, figure, budget in verdicts)
    return 0 if ok else 1


def _elements(node: Any) -> list[Any]:
    """Every element under ``node`` of an AppTest tree."""
    found = []
    for child in getattr(node, "children", {}).values():
        found.append(child)
        found += _elements(child)
    return found


def _browser(text: bytes, count: int) -> tuple[float, list[float]]:
    """Serve the viewer, upload the export in chromium and time load and steps."""
    import os
    import socket
    import subprocess
    import tempfile

    import httpx
    from playwright.sync_api import sync_playwright

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "CUCCU_API_URL": "http://127.0.0.1:9"}
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", APP, "--server.port", str(port),
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(f"{url}/_stcore/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
            export = Path(tmp) / "bench.ndjson"
            export.write_bytes(text)
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])  # fmt: skip
            page = browser.new_page()
            page.set_default_timeout(60_000)
            page.goto(f"{url}/replay")
            chooser = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
            chooser.wait_for(state="attached")
            t = time.perf_counter()
            chooser.set_input_files(str(export))
            page.wait_for_function(REDRAWN, arg="Before the first event.", polling="raf")
            page.locator(".ct-board").wait_for()
            load = time.perf_counter() - t
            total = text.count(b"\n")
            steps = []
            for step in range(1, count + 1):
                elapsed = page.evaluate(KEY_AND_WAIT, f"Event {step} of {total}")
                steps.append(elapsed / 1000)
            browser.close()
        return load, steps
    finally:
        server.terminate()
        server.wait(timeout=15)


if __name__ == "__main__":
    raise SystemExit(main())
