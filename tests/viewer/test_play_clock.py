"""Play's clock and rematch: the form asks the real API for a clock, each seat's clock is drawn
on its box of the table (the data the play modules pass the component), and a finished match
offers a rematch that opens in Play."""

from __future__ import annotations

import datetime as dt

import httpx
import pytest
from streamlit.testing.v1 import AppTest

from tests.viewer.support import Api
from tests.viewer.test_viewer_pages import open_page, texts
from viewer.card_table import drawing_data
from viewer.play_clock import clock_drawings, with_clocks
from viewer.table import CardFace, SeatDrawing, TableDrawing

#: Skip first: after a choice the page shows its steps one at a time until skipped
SKIPS = ("play_skip", "play_skip_end")
PREFERRED = (*SKIPS, "do_next_round", "do_inn_accept", "do_inn_ask_pay", "do_exchange", "do_keep")


def _start(api: Api, *, clock_seconds: int | None, reserve: int | None = None) -> AppTest:
    at = open_page("play", api_url=api.base)
    at.text_input(key="play_name").input("Tester")
    if clock_seconds is not None:
        at.checkbox(key="play_clock").check()
        at.number_input(key="play_clock_seconds").set_value(clock_seconds)
    if reserve is not None:
        at.number_input(key="play_clock_reserve").set_value(reserve)
    at.button[0].click().run()  # the form's submit button
    assert not at.exception, at.exception
    return at


def _ms(text: str) -> int:
    return round(dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def _drawing(seats: int) -> TableDrawing:
    return TableDrawing(tuple(SeatDrawing(i, f"S{i}", CardFace(), 3, 3, "3 lives")
                              for i in range(seats)))  # fmt: skip


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
    table = _drawing(4)
    assert with_clocks(table, None, 0) == table
    assert all("ck" not in seat for seat in drawing_data(table)["seats"])


def test_a_clocked_match_puts_each_seats_clock_and_its_deadline_on_the_table(api: Api) -> None:
    before = dt.datetime.now(dt.UTC).timestamp() * 1000
    at = _start(api, clock_seconds=30, reserve=90)
    game = at.session_state["game"]
    # the API made the match with the clock the form asked for
    answer = httpx.get(f"{api.base}/matches/{game.match_id}").json()
    assert answer["clock"]["settings"]["per_decision"] == 30
    assert answer["clock"]["settings"]["reserve"] == 90
    assert "Clock (30 s per decision)" in texts(at)
    # between rounds (a bot's hunter can cost the person its life before it decides) any seat
    # may deal the next round and every seat has the deadline: play on to a seat's decision
    for _ in range(10):
        if game.clock["awaiting"] is not None and game.clock["awaiting"]["seat"] is not None:
            break
        keys = {b.key for b in at.button}
        at.button(key=next(k for k in PREFERRED if k in keys)).click().run()
        assert not at.exception, at.exception
        game = at.session_state["game"]
    clocks = clock_drawings(game.clock, 4, game.seat)
    assert [c.reserve_ms for c in clocks] == [90_000] * 4
    deciding = [c for c in clocks if c.deadline_ms is not None]
    assert len(deciding) == 1  # only the seat whose decision is pending has a deadline
    # an absolute deadline the browser counts down to: the decision's 30 s and the reserve
    deadline = deciding[0].deadline_ms
    assert deadline is not None and before < deadline <= before + 125_000
    assert deciding[0].reserve_from_ms == deadline - 90_000
    assert {c.left_words for c in clocks} == {"{time} to decide"}
    assert {c.reserve_words for c in clocks} == {"reserve {time}"}
    assert not any(c.abandoned or c.resume_words for c in clocks)
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


CLOCK = {
    "settings": {"per_decision": 60, "reserve": 300, "increment": 0, "abandon_after": 3},
    "awaiting": {"seat": 1, "opened_at": "2026-12-03T09:00:00Z",
                 "reserve_from": "2026-12-03T09:01:00Z", "deadline": "2026-12-03T09:06:00Z"},
    "reserves": [300.0, 300.0, 120.5], "timeouts": [0, 0, 3], "abandoned": [False, False, True],
}  # fmt: skip


def test_each_seats_clock_is_absolute_times_and_its_words() -> None:
    """What the play modules pass the table: the browser counts down from these times."""
    clocks = clock_drawings(CLOCK, 3, own=2)
    assert [c.deadline_ms for c in clocks] == [None, _ms("2026-12-03T09:06:00Z"), None]
    # only the seat that owes the decision spends its reserve on it, from this instant
    assert [c.reserve_from_ms for c in clocks] == [None, _ms("2026-12-03T09:01:00Z"), None]
    assert [c.reserve_ms for c in clocks] == [300_000, 300_000, 120_500]
    assert [c.abandoned for c in clocks] == [False, False, True]
    assert [c.abandoned_words for c in clocks] == ["a bot plays"] * 3
    # the button to take a seat back is offered on the viewer's own abandoned seat only
    assert [c.resume_words for c in clocks] == ["", "", "Take my seat back"]
    assert [c.resume_words for c in clock_drawings(CLOCK, 3, own=1)] == ["", "", ""]


def test_a_decision_any_seat_may_answer_runs_on_every_seat_present() -> None:
    anyone = {**CLOCK, "awaiting": {**CLOCK["awaiting"], "seat": None}}  # type: ignore[dict-item]
    clocks = clock_drawings(anyone, 3, own=0)
    deadline = _ms("2026-12-03T09:06:00Z")
    assert [c.deadline_ms for c in clocks] == [deadline, deadline, None]  # not the bot's stand-in
    assert [c.reserve_from_ms for c in clocks] == [None, None, None]  # nobody's reserve runs


def test_the_clock_is_a_field_of_each_seat_the_component_receives() -> None:
    data = drawing_data(with_clocks(_drawing(3), CLOCK, 2))
    ck = [seat["ck"] for seat in data["seats"]]
    assert [c["deadline_ms"] for c in ck] == [None, _ms("2026-12-03T09:06:00Z"), None]
    assert [c["abandoned"] for c in ck] == [False, False, True]
    assert ck[2]["resume_words"] == "Take my seat back"
    assert [seat["n"] for seat in data["seats"]] == ["S0", "S1", "S2"]  # the rest unchanged


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
    clocks = clock_drawings(first.clock, len(first.view.seats), first.seat)
    assert sum(c.deadline_ms is not None for c in clocks) >= 1
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
