"""A Play match's clock and its rematch, for every game: the host's part, naming no game.

The clock is the API's (docs/API.md, "Clocks"): every answer with a view carries ``clock``, the
same for every seat, or null. This module offers it on a new match's form, skips the clock's
own events in a seat's catch-up (each game folds only its own), and shows each seat's clock
beside the table: the seat whose decision is pending sees the time to its deadline, every seat
its reserve, abandoned seats are marked. Times are absolute in the API, so what is shown is
worked out when the page is drawn (``now``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import streamlit as st

from api.client import EventOut
from domain.clock import is_game_event
from viewer.ui import T

DEFAULT_SECONDS: Final = 60  # the API's own default per decision


def clock_in(answer: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``clock`` of an API answer that carries a view (null: the match has none)."""
    found = answer.get("clock")
    return found if isinstance(found, dict) else None


def game_events(outs: Iterable[EventOut]) -> Iterator[EventOut]:
    """The game's own events among a log page's (``EventOut``): the clock's and the decks'
    entropy (no move at the table; the Audit page shows it) are left out."""
    return (out for out in outs if is_game_event(str(out["event"].get("type", ""))))


# --- the new match's form ----------------------------------------------------------------------


def clock_form() -> None:
    """Inside a new match's ``st.form``: a clock or none (none unless asked for)."""
    st.checkbox(T("clock.use"), value=False, key="play_clock", help=T("clock.help"))
    st.number_input(T("clock.seconds"), 5, 86400, DEFAULT_SECONDS, key="play_clock_seconds")


def clock_option() -> dict[str, Any] | None:
    """The ``clock`` of ``POST /matches`` the form asked for, or None (no clock)."""
    state = st.session_state
    if not state.get("play_clock"):
        return None
    return {"per_decision": int(state.get("play_clock_seconds", DEFAULT_SECONDS))}


# --- each seat's clock -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatClock:
    seat: int
    deciding: bool  # the pending decision is this seat's (or any seat's)
    time_left: int | None  # seconds to the deadline, for the deciding seat
    reserve: int  # seconds of reserve left (as of the last answer)
    abandoned: bool


def _when(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def seat_clocks(clock: dict[str, Any], seats: int, now: dt.datetime) -> list[SeatClock]:
    """Each seat's clock at ``now`` (UTC)."""
    awaiting = clock.get("awaiting")
    reserves = list(clock.get("reserves") or [])
    abandoned = list(clock.get("abandoned") or [])
    found = []
    for seat in range(seats):
        deciding = awaiting is not None and awaiting.get("seat") in (seat, None)
        left = None
        reserve = int(reserves[seat]) if seat < len(reserves) else 0
        if deciding and awaiting is not None:
            left = max(0, int((_when(awaiting["deadline"]) - now).total_seconds()))
            # once its own time is up the decision draws on the reserve
            spent = (now - _when(awaiting["reserve_from"])).total_seconds()
            if awaiting.get("seat") == seat and spent > 0:
                reserve = max(0, int(reserve - spent))
        gone = seat < len(abandoned) and bool(abandoned[seat])
        found.append(SeatClock(seat, deciding, left, reserve, gone))
    return found


def _clock_text(seconds: int) -> str:
    minutes, rest = divmod(max(0, seconds), 60)
    return f"{minutes}:{rest:02d}"


def seat_line(seat: SeatClock, name: str) -> str:
    """One seat's clock in words: ``Ann — 0:42 to decide · reserve 5:00``."""
    parts = []
    if seat.time_left is not None:
        parts.append(T("clock.left", time=_clock_text(seat.time_left)))
    parts.append(T("clock.reserve", time=_clock_text(seat.reserve)))
    if seat.abandoned:
        parts.append(T("clock.abandoned"))
    return f"{name} — " + " · ".join(parts)


def show_clock(clock: dict[str, Any] | None, names: Sequence[str],
               now: dt.datetime | None = None) -> None:  # fmt: skip
    """Each seat's clock, beside the table; nothing for a match without one."""
    if not clock:
        return
    at = now or dt.datetime.now(dt.UTC)
    per = clock.get("settings", {}).get("per_decision")
    with st.container(border=True, key="play_clocks"):
        st.markdown(f"**{T('clock.title', seconds=per)}**")
        for seat in seat_clocks(clock, len(names), at):
            line = seat_line(seat, names[seat.seat])
            st.markdown(f"**{line}**" if seat.time_left is not None else line)


# --- the rematch -------------------------------------------------------------------------------


def rematch_button(on_click: Callable[[], None]) -> None:
    """At a finished match: "Rematch" (the game's ``on_click`` asks the API and opens it)."""
    st.button(T("play.rematch"), key="play_rematch", type="primary", on_click=on_click,
              icon=":material/replay:")  # fmt: skip
