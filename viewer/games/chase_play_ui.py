"""The Play page for Ranter-Go-Round: its options, its table, its choices explained and the
coach's exact figures (``viewer.games.play_page`` draws the rest).

Like the other games' Play, it is a client of the API and shows only what the API shows this
seat.
"""

from __future__ import annotations

import streamlit as st

from domain.games.chase.views import MatchView
from viewer.coach import Advice
from viewer.games import chase_play
from viewer.games.chase import caption, card_words, choice_words, view_drawing
from viewer.games.chase_play import ChaseMatch
from viewer.games.play_page import STATE_KEY, Coach, Looks, PlayPage, PlayTexts
from viewer.games.steps import opponents
from viewer.play_clock import clock_option
from viewer.ui import T, picked

__all__ = ["STATE_KEY", "PAGE", "current", "new_match_form", "show"]


def _fields() -> None:
    st.number_input(T("play.lives"), 1, 9, 3, key="chase_lives")
    st.number_input(T("play.seats"), 2, 20, 4, key="chase_seats")
    st.toggle(T("chase.play.announce_low"), value=False, key="chase_announce_low")
    st.toggle(T("chase.play.king_cut_loses"), value=False, key="chase_king_cut_loses")


def _start(url: str) -> ChaseMatch:
    state = st.session_state
    body = chase_play.request_body(
        str(state["play_name"]).strip(), picked("play_level"), int(state["chase_lives"]),
        bool(state["chase_announce_low"]), bool(state["chase_king_cut_loses"]),
        opponents(int(state.get("chase_seats", 4))), clock_option(),
    )  # fmt: skip
    return chase_play.start(url, body)


def _header(match: ChaseMatch, view: MatchView) -> str:
    return T("play.match", match_id=match.match_id[:8], round=view.round, version=view.version)


def _over(view: MatchView, names: list[str]) -> str:
    return T("play.over", winner=names[view.winner] if view.winner is not None else "?")


def _standing(match: ChaseMatch, names: list[str]) -> None:
    if _out(match):
        st.warning(T("chase.play.out"), icon=":material/hourglass_empty:")


def _exact(advice: Advice) -> str:
    return T("chase.coach.exact")


def _out(match: ChaseMatch) -> bool:
    return match.view.seats[match.seat].lives == 0


PAGE: PlayPage[ChaseMatch] = PlayPage(
    host=chase_play.HOST,
    texts=PlayTexts("chase.play.how", "new_chase", "chase.play.round_ending"),
    looks=Looks(view_drawing, caption, card_words, choice_words),
    form_fields=_fields,
    start=_start,
    header=_header,
    over_text=_over,
    round_ending=chase_play.round_ending,
    notes=_standing,
    coach=Coach(_exact),
    out=_out,
)

current = PAGE.current
new_match_form = PAGE.new_match_form
show = PAGE.show
