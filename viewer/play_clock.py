"""A Play match's clock and its rematch, for every game: the host's part, naming no game.

The clock is the API's (docs/API.md, "Clocks"): every answer with a view carries ``clock``, the
same for every seat, or null. This module offers it on a new match's form, skips the clock's
own events in a seat's catch-up (each game folds only its own), and puts each seat's clock on
its box of the card table (``play_table``): the seat whose decision is pending shows the time
to its deadline, every seat its reserve, an abandoned seat says a bot plays it, and the
viewer's own abandoned seat has a button that takes it back (``resume``). Times are absolute
in the API and stay so on the table: the browser counts down from them, with no rerun.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Protocol

import streamlit as st

from api.client import EventOut
from domain.clock import RESUME, is_game_event
from viewer import card_table
from viewer.remote import ApiError, ApiUnavailable, call
from viewer.table import SeatClockDrawing, TableDrawing
from viewer.ui import T

DEFAULT_SECONDS: Final = 60  # the API's own default per decision
DEFAULT_RESERVE: Final = 300  # and each seat's reserve


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
    st.number_input(T("clock.reserve_seconds"), 0, 604800, DEFAULT_RESERVE,
                    key="play_clock_reserve", help=T("clock.reserve_help"))  # fmt: skip


def clock_option() -> dict[str, Any] | None:
    """The ``clock`` of ``POST /matches`` the form asked for, or None (no clock)."""
    state = st.session_state
    if not state.get("play_clock"):
        return None
    return {"per_decision": int(state.get("play_clock_seconds", DEFAULT_SECONDS)),
            "reserve": int(state.get("play_clock_reserve", DEFAULT_RESERVE))}  # fmt: skip


# --- each seat's clock, on the table ----------------------------------------------------------


def _when(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _ms(text: str) -> int:
    return round(_when(text).timestamp() * 1000)


def clock_drawings(clock: dict[str, Any], seats: int,
                   own: int | None) -> list[SeatClockDrawing]:  # fmt: skip
    """Each seat's clock as the table draws it (``own``: the viewer's seat, whose abandoned box
    offers to take it back). Absolute times: the browser counts down from them."""
    awaiting = clock.get("awaiting")
    reserves = list(clock.get("reserves") or [])
    abandoned = list(clock.get("abandoned") or [])
    found = []
    for seat in range(seats):
        gone = seat < len(abandoned) and bool(abandoned[seat])
        deciding = awaiting is not None and awaiting.get("seat") in (seat, None) and not gone
        alone = deciding and awaiting is not None and awaiting.get("seat") == seat
        reserve = float(reserves[seat]) if seat < len(reserves) else 0.0
        found.append(SeatClockDrawing(
            reserve_ms=round(reserve * 1000),
            deadline_ms=_ms(awaiting["deadline"]) if deciding and awaiting else None,
            # only the seat that owes the decision spends its reserve on it
            reserve_from_ms=_ms(awaiting["reserve_from"]) if alone and awaiting else None,
            abandoned=gone,
            left_words=T("clock.left", time="{time}"),
            reserve_words=T("clock.reserve", time="{time}"),
            abandoned_words=T("clock.bot_plays"),
            resume_words=T("clock.resume") if gone and seat == own else "",
        ))  # fmt: skip
    return found


def with_clocks(drawing: TableDrawing, clock: dict[str, Any] | None,
                own: int | None) -> TableDrawing:  # fmt: skip
    """``drawing`` with each seat's clock on its box; unchanged for a match without one."""
    if not clock:
        return drawing
    clocks = clock_drawings(clock, len(drawing.seats), own)
    seats = tuple(replace(s, clock=clocks[s.seat]) if 0 <= s.seat < len(clocks) else s
                  for s in drawing.seats)  # fmt: skip
    return replace(drawing, seats=seats)


class HeldSeat(Protocol):
    """What each game's Play state has: a seat of a match held with its token, and the clock of
    the last answer."""

    url: str
    token: str
    match_id: str
    seat: int
    clock: dict[str, Any] | None


def take_seat_back(held: HeldSeat) -> None:
    """``resume`` (docs/API.md, "Clocks"): the holder plays its abandoned seat again."""
    call(held.url, held.token, lambda client: client.send_command(held.match_id, RESUME))


def _resume(held: HeldSeat, refresh: Callable[[], None]) -> None:
    try:
        take_seat_back(held)
    except ApiUnavailable as error:
        st.session_state["play_error"] = T("api.down", url=held.url, error=error)
    except ApiError as error:
        st.session_state["play_error"] = T("api.error", error=error)
    refresh()


def play_table(drawing: TableDrawing, held: HeldSeat, *, refresh: Callable[[], None],
               scroll: bool = False, choices: Sequence[str] = (),
               on_choose: Callable[[str], None] | None = None) -> None:  # fmt: skip
    """Play's table with each seat's clock on its box, counting down in the browser. When a
    deadline it shows has passed, ``refresh`` (the game's catch-up) shows what the service did;
    the viewer's abandoned seat has a button that takes it back, then refreshes. The
    ``choices`` offered now are taken by their keys too (``on_choose``)."""
    card_table.table(
        with_clocks(drawing, held.clock, held.seat), key="play", scroll=scroll,
        on_expired=refresh, on_resume=lambda: _resume(held, refresh),
        choices=choices if on_choose is not None else (),
        on_choose=on_choose if on_choose is not None else (lambda choice: None),
    )  # fmt: skip
    if held.clock:
        per = held.clock.get("settings", {}).get("per_decision")
        st.caption(T("clock.title", seconds=per))


# --- the rematch -------------------------------------------------------------------------------


def rematch_button(on_click: Callable[[], None]) -> None:
    """At a finished match: "Rematch" (the game's ``on_click`` asks the API and opens it)."""
    st.button(T("play.rematch"), key="play_rematch", type="primary", on_click=on_click,
              icon=":material/replay:")  # fmt: skip
