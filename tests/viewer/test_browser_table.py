"""Issue 20 in a real browser: the card table component in Play and Replay, and the quick fixes.

Each test drives `cuccu run` (API and viewer) in Debian's Chromium at the sizes people use: a
1366 px laptop and a 390 px phone. What is measured is what a person meets: the seat boxes'
rectangles on the screen, the computed size of every letter on the table, what is in view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.viewer.browser import TIMEOUT_MS, choose_language, settle
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Page

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
MIN_TEXT_PX = 11.0

# every seat box's rectangle, and the smallest computed font size of any text on the table
MEASURE = """() => {
    const seats = [...document.querySelectorAll('.ct-board .ct-seat')].map(s => {
        const r = s.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    });
    let smallest = 1000;
    for (const node of document.querySelectorAll('.ct-root *')) {
        const own = [...node.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
        if (own && node.getClientRects().length) {
            smallest = Math.min(smallest, parseFloat(getComputedStyle(node).fontSize));
        }
    }
    const board = document.querySelector('.ct-board');
    const share = board.clientWidth / document.querySelector('.ct-root').clientWidth;
    return {seats, smallest, share, layout: board.classList.contains('ct-oval') ? 'oval' : 'grid'};
}"""


def _cuccu(api: Api, seats: int, seed: int = 3) -> str:
    return api.bot_match(seed, tuple(f"Seat{i}" for i in range(seats)))


def _cucco21(api: Api, seats: int, seed: int = 4) -> str:
    body = {"game": "cucco21", "seed": seed, "max_sets": 1,
            "seats": [{"name": f"Seat{i}", "kind": "bot", "bot_level": "basic"}
                      for i in range(seats)]}  # fmt: skip
    response = httpx.post(f"{api.base}/matches", json=body, timeout=120)
    response.raise_for_status()
    match_id: str = response.json()["match_id"]
    return match_id


@pytest.fixture
def sized(browser: Any) -> Iterator[Any]:
    """A fresh page at the given viewport: ``sized(PHONE)``."""
    contexts = []

    def open_page(viewport: dict[str, int]) -> Page:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page: Page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        return page

    yield open_page
    for context in contexts:
        context.close()


def _open_step(page: Page, viewer: str, match_id: str, step: int, lang: str = "en") -> None:
    page.goto(f"{viewer}/replay?match={match_id}&event={step}&lang={lang}")
    expect(page.locator(".ct-board")).to_be_visible()
    settle(page)


def _overlapping(boxes: list[list[float]]) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, a in enumerate(boxes)
        for j, b in enumerate(boxes[i + 1 :], i + 1)
        if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
    ]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_seats_never_overlap_and_no_letter_is_under_11_px(
    service: tuple[Api, str], sized: Any, viewport: dict[str, int]
) -> None:
    """Issue 20, problem 5: at every seat count the games allow, on a laptop and a phone."""
    api, viewer = service
    page = sized(viewport)
    tables = [("cuccu", n, _cuccu(api, n)) for n in (2, 3, 5, 8, 12, 20)]
    tables += [("cucco21", n, _cucco21(api, n)) for n in (2, 8, 12)]
    for game, seats, match_id in tables:
        _open_step(page, viewer, match_id, 12)
        found = page.evaluate(MEASURE)
        assert len(found["seats"]) == seats, (game, seats)
        assert not _overlapping(found["seats"]), (game, seats, found["seats"])
        assert found["smallest"] >= MIN_TEXT_PX, (game, seats, found["smallest"])
        assert all(box[0] >= 0 and box[2] <= viewport["width"] for box in found["seats"])
        # the board fills the width it is given: most of the component's, all of it on a phone
        assert found["share"] >= (0.95 if viewport == PHONE else 0.6), (game, seats, found)


def test_replay_steps_by_keys_and_buttons_without_a_rerun(
    service: tuple[Api, str], sized: Any
) -> None:
    """Issue 20, item 2: the steps are in the browser; stepping sends nothing to the server."""
    api, viewer = service
    match_id = _cuccu(api, 4, seed=33)
    page = sized(DESKTOP)
    sent: list[object] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
    _open_step(page, viewer, match_id, 0)
    expect(page.get_by_text("Before the first event.")).to_be_visible()
    before = len(sent)
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page.get_by_text(re.compile(rf"^Event {step} of \d+"))).to_be_visible()
    page.get_by_role("button", name="‹ Back").click()
    expect(page.get_by_text(re.compile(r"^Event 2 of \d+"))).to_be_visible()
    page.keyboard.press("2")  # the key of round 2
    expect(page.get_by_text(re.compile(r"^Event \d+ of \d+ · round 2$"))).to_be_visible()
    expect(page.locator(".ct-log li[data-current='1']")).to_contain_text("Round 2 starts")
    page.keyboard.press("End")
    expect(page.locator(".ct-now")).to_contain_text("wins the match")
    page.keyboard.press("Home")
    expect(page.get_by_text("Before the first event.")).to_be_visible()
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text(re.compile(r"^Event 1 of \d+"))).to_be_visible()
    page.wait_for_timeout(500)
    assert len(sent) == before  # no rerun, no message at all: the browser stepped alone
    assert "event=1" in page.url and f"match={match_id}" in page.url and "lang=en" in page.url


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_deep_link_opens_its_step_in_its_language_with_board_and_event_in_view(
    service: tuple[Api, str], sized: Any, viewport: dict[str, int]
) -> None:
    api, viewer = service
    match_id = _cuccu(api, 4, seed=33)
    page = sized(viewport)
    _open_step(page, viewer, match_id, 5, lang="fr")
    now = page.locator(".ct-now")
    expect(page.get_by_text(re.compile(r"^Événement 5 sur \d+"))).to_be_visible()
    expect(page.locator('[data-testid="stSidebar"] input').first).to_have_value("Français")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text(re.compile(r"^Événement 6 sur \d+"))).to_be_visible()
    for part in (now, page.locator(".ct-board")):  # both wholly on screen, no scrolling
        box = part.bounding_box()
        assert box is not None and box["y"] >= 0, box
        assert box["y"] + box["height"] <= viewport["height"], (box, viewport)
    copy = page.get_by_role("button", name="Copier le lien de cet événement")
    copy.click()
    expect(copy).to_have_attribute("data-link", re.compile(r"event=6"))
    link = copy.get_attribute("data-link") or ""
    assert f"match={match_id}" in link and "lang=fr" in link


def test_the_language_stays_on_reload_and_select_boxes_follow_it(
    service: tuple[Api, str], sized: Any
) -> None:
    """Issue 20, problems 4 and 12: the language in the address; select boxes' words follow."""
    api, viewer = service
    _cuccu(api, 4)
    page = sized(DESKTOP)
    page.goto(viewer)
    expect(page.get_by_role("combobox", name="Status")).to_have_value("All")
    choose_language(page, "Português")
    expect(page.get_by_role("combobox", name="Situação")).to_have_value("Todas")
    choose_language(page, "ไทย")
    expect(page.get_by_role("combobox", name="สถานะ")).to_have_value("ทั้งหมด")
    assert "lang=th" in page.url
    page.reload()
    settle(page)
    expect(page.get_by_role("combobox", name="สถานะ")).to_have_value("ทั้งหมด")
    page.locator('[data-testid="stSidebarNav"] a').nth(4).click()  # Play
    settle(page)
    level = page.get_by_role("combobox", name="คู่ต่อสู้")
    expect(level).to_have_value("ผู้เชี่ยวชาญ")
    choose_language(page, "Français")
    expect(page.get_by_role("combobox", name="Adversaires")).to_have_value("expert")
    expect(page.get_by_role("textbox", name="Votre nom")).to_have_value("Joueur")


def test_players_see_no_icon_names_and_no_developer_menu(
    service: tuple[Api, str], sized: Any
) -> None:
    """Issue 20, problems 6 and 12: no icon ligature can print over the sidebar's words, and
    Streamlit's Deploy button and developer menu are not shown."""
    _, viewer = service
    page = sized(DESKTOP)
    page.goto(viewer)
    settle(page)
    nav = page.locator('[data-testid="stSidebarNav"]')
    expect(nav).to_contain_text("Replay")
    assert nav.locator('[data-testid="stIconMaterial"]').count() == 0
    assert not re.search(r"[a-z]+_[a-z]+", nav.inner_text())  # no "list_alt", "playing_cards"
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
    page.locator('[data-testid="stMainMenu"]').click()
    expect(page.get_by_text("Clear cache")).to_have_count(0)
    expect(page.get_by_text("Rerun")).to_have_count(0)


@pytest.mark.parametrize(
    ("game", "viewport"),
    [("Cuccù", PHONE), ("Cucco 21", PHONE), ("Cucco 21", DESKTOP)],
    ids=["cuccu-phone", "cucco21-phone", "cucco21-desktop"],
)
def test_after_start_the_table_and_the_first_choice_are_in_view(
    service: tuple[Api, str], sized: Any, game: str, viewport: dict[str, int]
) -> None:
    """Issue 20, problem 2: Start a match, and the table comes into view; the first choice is
    on screen, or one short scroll away on a phone whose table fills the screen."""
    _, viewer = service
    page = sized(viewport)
    page.goto(f"{viewer}/play")
    settle(page)
    page.get_by_text(game, exact=True).click()
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.locator(".ct-board .ct-seat").first).to_be_visible()
    settle(page)
    page.wait_for_timeout(800)
    board = page.locator(".ct-board").bounding_box()
    assert board is not None and 0 <= board["y"] < viewport["height"] / 3, board
    choice = page.locator('[data-testid="stMain"] [data-testid="stButton"] button').first
    expect(choice).to_be_visible()
    box = choice.bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"] * 1.15, box


# 11 --------------------------------------------------------------------------------------------

# the log's two columns' widths, the table's, and whether any sentence runs past the log's edge
LOG_MEASURE = """() => {
    const log = document.querySelector('.cuccu-log');
    const [number, text] = [...log.querySelectorAll('thead th')].map(c => c.clientWidth);
    const cells = [...log.querySelectorAll('td.cuccu-log-text')];
    return {number, text, width: log.clientWidth, overflow: log.scrollWidth > log.clientWidth,
            lines: Math.max(...cells.map(c => Math.round(c.clientHeight / 20)))};
}"""


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, PHONE],
                         ids=["desktop", "phone"])  # fmt: skip
def test_plays_log_gives_its_sentences_the_width_and_wraps_them(
    service: tuple[Api, str], sized: Any, viewport: dict[str, int]
) -> None:
    """Issue 20, problem 11: the log's "#" column took ~40 % of a desktop window, and on a
    phone its sentences ran off the edge instead of wrapping."""
    _, viewer = service
    page = sized(viewport)
    page.goto(f"{viewer}/play")
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.locator(".cuccu-log td.cuccu-log-text").first).to_be_visible()
    settle(page)
    found = page.evaluate(LOG_MEASURE)
    assert found["number"] < 0.1 * found["width"], found
    assert found["text"] > 0.85 * found["width"], found
    assert not found["overflow"], found
    if viewport is PHONE:  # "The match begins: 4 seats with 3 lives each; … deals first."
        assert found["lines"] >= 2, found
    expect(page.locator(".cuccu-log")).to_contain_text("The match begins")
