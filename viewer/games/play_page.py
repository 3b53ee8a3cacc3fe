"""The Play page's scaffolding for any game (Streamlit): the new match's form, the drawn table,
the decision with each choice explained, the round's ending, the log, the rematch.

Every game's Play is a client of the API and shows only what the API shows this seat
(``viewer.games.play_host``). A game gives its :class:`PlayPage`: its texts, its own form
fields, how it draws its view and words its events and choices, and its coach if it has one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic

import streamlit as st

from viewer import card_table, remote
from viewer.coach import Advice, advise
from viewer.event_log import event_log
from viewer.games.play_host import M, PlayHost, Seen
from viewer.games.seats import FORGET_KEY
from viewer.games.steps import seat_names
from viewer.i18n import Lang
from viewer.loader import open_from_api, show_message
from viewer.play_clock import clock_form, play_table, rematch_button
from viewer.table import TableDrawing
from viewer.ui import KEYS_HINT, T, api_url, lang, name_input, select

STATE_KEY = "game"  # one key for every game's match: one match at a time in a browser session
LOG_LINES = 40  # the log shows the newest events, newest first
PACE_KEY = "play_pace"
#: how the steps an action brings are shown: seconds a step (None: all at once); first: default
PACES: dict[str, float | None] = {"normal": 1.5, "fast": 0.6, "off": None}
_DUE = "play_step_due"  # when the next paced step is due (monotonic seconds)
#: the longest between two looks of the paced steps' fragment, whatever the pace: a move that
#: news brings meanwhile (``PlayMatch.hurry``) is drawn at the next look
LOOK_SECONDS = 0.5


def pace() -> float | None:
    """Seconds a step at the chosen pace; None: the steps are not shown one at a time."""
    return PACES.get(str(st.session_state.get(PACE_KEY, "normal")), PACES["normal"])


def _look_every(seconds: float) -> float:
    """The paced fragment's period: a whole fraction of a step, at most ``LOOK_SECONDS``."""
    return seconds / math.ceil(seconds / LOOK_SECONDS)


def _next_step_due(seconds: float) -> float:
    """When the step after the one drawn now is due: a step's time from now, less half a look
    (the look that lands on it is then never a hair early)."""
    return time.monotonic() + seconds - _look_every(seconds) / 2


def _pace_setting() -> None:
    st.radio(T("play.pace"), list(PACES), key=PACE_KEY, horizontal=True,
             format_func=lambda p: T(f"play.pace.{p}"))  # fmt: skip


def _never_out(match: Any) -> bool:
    return False


@dataclass(frozen=True)
class Coach:
    """A game's coach on its Play page (``viewer.coach``)."""

    note: Callable[[Advice], str]  # what the figures are, under them
    between_rounds: bool = False  # offered on "deal the next round" too


@dataclass(frozen=True)
class PlayTexts:
    """A game's own text keys on its Play page."""

    how: str  # how to play
    form: str  # the new match's ``st.form`` key (not shown)
    ending: str  # "How round {round} ended"


@dataclass(frozen=True)
class Looks:
    """How a game draws a seat's view and words its events, cards and choices."""

    #: the table as this seat sees it, with the last event's action drawn
    drawing: Callable[[Any, list[str], Lang, Any], TableDrawing]
    caption: Callable[[Any, list[str], Lang], str]  # an event in a sentence
    hand_words: Callable[[str, Lang], str]  # this seat's card in words
    choice_words: Callable[[Any, str, list[str], Lang], tuple[str, str]]  # label, meaning


def _no_notes(match: Any, names: list[str]) -> None:
    """A game with nothing to say of this seat's standing."""


def _as_is(view: Any, seen: Sequence[Seen[Any]]) -> Any:
    return view


@dataclass(frozen=True)
class PlayPage(Generic[M]):
    """One game's Play page; its methods are the page's parts and its buttons' callbacks."""

    host: PlayHost[M]
    texts: PlayTexts
    looks: Looks
    #: inside the form: the game's own options (name, level and clock are the page's)
    form_fields: Callable[[], None]
    #: the form's callback: the new match, from the form's values (its argument: the API's URL)
    start: Callable[[str], M]
    header: Callable[[M, Any], str]  # the line above the table (match, round, version)
    over_text: Callable[[Any, list[str]], str]  # who won, once the match is over
    round_ending: Callable[[Sequence[Seen[Any]]], Sequence[Seen[Any]]]
    #: beside the decision: this seat's standing (out of the round, of the match, ...)
    notes: Callable[[M, list[str]], None] = _no_notes
    coach: Coach | None = None
    #: the view as drawn: between rounds a game may draw the round that ended as it ended
    as_drawn: Callable[[Any, Sequence[Seen[Any]]], Any] = _as_is
    #: this seat can no longer play (no lives, no chips): the service plays on without it
    out: Callable[[M], bool] = _never_out

    # --- the match in this browser -------------------------------------------------------------

    def current(self) -> M | None:
        """This game's match this browser plays, if any."""
        found = st.session_state.get(STATE_KEY)
        return found if isinstance(found, self.host.match) else None

    def _report(self, error: Exception) -> None:
        if isinstance(error, remote.ApiUnavailable):
            st.session_state["play_error"] = T("api.down", url=api_url(), error=error)
        else:
            st.session_state["play_error"] = T("api.error", error=error)

    def _start(self) -> None:
        """The form's callback: runs before the page, so the new match shows at once."""
        try:
            st.session_state[STATE_KEY] = self.start(api_url())
            st.session_state["play_scroll"] = True  # the table and the first choice come into view
        except (remote.ApiError, remote.ApiUnavailable) as error:
            self._report(error)

    def _rematch(self) -> None:
        """The button's callback: the rematch replaces the finished match on the page."""
        match = self.current()
        if match is None:
            return
        try:
            st.session_state[STATE_KEY] = self.host.rematch(match)
            st.session_state["play_scroll"] = True
        except (remote.ApiError, remote.ApiUnavailable) as error:
            self._report(error)

    def _act(self, choice: str) -> None:
        match = self.current()
        if match is None:
            return
        since = len(match.seen)
        try:
            self.host.act(match, choice)
        except (remote.ApiError, remote.ApiUnavailable) as error:
            self._report(error)
            return
        seconds = pace()
        if seconds is not None:  # the bots' replies one at a time, this seat's action first
            match.step_by_step(since, self.out(match))
            st.session_state[_DUE] = _next_step_due(seconds)

    def _leave(self) -> None:
        """Leave this match for a new one: the tab forgets the seat it kept for a reload."""
        st.session_state.pop(STATE_KEY, None)
        st.session_state[FORGET_KEY] = True

    def _watch(self) -> None:
        match = self.current()
        if match is not None:
            match.watch()
            seconds = pace()
            if seconds is not None:
                st.session_state[_DUE] = _next_step_due(seconds)

    def _skip(self) -> None:
        match = self.current()
        if match is not None:
            match.skip()

    def _follow(self, match: M) -> None:
        try:
            self.host.follow(match)
        except (remote.ApiError, remote.ApiUnavailable) as error:
            self._report(error)

    # --- the form --------------------------------------------------------------------------------

    def how_to_play(self, expanded: bool) -> None:
        with st.expander(T("play.how_title"), expanded=expanded):
            st.markdown(T(self.texts.how))

    def new_match_form(self, levels: tuple[str, ...]) -> None:
        """Your name, the bots' level, the game's options and the clock: a match against bots."""
        st.info(T("play.intro"))
        self.how_to_play(expanded=True)
        with st.form(self.texts.form):
            name_input("play_name")
            select(st, T("play.level"), levels, key="play_level",
                   format_func=lambda x: T(f"level.{x}"))  # fmt: skip
            self.form_fields()
            clock_form()
            st.form_submit_button(T("play.start"), type="primary", on_click=self._start)

    # --- the decision ----------------------------------------------------------------------------

    def _advice(self, match: M) -> Advice | None:
        """The coach's figures for this position, computed once per version of the match."""
        cache = st.session_state.setdefault("coach_cache", {})
        key = (match.match_id, match.view.version)
        if key not in cache:
            cache.clear()
            cache[key] = advise(match.view)
        found = cache[key]
        return found if isinstance(found, Advice) else None

    def _decision(self, match: M, names: list[str]) -> None:
        view = match.view
        decision = view.pending
        if view.status == "over":
            st.success(self.over_text(view, names), icon=":material/emoji_events:")
            self._round_ending(match, names)
            rematch_button(self._rematch)
            if st.button(T("matches.open"), key="play_replay"):
                if open_from_api(match.match_id):
                    st.switch_page("app_pages/replay.py", query_params={"match": match.match_id})
                show_message()
            return
        if decision is None:
            return
        self.notes(match, names)
        mine = decision.kind == "next_round" or decision.seat == match.seat
        if not mine:
            whose = names[decision.seat] if decision.seat is not None else "…"
            st.info(T("play.waiting", seat=whose))
            st.button(T("play.refresh"), key="refresh", on_click=self._follow, args=(match,))
            return
        st.markdown(f"#### {T('play.decide')}")
        coach = self.coach
        offered = coach is not None and (coach.between_rounds or decision.kind != "next_round")
        wanted = offered and st.toggle(T("coach.toggle"), key="coach")
        advice = self._advice(match) if wanted else None
        here = lang()
        with st.container(key=KEYS_HINT):  # hidden where there are no keys (ui.PAGE_STYLE)
            st.caption(T("play.keys"))
        for index, choice in enumerate(decision.choices):
            label, meaning = self.looks.choice_words(view, choice, names, here)
            key = card_table.choice_key(index)  # the table takes it by this key too
            with st.container(border=True):
                # every choice is drawn alike: the page explains, it does not push one answer
                st.button(label if key is None else f"`{key}` {label}", key=f"do_{choice}",
                          on_click=self._act, args=(choice,), width="stretch")  # fmt: skip
                st.caption(meaning)
                if advice is not None and choice in advice.risks:
                    pct = round(100 * advice.risks[choice])
                    st.markdown(f"**{T('coach.risk', pct=pct)}**", help=T("coach.about"))
        if advice is not None and coach is not None:
            st.caption(T("coach.about") + " " + coach.note(advice))
        if decision.kind == "next_round":
            # below its button, as each choice's meaning is: the button stays in view on a
            # phone (a round a bot's card ended before the person's turn, say)
            self._round_ending(match, names)

    def _offered(self, match: M) -> list[str]:
        """The choices this person is offered now (each also taken by its key on the table)."""
        decision = match.view.pending
        if match.shown is not None or match.view.status == "over" or decision is None:
            return []
        mine = decision.kind == "next_round" or decision.seat == match.seat
        return list(decision.choices) if mine else []

    def _round_ending(self, match: M, names: list[str]) -> None:
        """How the last round ended: the reveal and what followed from it."""
        ending = self.round_ending(match.seen)
        if not ending:
            return
        here = lang()
        lines = "\n".join(f"- {self.looks.caption(e.event, names, here)}" for e in ending)
        st.markdown(f"**{T(self.texts.ending, round=match.view.round)}**\n\n{lines}")

    # --- the page --------------------------------------------------------------------------------

    def _log(self, seen: Sequence[Seen[Any]], names: list[str]) -> None:
        st.markdown(f"**{T('play.seen')}**")
        here = lang()
        recent = list(reversed(seen[-LOG_LINES:]))
        event_log([(e.version, self.looks.caption(e.event, names, here)) for e in recent],
                  heading=T("col.what"))  # fmt: skip

    def show(self, match: M) -> None:
        """The match: the table as this seat sees it, its decision, and what it has seen; after
        an action, its steps one at a time at the chosen pace (in a fragment that reruns alone
        every step, so the page is not blocked while they are shown)."""
        _pace_setting()
        seconds = pace()
        if seconds is None:
            match.skip()
        if match.pacing and seconds is not None:
            st.fragment(run_every=_look_every(seconds))(self._paced)(match, seconds)
        else:
            self._page(match)

    def _paced(self, match: M, seconds: float) -> None:
        """One step more each time one is due (the fragment looks several times a step); the
        whole page once all are shown."""
        if self.current() is not match or not match.pacing:
            st.rerun()  # skipped, left or held: the whole page again
        if match.hurried:  # news drew another's move just now: it stays a whole step
            match.hurried = False
            st.session_state[_DUE] = _next_step_due(seconds)
        elif time.monotonic() >= float(st.session_state.get(_DUE, 0)):
            # a rerun of the page meanwhile (a click, a resize) does not take a step
            st.session_state[_DUE] = _next_step_due(seconds)
            if not match.next_step():
                st.rerun()
        self._page(match)

    def _steps_panel(self, match: M) -> None:
        """While the steps are shown: which of them, and a way straight to the end of them."""
        total = len(match.seen) - match.since
        step = (match.shown or len(match.seen)) - match.since
        st.info(T("play.pace.step", step=step, total=total), icon=":material/slow_motion_video:")
        if match.offer_watch:
            st.warning(T("play.pace.out"), icon=":material/hourglass_empty:")
            st.button(T("play.pace.watch"), key="play_watch", type="primary",
                      on_click=self._watch, icon=":material/play_arrow:")  # fmt: skip
            st.button(T("play.pace.skip_end"), key="play_skip_end", on_click=self._skip,
                      icon=":material/skip_next:")  # fmt: skip
        else:
            st.button(T("play.pace.skip"), key="play_skip", on_click=self._skip,
                      icon=":material/skip_next:")  # fmt: skip

    def _page(self, match: M) -> None:
        drawn = match.drawn
        view = self.as_drawn(match.view, drawn)
        here = lang()
        names = seat_names([s.name for s in view.seats])
        st.caption(self.header(match, view))
        last = drawn[-1].event if drawn else None
        table, side = st.columns([3, 2])
        with table:
            play_table(  # each seat's clock on its box (issue 22)
                self.looks.drawing(view, names, here, last),
                match,
                refresh=lambda: self._follow(match),
                scroll=bool(st.session_state.pop("play_scroll", False)),
                choices=self._offered(match),
                on_choose=self._act,
            )
            if last is not None:
                st.caption(T("play.last_action", text=self.looks.caption(last, names, here)))
        with side:
            st.markdown(T("play.you_are", name=names[match.seat], seat=match.seat))
            card = self.looks.hand_words(view.hand, here) if view.hand else "—"
            st.markdown("### " + T("play.your_card_is", card=card))
            if match.shown is None:
                self._decision(match, names)
            else:
                self._steps_panel(match)
        self.how_to_play(expanded=False)
        self._log(drawn, names)
        st.button(T("play.new"), key="leave", on_click=self._leave)
