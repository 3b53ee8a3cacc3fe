"""A reload keeps the seat (issue 20, Play and Tables): the seat token lived only in the
Streamlit session, so a reload lost the match; now the tab keeps its seat (never in the address)
and takes it back, and the person plays on. Leaving the match forgets it.

`cuccu run` (API and viewer) in Debian's Chromium.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from playwright.sync_api import expect

from tests.viewer.browser import choices, open_app, settle, settle_paced
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

MATCH = re.compile(r"^Match (\w{8}) · round")


def _newest(page: Page) -> Locator:
    return page.locator(".cuccu-log td.cuccu-log-n").first


def _match_id(page: Page) -> str:
    header = page.get_by_text(MATCH).first
    expect(header).to_be_visible()
    found = MATCH.match(header.inner_text().strip())
    assert found is not None
    return found.group(1)


def test_a_reload_of_play_keeps_the_seat_and_play_goes_on(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/play")
    expect(page.get_by_label("Lives each")).to_be_visible()
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    match_id = _match_id(page)
    settle_paced(page)
    page.get_by_text("All at once", exact=True).click()
    settle(page)
    expect(choices(page).first).to_be_visible()
    choices(page).first.click()
    expect(choices(page).first.or_(page.get_by_text("The match is over"))).to_be_visible()
    settle(page)
    before = _newest(page).inner_text()
    token = page.evaluate("JSON.parse(sessionStorage.getItem('cuccu.seat')).token")
    assert token and token not in page.url  # kept in the tab, never in the address

    page.reload()
    assert _match_id(page) == match_id  # the same match, this seat's view
    expect(choices(page).first).to_be_visible()
    settle(page)
    # everything seen before is still in the log (the bots may have moved on meanwhile)
    assert int(_newest(page).inner_text()) >= int(before)
    before = _newest(page).inner_text()
    choices(page).first.click()  # and it plays on
    expect(_newest(page)).not_to_have_text(before)

    # leaving the match forgets it: a reload then shows a new match's form
    settle(page)
    page.get_by_role("button", name="Leave this match").click()
    expect(page.get_by_role("button", name="Start a match")).to_be_visible()
    settle(page)
    page.reload()
    expect(page.get_by_role("button", name="Start a match")).to_be_visible()
    settle(page)
    page.wait_for_timeout(1_500)
    expect(page.get_by_text(MATCH)).to_have_count(0)


def test_a_reload_of_a_table_between_people_keeps_the_claimed_seat(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/tables")
    expect(page.get_by_text("Create a table", exact=True)).to_be_visible()
    page.get_by_label("Open seats (for people)").fill("1")
    page.get_by_label("Bots").fill("1")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("button", name="Take this seat")).to_be_visible()
    settle(page)
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Take this seat").click()
    match_id = _match_id(page)
    expect(page.get_by_text("You are Ann")).to_be_visible()
    settle(page)
    token = page.evaluate("JSON.parse(sessionStorage.getItem('cuccu.seat')).token")
    assert token and token not in page.url

    page.reload()
    assert _match_id(page) == match_id
    expect(page.get_by_text("You are Ann")).to_be_visible()  # her seat, not a claim form
    expect(page.get_by_role("button", name="Take this seat")).to_have_count(0)
