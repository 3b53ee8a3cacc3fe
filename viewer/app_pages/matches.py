"""Matches: finished and ongoing matches from the API, with filters; opens one in Replay."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from domain.games import GAMES
from viewer import remote
from viewer.games import game_of_summary, game_title
from viewer.loader import open_from_api, show_message
from viewer.ui import N, T, api_url, select

IN_PROGRESS = ("new", "between_rounds", "in_round")


def _names(match: dict[str, Any]) -> list[str]:
    return [str(seat.get("name", "?")) for seat in match.get("seats", [])]


def _date(value: object) -> str:
    try:
        return dt.datetime.fromisoformat(str(value)).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return str(value)


def _filters() -> tuple[str, str, int]:
    status_col, name_col, rounds_col = st.columns(3)
    options = ["all", "over", "in_progress"]
    labels = {"all": T("matches.all"), "over": T("status.over"),
              "in_progress": T("status.in_round")}  # fmt: skip
    status = select(status_col, T("matches.status"), options, key="f_status",
                    format_func=labels.__getitem__)  # fmt: skip
    name = name_col.text_input(T("matches.search"), key="f_name").strip().lower()
    rounds = int(rounds_col.number_input(T("matches.min_rounds"), 0, 10_000, 0, key="f_rounds"))
    return status, name, rounds


def _keep(match: dict[str, Any], status: str, name: str, rounds: int) -> bool:
    if status == "over" and match.get("status") != "over":
        return False
    if status == "in_progress" and match.get("status") not in IN_PROGRESS:
        return False
    if name and not any(name in n.lower() for n in _names(match)):
        return False
    return int(match.get("rounds", 0)) >= rounds


def _players(match: dict[str, Any]) -> str:
    """Each seat's name and score in its game's unit (lives, chips), in seat order: "Ann 2 ·
    Bob 0" (bare numbers in a column of their own did not say whose they were)."""
    field = GAMES[game_of_summary(match)].score.field
    return " · ".join(
        f"{seat.get('name', '?')} {score}" if (score := seat.get(field)) is not None
        else str(seat.get("name", "?"))
        for seat in match.get("seats", [])
    )  # fmt: skip


def _winner(match: dict[str, Any]) -> str:
    names = _names(match)
    winners = match.get("winners")  # a game may have several (ties share the win)
    if isinstance(winners, list):
        return ", ".join(names[w] for w in winners if isinstance(w, int) and 0 <= w < len(names))
    winner = match.get("winner")
    return names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else ""


def _table(matches: list[dict[str, Any]]) -> None:
    st.dataframe(
        pd.DataFrame({
            T("col.match"): [str(m["match_id"])[:8] for m in matches],
            T("load.game"): [game_title(game_of_summary(m)) for m in matches],
            T("col.status"): [T(f"status.{m.get('status', 'new')}") for m in matches],
            T("matches.counters"): [_players(m) for m in matches],
            T("col.winner"): [_winner(m) for m in matches],
            T("col.rounds"): [int(m.get("rounds", 0)) for m in matches],
            T("col.created"): [_date(m.get("created_at")) for m in matches],
        }),
        hide_index=True,
    )  # fmt: skip


def _opener(matches: list[dict[str, Any]]) -> None:
    finished = [m for m in matches if m.get("status") == "over"]
    if not finished:
        return
    labels = {
        str(m["match_id"]): f"{str(m['match_id'])[:8]} · {game_title(game_of_summary(m))} · "
        f"{', '.join(_names(m))} · "
        f"{T('col.winner')}: {_winner(m)} · {N('count.rounds', int(m.get('rounds', 0)))}"
        for m in finished
    }
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    chosen = left.selectbox(T("matches.pick"), list(labels), format_func=labels.__getitem__,
                            key="pick_match")  # fmt: skip
    clicked = right.button(T("matches.open"), key="open_selected", type="primary")
    if clicked and chosen:
        if open_from_api(str(chosen)):
            st.switch_page("app_pages/replay.py", query_params={"match": str(chosen)})
        show_message()


def page() -> None:
    status, name, rounds = _filters()
    try:
        found: list[Any] = remote.finished_or_all(api_url(), finished_only=status == "over")
    except remote.ApiUnavailable as error:
        st.warning(T("api.down", url=api_url(), error=error))
        return
    except remote.ApiError as error:
        st.error(T("api.error", error=error))
        return
    matches = [m for m in found if _keep(m, status, name, rounds)]
    st.caption(N("matches.count", len(found), shown=len(matches)) + " · "
               + T("matches.ongoing"))  # fmt: skip
    if not matches:
        st.info(T("matches.none"))
        return
    _table(matches)
    _opener(matches)


page()
