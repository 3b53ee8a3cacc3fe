"""Ranter-Go-Round's parts of the Replay and Charts pages (Streamlit), from
``viewer.games.chase``.

Charts follow the other games' rules (``viewer.seat_charts``): each seat has its own colour,
dash and point shape; a void round is a labelled rule, a seat's last life a cross; counts of
different kinds stand side by side, never stacked.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from viewer.card_table import Step
from viewer.games.chase import LOSS_REASONS, TALLIES, ChaseReplay, lives_curve, tallies
from viewer.i18n import Lang
from viewer.replay_steps import replay_steps as build_steps
from viewer.seat_charts import count_bars, rounds_chart, series_look
from viewer.ui import T

#: the decisions counted side by side in the Charts page's bars
DECISIONS = ("kept", "asked", "cut")


def replay_steps(replay: ChaseReplay, lang: Lang) -> list[Step]:
    """Every step: the table (its notes and arrows say what happened) and the caption."""
    return build_steps(replay, lang, lambda k: replay.table(k, lang))


def lives_chart(replay: ChaseReplay) -> alt.LayerChart:
    names = replay.names
    curve = lives_curve(replay)
    rnd, lives, who = T("charts.round"), T("col.lives"), T("col.name")
    rows: list[dict[str, object]] = [
        {rnd: r, who: names[s], lives: values[s]}
        for r, values in zip(curve.rounds, curve.lives, strict=True)
        for s in range(len(names))
    ]
    index = {r: i for i, r in enumerate(curve.rounds)}
    out: list[dict[str, object]] = [
        {rnd: r, who: names[s], lives: curve.lives[index[r]][s] if r in index else 0,
         "label": T("charts.out", seat=names[s])}
        for r, s in curve.eliminated
    ]  # fmt: skip
    return rounds_chart(
        rows, rnd=rnd, y=alt.Y(f"{lives}:Q", axis=alt.Axis(tickMinStep=1, format="d")),
        look=series_look(who, names), tooltip=[f"{who}:N", f"{rnd}:Q", f"{lives}:Q"],
        marked=curve.wiped_out, mark_label=T("chase.charts.void"), crossed=out,
    )  # fmt: skip


def charts(replay: ChaseReplay) -> None:
    names = replay.names
    st.subheader(T("charts.lives"))
    st.altair_chart(lives_chart(replay), width="stretch")
    st.caption(T("chase.charts.marks"))
    counts = tallies(replay.events, len(names))
    name, kind, count = T("col.name"), T("charts.kind"), T("charts.count")
    losses = [{name: names[s], kind: T(f"chase.loss.{r}"), count: c[f"lost:{r}"]}
              for s, c in enumerate(counts) for r in LOSS_REASONS if c[f"lost:{r}"]]  # fmt: skip
    decisions = [{name: names[s], kind: T(f"chase.tally.{d}"), count: c[d]}
                 for s, c in enumerate(counts) for d in DECISIONS if c[d]]  # fmt: skip
    # under the bars and never cut: a half-width chart leaves a side legend too little room
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=0)
    left, right = st.columns(2)
    with left:
        count_bars(T("charts.losses"), losses, legend)
    with right:
        count_bars(T("chase.charts.decisions"), decisions, legend)
    st.subheader(T("charts.tallies"))
    table: dict[str, list[object]] = {name: list(names)}
    table[T("col.lives")] = list(replay.states[-1].lives)
    for reason in LOSS_REASONS:
        table[T(f"chase.loss.{reason}")] = [c[f"lost:{reason}"] for c in counts]
    for tally in TALLIES:
        table[T(f"chase.tally.{tally}")] = [c[tally] for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)
