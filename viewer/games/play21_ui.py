"""The Play page for Cucco 21: its options, its table, its choices explained
(``viewer.games.play_page`` draws the rest).

Like Cuccù's Play, it is a client of the API and shows only what the API shows this seat.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from domain.games.cucco21.views import GameView
from viewer.games import play21
from viewer.games.cucco21 import caption, card_words, choice_words, view_drawing
from viewer.games.play21 import Game21
from viewer.games.play_page import STATE_KEY, Looks, PlayPage, PlayTexts
from viewer.games.steps import opponents
from viewer.play_clock import clock_option
from viewer.ui import T, picked

__all__ = ["STATE_KEY", "PAGE", "current", "new_game_form", "show"]


def _fields() -> None:
    st.number_input(T("c21.play.chips"), 1, 100, 15, key="play21_chips")
    st.number_input(T("c21.play.max_sets"), 0, 50, 2, key="play21_max_sets")
    st.number_input(T("play.seats"), 2, 12, 4, key="play21_seats")
    st.toggle(T("c21.play.powers"), value=True, key="play21_powers")


def _start(url: str) -> Game21:
    state = st.session_state
    max_sets = int(state["play21_max_sets"])
    body = play21.request_body(
        str(state["play_name"]).strip(), picked("play_level"), int(state["play21_chips"]),
        bool(state["play21_powers"]), max_sets or None,
        opponents(int(state.get("play21_seats", 4))), clock_option(),
    )  # fmt: skip
    return play21.start(url, body)


def _header(game: Game21, view: GameView) -> str:
    return T("c21.play.match", match_id=game.match_id[:8], set=view.set_number,
             round=view.round, version=view.version)  # fmt: skip


def _over(view: GameView, names: list[str]) -> str:
    return T("c21.play.over", winners=", ".join(names[s] for s in view.winners))


def _standing(game: Game21, names: list[str]) -> None:
    """Out of the set or the game: why you only watch."""
    me = game.view.seats[game.seat]
    if me.bankrupt:
        st.warning(T("c21.play.bankrupt"), icon=":material/block:")
    elif not me.alive:
        st.warning(T("c21.play.dead"), icon=":material/hourglass_empty:")


def _as_drawn(view: Any, seen: Any) -> Any:
    # between rounds, the round that ended as it ended, until the next one starts
    return play21.as_round_ended(view, seen)


def _out(game: Game21) -> bool:
    return game.view.seats[game.seat].bankrupt


PAGE: PlayPage[Game21] = PlayPage(
    host=play21.HOST,
    texts=PlayTexts("c21.play.how", "new_game21", "c21.play.round_ending"),
    looks=Looks(view_drawing, caption, card_words, choice_words),
    form_fields=_fields,
    start=_start,
    header=_header,
    over_text=_over,
    round_ending=play21.round_ending,
    notes=_standing,
    as_drawn=_as_drawn,
    out=_out,
)

current = PAGE.current
new_game_form = PAGE.new_match_form
show = PAGE.show
