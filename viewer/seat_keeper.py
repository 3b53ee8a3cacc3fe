"""A reload keeps this browser tab's seat (Play and Tables).

The seat's token lives in the Streamlit session, which a reload ends. So the card table
component keeps the seat held (its game, match, seat number and token) in the tab's
``sessionStorage`` and, when a new session is a reload of that tab (or Back), gives it back:
the match is read again from the API with that token and becomes this session's match. An
address opened afresh (an invite link, a bookmark) starts afresh, as before. The token is
never in an address (an invite link holds only the match id), a log or another tab; a person
who leaves the match has it forgotten.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from viewer import card_table, remote
from viewer.games.pages import PAGES
from viewer.games.seats import FORGET_KEY as FORGET
from viewer.games.seats import PLAY_KEY, SEATS
from viewer.remote import call
from viewer.ui import api_url


def _held() -> dict[str, Any] | None:
    for game, pages in PAGES.items():
        playing = pages.playing()
        if playing is not None:
            return {"game": game, "match": playing.match_id, "seat": playing.seat,
                    "token": playing.token}  # fmt: skip
    return None


def _restore(saved: dict[str, Any]) -> None:
    """The seat the tab kept, read again from the API with its token (a seat the API no longer
    knows, or a token it refuses, is forgotten)."""
    game, match_id = saved.get("game"), saved.get("match")
    seat, token = saved.get("seat"), saved.get("token")
    if PLAY_KEY in st.session_state:
        return  # this session already holds a match
    if not (isinstance(game, str) and game in SEATS and isinstance(match_id, str)
            and isinstance(seat, int) and isinstance(token, str)):  # fmt: skip
        st.session_state[FORGET] = True
        return
    url = api_url()
    try:
        answer = call(url, token, lambda client: client.get_match(match_id))
        found = SEATS[game].adopt(url, match_id, token, seat, answer["view"])
    except (remote.ApiError, remote.ApiUnavailable):
        st.session_state[FORGET] = True
        return
    st.session_state[PLAY_KEY] = found
    st.session_state["play_scroll"] = True


def keep_seat() -> None:
    """At the top of Play and Tables: keep the seat this session holds, forget the one the
    person left, or (a new session, after a reload) take back the seat the tab kept."""
    with st.sidebar:
        held = _held()
        if held is not None:
            card_table.keeper("keep", held)
        elif st.session_state.pop(FORGET, False):
            card_table.keeper("forget")
        else:
            card_table.keeper("restore", on_restore=_restore)
