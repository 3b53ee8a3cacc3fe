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
from viewer import remote
from viewer.coach import Advice, advise
from viewer.event_log import event_log
from viewer.games import cuccu_board as board
from viewer.games.cuccu_captions import caption, card_chip, card_name
from viewer.games.cuccu_play import Game, act, follow, rematch, round_ending, start
from viewer.games.steps import opponents, seat_names
from viewer.loader import open_from_api, show_message
from viewer.play_clock import clock_form, clock_option, play_table, rematch_button
from viewer.ui import N, T, api_url, lang, name_input, picked, select


def current() -> Game | None:
    """The Cuccù match this browser plays, if any."""
    found = st.session_state.get("game")
    return found if isinstance(found, Game) else None


def _report(error: Exception) -> None:
    if isinstance(error, remote.ApiUnavailable):
        st.session_state["play_error"] = T("api.down", url=api_url(), error=error)
    else:
        st.session_state["play_error"] = T("api.error", error=error)


def _follow(game: Game) -> None:
    try:
        follow(game)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _rematch() -> None:
    """The button's callback: the rematch replaces the finished match on the page."""
    game = current()
    if game is None:
        return
    try:
        st.session_state["game"] = rematch(game)
        st.session_state["play_scroll"] = True
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _act(choice: str) -> None:
    game = current()
    if game is None:
        return
    try:
        act(game, choice)
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _start_from_form() -> None:
    """The form's callback: runs before the page, so the new match shows at once."""
    state = st.session_state
    try:
        state["game"] = start(api_url(), str(state["play_name"]).strip(),
                              picked("play_level"), int(state["play_lives"]),
                              opponents(int(state.get("play_seats", 4))),
                              clock_option())  # fmt: skip
        state["play_scroll"] = True  # the table and the first choice come into view
    except (remote.ApiError, remote.ApiUnavailable) as error:
        _report(error)


def _how_to_play(expanded: bool) -> None:
    with st.expander(T("play.how_title"), expanded=expanded):
        st.markdown(T("play.how"))


def new_match_form(levels: tuple[str, ...]) -> None:
    """Your name, the bots' level, the lives and the seats: a new match against bots."""
    st.info(T("play.intro"))
    _how_to_play(expanded=True)
    with st.form("new_game"):
        name_input("play_name")
        select(st, T("play.level"), levels, key="play_level", format_func=lambda x: T(f"level.{x}"))
        st.number_input(T("play.lives"), 1, 9, 3, key="play_lives")
        st.number_input(T("play.seats"), 2, 20, 4, key="play_seats")
        clock_form()
        st.form_submit_button(T("play.start"), type="primary", on_click=_start_from_form)


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


def _advice(game: Game) -> Advice | None:
    """The coach's figures for this position, computed once per version of the match."""
    cache = st.session_state.setdefault("coach_cache", {})
    key = (game.match_id, game.view.version)
    if key not in cache:
        cache.clear()
        cache[key] = advise(game.view)
    found = cache[key]
    return found if isinstance(found, Advice) else None


def _decision(game: Game, names: list[str]) -> None:
    view = game.view
    decision = view.pending
    if view.status == "over":
        winner = names[view.winner] if view.winner is not None else "?"
        st.success(T("play.over", winner=winner), icon=":material/emoji_events:")
        rematch_button(_rematch)
        if st.button(T("matches.open"), key="play_replay"):
            if open_from_api(game.match_id):
                st.switch_page("app_pages/replay.py", query_params={"match": game.match_id})
            show_message()
        return
    if decision is None:
        return
    mine = decision.kind == "next_round" or decision.seat == game.seat
    if not mine:
        st.info(T("play.waiting", seat=names[decision.seat] if decision.seat is not None else "…"))
        st.button(T("play.refresh"), key="refresh", on_click=_follow, args=(game,))
        return
    st.markdown(f"#### {T('play.decide')}")
    coach = st.toggle(T("coach.toggle"), key="coach")
    advice = _advice(game) if coach else None
    for choice in decision.choices:
        label, meaning = label_and_meaning(game.view, choice, names)
        with st.container(border=True):
            # every choice is drawn alike: the page explains, it does not push one answer
            st.button(label, key=f"do_{choice}", on_click=_act, args=(choice,),
                      width="stretch")  # fmt: skip
            st.caption(meaning if choice != "next_round" else T("explain.next_round"))
            if advice is not None and choice in advice.risks:
                pct = round(100 * advice.risks[choice])
                st.markdown(f"**{T('coach.risk', pct=pct)}**", help=T("coach.about"))
    if advice is not None:
        st.caption(T("coach.about") + " " + N("coach.samples", advice.samples))


def _round_ending(game: Game, names: list[str]) -> None:
    """Between rounds: the reveal, who lost a life and why, who is out."""
    pending = game.view.pending
    between = pending is not None and pending.kind == "next_round"
    if not between and game.view.status != "over":
        return
    ending = round_ending(game.seen)
    if not ending:
        return
    here = lang()
    lines = "\n".join(f"- {caption(e.event, names, here)}" for e in ending)
    st.markdown(f"**{T('play.round_ending', round=game.view.round)}**\n\n{lines}")


def _log(game: Game, names: list[str]) -> None:
    st.markdown(f"**{T('play.seen')}**")
    here = lang()
    recent = list(reversed(game.seen[-40:]))
    event_log([(e.version, caption(e.event, names, here)) for e in recent], heading=T("col.what"))


def show(game: Game) -> None:
    """The match: the table as this seat sees it, its decision, and what it has seen."""
    view = game.view
    here = lang()
    names = seat_names([s.name for s in view.seats])
    st.caption(T("play.match", match_id=game.match_id[:8], round=view.round, version=view.version))
    last = game.seen[-1].event if game.seen else None
    table, side = st.columns([3, 2])
    with table:
        play_table(  # issue 22: each seat's clock on its box
            board.view_drawing(view, names, here, last),
            game,
            refresh=lambda: _follow(game),
            scroll=bool(st.session_state.pop("play_scroll", False)),
        )
        if last is not None:
            st.caption(T("play.last_action", text=caption(last, names, here)))
    with side:
        st.markdown(T("play.you_are", name=names[game.seat], seat=game.seat))
        card = card_chip(view.hand, here) if view.hand else "—"
        st.markdown("### " + T("play.your_card_is", card=card))
        _round_ending(game, names)
        _decision(game, names)
    _how_to_play(expanded=False)
    _log(game, names)
    st.button(T("play.new"), key="leave", on_click=st.session_state.pop, args=("game", None))
