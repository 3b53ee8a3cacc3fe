"""The Play page for Cucco 21: a new game's form, the drawn table, the choices explained.

Like Cuccù's Play, it is a client of the API and shows only what the API shows this seat.
"""

from __future__ import annotations

import streamlit as st

from viewer import remote
from viewer.event_log import event_log
from viewer.games import play21
from viewer.games.cucco21 import caption, card_words, choice_words, view_drawing
from viewer.games.play21 import Game21
from viewer.games.steps import opponents, seat_names
from viewer.loader import open_from_api, show_message
from viewer.play_clock import clock_form, clock_option, play_table, rematch_button
from viewer.ui import T, api_url, lang, name_input, picked, select

STATE_KEY = "game"  # the same key as Cuccù's game: one game at a time in a browser session


def current() -> Game21 | None:
    found = st.session_state.get(STATE_KEY)
    return found if isinstance(found, Game21) else None


def _report(error: Exception) -> None:
    if isinstance(error, remote.ApiUnavailable):
        st.session_state["play_error"] = T("api.down", url=api_url(), error=error)
    else:
        st.session_state["play_error"] = T("api.error", error=error)


def _start() -> None:
    state = st.session_state
    max_sets = int(state["play21_max_sets"])
    body = play21.request_body(
        str(state["play_name"]).strip(), picked("play_level"), int(state["play21_chips"]),
        bool(state["play21_powers"]), max_sets or None,
        opponents(int(state.get("play21_seats", 4))), clock_option(),
    )  # fmt: skip
    try:
        state[STATE_KEY] = play21.start(api_url(), body)
        state["play_scroll"] = True  # the table and the first choice come into view
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _rematch() -> None:
    """The button's callback: the rematch replaces the finished match on the page."""
    game = current()
    if game is None:
        return
    try:
        st.session_state[STATE_KEY] = play21.rematch(game)
        st.session_state["play_scroll"] = True
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _act(choice: str) -> None:
    game = current()
    if game is None:
        return
    try:
        play21.act(game, choice)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _follow(game: Game21) -> None:
    try:
        play21.follow(game)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def how_to_play(expanded: bool) -> None:
    with st.expander(T("play.how_title"), expanded=expanded):
        st.markdown(T("c21.play.how"))


def new_game_form(levels: tuple[str, ...]) -> None:
    st.info(T("play.intro"))
    how_to_play(expanded=True)
    with st.form("new_game21"):
        name_input("play_name")
        select(st, T("play.level"), levels, key="play_level", format_func=lambda x: T(f"level.{x}"))
        st.number_input(T("c21.play.chips"), 1, 100, 15, key="play21_chips")
        st.number_input(T("c21.play.max_sets"), 0, 50, 2, key="play21_max_sets")
        st.number_input(T("play.seats"), 2, 12, 4, key="play21_seats")
        st.toggle(T("c21.play.powers"), value=True, key="play21_powers")
        clock_form()
        st.form_submit_button(T("play.start"), type="primary", on_click=_start)


def _decision(game: Game21, names: list[str]) -> None:
    view = game.view
    decision = view.pending
    if view.status == "over":
        winners = ", ".join(names[s] for s in view.winners)
        st.success(T("c21.play.over", winners=winners), icon=":material/emoji_events:")
        _round_ending(game, names)
        rematch_button(_rematch)
        if st.button(T("matches.open"), key="play_replay"):
            if open_from_api(game.match_id):
                st.switch_page("app_pages/replay.py", query_params={"match": game.match_id})
            show_message()
        return
    if decision is None:
        return
    _where_you_stand(game, names)
    mine = decision.kind == "next_round" or decision.seat == game.seat
    if not mine:
        st.info(T("play.waiting", seat=names[decision.seat] if decision.seat is not None else "…"))
        st.button(T("play.refresh"), key="refresh", on_click=_follow, args=(game,))
        return
    st.markdown(f"#### {T('play.decide')}")
    here = lang()
    for choice in decision.choices:
        label, meaning = choice_words(view, choice, names, here)
        with st.container(border=True):
            # every choice is drawn alike: the page explains, it does not push one answer
            st.button(label, key=f"do_{choice}", on_click=_act, args=(choice,), width="stretch")
            st.caption(meaning)


def _round_ending(game: Game21, names: list[str]) -> None:
    """How the last round ended: the reveal, who paid or died, the set's end."""
    ending = play21.round_ending(game.seen)
    if not ending:
        return
    here = lang()
    lines = "\n".join(f"- {caption(e.event, names, here)}" for e in ending)
    st.markdown(f"**{T('c21.play.round_ending', round=game.view.round)}**\n\n{lines}")


def _where_you_stand(game: Game21, names: list[str]) -> None:
    """Between rounds, how the round ended; out of the set or the game, why you only watch."""
    view = game.view
    me = view.seats[game.seat]
    if me.bankrupt:
        st.warning(T("c21.play.bankrupt"), icon=":material/block:")
    elif not me.alive:
        st.warning(T("c21.play.dead"), icon=":material/hourglass_empty:")
    if view.pending is not None and view.pending.kind == "next_round":
        _round_ending(game, names)


def show(game: Game21) -> None:
    # between rounds, the round that ended as it ended, until the next one starts
    view = play21.as_round_ended(game.view, game.seen)
    here = lang()
    names = seat_names([s.name for s in view.seats])
    st.caption(T("c21.play.match", match_id=game.match_id[:8], set=view.set_number,
                 round=view.round, version=view.version))  # fmt: skip
    last = game.seen[-1].event if game.seen else None
    table, side = st.columns([3, 2])
    with table:
        play_table(  # issue 22: each seat's clock on its box
            view_drawing(view, names, here, last),
            game,
            refresh=lambda: _follow(game),
            scroll=bool(st.session_state.pop("play_scroll", False)),
        )
        if last is not None:
            st.caption(T("play.last_action", text=caption(last, names, here)))
    with side:
        st.markdown(T("play.you_are", name=names[game.seat], seat=game.seat))
        card = card_words(view.hand, here) if view.hand else "—"
        st.markdown("### " + T("play.your_card_is", card=card))
        _decision(game, names)
    how_to_play(expanded=False)
    st.markdown(f"**{T('play.seen')}**")
    recent = list(reversed(game.seen[-40:]))
    event_log([(e.version, caption(e.event, names, here)) for e in recent], heading=T("col.what"))
    st.button(T("play.new"), key="leave", on_click=st.session_state.pop, args=(STATE_KEY, None))
