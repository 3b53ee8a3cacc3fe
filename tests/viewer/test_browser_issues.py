"""Issue 13 in a real browser: each problem a new user met, checked the way they met it.

Every test drives `cuccu run` (API and viewer) in Debian's Chromium, on a machine with no emoji
font and no Thai font, so what it asserts is what a person would read there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import expect

from domain.audit import chain, to_ndjson
from tests.viewer.browser import choose_language, main_text, open_app, settle
from tests.viewer.support import Api
from viewer.games.cuccu import bot_match

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Characters that need an emoji font: pictographs, symbols and dingbats, playing cards.
EMOJI = re.compile("[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f]")


def _open_replay(page: Page, viewer: str, match_id: str) -> None:
    open_app(page, f"{viewer}/replay?match={match_id}")
    expect(page.get_by_role("button", name="Next ›")).to_be_visible()
    settle(page)


def _next(page: Page, to: int) -> None:
    """Click "Next" once and wait for step ``to`` to be drawn."""
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text(re.compile(rf"^Event {to} of \d+"))).to_be_visible()
    settle(page)


def _table_text(page: Page) -> str:
    """The table's words as drawn (the markers in capitals, as CSS writes them)."""
    return page.locator(".ct-board").first.inner_text()


# 1 ---------------------------------------------------------------------------------------------


def test_open_in_replay_keeps_the_chosen_language(service: tuple[Api, str], page: Page) -> None:
    api, viewer = service
    api.bot_match(31)
    open_app(page, viewer)
    expect(page.get_by_text("Finished match to open")).to_be_visible()
    choose_language(page, "Français")
    page.get_by_role("button", name="Ouvrir dans Rejouer").click()
    expect(page.get_by_role("button", name="Suivant ›")).to_be_visible()
    settle(page)
    expect(page.get_by_role("combobox", name="Langue")).to_have_value("Français")
    page.get_by_role("button", name="Suivant ›").click()
    settle(page)
    expect(page.get_by_text(re.compile(r"Événement 1 sur \d+"))).to_be_visible()
    text = main_text(page)
    assert "Next ›" not in text and "Open another match" not in text  # no half-English page
    page.locator('[data-testid="stSidebarNav"] a', has_text="Audit").click()
    expect(page.get_by_text("Tous les contrôles passent")).to_be_visible()


# 2 ---------------------------------------------------------------------------------------------


def test_the_audit_of_a_loaded_match_says_nothing_of_no_match(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/audit")
    expect(page.get_by_text("No match is open")).to_be_visible()
    page.get_by_role("button", name="Load a sample bot match").click()
    expect(page.get_by_text("Every check passes")).to_be_visible()
    settle(page)
    assert "No match is open" not in main_text(page)


# 3 ---------------------------------------------------------------------------------------------


def test_load_from_the_api_takes_one_click(service: tuple[Api, str], page: Page) -> None:
    api, viewer = service
    match_id = api.bot_match(32)
    open_app(page, f"{viewer}/replay")
    expect(page.get_by_text("No match is open")).to_be_visible()
    page.get_by_label("Match id on the API").fill(match_id)  # typed, not yet committed
    page.get_by_role("button", name="Load from the API").click()
    expect(page.get_by_text(f"Open: {match_id[:8]}")).to_be_visible()


# 4 ---------------------------------------------------------------------------------------------


def test_the_table_reads_in_words_without_an_emoji_font(
    service: tuple[Api, str], page: Page
) -> None:
    api, viewer = service
    match_id = api.bot_match(33, ("Ann", "Bob", "Cy", "Di"))
    _open_replay(page, viewer, match_id)
    _next(page, 1)
    _next(page, 2)
    table = _table_text(page)
    assert table.count("3 lives") == 4 and "DEALER" in table  # lives and the dealer in words
    assert page.locator(".ct-board .ct-seat .ct-hearts svg").count() >= 12  # 3 hearts each
    page.get_by_role("button", name="End »").click()
    expect(page.get_by_text("wins the match").first).to_be_visible()
    settle(page)
    table = _table_text(page)
    assert "WINNER" in table and table.count("OUT") == 3 and table.count("0 lives") == 3
    for name in ("« Start", "‹ Back", "Next ›", "End »"):
        expect(page.get_by_role("button", name=name)).to_be_visible()
    assert not EMOJI.findall(main_text(page) + table)


# 5 ---------------------------------------------------------------------------------------------


def test_the_sidebar_language_changes_the_rules_text(service: tuple[Api, str], page: Page) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/rules")
    expect(page.get_by_role("heading", name="Cuccù: how to play")).to_be_visible()
    choose_language(page, "Português")
    expect(page.get_by_role("heading", name=re.compile("como jogar"))).to_be_visible()
    assert page.locator('[data-testid="stMain"] [data-testid="stButtonGroup"]').count() == 0


# 6 ---------------------------------------------------------------------------------------------


def test_play_explains_each_choice_and_the_coach_gives_its_odds(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/play")
    expect(page.get_by_text("How to play (one minute)")).to_be_visible()
    settle(page)  # the run that draws the whole form (its clock too) ends before Start
    page.get_by_role("button", name="Start a match").click()
    expect(page.get_by_text("Your decision")).to_be_visible()
    settle(page)
    main = page.locator('[data-testid="stMain"]')
    choices = main.locator('[class*="st-key-do_"] button')  # one button per choice open now
    expect(choices.nth(1)).to_be_visible()  # every decision offers two choices at least
    settle(page)
    count = choices.count()
    assert count >= 2
    text = main_text(page)
    # what the choices' buttons say (the card table's own words are in the page's text too)
    labels = " | ".join(choices.nth(i).inner_text() for i in range(count))
    asked = re.search(r"Ask (\w+) to exchange", labels)
    if asked is not None:  # a turn: the button names whom you would ask
        assert f"Ask {asked.group(1)} to swap" in text
        assert "Your turn ends" in text
    elif "Exchange with the pack" in labels:  # the dealer's turn: what the pack swap means
        assert "bottom card of the pack, unseen" in text and "you are the dealer" in text
    else:  # asked while holding the inn: what accepting and refusing cost
        assert "you lose a life in their place" in text and "No promise" in text
    # neutral styling: no choice is the highlighted one
    assert main.locator('[data-testid="stBaseButton-primary"]').count() == 0
    page.get_by_text("Coach: show the expert's estimate for each choice").click()
    expect(main.get_by_text(re.compile(r"Coach: \d+% chance"))).to_have_count(count)
    settle(page)
    risks = re.findall(r"Coach: (\d+)% chance of losing a life this round", main_text(page))
    assert len(risks) == count and all(0 <= int(r) <= 100 for r in risks)
    expect(page.get_by_text("from your seat's view only")).to_be_visible()
    table = _table_text(page)
    assert "YOU" in table and "face down" not in table.split("YOU")[1][:40]


# 7 ---------------------------------------------------------------------------------------------


def test_counts_agree_with_their_numbers(service: tuple[Api, str], page: Page) -> None:
    api, viewer = service
    seats = [{"name": n, "kind": "bot", "bot_level": "basic"} for n in ("Ann", "Bob", "Cy")]
    created = httpx.post(f"{api.base}/matches", timeout=30,
                         json={"seats": seats, "seed": 7, "starting_lives": 1})  # fmt: skip
    match_id = created.json()["match_id"]
    _open_replay(page, viewer, match_id)
    _next(page, 1)
    expect(page.get_by_text("3 seats with 1 life each").first).to_be_visible()
    table = _table_text(page)
    assert table.count("1 life") == 3 and "1 lives" not in table
    assert "1 lives" not in main_text(page)


# 8 ---------------------------------------------------------------------------------------------


def test_the_charts_mark_resets_and_draw_side_by_side_bars(
    service: tuple[Api, str], page: Page
) -> None:
    _, viewer = service
    open_app(page, f"{viewer}/charts")
    page.get_by_role("button", name="Load a sample bot match").click()  # seed 1 has a reset
    expect(page.get_by_text("Lives per seat after each round")).to_be_visible()
    settle(page)
    charts = page.locator('[data-testid="stVegaLiteChart"]')
    expect(charts).to_have_count(3)
    expect(page.get_by_text("Dotted vertical lines: a lives reset")).to_be_visible()
    page.wait_for_timeout(1000)
    for index in range(3):  # each chart is drawn (not an empty box)
        box = charts.nth(index).bounding_box()
        assert box is not None and box["height"] > 200


# 9 ---------------------------------------------------------------------------------------------


def test_replay_labels_the_setup_the_scoring_and_the_rounds(
    service: tuple[Api, str], page: Page
) -> None:
    api, viewer = service
    match_id = api.bot_match(34, ("Ann", "Bob", "Cy", "Di"))
    _open_replay(page, viewer, match_id)
    _next(page, 1)
    expect(page.get_by_text(re.compile(r"Event 1 of \d+ · before the first round"))).to_be_visible()
    assert "round 0" not in main_text(page)
    page.get_by_role("button", name="End »").click()
    expect(page.get_by_text("wins the match").first).to_be_visible()
    settle(page)
    body = main_text(page)
    revealed = re.search(r"Revealed this round: (.*)", body)
    assert revealed is not None and "nothing yet" not in revealed.group(1)
    assert "Ann: " in revealed.group(1) or "Bob: " in revealed.group(1)

    # a log that stops in round 1 says "1 round", not "0 rounds"
    lines = to_ndjson(chain(bot_match(5))).splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"round_ended"' in line)
    open_app(page, f"{viewer}/replay")
    page.locator('input[type="file"]').set_input_files(
        files=[{"name": "round1.ndjson", "mimeType": "application/x-ndjson",
                "buffer": ("\n".join(lines[:cut]) + "\n").encode()}]
    )  # fmt: skip
    expect(page.get_by_text(f"Open: round1.ndjson · {cut} events · 1 round")).to_be_visible()
