"""The README's screenshots of Play and Replay, desktop and a 390 px phone, from a live viewer.

    .venv/bin/python -m tests.viewer.screenshots docs/img

Starts `cuccu run` on free ports with a fresh SQLite file, plays in Debian's Chromium and
writes, for Cuccù, play-desktop.png, play-phone.png, replay-desktop.png and replay-phone.png,
and for Cucco 21 the same four names with "21" after the page's (play21-desktop.png, ...);
and rules-th-desktop.png, the Rules page in Thai (drawn with the viewer's bundled Thai font).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect, sync_playwright

from tests.viewer.browser import ARGS, CHROMIUM, TIMEOUT_MS, choose_language, cuccu_run, settle

# name -> (viewport, device pixel ratio); the phone is tall so that one picture holds the page
VIEWPORTS = {
    "desktop": ({"width": 1400, "height": 1150}, 1),
    "phone": ({"width": 390, "height": 2000}, 2),
}
REPLAY_SEED = 21
REPLAY21_SEED = 4


def _bot_game21(api: str, seed: int) -> str:
    """A finished Cucco 21 game of four basic bots (one set), its match id."""
    seats = [{"name": n, "kind": "bot", "bot_level": "basic"} for n in ("Ann", "Bob", "Cy", "Di")]
    body = {"game": "cucco21", "seats": seats, "seed": seed, "max_sets": 1}
    response = httpx.post(f"{api}/matches", json=body, timeout=60)
    response.raise_for_status()
    match_id: str = response.json()["match_id"]
    return match_id


def _replay_step(api: str, match_id: str, kinds: tuple[str, ...]) -> int:
    """The first step of the match with an action worth showing (an arrow between seats)."""
    lines = httpx.get(f"{api}/matches/{match_id}/export", timeout=30).text.splitlines()
    for kind in kinds:
        for step, line in enumerate(lines, 1):
            if f'"type":"{kind}"' in line:
                return step
    return 1


def _replay(page: Page, viewer: str, match_id: str, step: int) -> None:
    page.goto(f"{viewer}/replay?match={match_id}")
    expect(page.get_by_role("button", name="Next ›")).to_be_visible()
    settle(page)
    for at in range(1, step + 1):
        page.get_by_role("button", name="Next ›").click()
        expect(page.get_by_text(f"Event {at} of")).to_be_visible()
    settle(page)
    _drawn(page)


def _drawn(page: Page) -> None:
    """Wait until the table and any table of events are painted, not just in the page."""
    expect(page.locator("svg.cuccu-table").first).to_be_visible()
    for grid in page.locator('[data-testid="stDataFrame"] canvas').all():
        expect(grid).to_be_visible()
    size = page.viewport_size or {"width": 1, "height": 1}
    page.mouse.move(size["width"] - 1, size["height"] - 1)  # hovering nothing: no tool bars
    page.wait_for_timeout(800)  # the data grid paints its canvas after it is attached


def _play(page: Page, viewer: str) -> None:
    page.goto(f"{viewer}/play")
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text("Your decision")).to_be_visible()
    settle(page)
    page.get_by_text("Coach: show the expert's estimate for each choice").click()
    expect(page.get_by_text("chance of losing a life").first).to_be_visible()
    settle(page)
    _drawn(page)


def _play21(page: Page, viewer: str) -> None:
    page.goto(f"{viewer}/play")
    page.get_by_text("Cucco 21", exact=True).click()
    expect(page.get_by_label("Starting chips")).to_be_visible()  # Cucco 21's own form
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(re.compile(r"^Game \w{8} · set 1"))).to_be_visible()
    settle(page)
    _drawn(page)


def _rules_in_thai(page: Page, viewer: str) -> None:
    page.goto(f"{viewer}/rules")
    expect(page.get_by_role("heading", name="Cuccù: how to play")).to_be_visible()
    choose_language(page, "ไทย")
    expect(page.get_by_role("heading", name="Cuccù: วิธีเล่น")).to_be_visible()
    page.evaluate("document.fonts.ready")
    settle(page)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, cuccu_run(Path(tmp) / "cuccu.db") as (api, viewer):
        match_id = api.bot_match(REPLAY_SEED, ("Ann", "Bob", "Cy", "Di"))
        step = _replay_step(api.base, match_id, ("exchange_refused", "pledge_made",
                                                 "cards_exchanged"))  # fmt: skip
        game21 = _bot_game21(api.base, REPLAY21_SEED)
        step21 = _replay_step(api.base, game21, ("traded", "refused", "sent_on"))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            expect.set_options(timeout=TIMEOUT_MS)
            for name, (viewport, scale) in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport, device_scale_factor=scale)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                _replay(page, viewer, match_id, step)
                page.screenshot(path=out / f"replay-{name}.png")
                _play(page, viewer)
                page.screenshot(path=out / f"play-{name}.png")
                _replay(page, viewer, game21, step21)
                page.screenshot(path=out / f"replay21-{name}.png")
                _play21(page, viewer)
                page.screenshot(path=out / f"play21-{name}.png")
                if name == "desktop":
                    _rules_in_thai(page, viewer)
                    page.screenshot(path=out / f"rules-th-{name}.png")
                context.close()
            browser.close()
    for found in sorted(out.glob("*.png")):
        print(found, found.stat().st_size)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
