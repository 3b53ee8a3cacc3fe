"""Replay: step through a match event by event (buttons, slider, jump to round, autoplay)."""

from __future__ import annotations

import streamlit as st

from viewer import session
from viewer.games.pages import PAGES
from viewer.loader import match_panel
from viewer.session import OpenMatch
from viewer.ui import T, lang


def _go(to: int) -> None:
    session.go(to)


def _from_slider() -> None:
    session.go(int(st.session_state["slider"]))


def _from_round() -> None:
    match = session.current()
    if match is not None:
        session.go(match.replay.round_start.get(int(st.session_state["round_pick"]), 0))


def _controls(match: OpenMatch) -> None:
    replay, now = match.replay, session.step()
    last = replay.last_step
    # one row of buttons, on a phone too (columns would stack them one per line)
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.button(T("replay.first"), on_click=_go, args=(0,), disabled=now == 0, key="first")
        st.button(T("replay.prev"), on_click=_go, args=(now - 1,), disabled=now == 0,
                  key="prev")  # fmt: skip
        st.button(T("replay.next"), on_click=_go, args=(now + 1,), disabled=now >= last,
                  key="next", type="primary")  # fmt: skip
        st.button(T("replay.last"), on_click=_go, args=(last,), disabled=now >= last,
                  key="last")  # fmt: skip
    pick, slide = st.columns([1, 3], vertical_alignment="bottom")
    rounds = sorted(replay.round_start)
    if rounds:
        st.session_state["round_pick"] = max(1, min(replay.round_at(now), rounds[-1]))
        pick.selectbox(T("replay.round"), rounds, key="round_pick", on_change=_from_round)
    st.session_state["slider"] = now
    if last > 0:
        slide.slider(T("replay.step"), 0, last, key="slider", on_change=_from_slider)


def _board(match: OpenMatch) -> None:
    if st.session_state.get("autoplay") and session.step() < match.replay.last_step:
        session.go(session.step() + 1)
    _controls(match)
    PAGES[match.game].replay_step(match.replay, session.step(), lang())  # the game's table


def page() -> None:
    match = match_panel()
    if match is None:
        return
    if match.replay.stuck_at is not None:
        st.error(T("replay.stuck", version=match.replay.stuck_at))
    auto, speed = st.columns([1, 2], vertical_alignment="center")
    playing = auto.toggle(T("replay.autoplay"), key="autoplay")
    seconds = speed.select_slider(T("replay.speed"), [0.25, 0.5, 1.0, 2.0], value=1.0,
                                  key="speed")  # fmt: skip
    st.fragment(_board, run_every=seconds if playing else None)(match)


page()
