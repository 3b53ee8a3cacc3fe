"""Charts: lives per seat across rounds and per-seat tallies, readable without colour vision.

Each seat has a colour from a colour-blind-safe palette (Okabe and Ito) and also its own dash
pattern and point shape; lines are nudged apart so a seat at 0 never hides under another; a
lives reset is a labelled rule and an elimination a cross. Counts of different kinds stand
side by side, never stacked: they overlap (a refusal met is also an exchange asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from viewer.games import cucco21_ui
from viewer.games.cucco21 import Replay21
from viewer.loader import match_panel
from viewer.session import OpenMatch
from viewer.stats import REASONS, TALLIES, lives_curve, tallies
from viewer.typeface import FONT_STACK
from viewer.ui import T

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]  # fmt: skip
DASHES = [[1, 0], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [12, 2], [2, 6], [6, 2, 2, 2]]
SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-left",
          "triangle-right"]  # fmt: skip
NUDGE = 0.07  # lives units between two seats' lines at the same value


def _scale(domain: list[str], values: Sequence[Any]) -> alt.Scale:
    """One seat, one value, cycling through ``values`` on a big table."""
    return alt.Scale(domain=domain, range=[values[i % len(values)] for i in range(len(domain))])


def lives_chart(match: OpenMatch) -> alt.LayerChart:
    assert not isinstance(match.replay, Replay21)
    names = match.replay.names
    n = len(names)
    curve = lives_curve(match.replay.events)
    rnd, lives, seat = T("charts.round"), T("col.lives"), T("col.name")
    rows = [
        {rnd: r, seat: names[s], lives: values[s], "drawn": values[s] + (s - (n - 1) / 2) * NUDGE}
        for r, values in zip(curve.rounds, curve.lives, strict=True)
        for s in range(n)
    ]
    colour = alt.Color(f"{seat}:N", scale=_scale(names, PALETTE))
    dash = alt.StrokeDash(f"{seat}:N", scale=_scale(names, DASHES))
    shape = alt.Shape(f"{seat}:N", scale=_scale(names, SHAPES))
    y = alt.Y("drawn:Q", title=lives, axis=alt.Axis(tickMinStep=1, format="d"))
    x = alt.X(f"{rnd}:Q", axis=alt.Axis(tickMinStep=1, format="d"))
    base = alt.Chart(pd.DataFrame(rows))
    lines = base.mark_line(interpolate="step-after", strokeWidth=2.5).encode(
        x=x, y=y, color=colour, strokeDash=dash
    )
    points = base.mark_point(size=70, filled=True).encode(
        x=x, y=y, color=colour, shape=shape, tooltip=[f"{seat}:N", f"{rnd}:Q", f"{lives}:Q"]
    )
    layers: list[alt.Chart] = [lines, points]
    if curve.resets:
        resets = pd.DataFrame({rnd: curve.resets, "label": T("charts.reset")})
        rule = alt.Chart(resets).mark_rule(strokeDash=[4, 4], color="#444444", strokeWidth=2)
        layers.append(rule.encode(x=f"{rnd}:Q"))
        text = alt.Chart(resets).mark_text(
            align="left", dx=4, dy=-6, color="#222222", font=FONT_STACK
        )
        layers.append(text.encode(x=f"{rnd}:Q", y=alt.value(8), text="label:N"))
    if curve.eliminated:
        out = pd.DataFrame([
            {rnd: r, seat: names[s], "drawn": (s - (n - 1) / 2) * NUDGE,
             "label": T("charts.out", seat=names[s])}
            for s, r in curve.eliminated
        ])  # fmt: skip
        crosses = alt.Chart(out).mark_point(shape="cross", size=260, strokeWidth=3, filled=True)
        layers.append(crosses.encode(x=x, y=y, color=colour, tooltip=["label:N"]))
    chart: alt.LayerChart = alt.layer(*layers).resolve_scale(color="shared")
    return chart


def _lives(match: OpenMatch) -> None:
    st.subheader(T("charts.lives"))
    st.altair_chart(lives_chart(match), width="stretch")
    st.caption(T("charts.marks"))


def _bars(title: str, rows: list[dict[str, object]]) -> None:
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
    colour = alt.Color(f"{kind}:N", scale=alt.Scale(domain=kinds, range=PALETTE[: len(kinds)]))
    bars = base.mark_bar(stroke="#222222", strokeWidth=1).encode(
        color=colour, tooltip=[f"{name}:N", f"{kind}:N", f"{count}:Q"]
    )
    # the count itself, no colour needed
    labels = base.mark_text(dy=-6, font=FONT_STACK).encode(text=f"{count}:Q")
    st.altair_chart(alt.layer(bars, labels), width="stretch")


def page() -> None:
    match = match_panel()
    if match is None:
        return
    if isinstance(match.replay, Replay21):  # each game charts its own counters
        cucco21_ui.charts(match.replay)
        return
    names = match.replay.names
    counts = tallies(match.replay.events, len(names))
    _lives(match)
    left, right = st.columns(2)
    losses = [
        {T("col.name"): names[s], T("charts.kind"): T(f"reason.{r}"),
         T("charts.count"): c[f"lost:{r}"]}
        for s, c in enumerate(counts) for r in REASONS if c[f"lost:{r}"]
    ]  # fmt: skip
    actions = [
        {T("col.name"): names[s], T("charts.kind"): T(f"tally.{k}"), T("charts.count"): c[k]}
        for s, c in enumerate(counts) for k in ("requests", "swaps", "refused") if c[k]
    ]  # fmt: skip
    with left:
        _bars(T("charts.losses"), losses)
    with right:
        _bars(T("charts.actions"), actions)
    st.subheader(T("charts.tallies"))
    table: dict[str, list[object]] = {T("col.name"): list(names)}
    for key in TALLIES:
        table[T(f"tally.{key}")] = [c[key] for c in counts]
    for reason in REASONS:
        table[T(f"reason.{reason}")] = [c[f"lost:{reason}"] for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)


page()
