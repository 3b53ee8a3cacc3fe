"""Play: a person plays seat 0 against three AI opponents through the API.

Exactly what any third-party client does: create the match, keep the seat token, send
decisions with it, follow the live stream, and show only what the API shows this seat.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from domain import MatchView
from viewer.api_client import ApiError, ApiUnavailable, Client
from viewer.captions import caption, card_chip, seat_names
from viewer.game import Game, act, follow, start
from viewer.loader import open_from_api
from viewer.ui import T, api_url, lang

LEVELS = ("expert", "basic", "random")  # the first is the default opponent


def _game() -> Game | None:
    found = st.session_state.get("game")
    return found if isinstance(found, Game) else None


def _client() -> Client:
    return Client(api_url())


def _follow(game: Game) -> None:
    try:
        follow(_client(), game)
    except (ApiError, ApiUnavailable) as error:
        st.session_state["play_error"] = T("api.error", error=error)


def _act(choice: str) -> None:
    game = _game()
    if game is None:
        return
    try:
        act(_client(), game, choice)
    except (ApiError, ApiUnavailable) as error:
        st.session_state["play_error"] = T("api.error", error=error)


def _start_from_form() -> None:
    """The form's callback: runs before the page, so the new match shows at once."""
    state = st.session_state
    try:
        state["game"] = start(_client(), str(state["play_name"]).strip(),
                              str(state["play_level"]), int(state["play_lives"]))  # fmt: skip
    except ApiUnavailable as error:
        state["play_error"] = T("api.down", url=api_url(), error=error)
    except ApiError as error:
        state["play_error"] = T("api.error", error=error)


def _new_match_form() -> None:
    st.info(T("play.intro"))
    with st.form("new_game"):
        st.text_input(T("play.name"), value="Player", max_chars=40, key="play_name")
        st.selectbox(T("play.level"), LEVELS, key="play_level",
                     format_func=lambda x: T(f"level.{x}"))  # fmt: skip
        st.number_input(T("play.lives"), 1, 9, 3, key="play_lives")
        st.form_submit_button(T("play.start"), type="primary", on_click=_start_from_form)


def _seats(view: MatchView, names: list[str]) -> None:
    here = lang()
    rows = []
    for info in view.seats:
        card = view.hands[info.seat] if info.seat < len(view.hands) else None
        shown = card_chip(card, here) if card else ("🂠" if info.dealt else "")
        marks = []
        if info.seat == view.dealer:
            marks.append("🎴 " + T("seat.dealer"))
        if view.pending is not None and view.pending.seat == info.seat:
            marks.append("👉 " + T("seat.deciding"))
        if info.dead:
            marks.append("💀 " + T("seat.dead"))
        elif info.lives == 0:
            marks.append("⛔ " + T("seat.out"))
        if view.winner == info.seat:
            marks.append("🏆 " + T("seat.winner"))
        rows.append({T("col.seat"): info.seat, T("col.name"): names[info.seat],
                     T("col.lives"): "❤️" * info.lives, T("col.card"): shown,
                     "": " · ".join(marks)})  # fmt: skip
    st.dataframe(pd.DataFrame(rows), hide_index=True)


def _decision(game: Game, names: list[str]) -> None:
    view = game.view
    decision = view.pending
    if view.status == "over":
        winner = names[view.winner] if view.winner is not None else "?"
        st.success(T("play.over", winner=winner), icon="🏆")
        if st.button(T("matches.open"), key="play_replay") and open_from_api(game.match_id):
            st.switch_page("app_pages/replay.py", query_params={"match": game.match_id})
        return
    if decision is None:
        return
    mine = decision.kind == "next_round" or decision.seat == game.seat
    if not mine:
        st.info(T("play.waiting", seat=names[decision.seat] if decision.seat is not None else "…"))
        st.button(T("play.refresh"), key="refresh", on_click=_follow, args=(game,))
        return
    st.markdown(f"**{T('play.decide')}**")
    with st.container(horizontal=True):
        for choice in decision.choices:
            dealer = decision.kind == "dealer_turn" and choice == "exchange"
            st.button(T("choice.dealer_exchange" if dealer else f"choice.{choice}"),
                      key=f"do_{choice}", on_click=_act, args=(choice,),
                      type="primary" if choice != "keep" else "secondary")  # fmt: skip


def _log(game: Game, names: list[str]) -> None:
    st.markdown(f"**{T('play.seen')}**")
    here = lang()
    recent = list(reversed(game.seen[-40:]))
    st.dataframe(pd.DataFrame({"#": [e.version for e in recent],
                               T("col.what"): [caption(e.event, names, here) for e in recent]}),
                 hide_index=True)  # fmt: skip


def page() -> None:
    error = st.session_state.pop("play_error", None)
    if error:
        st.error(error)
    game = _game()
    if game is None:
        _new_match_form()
        return
    view = game.view
    names = seat_names([s.name for s in view.seats])
    st.caption(T("play.match", match_id=game.match_id[:8], round=view.round, version=view.version))
    st.markdown(f"### {T('play.your_card')}: {card_chip(view.hand, lang()) if view.hand else '—'}")
    _decision(game, names)
    _seats(view, names)
    _log(game, names)
    st.button(T("play.new"), key="leave", on_click=st.session_state.pop, args=("game", None))


page()
