"""Cucco 21's parts of the Replay and Charts pages (Streamlit), from ``viewer.games.cucco21``.

Charts follow the Cuccù charts' rules: a colour-blind-safe palette (Okabe and Ito), and each
seat also has its own dash and point shape; the box is a thick grey line of its own, a new set
a labelled rule, a death a cross; counts of different kinds stand side by side, never stacked.
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from viewer.card_table import Step
from viewer.games.cucco21 import DEATH_REASONS, PAY_REASONS, Replay21, chips_curve, tallies
from viewer.i18n import Lang
from viewer.replay_steps import replay_steps as build_steps
from viewer.seat_charts import OwnLook, count_bars, rounds_chart, series_look
from viewer.ui import T

BOX_COLOUR = "#555555"


def replay_steps(replay: Replay21, lang: Lang) -> list[Step]:
    """Every step: the table (its counters say what else is public) and what happened."""
    return build_steps(replay, lang, lambda k: replay.table(k, lang))


def chips_chart(replay: Replay21) -> alt.LayerChart:
    names = replay.names
    curve = chips_curve(replay)
    rnd, chips, who = T("charts.round"), T("c21.col.chips"), T("col.name")
    box = OwnLook(T("c21.box"), BOX_COLOUR, dash=[1, 0], shape="square")  # a thick grey line
    rows: list[dict[str, object]] = [
        {rnd: r, who: names[s], chips: values[s]}
        for r, values in zip(curve.rounds, curve.chips, strict=True)
        for s in range(len(names))
    ]
    rows += [{rnd: r, who: box.name, chips: b}
             for r, b in zip(curve.rounds, curve.box, strict=True)]  # fmt: skip
    index = {r: i for i, r in enumerate(curve.rounds)}
    died: list[dict[str, object]] = [
        {rnd: r, who: names[s], chips: curve.chips[index.get(r, -1)][s],
         "label": T("c21.charts.died", seat=names[s], why=T(f"c21.death.{why}"))}
        for r, s, why in curve.deaths
    ]  # fmt: skip
    return rounds_chart(
        rows, rnd=rnd, y=alt.Y(f"{chips}:Q", axis=alt.Axis(tickMinStep=1, format="d")),
        look=series_look(who, names, [box]), tooltip=[f"{who}:N", f"{rnd}:Q", f"{chips}:Q"],
        marked=curve.sets, mark_label=T("c21.charts.new_set"), crossed=died,
    )  # fmt: skip


def charts(replay: Replay21) -> None:
    names = replay.names
    st.subheader(T("c21.charts.chips"))
    st.altair_chart(chips_chart(replay), width="stretch")
    st.caption(T("c21.charts.marks"))
    counts = tallies(replay.events, len(names))
    name, kind, count = T("col.name"), T("charts.kind"), T("charts.count")
    deaths = [{name: names[s], kind: T(f"c21.death.{r}"), count: c[f"died:{r}"]}
              for s, c in enumerate(counts) for r in DEATH_REASONS if c[f"died:{r}"]]  # fmt: skip
    paid = [{name: names[s], kind: T(f"c21.pay.{r}"), count: c[f"paid:{r}"]}
            for s, c in enumerate(counts) for r in PAY_REASONS if c[f"paid:{r}"]]  # fmt: skip
    # under the bars and never cut: a half-width chart leaves a side legend too little room
    # for "lowest card in sudden death" in any language
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=0)
    left, right = st.columns(2)
    with left:
        count_bars(T("c21.charts.deaths"), deaths, legend)
    with right:
        count_bars(T("c21.charts.paid"), paid, legend)
    st.subheader(T("charts.tallies"))
    table: dict[str, list[object]] = {name: list(names)}
    table[T("c21.col.chips")] = list(replay.states[-1].chips)
    table[T("c21.tally.sets_won")] = [c["sets_won"] for c in counts]
    table[T("c21.tally.box_chips")] = [c["box_chips"] for c in counts]
    table[T("c21.tally.claims")] = [c["claims"] for c in counts]
    for reason in DEATH_REASONS:
        table[T(f"c21.death.{reason}")] = [c[f"died:{reason}"] for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)
