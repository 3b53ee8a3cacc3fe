"""Cucco 21 in a real browser: Replay, Charts, Audit and Rules, as a person reaches them.

`cuccu run` (API and viewer) in Debian's Chromium, on a machine with no emoji or Thai font.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import expect

from domain.audit import audit, chain, to_ndjson
from tests.viewer.browser import choose_language, main_text, open_app, play_on, settle
from tests.viewer.support import Api
from viewer.games.cucco21 import bot_game21
from viewer.games.play21 import request_body
from viewer.i18n import tr, trn

if TYPE_CHECKING:
    from playwright.sync_api import Page

EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")


def _table_text(page: Page) -> str:
    """The table's words as drawn (the markers in capitals, as CSS writes them)."""
    return page.locator(".ct-board").first.inner_text()


def _open_sample(page: Page, url: str, seed: int = 1) -> None:
    """Open ``url`` and load the seeded Cucco 21 sample from the "which match" panel."""
    open_app(page, url)
    expect(page.get_by_text("No match is open")).to_be_visible()
    page.get_by_role("combobox", name="Game").click()
    page.get_by_role("option", name="Cucco 21", exact=True).click()
    page.get_by_label("Sample seed").fill(str(seed))
    page.get_by_role("button", name="Load a sample bot match").click()
    expect(page.get_by_text(re.compile(r"^Cucco 21 · Open: "))).to_be_visible()
    settle(page)


def test_replay_steps_through_a_cucco21_sample_with_each_action_drawn(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    _open_sample(page, f"{viewer}/replay")
    events = bot_game21(1)
    for step in (1, 2, 3, 4):
        page.get_by_role("button", name="Next ›").click()
        expect(page.get_by_text(re.compile(rf"^Event {step} of {len(events)}"))).to_be_visible()
        settle(page)
    table = _table_text(page)
    assert "Set 1 · round card 1" in table and "Box: 1 chip" in table  # one ante paid so far
    assert page.locator('.ct-board .ct-arrow[data-arrow="pay"]').count() == 1  # an arrow
    expect(page.get_by_text(re.compile(r"pays 1 chip to the box \(ante\)")).first).to_be_visible()
    page.get_by_role("button", name="End »").click()
    expect(page.get_by_text("The game is over. Most chips:").first).to_be_visible()
    settle(page)
    table = _table_text(page)
    assert "WINNER" in table and "chips" in table and "Deck:" in table
    assert not EMOJI.findall(main_text(page) + table)


def test_an_uploaded_cucco21_export_opens_in_replay(
    service: tuple[Api, str], page: Page, tmp_path: Path
) -> None:
    _, viewer = service
    export = tmp_path / "cucco21.ndjson"
    export.write_text(to_ndjson(chain(bot_game21(2))), encoding="utf-8")
    open_app(page, f"{viewer}/replay")
    expect(page.get_by_text("No match is open")).to_be_visible()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(export)
    expect(page.get_by_text(re.compile(r"^Cucco 21 · Open: cucco21\.ndjson"))).to_be_visible()
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text("A game of Cucco 21 for 4 players").first).to_be_visible()


def test_charts_draw_chips_the_box_sets_and_deaths(service: tuple[Api, str], page: Page) -> None:
    _, viewer = service
    _open_sample(page, f"{viewer}/charts")
    for title in ("Chips and the box after each round", "Deaths", "Chips paid", "Tallies"):
        expect(page.get_by_role("heading", name=title)).to_be_visible()
    expect(page.locator('[data-testid="stVegaLiteChart"]')).to_have_count(3)
    expect(page.get_by_text("the box is the grey line with squares")).to_be_visible()
    choose_language(page, "Português")
    expect(page.get_by_role("heading", name="Fichas e caixa depois de cada rodada")).to_be_visible()


def test_audit_shows_what_the_audit_reports_for_a_cucco21_game(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    report = audit(chain(bot_game21(1)))
    _open_sample(page, f"{viewer}/audit")
    if report.ok:
        expect(page.get_by_text(tr("en", "audit.ok"))).to_be_visible()
    else:
        failed = trn("en", "audit.failed", len(report.failures), total=len(report.checks))
        expect(page.get_by_text(failed)).to_be_visible()
    shown = main_text(page)
    assert "No match is open" not in shown
    passes = re.findall(r"pass · \d+ checked", shown)  # once per passing check
    assert len(passes) == sum(c.ok for c in report.checks)


def test_rules_of_cucco21_follow_the_one_language_setting(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/rules")
    expect(page.get_by_role("heading", name="Cuccù: how to play")).to_be_visible()
    settle(page)  # the first run ends before the game is switched
    page.get_by_text("Cucco 21", exact=True).click()
    expect(page.get_by_role("heading", name="Cucco 21: how to play")).to_be_visible()
    expect(page.get_by_text("Ceremony").first).to_be_visible()
    choose_language(page, "Français")
    expect(page.get_by_role("heading", name="Cucco 21 : comment jouer")).to_be_visible()
    choose_language(page, "ไทย")
    expect(page.get_by_role("heading", name="Cucco 21: วิธีเล่น")).to_be_visible()
    choose_language(page, "Português")
    expect(page.get_by_role("heading", name="Cucco 21: como jogar")).to_be_visible()


def test_play_offers_cucco21_with_its_own_options(service: tuple[Api, str], page: Page) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/play")
    settle(page)  # the first run ends before the game is switched
    page.get_by_text("Cucco 21", exact=True).click()
    for label in ("Starting chips", "Sets at most (0: until a bankruptcy)"):
        expect(page.get_by_label(label)).to_be_visible()
    expect(page.get_by_text("Powers of the special cards")).to_be_visible()
    # a newcomer reads the game's own rules in a minute before starting, not Cuccù's
    expect(page.get_by_text(re.compile(r"The round card in the middle says what that costs"))
           ).to_be_visible()  # fmt: skip
    assert "cuckoo" not in main_text(page)
    choose_language(page, "Français")
    expect(page.get_by_label("Jetons de départ")).to_be_visible()
    expect(page.get_by_text("Comment jouer (une minute)")).to_be_visible()
    expect(page.get_by_text(re.compile(r"La carte de manche au centre"))).to_be_visible()


def test_play_a_cucco21_game_against_bots(service: tuple[Api, str], page: Page) -> None:
    """A whole Cucco 21 game from the Play page, through the API."""
    api, viewer = service
    probe = httpx.post(f"{api.base}/matches", json=request_body("probe", "basic", 3, True, 1),
                       timeout=30)  # fmt: skip
    assert probe.status_code == 201, probe.text  # the API hosts Cucco 21
    open_app(page, f"{viewer}/play")
    settle(page)  # the first run ends before the game is switched
    page.get_by_text("Cucco 21", exact=True).click()
    expect(page.get_by_label("Starting chips")).to_be_visible()  # Cucco 21's own form is drawn
    # the run that draws it must end first: until then the Start button on screen may still be
    # Cuccù's form's, from the run before the switch, and clicking it starts a Cuccù match
    settle(page)
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text(re.compile(r"^Game \w{8} · set 1"))).to_be_visible()
    settle(page)
    assert "YOU" in _table_text(page) and "chips" in _table_text(page)
    for _ in range(200):  # click the first offered choice until the game ends
        if page.get_by_text("The game is over. Most chips:").count():
            break
        play_on(page)
        settle(page)
    expect(page.get_by_text("The game is over. Most chips:").first).to_be_visible()
    assert "WINNER" in _table_text(page)
    # how the last round ended, in words, beside the result
    expect(page.get_by_text(re.compile(r"^How round \d+ ended$"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Cards shown: .*Lowest: ")).first).to_be_visible()
