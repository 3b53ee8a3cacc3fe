"""Drawing one replay frame: the table of seats, the current event, the running log."""

from __future__ import annotations

from html import escape

import streamlit as st

from viewer.captions import card_chip
from viewer.i18n import Lang
from viewer.replay_model import Frame, Replay, SeatRow
from viewer.ui import T

_STYLE = """<style>
.cuccu-table {display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr));
  gap: 0.75rem; margin: 0.5rem 0 1rem}
.cuccu-seat {border: 1px solid rgba(128, 128, 128, 0.35); border-radius: 0.5rem;
  padding: 0.6rem 0.8rem}
.cuccu-seat[data-involved="1"] {border: 2px solid #f59e0b; background: rgba(245, 158, 11, 0.12)}
.cuccu-seat[data-deciding="1"] {box-shadow: 0 0 0 3px #93c5fd}
.cuccu-seat .name {font-weight: 600}
.cuccu-seat .card {font-size: 1.6rem; font-weight: 600; margin: 0.3rem 0; min-height: 2.2rem}
.cuccu-seat .note, .cuccu-seat .badges {opacity: 0.65; font-size: 0.85rem;
  min-height: 1.2rem}
</style>"""


def _hearts(lives: int, start: int) -> str:
    return "❤️" * lives + "🤍" * max(0, start - lives) if start <= 10 else f"❤️ × {lives}"


def _badges(row: SeatRow) -> str:
    badges = []
    if row.winner:
        badges.append("🏆 " + T("seat.winner"))
    if row.dealer:
        badges.append("🎴 " + T("seat.dealer"))
    if row.deciding:
        badges.append("👉 " + T("seat.deciding"))
    if row.skipped:
        badges.append("🐎 " + T("seat.skipped"))
    if row.dead:
        badges.append("💀 " + T("seat.dead"))
    elif row.out:
        badges.append("⛔ " + T("seat.out"))
    return " · ".join(badges)


def _seat(row: SeatRow, start_lives: int, lang: Lang) -> str:
    if row.card is not None:
        card, note = card_chip(row.card, lang), ""
    else:
        card = "🂠" if row.dealt else "—"
        note = T("seat.hidden") if row.dealt else T("seat.undealt") if not row.out else ""
    return (
        f'<div class="cuccu-seat" data-seat="{row.seat}" data-involved="{int(row.involved)}" '
        f'data-deciding="{int(row.deciding)}">'
        f'<div class="name">{escape(row.name)} · {row.seat}</div>'
        f'<div class="card">{escape(card)}</div><div class="note">{escape(note)}</div>'
        f"<div>{_hearts(row.lives, start_lives)}</div>"
        f'<div class="badges">{escape(_badges(row))}</div></div>'
    )


def table(frame: Frame, start_lives: int, lang: Lang) -> None:
    """Every seat: name, card, lives and badges; the seats the event names are highlighted.

    One HTML block rather than a container per seat: fewer elements redraw faster.
    """
    seats = "".join(_seat(row, start_lives, lang) for row in frame.rows)
    st.markdown(f'{_STYLE}<div class="cuccu-table">{seats}</div>', unsafe_allow_html=True)


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
