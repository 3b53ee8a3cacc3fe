"""End to end in a real browser: `cuccu run` (API + viewer), a bot match, Replay, Audit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import expect

from tests.viewer.browser import open_app, settle
from tests.viewer.support import Api

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_replay_and_audit_a_bot_match_in_a_browser(
    service: tuple[Api, str], page: Page, tmp_path: Path
) -> None:
    api, viewer_url = service
    match_id = api.bot_match(21, ("Ann", "Bob", "Cy", "Di"))
    export = httpx.get(f"{api.base}/matches/{match_id}/export", timeout=30).text
    total = sum('"record"' in line for line in export.splitlines())  # not the seal line

    open_app(page, viewer_url)  # a first load that never draws the app is retried once
    expect(page.get_by_text("Finished match to open")).to_be_visible()
    page.screenshot(path=tmp_path / "matches.png")
    page.get_by_role("button", name="Open in Replay").click()

    next_button = page.get_by_role("button", name="Next ›")
    expect(next_button).to_be_visible()
    expect(page.get_by_text(f"Open: {match_id[:8]}")).to_be_visible()
    for step in (1, 2, 3):
        next_button.click()
        expect(page.get_by_text(f"Event {step} of {total}")).to_be_visible()
        settle(page)
    caption = page.locator(".ct-now").inner_text()  # the current event, on the card table
    assert "is dealt" in caption
    expect(page.get_by_text("Round 1 starts").first).to_be_visible()  # the running log
    page.screenshot(path=tmp_path / "replay.png")

    page.locator('[data-testid="stSidebarNav"] a', has_text="Audit").click()
    expect(page.get_by_text("Every check passes")).to_be_visible()
    expect(page.get_by_text("Re-execution of the decisions")).to_be_visible()
    settle(page)
    page.screenshot(path=tmp_path / "audit.png", full_page=True)
    for name in ("matches.png", "replay.png", "audit.png"):
        assert (tmp_path / name).stat().st_size > 10_000
