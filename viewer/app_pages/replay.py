"""Replay: step through a match event by event, in the browser (the card table component).

Every step's table is built here once per match and language and sent to the component, which
steps among them itself (buttons, slider, rounds, keys, autoplay): no Streamlit rerun per step.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from viewer import card_table, session
from viewer.games.pages import PAGES
from viewer.i18n import Lang
from viewer.loader import match_panel
from viewer.replay_steps import labels
from viewer.session import OpenMatch
from viewer.ui import T, lang


def _start_step(last: int) -> int:
    """The step a link names (``?event=N``), else the one another page asked for (Audit's
    "show event N"), else the start."""
    try:
        asked = int(st.query_params.get("event", session.step()))
    except ValueError:
        asked = session.step()
    return max(0, min(asked, last))


def _steps(match: OpenMatch, here: Lang) -> list[dict[str, Any]]:
    """Every step's drawing, built once per match and language (the browser steps through)."""
    key = (id(match.replay), here)
    cached = st.session_state.get("replay_steps")
    if cached is not None and cached[0] == key:
        return list(cached[1])
    steps = PAGES[match.game].replay_steps(match.replay, here)  # each game draws its own table
    found = card_table.compact([card_table.step_data(s) for s in steps])
    st.session_state["replay_steps"] = (key, found)
    return found


def _board(match: OpenMatch) -> None:
    here = lang()
    steps = _steps(match, here)
    card_table.replay(
        steps, key=f"{match.label}:{match.match_id}:{len(steps)}",
        start=_start_step(len(steps) - 1), labels=labels(here), match_id=match.match_id,
        lang=here,
    )  # fmt: skip


def page() -> None:
    match = match_panel()
    if match is None:
        return
    if match.replay.stuck_at is not None:
        st.error(T("replay.stuck", version=match.replay.stuck_at))
    _board(match)


page()
