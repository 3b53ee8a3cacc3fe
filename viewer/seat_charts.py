"""The charts every game's Charts page draws, readable without colour vision.

Each seat has a colour from a colour-blind-safe palette (Okabe and Ito) and also its own dash
pattern and point shape; a line that is not a seat's (a box in the middle) has a look of its own.
A round the game marks (lives reset, a new set begun) is a labelled rule, and a seat
leaving the game a cross. Counts of different kinds stand side by side, never stacked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from viewer.typeface import FONT_STACK
from viewer.ui import T

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]  # fmt: skip
DASHES = [[1, 0], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [12, 2], [2, 6], [6, 2, 2, 2]]
SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-left",
          "triangle-right"]  # fmt: skip


@dataclass(frozen=True)
class OwnLook:
    """A series drawn beside the seats' that is none of them, with its own colour, dash, shape."""

    name: str
    colour: str
    dash: list[int]
    shape: str


@dataclass(frozen=True)
class SeriesLook:
    """The colour, dash and point shape of each series, as encodings of its name's field."""

    colour: alt.Color
    dash: alt.StrokeDash
    shape: alt.Shape


def series_look(field: str, seats: Sequence[str], others: Sequence[OwnLook] = ()) -> SeriesLook:
    """Seats take the palettes in turn (cycling on a big table); ``others`` come after them."""

    def scale(values: Sequence[Any], own: list[Any]) -> alt.Scale:
        cycled = [values[i % len(values)] for i in range(len(seats))]
        return alt.Scale(domain=[*seats, *(o.name for o in others)], range=[*cycled, *own])

    return SeriesLook(
        colour=alt.Color(f"{field}:N", scale=scale(PALETTE, [o.colour for o in others])),
        dash=alt.StrokeDash(f"{field}:N", scale=scale(DASHES, [o.dash for o in others])),
        shape=alt.Shape(f"{field}:N", scale=scale(SHAPES, [o.shape for o in others])),
    )


def rounds_chart(
    rows: list[dict[str, object]],
    *,
    rnd: str,
    y: alt.Y,
    look: SeriesLook,
    tooltip: list[str],
    marked: Sequence[int] = (),
    mark_label: str = "",
    crossed: list[dict[str, object]] | None = None,
) -> alt.LayerChart:
    """One step line with points per series over the rounds (the field ``rnd``).

    ``marked`` rounds get a dashed rule labelled ``mark_label``; each row of ``crossed`` (with
    the fields of ``rnd``, ``y``, the series and a ``label`` for its tooltip) a cross.
    """
    x = alt.X(f"{rnd}:Q", axis=alt.Axis(tickMinStep=1, format="d"))
    base = alt.Chart(pd.DataFrame(rows))
    lines = base.mark_line(interpolate="step-after", strokeWidth=2.5).encode(
        x=x, y=y, color=look.colour, strokeDash=look.dash
    )
    points = base.mark_point(size=70, filled=True).encode(
        x=x, y=y, color=look.colour, shape=look.shape, tooltip=tooltip
    )
    layers: list[alt.Chart] = [lines, points]
    if marked:
        marks = pd.DataFrame({rnd: marked, "label": mark_label})
        rule = alt.Chart(marks).mark_rule(strokeDash=[4, 4], color="#444444", strokeWidth=2)
        layers.append(rule.encode(x=f"{rnd}:Q"))
        text = alt.Chart(marks).mark_text(
            align="left", dx=4, dy=-6, color="#222222", font=FONT_STACK
        )
        layers.append(text.encode(x=f"{rnd}:Q", y=alt.value(8), text="label:N"))
    if crossed:
        crosses = alt.Chart(pd.DataFrame(crossed)).mark_point(
            shape="cross", size=260, strokeWidth=3, filled=True
        )
        layers.append(crosses.encode(x=x, y=y, color=look.colour, tooltip=["label:N"]))
    chart: alt.LayerChart = alt.layer(*layers).resolve_scale(color="shared")
    return chart


def count_bars(title: str, rows: list[dict[str, object]], legend: alt.Legend | None = None) -> None:
    """Counts per seat and kind (the fields named by ``col.name``, ``charts.kind`` and
    ``charts.count``), the kinds side by side with their counts written on them."""
    st.subheader(title)
    if not rows:
        st.caption(T("replay.nothing"))
        return
    name, kind, count = T("col.name"), T("charts.kind"), T("charts.count")
    kinds = sorted({str(r[kind]) for r in rows})
    base = alt.Chart(pd.DataFrame(rows)).encode(
        x=alt.X(f"{name}:N", sort=None),
        xOffset=alt.XOffset(f"{kind}:N", sort=kinds),
        y=alt.Y(f"{count}:Q", stack=None, axis=alt.Axis(tickMinStep=1, format="d")),
    )
    colour = alt.Color(f"{kind}:N", scale=alt.Scale(domain=kinds, range=PALETTE[: len(kinds)]),
                       legend=alt.Undefined if legend is None else legend)  # fmt: skip
    bars = base.mark_bar(stroke="#222222", strokeWidth=1).encode(
        color=colour, tooltip=[f"{name}:N", f"{kind}:N", f"{count}:Q"]
    )
    # the count itself, no colour needed
    labels = base.mark_text(dy=-6, font=FONT_STACK).encode(text=f"{count}:Q")
    st.altair_chart(alt.layer(bars, labels), width="stretch")
