"""Replay speed: load a 4-seat, 20-round match into the viewer and time each step's redraw.

    python bench/replay.py [--steps N]

Drives the real Streamlit app with ``streamlit.testing.v1.AppTest`` (the server side of a
redraw: the whole script run, as for a browser) and also times the pure parts directly.
Targets: load < 2 s, step < 200 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

from domain.audit import audit, chain, parse_ndjson, to_ndjson  # noqa: E402
from domain.games.cuccu.events import RoundEnded  # noqa: E402
from viewer.games.cuccu import long_match  # noqa: E402
from viewer.games.cuccu_replay import Replay  # noqa: E402

APP = str(ROOT / "viewer" / "app.py")
LOAD_TARGET, STEP_TARGET = 2.0, 0.200
# the page shows ``text`` and Streamlit's "running" indicator is gone (checked every frame)
REDRAWN = """text => document.body.innerText.includes(text)
    && !document.querySelector('[data-testid="stStatusWidget"]')"""
# in the page: click the button labelled ``label``, then wait (every frame) until ``text`` shows
# and the run is over; the milliseconds from the click to that frame (no driver overhead)
CLICK_AND_WAIT = """async ([label, text]) => {
    const button = [...document.querySelectorAll("button")].find(b => b.innerText.trim() === label);
    const start = performance.now();
    button.click();
    const done = () => document.body.innerText.includes(text)
        && !document.querySelector('[data-testid="stStatusWidget"]');
    while (!done()) { await new Promise(r => requestAnimationFrame(r)); }
    return performance.now() - start;
}"""


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60, help="steps to time (default 60)")
    parser.add_argument("--browser", action="store_true",
                        help="also time it in headless chromium (/usr/bin/chromium)")  # fmt: skip
    args = parser.parse_args()

    events = long_match(20)
    text = to_ndjson(chain(events)).encode()
    rounds = sum(isinstance(e, RoundEnded) for e in events)
    print(f"match: 4 seats, {rounds} rounds, {len(events)} events, {len(text) / 1024:.0f} KiB")

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
    assert not at.exception and at.session_state["step"] == 0, at.exception
    load = t2 - t1

    steps: list[float] = []
    for _ in range(min(args.steps, replay.last_step)):
        t = time.perf_counter()
        at.button(key="next").click().run()
        steps.append(time.perf_counter() - t)
    assert at.session_state["step"] == len(steps)
    t = time.perf_counter()
    at.slider(key="slider").set_value(replay.last_step).run()
    jump = time.perf_counter() - t
    t = time.perf_counter()
    at.selectbox(key="round_pick").set_value(10).run()
    to_round = time.perf_counter() - t

    steps.sort()
    p95 = steps[int(0.95 * (len(steps) - 1))]
    print("app (AppTest, one script run per action):")
    print(f"  start app + Replay    {_ms(t1 - t0)}")
    print(f"  load the match        {_ms(load)}   target < {LOAD_TARGET:.0f} s")
    print(f"  step, median          {_ms(statistics.median(steps))}   target < 200 ms")
    print(f"  step, p95             {_ms(p95)}")
    print(f"  step, max             {_ms(steps[-1])}   ({len(steps)} steps)")
    print(f"  slider to the end     {_ms(jump)}")
    print(f"  jump to round 10      {_ms(to_round)}")
    verdicts = [("app load", load, LOAD_TARGET), ("app step p95", p95, STEP_TARGET)]
    if args.browser:
        browser_load, browser_steps = _browser(text, min(args.steps, 30))
        browser_steps.sort()
        b50 = statistics.median(browser_steps)
        b95 = browser_steps[int(0.95 * (len(browser_steps) - 1))]
        print("browser (headless chromium; from the click until the page has redrawn, which")
        print("includes Streamlit's websocket round trip and the browser's own rendering):")
        print(f"  load the match        {_ms(browser_load)}")
        print(f"  step, median          {_ms(b50)}")
        print(f"  step, p95             {_ms(b95)}   ({len(browser_steps)} steps)")
        verdicts += [("browser load", browser_load, LOAD_TARGET),
                     ("browser step median", b50, STEP_TARGET),
                     ("browser step p95", b95, STEP_TARGET)]  # fmt: skip
    print("targets (figure / budget):")
    for name, figure, budget in verdicts:
        print(f"  {name:20s} {figure / budget:5.0%}  {'met' if figure < budget else 'MISSED'}")
    ok = all(figure < budget for _, figure, budget in verdicts)
    return 0 if ok else 1


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
            load = time.perf_counter() - t
            total = text.count(b"\n")
            steps = []
            for step in range(1, count + 1):
                elapsed = page.evaluate(CLICK_AND_WAIT, ["Next ▶", f"Event {step} of {total}"])
                steps.append(elapsed / 1000)
            browser.close()
        return load, steps
    finally:
        server.terminate()
        server.wait(timeout=15)


if __name__ == "__main__":
    raise SystemExit(main())
