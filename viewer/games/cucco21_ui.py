"""Cucco 21's parts of the Replay and Charts pages (Streamlit), from ``viewer.games.cucco21``.

Charts follow the Cuccù charts' rules: a colour-blind-safe palette (Okabe and Ito), and each
seat also has its own dash and point shape; the box is a thick grey line of its own, a new set
a labelled rule, a death a cross; counts of different kinds stand side by side, never stacked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from viewer.games.cucco21 import DEATH_REASONS, PAY_REASONS, Replay21, chips_curve, tallies
from viewer.i18n import Lang
from viewer.table import render
from viewer.typeface import FONT_STACK
from viewer.ui import T

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]  # fmt: skip
DASHES = [[1, 0], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [12, 2], [2, 6], [6, 2, 2, 2]]
SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-left",
          "triangle-right"]  # fmt: skip
BOX_COLOUR = "#555555"


def replay_step(replay: Replay21, step: int, lang: Lang) -> None:
    """The table at ``step``, what happened, and this round's log so far."""
    table, side = st.columns([3, 2])
    with table:
        st.markdown(render(replay.table(step, lang)), unsafe_allow_html=True)
    with side:
        captions = replay.captions(lang)
        if step == 0:
            st.info(T("replay.before"))
        else:
            rnd = replay.round_at(step)
            key = "replay.now" if rnd > 0 else "replay.setup"
            st.markdown("**" + T(key, version=step, total=len(replay.records), round=rnd) + "**")
            st.info(captions[step - 1], icon=":material/play_arrow:")
        st.markdown(f"**{T('replay.log')}**")
        versions = list(reversed(replay.log(step)))
        if not versions:
            st.caption(T("replay.nothing"))
            return
        lines = [f"| # | {T('col.what')} |", "|---:|---|"]
        for v in versions:
            text = captions[v - 1].replace("|", "\\|")
            lines.append(f"| **{v}** | :orange-background[**{text}**] |" if v == step
                         else f"| {v} | {text} |")  # fmt: skip
        with st.container(height=min(60 + 36 * len(versions), 420), border=False):
            st.markdown("\n".join(lines))


def _scale(domain: list[str], values: Sequence[Any]) -> alt.Scale:
    return alt.Scale(domain=domain, range=[values[i % len(values)] for i in range(len(domain))])


def chips_chart(replay: Replay21) -> alt.LayerChart:
    names = replay.names
    curve = chips_curve(replay)
    rnd, chips, who = T("charts.round"), T("c21.col.chips"), T("col.name")
    box_name = T("c21.box")
    series = [*names, box_name]
    rows = [{rnd: r, who: names[s], chips: values[s]}
            for r, values in zip(curve.rounds, curve.chips, strict=True)
            for s in range(len(names))]  # fmt: skip
    rows += [{rnd: r, who: box_name, chips: b} for r, b in zip(curve.rounds, curve.box,
                                                                strict=True)]  # fmt: skip
    colours: list[str] = [PALETTE[i % len(PALETTE)] for i in range(len(names))] + [BOX_COLOUR]
    colour = alt.Color(f"{who}:N", scale=alt.Scale(domain=series, range=colours))
    dash = alt.StrokeDash(f"{who}:N", scale=_scale(series, [*DASHES[: len(names)], [1, 0]]))
    shape = alt.Shape(f"{who}:N", scale=_scale(series, [*SHAPES[: len(names)], "square"]))
    x = alt.X(f"{rnd}:Q", axis=alt.Axis(tickMinStep=1, format="d"))
    y = alt.Y(f"{chips}:Q", axis=alt.Axis(tickMinStep=1, format="d"))
    base = alt.Chart(pd.DataFrame(rows))
    lines = base.mark_line(interpolate="step-after", strokeWidth=2.5).encode(
        x=x, y=y, color=colour, strokeDash=dash
    )
    points = base.mark_point(size=70, filled=True).encode(
        x=x, y=y, color=colour, shape=shape, tooltip=[f"{who}:N", f"{rnd}:Q", f"{chips}:Q"]
    )
    layers: list[alt.Chart] = [lines, points]
    if curve.sets:
        marks = pd.DataFrame({rnd: curve.sets, "label": T("c21.charts.new_set")})
        rule = alt.Chart(marks).mark_rule(strokeDash=[4, 4], color="#444444", strokeWidth=2)
        layers.append(rule.encode(x=f"{rnd}:Q"))
        text = alt.Chart(marks).mark_text(
            align="left", dx=4, dy=-6, color="#222222", font=FONT_STACK
        )
        layers.append(text.encode(x=f"{rnd}:Q", y=alt.value(8), text="label:N"))
    if curve.deaths:
        index = {r: i for i, r in enumerate(curve.rounds)}
        died = pd.DataFrame([
            {rnd: r, who: names[s], chips: curve.chips[index.get(r, -1)][s],
             "label": T("c21.charts.died", seat=names[s], why=T(f"c21.death.{why}"))}
            for r, s, why in curve.deaths
        ])  # fmt: skip
        crosses = alt.Chart(died).mark_point(shape="cross", size=260, strokeWidth=3, filled=True)
        layers.append(crosses.encode(x=x, y=y, color=colour, tooltip=["label:N"]))
    chart: alt.LayerChart = alt.layer(*layers).resolve_scale(color="shared")
    return chart


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
    # under the bars and never cut: a half-width chart leaves a side legend too little room
    # for "lowest card in sudden death" in any language
    legend = alt.Legend(orient="bottom", direction="vertical", labelLimit=0)
    colour = alt.Color(f"{kind}:N", scale=alt.Scale(domain=kinds, range=PALETTE[: len(kinds)]),
                       legend=legend)  # fmt: skip
    bars = base.mark_bar(stroke="#222222", strokeWidth=1).encode(
        color=colour, tooltip=[f"{name}:N", f"{kind}:N", f"{count}:Q"]
    )
    labels = base.mark_text(dy=-6, font=FONT_STACK).encode(text=f"{count}:Q")
    st.altair_chart(alt.layer(bars, labels), width="stretch")


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
    left, right = st.columns(2)
    with left:
        _bars(T("c21.charts.deaths"), deaths)
    with right:
        _bars(T("c21.charts.paid"), paid)
    st.subheader(T("charts.tallies"))
    table: dict[str, list[object]] = {name: list(names)}
    table[T("c21.col.chips")] = list(replay.states[-1].chips)
    table[T("c21.tally.sets_won")] = [c["sets_won"] for c in counts]
    table[T("c21.tally.box_chips")] = [c["box_chips"] for c in counts]
    table[T("c21.tally.claims")] = [c["claims"] for c in counts]
    for reason in DEATH_REASONS:
        table[T(f"c21.death.{reason}")] = [c[f"died:{reason}"] for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)
