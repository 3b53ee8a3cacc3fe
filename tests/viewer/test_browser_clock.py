"""Play's clock and rematch in a real browser (issue 22): a person asks for a clock on the form,
sees each seat's clock on its box of the card table counting down by itself, plays to the end
and starts the rematch; a seat handed to a bot after its timeouts is taken back with a button.

`cuccu run` (API and viewer) in Debian's Chromium.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.viewer.browser import TIMEOUT_MS, play_on, settle
from tests.viewer.support import Api
from tests.viewer.test_browser_table import DESKTOP, MEASURE, MIN_TEXT_PX, _overlapping

if TYPE_CHECKING:
    from playwright.sync_api import Page

OVER = re.compile(r"^The match is over: .+ wins\.$")
MATCH = re.compile(r"^Match (\w{8}) · round")
PHONE = {"width": 390, "height": 844}
# the deciding seat's time to its deadline, in seconds, as its box shows it now
TIME_LEFT = """() => {
    const time = document.querySelector('.ct-seat .ct-clock[data-deciding="1"] .ct-time');
    if (!time) return null;
    return time.textContent.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}"""


def _match_id(page: Page) -> str:
    found = MATCH.match(page.get_by_text(MATCH).first.inner_text())
    assert found is not None
    return found.group(1)


def _open_play(page: Page, url: str) -> None:
    """``page.goto(url)``, once more if the form is not drawn within 30 s (as ``open_app``,
    whose sidebar a phone keeps folded: a first load on a busy machine may never finish)."""
    for attempt in (1, 2):
        page.goto(url)
        try:
            page.locator(".st-key-play_seats input").wait_for(timeout=30_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def _start(page: Page, viewer: str, *, lives: int, seconds: int, reserve: int | None) -> None:
    _open_play(page, f"{viewer}/play")
    settle(page)
    page.get_by_label("Lives each").fill(str(lives))
    page.get_by_label("Seats at the table (you and the bots)").fill("2")
    page.get_by_text("Play with a clock").click()
    page.get_by_label("Seconds per decision").fill(str(seconds))
    if reserve is not None:
        page.get_by_role("spinbutton", name="Reserve per seat (seconds)").fill(str(reserve))
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(MATCH)).to_be_visible()
    settle(page)


def test_each_seats_clock_counts_down_on_its_box_without_a_rerun(
    service: tuple[Api, str], browser: Any
) -> None:
    """On a phone: the deciding seat's box shows its time to the deadline, which goes down
    while nobody touches anything and the page sends the server nothing."""
    _, viewer = service
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        _start(page, viewer, lives=3, seconds=40, reserve=None)
        clocks = page.locator(".ct-board .ct-seat .ct-clock")
        expect(clocks).to_have_count(2)  # one a seat, on its box
        expect(page.locator(".ct-seat", has_text="reserve 5:00")).to_have_count(2)
        expect(page.locator('.ct-seat .ct-clock[data-deciding="1"]')).to_have_count(1)
        # a screen reader hears each seat's clock with the rest of its box
        expect(page.locator('.ct-seat[aria-label*="reserve 5:"]')).to_have_count(2)
        expect(page.locator('.ct-seat[aria-label*=" to decide"]')).to_have_count(1)
        expect(page.get_by_text("Clock (40 s per decision)")).to_be_visible()
        sent: list[object] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
        first = page.evaluate(TIME_LEFT)
        page.wait_for_timeout(2_600)
        second = page.evaluate(TIME_LEFT)
        assert first is not None and second is not None
        assert 0 <= second < first <= 340, (first, second)  # 40 s and the 5-minute reserve
        assert first - second >= 2, (first, second)
        assert sent == []  # the browser counted alone: no rerun, no message
        # legible on a phone: no letter of a clock under 11 px, no two seat boxes overlapping
        sizes = page.evaluate(
            "() => [...document.querySelectorAll('.ct-clock, .ct-clock *')]"
            ".map(n => parseFloat(getComputedStyle(n).fontSize))"
        )
        assert min(sizes) >= 11, sizes
        boxes = [b.bounding_box() for b in page.locator(".ct-board .ct-seat").all()]
        assert all(b is not None for b in boxes)
        a, b = boxes[0], boxes[1]
        assert a is not None and b is not None
        apart_x = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
        apart_y = a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
        assert apart_x or apart_y, boxes
        for box in boxes:  # the clock inside its seat's box
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        for seat, clock in zip(page.locator(".ct-board .ct-seat").all(), clocks.all(), strict=True):
            outer, inner = seat.bounding_box(), clock.bounding_box()
            assert outer is not None and inner is not None
            bottom = outer["y"] + outer["height"] + 0.5
            assert inner["y"] + inner["height"] <= bottom, (outer, inner)
    finally:
        context.close()


# every clock's rectangle and its seat box's: a clock cut off by its box would end below it
CLOCKS_IN_BOXES = """() => [...document.querySelectorAll('.ct-board .ct-seat')].map(s => {
    const c = s.querySelector('.ct-clock');
    return c ? [s.getBoundingClientRect().bottom, c.getBoundingClientRect().bottom] : null;
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_clocked_tables_keep_their_seats_apart_and_legible(
    service: tuple[Api, str], browser: Any, viewport: dict[str, int]
) -> None:
    """In French (longer words than English), at several seat counts: every seat has its clock
    inside its box, no two boxes overlap, no letter is under 11 px, none leaves the screen."""
    _, viewer = service
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for seats in (3, 6, 12):
            _open_play(page, f"{viewer}/play?lang=fr")
            settle(page)
            page.locator(".st-key-play_seats input").fill(str(seats))
            page.locator(".st-key-play_clock label").click()
            settle(page)
            page.locator('[data-testid="stFormSubmitButton"] button').click()
            expect(page.locator(".ct-board .ct-seat .ct-clock")).to_have_count(seats)
            settle(page)
            found = page.evaluate(MEASURE)
            assert len(found["seats"]) == seats
            assert not _overlapping(found["seats"]), (seats, found["seats"])
            assert found["smallest"] >= MIN_TEXT_PX, (seats, found["smallest"])
            assert all(b[0] >= 0 and b[2] <= viewport["width"] for b in found["seats"]), found
            for box_bottom, clock_bottom in page.evaluate(CLOCKS_IN_BOXES):
                assert clock_bottom <= box_bottom + 0.5, (seats, box_bottom, clock_bottom)
            page.get_by_role("button", name="Quitter cette partie").click()
            settle(page)
    finally:
        context.close()


def test_an_abandoned_seat_is_marked_and_its_holder_takes_it_back(
    service: tuple[Api, str], page: Page
) -> None:
    """5 s a decision and no reserve: three timeouts in a row hand the seat to a bot. The page
    follows by itself (each deadline passed brings it up to date), the seat's box says so, and
    "Take my seat back" gives it back."""
    _, viewer = service
    _start(page, viewer, lives=9, seconds=5, reserve=0)
    seat = page.locator('.ct-board .ct-seat[data-seat="0"]')
    expect(seat.locator(".ct-clock")).to_be_visible()
    expect(seat.get_by_text("a bot plays")).to_be_visible(timeout=90_000)
    take = seat.get_by_role("button", name="Take my seat back")
    expect(take).to_be_visible()
    # the other seat (a bot's own) is not offered to anybody
    expect(page.get_by_role("button", name="Take my seat back")).to_have_count(1)
    take.click()
    expect(seat.get_by_text("a bot plays")).to_have_count(0, timeout=20_000)
    expect(page.get_by_role("button", name="Take my seat back")).to_have_count(0)


def test_a_clocked_match_ends_with_a_rematch(service: tuple[Api, str], page: Page) -> None:
    _, viewer = service
    _start(page, viewer, lives=1, seconds=40, reserve=None)
    expect(page.locator(".ct-board .ct-seat .ct-clock")).to_have_count(2)
    first = _match_id(page)
    for _ in range(150):  # click the first offered choice until the match ends
        if page.get_by_text(OVER).count():
            break
        play_on(page)
        settle(page)
    expect(page.get_by_text(OVER).first).to_be_visible()
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_text(OVER)).to_have_count(0)
    settle(page)
    second = _match_id(page)
    assert second != first
    expect(page.get_by_text("Clock (40 s per decision)")).to_be_visible()
    expect(page.locator(".ct-board .ct-seat .ct-clock")).to_have_count(2)
