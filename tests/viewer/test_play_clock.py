"""Play's clock and rematch: the form asks the real API for a clock, each seat's clock shows
beside the table, and a finished match offers a rematch that opens in Play."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from tests.viewer.support import Api
from tests.viewer.test_viewer_pages import open_page, texts
from viewer.play_clock import seat_clocks

#: Skip first: after a choice the page shows its steps one at a time until skipped
SKIPS = ("play_skip", "play_skip_end")
PREFERRED = (*SKIPS, "do_next_round", "do_inn_accept", "do_inn_ask_pay", "do_exchange", "do_keep")


def _start(api: Api, *, clock_seconds: int | None) -> AppTest:
    at = open_page("play", api_url=api.base)
    at.text_input(key="play_name").input("Tester")
    if clock_seconds is not None:
        at.checkbox(key="play_clock").check()
        at.number_input(key="play_clock_seconds").set_value(clock_seconds)
    at.button[0].click().run()  # the form's submit button
    assert not at.exception, at.exception
    return at


def _clock_lines(at: AppTest) -> list[str]:
    return [str(m.value) for m in at.markdown if " — " in str(m.value)]


def _play_to_the_end(at: AppTest) -> None:
    for _ in range(400):
        keys = {b.key for b in at.button}
        if at.session_state["game"].view.status == "over" and not keys & set(SKIPS):
            return
        at.button(key=next(k for k in PREFERRED if k in keys)).click().run()
        assert not at.exception, at.exception
    raise AssertionError("the match did not end")


def test_a_match_without_a_clock_shows_none(api: Api) -> None:
    at = _start(api, clock_seconds=None)
    assert at.session_state["game"].clock is None
    assert "Clock (" not in texts(at)
    assert _clock_lines(at) == []


def test_a_clocked_match_shows_each_seats_clock_and_its_deadline(api: Api) -> None:
    at = _start(api, clock_seconds=30)
    game = at.session_state["game"]
    # the API made the match with the clock the form asked for
    answer = httpx.get(f"{api.base}/matches/{game.match_id}").json()
    assert answer["clock"]["settings"]["per_decision"] == 30
    assert "Clock (30 s per decision)" in texts(at)
    lines = _clock_lines(at)
    assert len(lines) == 4  # one per seat
    assert all("reserve 5:00" in line for line in lines)
    deciding = [line for line in lines if "to decide" in line]
    assert len(deciding) == 1  # only the seat whose decision is pending has a deadline
    # its time left is the deadline's: at most the decision's 30 s plus the 5-minute reserve
    left = deciding[0].split("— ")[1].split(" to decide")[0].strip("*")
    minutes, seconds = left.split(":")
    assert 0 < int(minutes) * 60 + int(seconds) <= 330
    # playing on keeps a clock (the catch-up skips the clock's own events)
    keys = {b.key for b in at.button}
    at.button(key=next(k for k in PREFERRED if k in keys)).click().run()
    assert not at.exception, at.exception
    assert at.session_state["game"].clock is not None


def test_a_finished_match_offers_a_rematch_that_opens_in_play(api: Api) -> None:
    at = _start(api, clock_seconds=30)
    first = at.session_state["game"]
    _play_to_the_end(at)
    at.button(key="play_rematch").click().run()
    assert not at.exception, at.exception
    second = at.session_state["game"]
    assert second.match_id != first.match_id
    assert second.view.status != "over"
    assert [s.name for s in second.view.seats] == ["Tester", "Ada", "Bruno", "Chiara"]
    assert second.clock is not None and second.clock["settings"]["per_decision"] == 30
    old = httpx.get(f"{api.base}/matches/{first.match_id}").json()
    assert old["rematch"] == second.match_id
    # the new seat's token plays: the page offers this seat's next decision or waits
    assert "play_rematch" not in {b.key for b in at.button}


def test_the_pending_seat_draws_on_its_reserve_after_its_own_time() -> None:
    clock = {
        "settings": {"per_decision": 60, "reserve": 300, "increment": 0, "abandon_after": 3},
        "awaiting": {"seat": 1, "opened_at": "2026-12-03T09:00:00Z",
                     "reserve_from": "2026-12-03T09:01:00Z",
                     "deadline": "2026-12-03T09:06:00Z"},
        "reserves": [300.0, 300.0, 120.0], "timeouts": [0, 0, 3],
        "abandoned": [False, False, True],
    }  # fmt: skip
    now = dt.datetime(2026, 12, 3, 9, 2, 0, tzinfo=dt.UTC)
    seats = seat_clocks(clock, 3, now)
    assert [s.time_left for s in seats] == [None, 240, None]
    assert [s.reserve for s in seats] == [300, 240, 120]
    assert [s.abandoned for s in seats] == [False, False, True]


@pytest.mark.parametrize("game", ["cucco21", "chase"])
def test_every_games_form_offers_the_clock_and_its_end_a_rematch(api: Api, game: str) -> None:
    at = open_page("play", api_url=api.base)
    at.radio(key="play_game").set_value(game).run()
    at.text_input(key="play_name").input("Tester")
    at.checkbox(key="play_clock").check()
    at.number_input(key="play_clock_seconds").set_value(45)
    at.button[0].click().run()
    assert not at.exception, at.exception
    first = at.session_state["game"]
    assert first.clock is not None and first.clock["settings"]["per_decision"] == 45
    assert "Clock (45 s per decision)" in texts(at)
    assert len(_clock_lines(at)) == len(first.view.seats)
    for _ in range(3000):
        keys = {b.key for b in at.button}
        skip = next((k for k in SKIPS if k in keys), None)
        if at.session_state["game"].view.status == "over" and skip is None:
            break
        choices = sorted(k for k in keys if k and k.startswith("do_"))
        at.button(key=skip or (choices[0] if choices else "refresh")).click().run()
        assert not at.exception, at.exception
    assert at.session_state["game"].view.status == "over"
    at.button(key="play_rematch").click().run()
    assert not at.exception, at.exception
    second = at.session_state["game"]
    assert second.match_id != first.match_id and second.view.status != "over"
    assert httpx.get(f"{api.base}/matches/{first.match_id}").json()["rematch"] == second.match_id
