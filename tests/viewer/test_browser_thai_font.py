"""Thai reads in the browser on a machine with no Thai font: the viewer brings its own.

These tests run in Debian's Chromium on a machine where `fc-list :lang=th` is empty, so any Thai
letter not drawn with the bundled face would be a box. Chromium's DevTools report which font
drew a node's text: that is what is asserted, for Streamlit's own text and the SVG table.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.viewer.browser import choose_language, main_text, open_app, settle
from tests.viewer.support import Api
from viewer.typeface import FONT_FILE

if TYPE_CHECKING:
    from playwright.sync_api import Page

BUNDLED = "Noto Sans Thai"  # the family name inside the bundled file
THAI = re.compile("[\u0e01-\u0e5b]")
# Characters that need an emoji font: pictographs, symbols and dingbats, playing cards.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")
MARK = "data-font-probe"


def _fonts_drawing(page: Page, selector: str) -> list[dict[str, Any]]:
    """The fonts Chromium used for the first text with Thai letters in (or inside) an element
    that ``selector`` matches."""
    found = page.evaluate(
        """([selector, mark]) => {
            const thai = /[\\u0e01-\\u0e5b]/;
            const outer = [...document.querySelectorAll(selector)];
            for (const el of outer.flatMap(o => [o, ...o.querySelectorAll("*")])) {
                const own = [...el.childNodes].filter(n => n.nodeType === Node.TEXT_NODE)
                    .map(n => n.textContent).join("");
                if (thai.test(own)) { el.setAttribute(mark, ""); return own; }
            }
            return null;
        }""",
        [selector, MARK],
    )
    assert found, f"no Thai text under {selector}"
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f"[{MARK}]"})["nodeId"]
        fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})[
            "fonts"
        ]
    finally:
        page.evaluate("mark => document.querySelector(`[${mark}]`)?.removeAttribute(mark)", MARK)
        cdp.detach()
    return fonts


def _drawn_with_bundled_font(fonts: list[dict[str, Any]]) -> bool:
    """Every glyph came from a web font, and the Thai ones from the bundled face."""
    return any(f["familyName"] == BUNDLED and f["isCustomFont"] for f in fonts) and all(
        f["isCustomFont"] for f in fonts
    )


def test_the_machine_has_no_thai_font() -> None:
    """What the other tests prove holds only here: a machine without a Thai system font."""
    try:
        listed = subprocess.run(
            ["fc-list", ":lang=th"], capture_output=True, text=True, check=True
        ).stdout
    except FileNotFoundError:
        pytest.skip("fc-list (fontconfig) is not installed")
    assert listed.strip() == "", "a Thai system font is installed; the browser tests prove less"


def test_the_bundled_font_and_its_licence_are_in_the_package() -> None:
    assert FONT_FILE.stat().st_size < 64_000  # the Thai letters only: a small page to load
    assert FONT_FILE.read_bytes()[:4] == b"wOF2"
    licence = (FONT_FILE.parent / "OFL.txt").read_text()
    assert "SIL Open Font License" in licence and "Noto Project Authors" in licence


def test_thai_pages_are_drawn_with_the_bundled_font(
    service: tuple[Api, str], page: Page, tmp_path: Path
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/rules")
    expect(page.get_by_role("heading", name="Cuccù: how to play")).to_be_visible()
    choose_language(page, "ไทย")
    expect(page.get_by_role("heading", name="Cuccù: วิธีเล่น")).to_be_visible()
    page.evaluate("document.fonts.ready")
    faces = page.evaluate(
        "() => [...document.fonts].filter(f => f.unicodeRange.includes('E01'))"
        ".map(f => [f.family, f.status])"
    )
    assert faces == [["Source Sans", "loaded"]]
    for selector in (
        '[data-testid="stMain"] h1',  # the page title, bold
        '[data-testid="stMain"] h2',  # the rules' headings
        '[data-testid="stMain"] [data-testid="stMarkdownContainer"] p',  # body text
        '[data-testid="stMain"] td',  # the card table
        '[data-testid="stSidebar"] label p',  # the sidebar's field labels
    ):
        fonts = _fonts_drawing(page, selector)
        assert _drawn_with_bundled_font(fonts), (selector, fonts)
    page.screenshot(path=tmp_path / "rules-th.png")
    assert (tmp_path / "rules-th.png").stat().st_size > 10_000


def test_the_card_table_draws_thai_with_the_bundled_font(
    service: tuple[Api, str], page: Page
) -> None:
    api, viewer = service
    match_id = api.bot_match(33, ("Ann", "Bob", "Cy", "Di"))
    open_app(page, f"{viewer}/replay?match={match_id}")
    expect(page.get_by_role("button", name="Next ›")).to_be_visible()
    settle(page)
    choose_language(page, "ไทย")
    table = page.locator(".ct-board").first
    expect(table).to_be_visible()
    expect(table).to_contain_text(THAI)
    fonts = _fonts_drawing(page, ".ct-board")
    assert _drawn_with_bundled_font(fonts), fonts
    # and in Thai too, nothing needs an emoji font
    assert not EMOJI.findall(main_text(page) + (table.text_content() or ""))
