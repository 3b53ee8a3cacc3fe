"""Charts: lives per seat across rounds and per-seat tallies, as pictures."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from viewer.loader import match_panel
from viewer.session import OpenMatch
from viewer.stats import REASONS, TALLIES, lives_curve, tallies
from viewer.ui import T


def _lives(match: OpenMatch) -> None:
    names = match.replay.names
    curve = lives_curve(match.replay.events)
    rows = [
        {T("charts.round"): rnd, T("col.name"): names[seat], T("col.lives"): lives[seat]}
        for rnd, lives in zip(curve.rounds, curve.lives, strict=True)
        for seat in range(len(names))
    ]
    st.subheader(T("charts.lives"))
    chart = (
        alt.Chart(pd.DataFrame(rows))
        .mark_line(point=True, interpolate="step-after")
        .encode(
            x=alt.X(f"{T('charts.round')}:Q", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y(f"{T('col.lives')}:Q", axis=alt.Axis(tickMinStep=1)),
            color=alt.Color(f"{T('col.name')}:N"),
        )
    )
    st.altair_chart(chart, width="stretch")


def _bars(title: str, rows: list[dict[str, object]]) -> None:
    st.subheader(title)
    if not rows:
        st.caption(T("replay.nothing"))
        return
    chart = (
        alt.Chart(pd.DataFrame(rows))
        .mark_bar()
        .encode(
            x=alt.X(f"{T('col.name')}:N", sort=None),
            y=alt.Y(f"{T('charts.count')}:Q", stack="zero"),
            color=alt.Color(f"{T('charts.kind')}:N"),
            tooltip=[f"{T('col.name')}:N", f"{T('charts.kind')}:N", f"{T('charts.count')}:Q"],
        )
    )
    st.altair_chart(chart, width="stretch")


def page() -> None:
    match = match_panel()
    if match is None:
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
