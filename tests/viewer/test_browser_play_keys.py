"""Play as a game client (issue 20, item 3) in a real browser: each choice offered is taken by the
key shown on its button (not while typing in a field), and each step's action is seen happening
(a card back flies along the arrow of a swap, a discard, a draw), except with reduced motion. A
phone (touch, no keyboard) is shown no key to press.

`cuccu run` (API and viewer) in Debian's Chromium; Cuccù, whose Play page knows no key of its
own: the keys come from the table component, for whatever choices a game offers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.viewer.browser import choices, open_app, settle, settle_paced
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

OVER = re.compile(r"^The match is over: .+ wins\.$")
KEYS_HINT = "Or press the key shown on a choice's button"
PHONE = {"width": 390, "height": 844}
# every card back that ever flies, and every step drawn with an arrow along which a card changes
# hands, counted as they are added to the page (a flight lasts a moment: a test could not catch
# it by looking). A step drawn again (a rerun, a resize) is one step: only a step after another
# is animated, not the table a page opens on.
COUNT_FLIGHTS = """
window.__flights = 0; window.__steps = new Set();
window.__moves = 0;
const MOVED = '.ct-arrow[data-arrow="swap"], .ct-arrow[data-arrow="pack"],'
  + ' .ct-arrow[data-arrow="undo"], .ct-arrow[data-arrow="draw"]';
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    for (const found of [node, ...node.querySelectorAll("*")]) {
      if (found.classList.contains("ct-flying")) window.__flights += 1;
      if (found.matches(MOVED)) {
        const board = found.closest(".ct-board");
        const arrows = board ? [...board.querySelectorAll(".ct-arrow")].map(
          (a) => `${a.dataset.arrow}:${a.dataset.from}>${a.dataset.to}`) : [];
        window.__steps.add(JSON.stringify([arrows, board ? board.innerText : ""]));
        window.__moves = window.__steps.size;
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture
def calm_page(new_page: Callable[..., Page]) -> Page:
    """A page whose person asked for reduced motion (the system setting)."""
    return new_page(reduced_motion="reduce")


def _newest(page: Page) -> Locator:
    """The newest event's number in the log (its first row)."""
    return page.locator(".cuccu-log td.cuccu-log-n").first


def _start(page: Page, viewer: str, pace: str, seats: int = 4) -> None:
    open_app(page, f"{viewer}/play")
    expect(page.get_by_label("Lives each")).to_be_visible()
    settle(page)
    page.get_by_label("Seats at the table (you and the bots)").fill(str(seats))
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(re.compile(r"^Match \w{8} · round 1"))).to_be_visible()
    settle_paced(page)
    page.get_by_text(pace, exact=True).click()
    settle_paced(page)


def test_each_choice_is_taken_by_the_key_on_its_button_but_not_while_typing(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    _start(page, viewer, "All at once")
    first = choices(page).first
    expect(first).to_be_visible()
    expect(first).to_have_text(re.compile(r"^1\s"))  # the key is on the button
    expect(first.locator("code")).to_be_visible()
    if choices(page).count() > 1:
        expect(choices(page).nth(1)).to_have_text(re.compile(r"^2\s"))
    expect(page.get_by_text(KEYS_HINT)).to_be_visible()  # a desktop has keys: the hint shows
    before = _newest(page).inner_text()

    # typing a 1 in a field (the sidebar's language box) types it, it chooses nothing
    field = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"] input').first
    field.click()
    page.keyboard.press("1")
    page.wait_for_timeout(1_500)
    settle(page)
    expect(_newest(page)).to_have_text(before)
    expect(first).to_be_visible()
    page.keyboard.press("Escape")

    # out of the field, the same key takes the first choice
    page.locator('[data-testid="stMain"] h4').first.click()
    page.keyboard.press("1")
    expect(_newest(page)).not_to_have_text(before)


def test_a_phone_shows_no_key_hint(service: tuple[Api, str], new_page: Callable[..., Page]) -> None:
    """A phone (a touch screen, no mouse, no keyboard) has no keys to press: neither the hint
    under "Your decision" nor the key on each choice's button is shown there."""
    _, viewer = service
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    _start(phone, viewer, "All at once")
    first = choices(phone).first
    expect(first).to_be_visible()
    expect(phone.get_by_text(re.compile(r"^Your decision$"))).to_be_visible()
    expect(phone.get_by_text(KEYS_HINT)).to_be_attached()  # drawn, and hidden
    expect(phone.get_by_text(KEYS_HINT)).to_be_hidden()
    expect(first.locator("code")).to_be_hidden()
    expect(first).not_to_have_text(re.compile(r"^\s*$"))  # the choice's own words remain


def _play_until_cards_moved(page: Page, moves: int) -> None:
    """Take the first choice, again and again, until ``moves`` steps with an arrow of a card
    changing hands have been drawn (bots swap, discard and draw often at 8 seats)."""
    for _ in range(80):
        if page.evaluate("window.__moves") >= moves:
            return
        with suppress(PlaywrightTimeout):  # a button of the run before may be fading out
            if page.get_by_text(OVER).count():
                page.get_by_role("button", name="Rematch").click(timeout=5_000)
                settle(page)
                continue
            choices(page).first.click(timeout=20_000)
        page.wait_for_timeout(800)
    raise AssertionError(f"only {page.evaluate('window.__moves')} card moves drawn")


def test_a_card_flies_along_the_arrow_of_each_step(service: tuple[Api, str], page: Page) -> None:
    _, viewer = service
    page.add_init_script(COUNT_FLIGHTS)
    _start(page, viewer, "One at a time, fast", seats=8)
    _play_until_cards_moved(page, moves=3)
    assert page.evaluate("window.__flights") > 0


def test_no_card_flies_with_reduced_motion(service: tuple[Api, str], calm_page: Page) -> None:
    _, viewer = service
    calm_page.add_init_script(COUNT_FLIGHTS)
    _start(calm_page, viewer, "One at a time, fast", seats=8)
    _play_until_cards_moved(calm_page, moves=3)
    assert calm_page.evaluate("window.__flights") == 0
