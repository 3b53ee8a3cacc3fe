"""The Play page for Ranter-Go-Round: a new match's form, the drawn table, the choices
explained, and the coach's exact figures.

Like the other games' Play, it is a client of the API and shows only what the API shows this
seat.
"""

from __future__ import annotations

import streamlit as st

from viewer import remote
from viewer.coach import Advice, advise
from viewer.event_log import event_log
from viewer.games import chase_play
from viewer.games.chase import caption, card_words, choice_words, view_drawing
from viewer.games.chase_play import ChaseMatch
from viewer.games.steps import opponents, seat_names
from viewer.loader import open_from_api, show_message
from viewer.play_clock import clock_form, clock_option, play_table, rematch_button
from viewer.ui import T, api_url, lang, name_input, picked, select

STATE_KEY = "game"  # the same key as the other games' match: one match at a time in a browser


def current() -> ChaseMatch | None:
    found = st.session_state.get(STATE_KEY)
    return found if isinstance(found, ChaseMatch) else None


def _report(error: Exception) -> None:
    if isinstance(error, remote.ApiUnavailable):
        st.session_state["play_error"] = T("api.down", url=api_url(), error=error)
    else:
        st.session_state["play_error"] = T("api.error", error=error)


def _start() -> None:
    state = st.session_state
    body = chase_play.request_body(
        str(state["play_name"]).strip(), picked("play_level"), int(state["chase_lives"]),
        bool(state["chase_announce_low"]), bool(state["chase_king_cut_loses"]),
        opponents(int(state.get("chase_seats", 4))), clock_option(),
    )  # fmt: skip
    try:
        state[STATE_KEY] = chase_play.start(api_url(), body)
        state["play_scroll"] = True  # the table and the first choice come into view
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _rematch() -> None:
    """The button's callback: the rematch replaces the finished match on the page."""
    match = current()
    if match is None:
        return
    try:
        st.session_state[STATE_KEY] = chase_play.rematch(match)
        st.session_state["play_scroll"] = True
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _act(choice: str) -> None:
    match = current()
    if match is None:
        return
    try:
        chase_play.act(match, choice)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _follow(match: ChaseMatch) -> None:
    try:
        chase_play.follow(match)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def how_to_play(expanded: bool) -> None:
    with st.expander(T("play.how_title"), expanded=expanded):
        st.markdown(T("chase.play.how"))


def new_match_form(levels: tuple[str, ...]) -> None:
    st.info(T("play.intro"))
    how_to_play(expanded=True)
    with st.form("new_chase"):
        name_input("play_name")
        select(st, T("play.level"), levels, key="play_level", format_func=lambda x: T(f"level.{x}"))
        st.number_input(T("play.lives"), 1, 9, 3, key="chase_lives")
        st.number_input(T("play.seats"), 2, 20, 4, key="chase_seats")
        st.toggle(T("chase.play.announce_low"), value=False, key="chase_announce_low")
        st.toggle(T("chase.play.king_cut_loses"), value=False, key="chase_king_cut_loses")
        clock_form()
        st.form_submit_button(T("play.start"), type="primary", on_click=_start)


def _advice(match: ChaseMatch) -> Advice | None:
    """The coach's figures for this position, computed once per version of the match."""
    cache = st.session_state.setdefault("coach_cache", {})
    key = (match.match_id, match.view.version)
    if key not in cache:
        cache.clear()
        cache[key] = advise(match.view)
    found = cache[key]
    return found if isinstance(found, Advice) else None


def _decision(match: ChaseMatch, names: list[str]) -> None:
    view = match.view
    decision = view.pending
    if view.status == "over":
        winner = names[view.winner] if view.winner is not None else "?"
        st.success(T("play.over", winner=winner), icon=":material/emoji_events:")
        _round_ending(match, names)
        rematch_button(_rematch)
        if st.button(T("matches.open"), key="play_replay"):
            if open_from_api(match.match_id):
                st.switch_page("app_pages/replay.py", query_params={"match": match.match_id})
            show_message()
        return
    if decision is None:
        return
    if view.seats[match.seat].lives == 0:
        st.warning(T("chase.play.out"), icon=":material/hourglass_empty:")
    if decision.kind == "next_round":
        _round_ending(match, names)
    mine = decision.kind == "next_round" or decision.seat == match.seat
    if not mine:
        st.info(T("play.waiting", seat=names[decision.seat] if decision.seat is not None else "…"))
        st.button(T("play.refresh"), key="refresh", on_click=_follow, args=(match,))
        return
    st.markdown(f"#### {T('play.decide')}")
    coach = decision.kind != "next_round" and st.toggle(T("coach.toggle"), key="coach")
    advice = _advice(match) if coach else None
    here = lang()
    for choice in decision.choices:
        label, meaning = choice_words(view, choice, names, here)
        with st.container(border=True):
            # every choice is drawn alike: the page explains, it does not push one answer
            st.button(label, key=f"do_{choice}", on_click=_act, args=(choice,), width="stretch")
            st.caption(meaning)
            if advice is not None and choice in advice.risks:
                pct = round(100 * advice.risks[choice])
                st.markdown(f"**{T('coach.risk', pct=pct)}**", help=T("coach.about"))
    if advice is not None:
        st.caption(T("coach.about") + " " + T("chase.coach.exact"))


def _round_ending(match: ChaseMatch, names: list[str]) -> None:
    """How the last round ended: the reveal, who lost a life, who is out."""
    ending = chase_play.round_ending(match.seen)
    if not ending:
        return
    here = lang()
    lines = "\n".join(f"- {caption(e.event, names, here)}" for e in ending)
    st.markdown(f"**{T('chase.play.round_ending', round=match.view.round)}**\n\n{lines}")


def show(match: ChaseMatch) -> None:
    view = match.view
    here = lang()
    names = seat_names([s.name for s in view.seats])
    st.caption(T("play.match", match_id=match.match_id[:8], round=view.round,
                 version=view.version))  # fmt: skip
    last = match.seen[-1].event if match.seen else None
    table, side = st.columns([3, 2])
    with table:
        play_table(  # issue 22: each seat's clock on its box
            view_drawing(view, names, here, last),
            match,
            refresh=lambda: _follow(match),
            scroll=bool(st.session_state.pop("play_scroll", False)),
        )
        if last is not None:
            st.caption(T("play.last_action", text=caption(last, names, here)))
    with side:
        st.markdown(T("play.you_are", name=names[match.seat], seat=match.seat))
        card = card_words(view.hand, here) if view.hand else "—"
        st.markdown("### " + T("play.your_card_is", card=card))
        _decision(match, names)
    how_to_play(expanded=False)
    st.markdown(f"**{T('play.seen')}**")
    recent = list(reversed(match.seen[-40:]))
    event_log([(e.version, caption(e.event, names, here)) for e in recent], heading=T("col.what"))
    st.button(T("play.new"), key="leave", on_click=st.session_state.pop, args=(STATE_KEY, None))
