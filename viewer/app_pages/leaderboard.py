"""Leaderboard: the rated accounts of a game, and one player's finished matches (which open in
Replay). The ratings are the API's (``GET /leaderboard``); the viewer only shows them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from domain.games import DEFAULT_GAME, GAMES
from viewer import remote
from viewer.games import game_title
from viewer.loader import open_from_api, show_message
from viewer.ui import T, api_url


def _date(value: object) -> str:
    try:
        return dt.datetime.fromisoformat(str(value)).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(value)


def _after(rating: Any) -> str:
    """The ordinal a rated match left the player with ("" when it was not rated)."""
    return f"{rating['ordinal']:.2f}" if isinstance(rating, dict) else ""


def _board(entries: list[Any]) -> None:
    st.dataframe(
        pd.DataFrame({
            T("board.rank"): [e["rank"] for e in entries],
            T("board.player"): [e["player"]["name"] for e in entries],
            T("board.kind"): [T(f"board.kind.{e['player']['kind']}") for e in entries],
            T("board.ordinal"): [round(e["rating"]["ordinal"], 2) for e in entries],
            T("board.mu"): [round(e["rating"]["mu"], 2) for e in entries],
            T("board.sigma"): [round(e["rating"]["sigma"], 2) for e in entries],
            T("board.matches"): [e["rating"]["matches"] for e in entries],
        }),
        hide_index=True,
    )  # fmt: skip


def _history(player_id: str) -> None:
    try:
        played = remote.player_matches(api_url(), player_id)
    except (remote.ApiUnavailable, remote.ApiError) as error:
        st.error(T("api.error", error=error))
        return
    if not played:
        st.info(T("board.no_history"))
        return
    st.dataframe(
        pd.DataFrame({
            T("col.match"): [m["match_id"][:8] for m in played],
            T("load.game"): [game_title(m["game"]) for m in played],
            T("board.seat"): [m["seat"] for m in played],
            T("board.standing"): [" ".join(str(x) for x in m["standing"]) for m in played],
            T("board.won"): [T("board.yes") if m["seat"] in m["winners"] else "" for m in played],
            T("board.rated"): [T("board.yes") if m["rated"] else T("board.no") for m in played],
            T("board.after"): [_after(m.get("rating")) for m in played],
            T("board.finished"): [_date(m["finished_at"]) for m in played],
        }),
        hide_index=True,
    )  # fmt: skip
    labels = {m["match_id"]: f"{m['match_id'][:8]} · {game_title(m['game'])}" for m in played}
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    chosen = left.selectbox(T("matches.pick"), list(labels), format_func=labels.__getitem__,
                            key="board_match")  # fmt: skip
    if right.button(T("matches.open"), key="board_open", type="primary") and chosen:
        if open_from_api(str(chosen)):
            st.switch_page("app_pages/replay.py", query_params={"match": str(chosen)})
        show_message()


def page() -> None:
    games = list(GAMES)
    game = st.selectbox(T("load.game"), games, index=games.index(DEFAULT_GAME),
                        format_func=game_title, key="board_game")  # fmt: skip
    try:
        entries = remote.leaderboard(api_url(), game)["entries"]
    except remote.ApiUnavailable as error:
        st.warning(T("api.down", url=api_url(), error=error))
        return
    except remote.ApiError as error:
        st.error(T("api.error", error=error))
        return
    st.caption(T("board.about"))
    if not entries:
        st.info(T("board.none"))
        return
    _board(entries)
    players = {e["player"]["id"]: e["player"]["name"] for e in entries}
    st.subheader(T("board.history"))
    chosen = st.selectbox(T("board.player"), list(players), format_func=players.__getitem__,
                          key="board_player")  # fmt: skip
    if chosen:
        _history(str(chosen))


page()
