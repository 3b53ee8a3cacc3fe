"""Cuccù's parts of the Replay and Charts pages (Streamlit), from ``viewer.games.cuccu_board`` and
``viewer.games.cuccu_stats``.

Charts: each seat has a colour from a colour-blind-safe palette (Okabe and Ito) and also its
own dash pattern and point shape; lines are nudged apart so a seat at 0 never hides under
another; a lives reset is a labelled rule and an elimination a cross. Counts of different
kinds stand side by side, never stacked: they overlap (a refusal met is also an exchange asked).
"""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from viewer.card_table import Step
from viewer.games import cuccu_board as board
from viewer.games.cuccu_replay import Replay
from viewer.games.cuccu_stats import REASONS, TALLIES, lives_curve, tallies
from viewer.i18n import Lang
from viewer.replay_steps import replay_steps as build_steps
from viewer.seat_charts import count_bars, rounds_chart, series_look
from viewer.ui import T

NUDGE = 0.07  # lives units between two seats' lines at the same value


def replay_steps(replay: Replay, lang: Lang) -> list[Step]:
    """Every step: the table, what happened, and what was revealed this round and the pack."""
    lives = replay.states[-1].starting_lives or 3
    frames = [replay.frame(k) for k in range(replay.last_step + 1)]
    return build_steps(
        replay, lang, lambda k: board.frame_drawing(frames[k], lives, lang),
        lambda k: board.frame_facts(frames[k], replay, lang),
    )  # fmt: skip


def lives_chart(replay: Replay) -> alt.LayerChart:
    names = replay.names
    n = len(names)
    curve = lives_curve(replay.events)
    rnd, lives, seat = T("charts.round"), T("col.lives"), T("col.name")
    rows: list[dict[str, object]] = [
        {rnd: r, seat: names[s], lives: values[s], "drawn": values[s] + (s - (n - 1) / 2) * NUDGE}
        for r, values in zip(curve.rounds, curve.lives, strict=True)
        for s in range(n)
    ]
    out: list[dict[str, object]] = [
        {rnd: r, seat: names[s], "drawn": (s - (n - 1) / 2) * NUDGE,
         "label": T("charts.out", seat=names[s])}
        for s, r in curve.eliminated
    ]  # fmt: skip
    return rounds_chart(
        rows, rnd=rnd, y=alt.Y("drawn:Q", title=lives, axis=alt.Axis(tickMinStep=1, format="d")),
        look=series_look(seat, names), tooltip=[f"{seat}:N", f"{rnd}:Q", f"{lives}:Q"],
        marked=curve.resets, mark_label=T("charts.reset"), crossed=out,
    )  # fmt: skip


def charts(replay: Replay) -> None:
    """Lives per seat across rounds, lives lost by reason, actions, and the tallies."""
    names = replay.names
    counts = tallies(replay.events, len(names))
    st.subheader(T("charts.lives"))
    st.altair_chart(lives_chart(replay), width="stretch")
    st.caption(T("charts.marks"))
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
        count_bars(T("charts.losses"), losses)
    with right:
        count_bars(T("charts.actions"), actions)
    st.subheader(T("charts.tallies"))
    table: dict[str, list[object]] = {T("col.name"): list(names)}
    for key in TALLIES:
        table[T(f"tally.{key}")] = [c[key] for c in counts]
    for reason in REASONS:
        table[T(f"reason.{reason}")] = [c[f"lost:{reason}"] for c in counts]
    st.dataframe(pd.DataFrame(table), hide_index=True)
