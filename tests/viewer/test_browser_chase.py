"""Ranter-Go-Round in a real browser: a person starts a match in Play, plays it to its end by
clicking, and replays it.

`cuccu run` (API and viewer) in Debian's Chromium, on a machine with no emoji or Thai font.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import expect

from tests.viewer.browser import main_text, open_app, play_on, settle
from tests.viewer.support import Api
from viewer.games.chase_play import request_body

if TYPE_CHECKING:
    from playwright.sync_api import Page

EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")
OVER = re.compile(r"^The match is over: .+ wins\.$")


def _table_text(page: Page) -> str:
    """The table's words as drawn (the markers in capitals, as CSS writes them)."""
    return page.locator(".ct-board").first.inner_text()


def test_play_a_chase_match_to_its_end_and_replay_it(service: tuple[Api, str], page: Page) -> None:
    api, viewer = service
    probe = httpx.post(f"{api.base}/matches", json=request_body("probe", "basic", 1, True, True),
                       timeout=30)  # fmt: skip
    assert probe.status_code == 201, probe.text  # the API hosts Ranter-Go-Round
    open_app(page, f"{viewer}/play")
    settle(page)  # the first run (Cuccù's form) ends before the game is switched
    page.get_by_text("Ranter-Go-Round", exact=True).click()
    settle(page)  # and the run that swaps the forms: until it ends both may stand
    expect(page.get_by_label("Lives each")).to_have_count(1)  # the game's own form, alone
    expect(page.get_by_text("Aces, 2s and 3s are passed face up (optional rule)")).to_be_visible()
    expect(page.get_by_text(re.compile(r"unless they hold a \*?\*?King"))).to_be_visible()
    settle(page)  # the run that draws the form ends before Start is pressed (see Cucco 21's)
    page.get_by_label("Lives each").fill("2")
    page.get_by_text("Aces, 2s and 3s are passed face up (optional rule)").click()
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(re.compile(r"^Match \w{8} · round 1"))).to_be_visible()
    settle(page)
    table = _table_text(page)
    assert "YOU" in table and "2 lives" in table and "Round 1" in table
    expect(page.get_by_text(re.compile(r"^Your card: (Ace|King|Queen|Jack|\d+) of "))
           ).to_be_visible()  # fmt: skip
    clicks = 0
    for _ in range(150):  # click the first offered choice until the match ends
        if page.get_by_text(OVER).count():
            break
        if not play_on(page):
            settle(page)
            continue
        clicks += 1
        settle(page)
    expect(page.get_by_text(OVER).first).to_be_visible()
    assert clicks > 1 and "WINNER" in _table_text(page)
    expect(page.get_by_text(re.compile(r"^How round \d+ ended$"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Cards shown: .*Lowest: ")).first).to_be_visible()
    assert not EMOJI.findall(main_text(page) + _table_text(page))
    # and the same match, replayed from its end to its start
    page.get_by_role("button", name="Open in Replay").click()
    expect(page.get_by_text(re.compile(r"^Ranter-Go-Round · Open: "))).to_be_visible()
    settle(page)
    page.get_by_role("button", name="End »").click()
    expect(page.get_by_text(re.compile(r"is the last with lives and wins the match\.")).first
           ).to_be_visible()  # fmt: skip
    assert "WINNER" in _table_text(page)
    page.get_by_role("button", name="« Start").click()
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text(re.compile(r"A game of Ranter-Go-Round for 4 players, 2 lives each"))
           .first).to_be_visible()  # fmt: skip
    expect(page.get_by_text("optional rules: low cards passed face up").first).to_be_visible()
