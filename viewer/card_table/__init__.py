"""The card table as a Streamlit component (Components v2): one for every game, Play and Replay.

The component (``table.js`` and ``table.css`` beside this file, package data: no build step and
nothing fetched from a network) knows no game. A game's presentation module describes the table
as a ``viewer.table.TableDrawing`` in words it has already translated; ``drawing_data`` turns
that into plain JSON, and the browser places it to fill the width it is given: seats on an oval
while their boxes fit without touching, else a compact grid, text never under 11 CSS pixels.

In Replay the component receives every step of the match at once (``replay``) and steps among
them itself (buttons, a slider, the keyboard), without a Streamlit rerun per step. What it is
sent is exactly what the page would have drawn: each game builds its steps from the public view
of the log (a finished log shows every card; an unfinished one only what a spectator sees), and
Play sends one step built from the seat's own view.

In a clocked match each seat may carry a clock (``SeatDrawing.clock``): absolute times, which
the browser counts down on the seat's box by itself. When a deadline it shows has passed it
asks Python once (``on_expired``) to catch up on what the service did meanwhile; a seat's
"take it back" button asks ``on_resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import streamlit as st

from viewer.table import CardFace, SeatClockDrawing, SeatDrawing, TableDrawing

HERE: Final = Path(__file__).resolve().parent
NAME: Final = "cuccu_card_table"


@cache
def _component() -> Any:
    """The component, registered once per process with its JS and CSS read from the package."""
    js = (HERE / "table.js").read_text(encoding="utf-8")
    css = (HERE / "table.css").read_text(encoding="utf-8")
    # not in a shadow root: the page's fonts (the bundled Thai face) and its tests reach it;
    # every class the CSS names starts with "ct-", so nothing else on the page is restyled
    return st.components.v2.component(NAME, js=js, css=css, isolate_styles=False)


def _card(face: CardFace) -> list[str]:
    state = "down" if face.face_down else ("none" if face.empty or not face.corner else "up")
    return [face.corner if state == "up" else "", face.name, state]


def clock_data(clock: SeatClockDrawing | None) -> dict[str, Any] | None:
    """A seat's clock as the component reads it (``ck`` in table.js), or None."""
    return None if clock is None else asdict(clock)


def _seat(seat: SeatDrawing) -> dict[str, Any]:
    hearts = [seat.counter, seat.counter_max] if 0 < seat.counter_max <= 10 else None
    found = {
        "seat": seat.seat, "n": seat.name, "card": _card(seat.card), "t": seat.counter_text,
        "hearts": hearts, "b": [["m", m] for m in seat.markers], "hl": seat.highlight,
        "dc": seat.deciding, "fd": seat.faded, "note": seat.note,
    }  # fmt: skip
    if seat.clock is not None:  # only in Play: a replay's steps stay as small as they were
        found["ck"] = clock_data(seat.clock)
    return found


def drawing_data(table: TableDrawing) -> dict[str, Any]:
    """``table`` as the component draws it: plain lists and strings (JSON)."""
    return {
        "label": table.label,
        "centre": list(table.centre),
        "seats": [_seat(s) for s in table.seats],
        "arrows": [[a.source, a.target, a.kind, a.label] for a in table.arrows],
    }


@dataclass(frozen=True)
class Step:
    """One step of a replay as the component shows it."""

    table: TableDrawing
    heading: str  # "Event 3 of 40 · round 1"
    caption: str  # what the event did, in a sentence
    round: int  # 0 before the first round
    log_start: int  # the first step of this round's running log
    facts: str = ""  # public facts not on the table (what was revealed this round)


def step_data(step: Step) -> dict[str, Any]:
    return {"t": drawing_data(step.table), "h": step.heading, "c": step.caption,
            "r": step.round, "s": step.log_start, "f": step.facts}  # fmt: skip


def compact(steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``steps`` with every seat the same as in the step before sent as ``0``: an event changes
    a seat or two, so a long match's steps shrink several times over (the browser fills them
    back in, ``expand`` in table.js)."""
    found: list[dict[str, Any]] = []
    before: list[Any] = []
    for step in steps:
        seats = step["t"]["seats"]
        same = [0 if i < len(before) and seat == before[i] else seat
                for i, seat in enumerate(seats)]  # fmt: skip
        found.append({**step, "t": {**step["t"], "seats": same}})
        before = seats
    return found


def _nothing() -> None:
    """A trigger nobody listens to (a table without clocks)."""


def _no_choice(choice: str) -> None:
    """A table where nothing is chosen (a spectator's)."""


#: the keys that take the choices offered, in their order (more than nine: the rest by click)
CHOICE_KEYS: Final = "123456789"


def choice_key(index: int) -> str | None:
    """The key that takes the ``index``-th choice offered, if any."""
    return CHOICE_KEYS[index] if 0 <= index < len(CHOICE_KEYS) else None


def table(drawing: TableDrawing, *, key: str, scroll: bool = False,
          on_expired: Callable[[], None] = _nothing,
          on_resume: Callable[[], None] = _nothing,
          choices: Sequence[str] = (),
          on_choose: Callable[[str], None] = _no_choice) -> None:  # fmt: skip
    """One table (Play): ``scroll`` brings it into view once (after Start). ``on_expired`` runs
    (then the page) once a deadline a seat's clock shows has passed; ``on_resume`` when the
    person presses their abandoned seat's "take it back" button. While ``choices`` are offered
    the browser takes each with its key (``choice_key``, shown on its button by the page) and
    ``on_choose`` gets it, as a click on the button would."""
    element = f"card_table_{key}"
    offered = list(choices)

    def chosen() -> None:
        value = st.session_state.get(element)
        picked = value.get("choose") if value is not None else None
        if isinstance(picked, str) and picked in offered:  # only what this run offered
            on_choose(picked)

    keyed = [[k, c] for i, c in enumerate(offered) if (k := choice_key(i)) is not None]
    data = {"mode": "play", "key": key, "steps": [{"t": drawing_data(drawing)}],
            "scroll": scroll, "choices": keyed}  # fmt: skip
    _component()(data=data, key=element, width="stretch", on_expired_change=on_expired,
                 on_resume_change=on_resume, on_choose_change=chosen)  # fmt: skip


def replay(steps: Sequence[dict[str, Any]], *, key: str, start: int, labels: dict[str, str],
           match_id: str | None, lang: str) -> None:  # fmt: skip
    """Every step of a match, stepped in the browser; ``start`` is the step shown first.

    ``key`` names the match and language: a new one starts again at ``start``. The step shown
    is written in the address (``?match=…&event=N&lang=xx``) so a copied link opens it."""
    data = {
        "mode": "replay", "key": key, "steps": list(steps), "start": start, "labels": labels,
        "link": {"match": match_id, "lang": lang}, "scroll": True,
    }  # fmt: skip
    _component()(data=data, key="card_table_replay", width="stretch")


def _no_seat(seat: dict[str, Any]) -> None:
    """Nobody restores a seat."""


def keeper(action: str, seat: dict[str, Any] | None = None, *,
           on_restore: Callable[[dict[str, Any]], None] = _no_seat) -> None:  # fmt: skip
    """This tab's seat across a reload, in the tab's own storage (``sessionStorage``: not in
    an address, not shared with another tab, gone with the tab). ``action``: "keep" ``seat``
    (its game, match, seat and token), "forget" it, or "restore" it: once per page load, when
    that load is a reload (or Back), the browser gives back what it kept and ``on_restore``
    gets it; an address opened afresh forgets it. Draws nothing."""

    def restored() -> None:
        value = st.session_state.get("card_table_keeper")
        found = value.get("restore") if value is not None else None
        if isinstance(found, dict):
            on_restore(found)

    data: dict[str, Any] = {"mode": "keeper", "key": "keeper", "action": action, "seat": seat,
                            "steps": []}  # fmt: skip
    _component()(data=data, key="card_table_keeper", width="stretch",
                 on_restore_change=restored)  # fmt: skip


def news_watch(key: str, beacon: str, *, after_s: float,
               on_stalled: Callable[[], None]) -> None:  # fmt: skip
    """A live page's guard: the browser watches the element ``beacon`` (a CSS selector), which
    the page's news fragment draws anew at each of its runs; when it has not changed for
    ``after_s`` seconds while the tab is shown, ``on_stalled`` runs, then the whole page. Draws
    nothing."""
    data = {"mode": "news", "key": key, "beacon": beacon, "after_ms": int(after_s * 1000),
            "steps": []}  # fmt: skip
    _component()(data=data, key=f"card_table_{key}", width="stretch",
                 on_stalled_change=on_stalled)  # fmt: skip
