"""The README's screenshots of Play and Replay, a laptop and a 390 px phone, from a live viewer.

    .venv/bin/python -m tests.viewer.screenshots docs/img

Starts `cuccu run` on free ports with a fresh SQLite file, plays in Debian's Chromium and
writes, for Cuccù at 4, 8 and 20 seats, Cucco 21 at 4, 8 and 12 (it seats at most 12) and
Ranter-Go-Round at 4, 8 and 20,
``play-<seats>-<device>.png`` and ``replay-<seats>-<device>.png`` (``play21-…`` and
``replay21-…`` for Cucco 21, ``playchase-…`` and ``replaychase-…`` for Ranter-Go-Round), each the
window as a person sees it (1366×900 and 390×844, no scrolling but the page's own), stored as
palette PNGs to stay small; and rules-th-desktop.png, the Rules page in Thai (drawn with the
viewer's bundled Thai font). A game's name after the folder (``… docs/img chase``) takes
only that game's pictures.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import Page, ViewportSize, expect, sync_playwright

from tests.viewer.browser import ARGS, CHROMIUM, TIMEOUT_MS, choose_language, cuccu_run, settle

VIEWPORTS: dict[str, ViewportSize] = {
    "desktop": {"width": 1366, "height": 900},
    "phone": {"width": 390, "height": 844},
}
TABLES = (("cuccu", 4), ("cuccu", 8), ("cuccu", 20), ("cucco21", 4), ("cucco21", 8),
          ("cucco21", 12), ("chase", 4), ("chase", 8), ("chase", 20))  # fmt: skip
SUFFIX = {"cuccu": "", "cucco21": "21", "chase": "chase"}
#: the game's name on the Play page's game picker, and a label only its own form has
FORM = {
    "cucco21": ("Cucco 21", "Starting chips"),
    "chase": ("Ranter-Go-Round", "Aces, 2s and 3s are passed face up (optional rule)"),
}
NAMES = ("Ann", "Bob", "Cy", "Di", "Eva", "Fred", "Gia", "Hugo", "Ines", "Jon", "Kai", "Lea",
         "Max", "Noa", "Olga", "Pia", "Quin", "Rosa", "Sam", "Tea")  # fmt: skip
SEED = 21
SEED21 = 4


def _bot_match(api: str, game: str, seats: int) -> str:
    """A finished game of ``seats`` basic bots (Cucco 21: one set), its match id."""
    bots = [{"name": n, "kind": "bot", "bot_level": "basic"} for n in NAMES[:seats]]
    body: dict[str, object] = {"seats": bots, "seed": SEED}
    if game == "cucco21":
        body.update(game="cucco21", seed=SEED21, max_sets=1)
    if game == "chase":
        body.update(game="chase", starting_lives=2)
    response = httpx.post(f"{api}/matches", json=body, timeout=120)
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
    """The step of a deep link, as a person who opened that link sees it."""
    page.goto(f"{viewer}/replay?match={match_id}&event={step}&lang=en")
    expect(page.get_by_text(re.compile(rf"^Event {step} of"))).to_be_visible()
    settle(page)
    _drawn(page)


def _drawn(page: Page) -> None:
    """Wait until the table is painted, then hover nothing (no tool bars)."""
    expect(page.locator(".ct-board").first).to_be_visible()
    size = page.viewport_size or {"width": 1, "height": 1}
    page.mouse.move(size["width"] - 1, size["height"] - 1)
    page.wait_for_timeout(800)


def _play(page: Page, viewer: str, game: str, seats: int) -> None:
    page.goto(f"{viewer}/play")
    settle(page)
    if game in FORM:
        title, label = FORM[game]
        page.get_by_text(title, exact=True).click()
        expect(page.get_by_label(label)).to_be_visible()  # the game's own form
        settle(page)
    # the form before may stand beside it for a moment: only the new one's seats are filled
    expect(page.get_by_label("Seats at the table")).to_have_count(1)
    page.get_by_label("Seats at the table").fill(str(seats))
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text("You are").first).to_be_visible()
    expect(page.locator(".ct-board .ct-seat")).to_have_count(seats)
    settle(page)
    _drawn(page)


def _save(page: Page, path: Path) -> None:
    """The window as a palette PNG (a third of the size of a full-colour one)."""
    page.screenshot(path=path)
    with Image.open(path) as shot:
        shot.convert("RGB").quantize(colors=128).save(path, optimize=True)


def _rules_in_thai(page: Page, viewer: str) -> None:
    page.goto(f"{viewer}/rules")
    expect(page.get_by_role("heading", name="Cuccù: how to play")).to_be_visible()
    choose_language(page, "ไทย")
    expect(page.get_by_role("heading", name="Cuccù: วิธีเล่น")).to_be_visible()
    page.evaluate("document.fonts.ready")
    settle(page)


def main(out: Path, only: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tables = [(game, n) for game, n in TABLES if only in (None, game)]
    with tempfile.TemporaryDirectory() as tmp, cuccu_run(Path(tmp) / "cuccu.db") as (api, viewer):
        matches = {(game, n): _bot_match(api.base, game, n) for game, n in tables}
        kinds = {"cuccu": ("exchange_refused", "pledge_made", "cards_exchanged"),
                 "cucco21": ("traded", "refused", "sent_on"),
                 "chase": ("king_blocked", "cards_exchanged", "stock_cut")}  # fmt: skip
        steps = {key: _replay_step(api.base, found, kinds[key[0]])
                 for key, found in matches.items()}  # fmt: skip
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            expect.set_options(timeout=TIMEOUT_MS)
            for device, viewport in VIEWPORTS.items():
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                page.set_default_timeout(TIMEOUT_MS)
                for game, n in tables:
                    suffix = SUFFIX[game]
                    _replay(page, viewer, matches[(game, n)], steps[(game, n)])
                    _save(page, out / f"replay{suffix}-{n}-{device}.png")
                    _play(page, viewer, game, n)
                    _save(page, out / f"play{suffix}-{n}-{device}.png")
                if device == "desktop" and only is None:
                    _rules_in_thai(page, viewer)
                    _save(page, out / f"rules-th-{device}.png")
                context.close()
            browser.close()
    for found in sorted(out.glob("*.png")):
        print(found, found.stat().st_size)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"),
         sys.argv[2] if len(sys.argv) > 2 else None)  # fmt: skip
