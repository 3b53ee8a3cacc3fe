"""Drawing one replay frame: the table of seats, the current event, the running log."""

from __future__ import annotations

import streamlit as st

from viewer.captions import card_chip
from viewer.i18n import Lang
from viewer.replay_model import Frame, Replay, SeatRow
from viewer.ui import T

PER_LINE = 5


def _hearts(lives: int, start: int) -> str:
    return "❤️" * lives + "🤍" * max(0, start - lives) if start <= 10 else f"❤️ × {lives}"


def _badges(row: SeatRow) -> str:
    badges = []
    if row.winner:
        badges.append("🏆 " + T("seat.winner"))
    if row.dealer:
        badges.append("🎴 " + T("seat.dealer"))
    if row.deciding:
        badges.append(":blue-background[👉 " + T("seat.deciding") + "]")
    if row.skipped:
        badges.append("🐎 " + T("seat.skipped"))
    if row.dead:
        badges.append("💀 " + T("seat.dead"))
    elif row.out:
        badges.append("⛔ " + T("seat.out"))
    return " · ".join(badges) or "&nbsp;"


def _seat(row: SeatRow, start_lives: int, lang: Lang) -> None:
    with st.container(border=True):
        name = f"**{row.name}** · {row.seat}"
        st.markdown(f":orange-background[{name}]" if row.involved else name)
        if row.card is not None:
            st.markdown(f"### {card_chip(row.card, lang)}")
            note = ""
        else:
            st.markdown("### 🂠" if row.dealt else "### —")
            note = T("seat.hidden") if row.dealt else T("seat.undealt") if not row.out else ""
        st.caption(note or "&nbsp;")
        st.markdown(_hearts(row.lives, start_lives))
        st.caption(_badges(row))


def table(frame: Frame, start_lives: int, lang: Lang) -> None:
    """Every seat: name, card, lives and badges; the seats the event names are highlighted."""
    rows = frame.rows
    for first in range(0, len(rows), PER_LINE):
        line = rows[first : first + PER_LINE]
        for column, row in zip(st.columns(PER_LINE if len(rows) > PER_LINE else len(line)),
                               line, strict=False):  # fmt: skip
            with column:
                _seat(row, start_lives, lang)


def current_event(frame: Frame, replay: Replay, lang: Lang) -> None:
    if frame.event is None:
        st.info(T("replay.before"))
        return
    st.markdown("**" + T("replay.now", version=frame.step, total=frame.total,
                         round=frame.round) + "**")  # fmt: skip
    st.info(replay.captions(lang)[frame.step - 1], icon="▶️")


def revealed(frame: Frame, replay: Replay, lang: Lang) -> None:
    names = replay.names
    shown = [f"{card_chip(card, lang)} ({names[seat]})" for seat, card in frame.revealed]
    st.markdown(f"**{T('replay.revealed')}:** " + (" · ".join(shown) or T("replay.nothing")))
    st.caption(T("replay.pack", left=frame.pack_left, discard=frame.discard))


def running_log(frame: Frame, replay: Replay, lang: Lang) -> None:
    """This round's events so far, the current one highlighted."""
    st.markdown(f"**{T('replay.log')}**")
    if not frame.log:
        st.caption(T("replay.nothing"))
        return
    captions = replay.captions(lang)
    versions = list(reversed(frame.log))  # newest first, so the current event is on top
    lines = [f"| # | {T('col.what')} |", "|---:|---|"]
    for v in versions:
        text = captions[v - 1].replace("|", "\\|")
        lines.append(f"| **{v}** | :orange-background[**{text}**] |" if v == frame.step
                     else f"| {v} | {text} |")  # fmt: skip
    with st.container(height=min(60 + 36 * len(versions), 420), border=False):
        st.markdown("\n".join(lines))
