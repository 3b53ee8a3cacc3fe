"""Cuccù's part of the Play page (Streamlit): a person plays seat 0 against three AI opponents
through the API (``viewer.games.cuccu_play``).

Exactly what any third-party client does: create the match, keep the seat token, send
decisions with it, catch up on the events, and show only what the API shows this seat. Each
choice says what it does in this position; the optional coach adds the expert bot's estimate
of the risk of each, from this seat's view only.
"""

from __future__ import annotations

import streamlit as st

from domain.games.cuccu.events import ExchangeRequested, InnChoiceMade, Retargeted
from domain.games.cuccu.views import MatchView
from viewer.coach import Advice
from viewer.games import cuccu_board as board
from viewer.games.cuccu_captions import caption, card_chip, card_name
from viewer.games.cuccu_play import HOST, Game, round_ending, start
from viewer.games.play_page import Coach, Looks, PlayPage, PlayTexts
from viewer.games.steps import opponents
from viewer.i18n import Lang
from viewer.play_clock import clock_option
from viewer.ui import N, T, lang, picked


def _fields() -> None:
    st.number_input(T("play.lives"), 1, 9, 3, key="play_lives")
    st.number_input(T("play.seats"), 2, 20, 4, key="play_seats")


def _start(url: str) -> Game:
    state = st.session_state
    return start(url, str(state["play_name"]).strip(), picked("play_level"),
                 int(state["play_lives"]), opponents(int(state.get("play_seats", 4))),
                 clock_option())  # fmt: skip


# --- what each choice means here ---------------------------------------------------------------


def next_without_card(view: MatchView) -> int | None:
    """Whom an exchange asks: the next player of the round not dealt yet (RULES: your turn)."""
    me = view.viewer
    order = list(view.participants)
    if me not in order:
        return None
    for seat in order[order.index(me) + 1 :]:
        if not view.seats[seat].dealt:
            return seat
    return None


def _request_parties(view: MatchView) -> tuple[int | None, int | None]:
    """(requester, innkeeper) of the request the inn has paused."""
    requester = target = None
    for event in view.round_events:
        if isinstance(event, ExchangeRequested | Retargeted):
            requester, target = event.seat, event.target
        elif isinstance(event, InnChoiceMade):
            requester = event.seat
    return requester, target


def label_and_meaning(view: MatchView, choice: str, names: list[str]) -> tuple[str, str]:
    here = lang()
    mine = card_name(view.hand, here) if view.hand else ""
    kind = view.pending.kind if view.pending is not None else ""
    requester, innkeeper = _request_parties(view)

    def name(seat: int | None, fallback: str = "…") -> str:
        return names[seat] if seat is not None else fallback

    if kind == "dealer_turn":
        key = "dealer_exchange" if choice == "exchange" else "dealer_keep"
        label = T("choice.dealer_exchange") if choice == "exchange" else T("choice.keep")
        return label, T(f"explain.{key}", card=mine)
    if choice == "exchange":
        target = name(next_without_card(view))
        return T("choice.exchange_with", target=target), T("explain.exchange", target=target,
                                                             card=mine)  # fmt: skip
    keeper = name(innkeeper, T("seat.innkeeper"))
    meaning = T(f"explain.{choice}", card=mine, innkeeper=keeper, requester=name(requester))
    return T(f"choice.{choice}"), meaning


def _choice_words(view: MatchView, choice: str, names: list[str], here: Lang) -> tuple[str, str]:
    label, meaning = label_and_meaning(view, choice, names)
    return label, meaning if choice != "next_round" else T("explain.next_round")


def _header(game: Game, view: MatchView) -> str:
    return T("play.match", match_id=game.match_id[:8], round=view.round, version=view.version)


def _over(view: MatchView, names: list[str]) -> str:
    return T("play.over", winner=names[view.winner] if view.winner is not None else "?")


def _samples(advice: Advice) -> str:
    return N("coach.samples", advice.samples)


def _out(game: Game) -> bool:
    return game.view.seats[game.seat].lives == 0


PAGE: PlayPage[Game] = PlayPage(
    host=HOST,
    texts=PlayTexts("play.how", "new_game", "play.round_ending"),
    looks=Looks(board.view_drawing, caption, card_chip, _choice_words),
    form_fields=_fields,
    start=_start,
    header=_header,
    over_text=_over,
    round_ending=round_ending,
    coach=Coach(_samples, between_rounds=True),
    out=_out,
)

current = PAGE.current
new_match_form = PAGE.new_match_form
show = PAGE.show
