"""Tables: play other people. The lobby's open tables, a new table with open seats and bots, its
invite link (``?table=<match id>``), a seat claimed and played live, or a match watched.

Exactly what any third-party client does (docs/API.md, "Open seats" and "The lobby"): the seat
token of a claim stays in this browser's session (never in the address); a seat and a
spectator ask the API every half second whether the match moved (a small Streamlit fragment,
waiting a moment on the API's stream, which answers as soon as a move is stored) and the page
is drawn again only when it did, so another person's move shows without a reload. A spectator
reads the match with no token: only
the public view. The seat is drawn by its game's own Play page (``viewer.games.pages``); the
page itself names no game.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from api.client import Conflict
from domain.games import GAMES
from viewer import card_table, remote, tables
from viewer.event_log import event_log
from viewer.games import game_of_summary, game_title
from viewer.games.pages import PAGES
from viewer.games.seats import PLAY_KEY, SEATS
from viewer.games.steps import seat_names
from viewer.seat_keeper import keep_seat
from viewer.ui import T, api_url, lang, name_input, picked, select

TABLE = "table"  # the address's match of an invite: ?table=<match id>
WATCHING = "tables_watching"  # this browser's spectator match (a tables.Watch)
LEVELS = ("expert", "basic", "random")
_FULL_RUN = "tables_full_run"  # set by the page's run for the ``_news`` it draws
_ASKED = "tables_news_asked"  # how many times this session's ``_news`` ran
_STALLS = "tables_news_stalls"  # how many times the browser found them stopped (``_stalled``)
NEWS_BEACON = "hidden_news"  # the key of the hidden container ``_news`` draws its count into


def _report(error: Exception) -> None:
    if isinstance(error, Conflict):
        st.session_state["play_error"] = T("tables.taken")
    elif isinstance(error, remote.ApiUnavailable):
        st.session_state["play_error"] = T("api.down", url=api_url(), error=error)
    else:
        st.session_state["play_error"] = T("api.error", error=error)


def _show_error() -> None:
    error = st.session_state.pop("play_error", None)
    if error:
        st.error(error)


def _open(match_id: str | None) -> None:
    """Go to a table (None: the list); a spectator stops watching."""
    st.session_state.pop(WATCHING, None)
    if match_id is None:
        st.query_params.pop(TABLE, None)
    else:
        st.query_params[TABLE] = match_id


def _watch(match_id: str) -> None:
    try:
        st.session_state[WATCHING] = tables.watch(api_url(), match_id)
        st.query_params[TABLE] = match_id
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _seated(match_id: str) -> tuple[str, Any] | None:
    """(game, its Play match) when this browser holds a seat of ``match_id``."""
    for game, pages in PAGES.items():
        playing = pages.playing()
        if playing is not None and playing.match_id == match_id:
            return game, playing
    return None


def _invite(match_id: str) -> None:
    here = (st.context.url or "").rstrip("/")  # this page's address in the browser, no query
    st.markdown(T("tables.invite"))
    st.code(f"{here}?{TABLE}={match_id}", language=None)


# --- the list ----------------------------------------------------------------------------------


def _seats_text(summary: dict[str, Any]) -> str:
    def one(seat: dict[str, Any]) -> str:
        if seat.get("kind") == "open":
            return T("tables.open_seat", seat=seat["seat"])
        if seat.get("kind") == "bot":
            return T("tables.bot_seat", name=seat["name"], level=T(f"level.{seat['bot_level']}"))
        return str(seat["name"])

    return " · ".join(one(s) for s in summary["seats"])


def _listed(summaries: list[Any], action: str, key: str) -> None:
    for summary in summaries:
        match_id = summary["match_id"]
        with st.container(border=True):
            text, button = st.columns([5, 1])
            title = game_title(game_of_summary(summary))
            text.markdown(f"**{title}** · `{match_id[:8]}`  \n{_seats_text(summary)}")
            if action == "join":
                button.button(T("tables.join"), key=f"{key}_{match_id}", on_click=_open,
                              args=(match_id,))  # fmt: skip
            else:
                button.button(T("tables.watch"), key=f"{key}_{match_id}", on_click=_watch,
                              args=(match_id,))  # fmt: skip


def _lists() -> None:
    url = api_url()
    try:
        waiting, playing = tables.lobby(url), tables.in_play(url)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)
        _show_error()
        return
    st.subheader(T("tables.lobby"))
    if not waiting:
        st.caption(T("tables.none"))
    _listed(waiting, "join", "join")
    st.subheader(T("tables.live"))
    if not playing:
        st.caption(T("tables.none_live"))
    _listed(playing, "watch", "watch")
    st.button(T("tables.refresh"), key="tables_refresh")


def _create() -> None:
    state = st.session_state
    try:
        match_id = tables.create_table(api_url(), str(state["tables_game"]),
                                       int(state["tables_open"]), int(state["tables_bots"]),
                                       picked("tables_level"))  # fmt: skip
        _open(match_id)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _create_form() -> None:
    st.subheader(T("tables.create"))
    with st.form("new_table"):
        st.radio(T("load.game"), list(GAMES), format_func=game_title, horizontal=True,
                 key="tables_game")  # fmt: skip
        st.number_input(T("tables.open_count"), 1, 20, 2, key="tables_open")
        st.number_input(T("tables.bots"), 0, 19, 1, key="tables_bots")
        select(st, T("play.level"), LEVELS, key="tables_level",
               format_func=lambda x: T(f"level.{x}"))  # fmt: skip
        st.form_submit_button(T("tables.create_button"), type="primary", on_click=_create)


# --- one table ---------------------------------------------------------------------------------


def _claim(match_id: str) -> None:
    state = st.session_state
    try:
        game, seated = tables.claim(api_url(), match_id, int(state["tables_seat"]),
                                    str(state["tables_name"]).strip())  # fmt: skip
        state[PLAY_KEY] = seated  # where the game's Play page finds the match it draws
        state["play_scroll"] = True  # the table and the first choice come into view
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _claim_form(match_id: str, answer: Any, free: list[int]) -> None:
    names = {s["seat"]: s["name"] for s in answer["view"]["seats"]}
    with st.form("claim"):
        name_input("tables_name")
        st.radio(T("tables.seat"), free, format_func=lambda s: f"{s}: {names.get(s, '')}",
                 horizontal=True, key="tables_seat")  # fmt: skip
        st.form_submit_button(T("tables.claim_button"), type="primary", on_click=_claim,
                              args=(match_id,))  # fmt: skip


def _table(match_id: str) -> None:
    seated = _seated(match_id)
    if seated is not None:
        _live_seat(match_id, *seated)
        return
    watching = _watching(match_id)
    if watching is not None:
        _live_watch(watching)
        return
    try:
        answer = tables.public(api_url(), match_id)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)
        _show_error()
        st.button(T("tables.back"), key="back", on_click=_open, args=(None,))
        return
    st.subheader(T("tables.table", game=game_title(answer["game"]), match_id=match_id[:8]))
    free = tables.open_seats(answer)
    if free:
        _invite(match_id)
        _claim_form(match_id, answer, free)
    else:
        st.info(T("tables.full"))
    left, right = st.columns(2)
    left.button(T("tables.watch"), key="watch", on_click=_watch, args=(match_id,))
    right.button(T("tables.back"), key="back", on_click=_open, args=(None,))


def _watching(match_id: str) -> tables.Watch | None:
    """This browser's spectator match, when it watches ``match_id``."""
    found = st.session_state.get(WATCHING)
    return found if isinstance(found, tables.Watch) and found.match_id == match_id else None


def _wait(view: Any, seat: int | None) -> float:
    """How long a question of ``_news`` may wait on the API's stream for a move: none while this
    person has a choice to make (a click waits for the question to end), nor once the match is
    over."""
    pending = view.pending
    if view.status == "over":
        return 0.0
    if (
        seat is not None
        and pending is not None
        and (pending.kind == "next_round" or pending.seat == seat)
    ):
        return 0.0
    return tables.WAIT_SECONDS


def _caught_up(match_id: str, waiting: bool = True) -> bool:
    """One question to the API: has the match moved? It waits a moment on the API's stream for
    the answer (``tables.moved``; not when ``waiting`` is False), so a move stored meanwhile is
    answered as soon as it is stored. If it moved, this browser's match catches up: True."""
    url = api_url()
    seated = _seated(match_id)
    if seated is not None:
        game, playing = seated
        view = playing.view
        wait = _wait(view, playing.seat) if waiting else 0.0
        if not tables.moved(url, playing.token, match_id, view.version, wait):
            return False
        before = len(playing.seen)
        SEATS[game].follow(playing)
        # While the page shows its last action's steps one at a time, its own fragment draws
        # them, and it looks every half second: the new moves are drawn by it, the first at its
        # next look (``hurry``), and the whole page at their end. A whole-page run asked for
        # here meanwhile raced that fragment's timer, and Streamlit's front end could then fail
        # ("Bad delta path index"), leaving the page blank.
        playing.hurry(before)
        return not playing.pacing
    watching = _watching(match_id)
    if watching is None:
        return False
    view = watching.view
    wait = _wait(view, None) if waiting else 0.0
    moved = tables.moved(url, None, match_id, view.version, wait)
    return moved and tables.follow_watch(watching)


@st.fragment(run_every=tables.POLL_SECONDS)
def _news(match_id: str) -> None:
    """Every half second, one small question to the API (``_caught_up``); only when the match
    moved is the page drawn again (a whole run), so waiting costs a request, not a redraw.

    Each run draws, hidden, its count: the browser's guard (``_ask_news``) watches it, and a
    page's tests read it."""
    asked = st.session_state[_ASKED] = st.session_state.get(_ASKED, 0) + 1
    stalls = st.session_state.get(_STALLS, 0)
    st.container(key=NEWS_BEACON).text(f"news {asked} stalled {stalls}")
    if st.session_state.pop(_FULL_RUN, False):
        return  # drawn by the page's own run, which has just caught up: the next one asks
    try:
        moved = _caught_up(match_id)
    except (remote.ApiError, remote.ApiUnavailable):
        return  # the next question, half a second later, may be answered
    if moved:
        st.rerun()


def _stalled(match_id: str) -> None:
    """The browser found ``_news`` silent for ``tables.STALL_SECONDS``: catch up now (no wait);
    the whole run of the page that follows draws it and arms ``_news`` again."""
    st.session_state[_STALLS] = st.session_state.get(_STALLS, 0) + 1
    try:
        _caught_up(match_id, waiting=False)
    except (remote.ApiError, remote.ApiUnavailable):
        return  # the page is drawn as it was; its next question may be answered


def _ask_news(match_id: str) -> None:
    """``_news`` as the page's run draws it: it asks nothing then (the page's run never waits
    on the stream); its own runs, every half second, do. Beside it, outside it, the browser's
    guard that asks for the whole page should those runs stop coming (``_stalled``)."""
    st.session_state[_FULL_RUN] = True
    _news(match_id)
    card_table.news_watch("news_watch", f".st-key-{NEWS_BEACON}", after_s=tables.STALL_SECONDS,
                          on_stalled=lambda: _stalled(match_id))  # fmt: skip


def _live_seat(match_id: str, game: str, seated: Any) -> None:
    """This browser's seat, drawn by its game's Play page; ``_news`` redraws it on a move."""
    pending = seated.view.pending
    if pending is not None and pending.kind == "claim_seat":
        st.info(T("tables.waiting"))
        _invite(match_id)
    _ask_news(match_id)
    PAGES[game].show(seated)


def _live_watch(match: tables.Watch) -> None:
    """The public table; ``_news`` redraws it when the match moves."""
    parts = SEATS[match.game]
    here = lang()
    names = seat_names([s.name for s in match.view.seats])
    st.subheader(T("tables.table", game=game_title(match.game), match_id=match.match_id[:8]))
    st.info(T("tables.over") if match.view.status == "over" else T("tables.watching"))
    st.caption(T("play.match", match_id=match.match_id[:8], round=match.view.round,
                 version=match.view.version))  # fmt: skip
    _ask_news(match.match_id)
    last = match.seen[-1][1] if match.seen else None
    card_table.table(parts.drawing(match.view, names, here, last), key="watch")
    if last is not None:
        st.caption(T("play.last_action", text=parts.caption(last, names, here)))
    recent = list(reversed(match.seen[-40:]))
    rows = [(version, parts.caption(event, names, here)) for version, event in recent]
    event_log(rows, heading=T("col.what"))
    st.button(T("tables.back"), key="stop_watching", on_click=_open, args=(None,))


def page() -> None:
    keep_seat()  # a reload keeps this tab's seat
    _show_error()
    match_id = st.query_params.get(TABLE)
    if match_id:
        _table(str(match_id))
        return
    st.info(T("tables.intro"))
    _lists()
    _create_form()


page()
