"""Play paced (issue 20, items 3 and 13) in a real browser: after a choice, the steps it brought
(this seat's own, then the bots' replies) are drawn one at a time at the chosen pace, and Skip
goes straight to this seat's next decision.

`cuccu run` (API and viewer) in Debian's Chromium. Cuccù at 8 seats, so that a choice brings
several bots' replies.
"""

from __future__ import annotations

import re
import time
from contextlib import suppress
from typing import TYPE_CHECKING

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from tests.viewer.browser import choices, open_app, play_on, running, settle, settle_paced
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Page

STEP = re.compile(r"^Move (\d+) of (\d+) since your choice$")
OVER = re.compile(r"^The match is over: .+ wins\.$")
OUT = "You are out of the match: the bots have played it to its end without you."
SKIP = re.compile(r"Skip$")  # its name after its icon's
NORMAL_PACE = 1.5  # seconds a step at "One at a time" (``viewer.games.play_page.PACES``)


def _step(page: Page) -> tuple[int, int] | None:
    """The step counter as drawn now: (step, of how many), None when none is shown."""
    for text in page.get_by_text(STEP).all_inner_texts():
        found = STEP.match(text.strip())
        if found is not None:
            return int(found.group(1)), int(found.group(2))
    return None


def _newest_logged(page: Page) -> int | None:
    """The number of the newest event in the log (its first row); None while the log is not
    drawn (between a fragment's runs it can be missing for an instant)."""
    cell = page.locator(".cuccu-log td.cuccu-log-n").first
    with suppress(PlaywrightTimeout, ValueError):
        return int(cell.inner_text(timeout=1_000)) if cell.count() else None
    return None


def _start(page: Page, viewer: str, lives: int = 3, seats: int = 8) -> None:
    """A Cuccù match of ``lives`` at ``seats`` seats, at the default pace."""
    open_app(page, f"{viewer}/play")
    expect(page.get_by_label("Lives each")).to_be_visible()
    settle(page)
    page.get_by_label("Lives each").fill(str(lives))
    page.get_by_label("Seats at the table (you and the bots)").fill(str(seats))
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(re.compile(r"^Match \w{8} · round 1"))).to_be_visible()
    # the bots before this seat may be shown step by step: the page runs a fragment again and
    # again meanwhile, so it is not waited on to stop running (on a loaded box it seldom did
    # within a minute), only for a choice or a step to be drawn
    expect(choices(page).first.or_(page.get_by_text(STEP).first)).to_be_visible(timeout=120_000)
    expect(page.get_by_text("One at a time", exact=True)).to_be_visible()  # the default pace


def _act(page: Page) -> None:
    """Click the first choice offered (waiting for one: the run before may still be drawing)."""
    expect(choices(page).first).to_be_visible()
    choices(page).first.click()


def test_a_choice_s_steps_are_drawn_one_at_a_time_and_skip_goes_to_the_next_decision(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    _start(page, viewer)
    # one choice: watch its steps come, frame after frame, until the next decision is offered
    frames: list[tuple[int, int, int]] = []  # (step, of, newest event in the log)
    for _ in range(6):  # a choice that brings a single step is not paced: choose again
        _act(page)
        clicked = time.monotonic()
        while time.monotonic() < clicked + 120:
            if running(page):  # mid-run, the last run's elements may still stand
                page.wait_for_timeout(50)
                continue
            step = _step(page)
            newest = _newest_logged(page)
            if step is not None and newest is None:  # caught between two draws: look again
                page.wait_for_timeout(50)
                continue
            if step is not None and newest is not None:
                seen = (*step, newest)
                if not frames or frames[-1] != seen:
                    frames.append(seen)
                if len(frames) > 1 and choices(page).count():  # no decision while the
                    page.wait_for_timeout(500)  # bots' steps play (a button of the run before
                    if _step(page) is not None and not running(page):  # may linger an instant)
                        assert choices(page).count() == 0, frames
            elif frames or page.get_by_text(OVER).count():
                break
            elif time.monotonic() > clicked + 8 and choices(page).count():
                break  # a single step, not paced
            page.wait_for_timeout(150)
        if frames:
            break
        settle(page)
    assert len(frames) >= 2, frames  # drawn in more than one frame
    steps = [f[0] for f in frames]
    logged = [f[2] for f in frames]
    assert steps == sorted(steps) and len(set(steps)) >= 2, frames
    assert logged == sorted(logged) and logged[-1] > logged[0], frames  # the log grows with them
    expect(choices(page).first).to_be_visible()  # then this seat decides again

    # another choice whose steps would take a while at this pace: Skip shows the decision now
    skipped = False
    for _ in range(12):
        if page.get_by_text(OVER).count():
            break
        settle(page)
        _act(page)
        try:
            page.get_by_text(STEP).first.wait_for(timeout=15_000)
        except Exception:  # noqa: BLE001 - a choice that brought one step is not paced
            continue
        step = _step(page)
        if step is None or step[1] - step[0] < 8:  # too few left to tell Skip from the end
            page.get_by_role("button", name=SKIP).click()
            continue
        left = (step[1] - step[0]) * NORMAL_PACE
        clicked = time.monotonic()
        page.get_by_role("button", name=SKIP).click()
        expect(choices(page).first.or_(page.get_by_text(OVER).first)).to_be_visible(
            timeout=int(1000 * left)
        )
        took = time.monotonic() - clicked
        assert took < left - NORMAL_PACE, (took, step)  # sooner than the steps would have ended
        assert _step(page) is None
        skipped = True
        break
    assert skipped, "no choice brought enough steps to skip"


def test_once_out_the_rest_of_the_match_is_offered_to_watch_or_skip(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    _start(page, viewer, lives=1, seats=12)  # rarely a win, that would ask for a rematch
    offered = page.get_by_text(OUT)
    for _ in range(200):  # choose, skipping the bots' steps, until out (a win: play again)
        settle_paced(page)
        if offered.count():
            break
        # a button of the run before may still be fading out: look again after a while
        with suppress(PlaywrightTimeout):
            if page.get_by_text(OVER).count():
                page.get_by_role("button", name="Rematch").click(timeout=5_000)
                continue
            play_on(page)
    expect(offered).to_be_visible()
    # held at this seat's own last choice: the result is not told before it is watched
    assert page.get_by_text(OVER).count() == 0
    held = _step(page)
    assert held is not None and held[0] == 1 and held[1] > 2, held
    page.get_by_role("button", name=re.compile(r"Watch the rest$")).click()
    steps: set[int] = set()
    deadline = time.monotonic() + 60
    while len(steps) < 3 and time.monotonic() < deadline:
        if not running(page) and (step := _step(page)) is not None:
            steps.add(step[0])
        page.wait_for_timeout(150)
    assert len(steps) >= 3, steps  # the rest plays on, step by step
    page.get_by_role("button", name=SKIP).click()
    expect(page.get_by_text(OVER).first).to_be_visible()
    assert _step(page) is None
