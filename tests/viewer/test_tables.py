"""Tables between people, against the real API: every game's table is created, claimed and
watched through the viewer's own functions (``viewer.tables``), and the Tables page draws the
lobby in every language."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from api.client import Conflict
from domain.games import GAMES
from tests.viewer.support import APP, Api
from tests.viewer.test_viewer_pages import DOWN, open_page, table_data
from viewer import tables
from viewer.games.seats import PLAY_KEY
from viewer.i18n import LANGS
from viewer.remote import connect


@pytest.mark.parametrize("game", list(GAMES))
def test_two_people_take_the_open_seats_and_a_spectator_reads_the_public_view(
    api: Api, game: str
) -> None:
    match_id = tables.create_table(api.base, game, 2, 1, "random")
    listed = {m["match_id"]: m for m in tables.lobby(api.base)}
    assert listed[match_id]["open_seats"] == [0, 1]

    first_game, first = tables.claim(api.base, match_id, 0, "Ann")
    assert first_game == game and first.seat == 0 and first.view.viewer == 0
    assert tables.open_seats(tables.public(api.base, match_id)) == [1]
    _, second = tables.claim(api.base, match_id, 1, "Bo")
    assert second.view.viewer == 1
    assert match_id not in {m["match_id"] for m in tables.lobby(api.base)}

    # the spectator reads the public view: no seat, no own card, the same version as the seats
    watching = tables.watch(api.base, match_id)
    assert watching.view.viewer is None and watching.view.hand is None and watching.seen
    now = tables.version(api.base, second.token, match_id)
    assert watching.view.version == now == tables.version(api.base, None, match_id)


def test_a_waiting_seat_and_a_spectator_hear_of_a_move_on_the_stream(api: Api) -> None:
    """``tables.moved``: a move already stored is answered at once, silence is "no" after the
    wait, and a question asked before another's move is answered by that move (the 60 s wait
    is only a bound: the answer comes when the move is stored)."""
    match_id = tables.create_table(api.base, "cuccu", 2, 0, "random")
    seats = [tables.claim(api.base, match_id, seat, name)[1] for seat, name in ((0, "A"), (1, "B"))]
    view = tables.public(api.base, match_id)["view"]
    version, pending = view["version"], view["pending"]
    mover = next(s for s in seats if s.seat == pending["seat"])
    waiting = next(s for s in seats if s is not mover)
    assert not tables.moved(api.base, None, match_id, version, 0.2)  # nobody moved
    assert not tables.moved(api.base, waiting.token, match_id, version, 0)
    assert tables.moved(api.base, None, match_id, version - 1, 0.2)  # already stored: at once
    assert tables.moved(api.base, waiting.token, match_id, version - 1, 0)  # one GET

    with ThreadPoolExecutor(2) as pool:
        asked = [pool.submit(tables.moved, api.base, token, match_id, version, 60.0)
                 for token in (waiting.token, None)]  # fmt: skip
        with connect(api.base, mover.token) as client:
            client.send_command(match_id, pending["choices"][0], expected_version=version)
        assert [question.result() for question in asked] == [True, True]


def test_a_claimed_seat_cannot_be_claimed_again(api: Api) -> None:
    match_id = tables.create_table(api.base, next(iter(GAMES)), 2, 0, "random")
    tables.claim(api.base, match_id, 0, "Ann")
    with pytest.raises(Conflict):
        tables.claim(api.base, match_id, 0, "Eve")


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_tables_page_lists_the_lobby_in_every_language(api: Api, lang: str) -> None:
    match_id = tables.create_table(api.base, next(iter(GAMES)), 2, 1, "basic")
    at = open_page("tables", lang=lang, api_url=api.base)
    shown = [*at.markdown, *at.subheader, *at.caption, *at.info]
    text = " ".join(str(e.value) for e in shown) + " ".join(str(b.label) for b in at.button)
    assert match_id[:8] in text
    assert not re.search(r"\btables\.[a-z_]+\b", text), "an untranslated key"


def test_the_tables_page_says_when_the_api_is_down() -> None:
    at = open_page("tables")
    assert at.error and DOWN in at.error[0].value


def _table_page(api: Api, match_id: str, **state: object) -> AppTest:
    """The Tables page at ``?table=<match_id>`` in a session holding ``state``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["api_url"] = api.base
    for key, value in state.items():
        at.session_state[key] = value
    at.query_params["table"] = match_id
    at.run()
    at.switch_page("app_pages/tables.py").run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_and_a_spectator_are_drawn_for_every_game(api: Api, game: str) -> None:
    match_id = tables.create_table(api.base, game, 2, 1, "random")
    _, ann = tables.claim(api.base, match_id, 0, "Ann")
    tables.claim(api.base, match_id, 1, "Bo")

    seated = _table_page(api, match_id, **{PLAY_KEY: ann})
    assert any("Ann" in str(m.value) for m in at_text(seated))  # the game's own Play page
    assert table_data(seated)["steps"], "the seat's table is not drawn"

    watching = _table_page(api, match_id, tables_watching=tables.watch(api.base, match_id))
    assert any("You are watching" in str(i.value) for i in watching.info)
    assert table_data(watching)["steps"], "the spectator's table is not drawn"
    assert all("You are" not in str(m.value) for m in watching.markdown)  # no seat of its own


def at_text(at: AppTest) -> list[Any]:
    return [*at.markdown, *at.caption, *at.info]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_spectator_follows_a_table_through_the_end_of_its_rounds(api: Api, game: str) -> None:
    """Two people and a bot play three rounds; after every move the spectator's match catches
    up to the API's version (the round's end and the next deal included)."""
    match_id = tables.create_table(api.base, game, 2, 1, "random")
    seats = {s: tables.claim(api.base, match_id, s, n)[1] for s, n in ((0, "Ann"), (1, "Bo"))}
    watching = tables.watch(api.base, match_id)
    rounds = 0
    while rounds < 3:
        view = tables.public(api.base, match_id)["view"]
        if view["status"] == "over":
            break
        pending = view["pending"]
        seat = seats[pending["seat"] if pending["seat"] is not None else 0]
        rounds += pending["kind"] == "next_round"
        with connect(api.base, seat.token) as client:
            # the seat's own view names its choices (the public one may not)
            choices = client.get_match(match_id)["view"]["pending"]["choices"]
            client.send_command(match_id, choices[0], expected_version=view["version"])
        tables.follow_watch(watching)
        assert watching.view.version == tables.version(api.base, None, match_id)
    assert rounds == 3 or watching.view.status == "over"
