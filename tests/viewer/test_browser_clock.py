"""Play's clock and rematch in a real browser: a person asks for a clock on the form, sees each
seat's clock beside the table, plays to the end and starts the rematch.

`cuccu run` (API and viewer) in Debian's Chromium.
"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import TYPE_CHECKING

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.viewer.browser import open_app, settle
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Page

OVER = re.compile(r"^The match is over: .+ wins\.$")
MATCH = re.compile(r"^Match (\w{8}) · round")


def _match_id(page: Page) -> str:
    found = MATCH.match(page.get_by_text(MATCH).first.inner_text())
    assert found is not None
    return found.group(1)


def test_a_clocked_match_shows_its_clocks_and_ends_with_a_rematch(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/play")
    expect(page.get_by_label("Lives each")).to_be_visible()
    settle(page)
    page.get_by_label("Lives each").fill("1")
    page.get_by_label("Seats at the table (you and the bots)").fill("2")
    page.get_by_text("Play with a clock").click()
    page.get_by_label("Seconds per decision").fill("40")
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(MATCH)).to_be_visible()
    settle(page)
    expect(page.get_by_text("Clock (40 s per decision)")).to_be_visible()
    expect(page.get_by_text(re.compile(r"reserve 5:00"))).to_have_count(2)  # one line a seat
    first = _match_id(page)
    for _ in range(150):  # click the first offered choice until the match ends
        if page.get_by_text(OVER).count():
            break
        buttons = page.locator('[data-testid="stMain"] [data-testid="stButton"] button:visible')
        # a button of the run before may still be fading out: look again after a while
        with suppress(PlaywrightTimeout):
            buttons.filter(has_not_text="Leave").first.click(timeout=5_000)
        settle(page)
    expect(page.get_by_text(OVER).first).to_be_visible()
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_text(OVER)).to_have_count(0)
    settle(page)
    second = _match_id(page)
    assert second != first
    expect(page.get_by_text("Clock (40 s per decision)")).to_be_visible()
