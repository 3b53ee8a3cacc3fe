"""Play: a person plays seat 0 against bots through the API, in the game they pick.

Exactly what any third-party client does: create the match, keep the seat token, send
decisions with it, catch up on the events, and show only what the API shows this seat. Each
game's part of the page (its options, its table, what each choice does) is its own
(``viewer.games.pages``).
"""

from __future__ import annotations

import streamlit as st

from domain.games import GAMES
from viewer.games import game_title
from viewer.games.pages import PAGES
from viewer.seat_keeper import keep_seat
from viewer.ui import T

LEVELS = ("expert", "basic", "random")  # the first is the default opponent


def page() -> None:
    keep_seat()  # a reload keeps this tab's seat
    error = st.session_state.pop("play_error", None)
    if error:
        st.error(error)
    for pages in PAGES.values():
        playing = pages.playing()
        if playing is not None:
            pages.show(playing)
            return
    game = st.radio(T("load.game"), list(GAMES), format_func=game_title, horizontal=True,
                    key="play_game")  # fmt: skip
    PAGES[game].new_match_form(LEVELS)


page()
