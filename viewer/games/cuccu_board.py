"""Cuccù on the drawn table: a replay frame or a seat's view turned into a ``TableDrawing``,
with the action of the current event drawn as arrows and notes; and the replay's side panels."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from domain.games.cuccu.cards import rank
from domain.games.cuccu.events import (
    CardRevealed,
    CardsExchanged,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    ExchangeReversed,
    HorseSkipped,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    PackExchanged,
    PledgeMade,
    Retargeted,
    SeatEliminated,
)
from domain.games.cuccu.views import MatchView
from viewer.games.cuccu_captions import card_chip, card_name, card_numeral
from viewer.games.cuccu_replay import Frame, Replay, SeatRow
from viewer.i18n import Lang, tr, trn
from viewer.table import PACK, Arrow, CardFace, SeatDrawing, TableDrawing, render
from viewer.ui import N, T


def face(card: str | None, dealt: bool, lang: Lang) -> CardFace:
    """A known card face up, a dealt unknown one face down, else an empty place."""
    if card is not None:
        kind = rank(card)
        words = kind if kind.isdigit() else card_name(card, lang).split(" ")[0]
        return CardFace(card_numeral(card), words)
    if dealt:
        return CardFace(name=tr(lang, "table.face_down"), face_down=True)
    return CardFace(name=tr(lang, "table.no_card"))


def action(event: Event | None, lang: Lang) -> tuple[tuple[Arrow, ...], dict[int, str]]:
    """What ``event`` does, drawn: arrows between seats (or the pack) and notes on seats."""
    if event is None:
        return (), {}

    def say(key: str) -> str:
        return tr(lang, key)

    match event:
        case ExchangeRequested(seat=seat, target=target) | Retargeted(seat=seat, target=target):
            return (Arrow(seat, target, "ask", say("act.ask")),), {}
        case CardsExchanged(requester=r, target=t):
            return (Arrow(r, t, "swap", say("act.swap")),), {}
        case ExchangeRefused(seat=seat, requester=requester):
            return (Arrow(seat, requester, "refused", say("act.refused")),), {}
        case ExchangeReversed(requester=r, target=t):
            return (Arrow(t, r, "undo", say("act.reversed")),), {}
        case PackExchanged(seat=seat):
            return (Arrow(seat, PACK, "pack", say("act.pack")),), {}
        case PledgeMade(innkeeper=innkeeper, requester=requester):
            return (Arrow(innkeeper, requester, "pledge", say("act.pledge")),), {}
        case HorseSkipped(seat=seat):
            return (), {seat: say("act.horse")}
        case LifeLost(seat=seat, reason=reason):  # why, in words: the hunter, the cat...
            return (), {seat: tr(lang, "act.life_why", reason=say(f"reason.{reason}"))}
        case CardRevealed(seat=seat):
            return (), {seat: say("act.shows")}
        case Kept(seat=seat) | DealerKept(seat=seat):
            return (), {seat: say("act.keeps")}
        case InnChoiceMade(seat=seat) | InnResponded(seat=seat):
            return (), {seat: say("act.inn")}
        case SeatEliminated(seat=seat):
            return (), {seat: say("seat.out")}
    return (), {}


def markers(row: SeatRow, lang: Lang) -> tuple[str, ...]:
    found = []
    if row.winner:
        found.append(tr(lang, "seat.winner"))
    if row.dealer:
        found.append(tr(lang, "seat.dealer"))
    if row.deciding:
        found.append(tr(lang, "seat.deciding"))
    if row.skipped:
        found.append(tr(lang, "seat.skipped"))
    if row.dead:
        found.append(tr(lang, "seat.dead"))
    elif row.out:
        found.append(tr(lang, "seat.out"))
    return tuple(found)


def frame_drawing(frame: Frame, start_lives: int, lang: Lang) -> TableDrawing:
    arrows, notes = action(frame.event, lang)
    seats = tuple(
        SeatDrawing(
            seat=row.seat,
            name=row.name,
            card=face(row.card, row.dealt, lang),
            counter=row.lives,
            counter_max=start_lives,
            counter_text=trn(lang, "count.lives", row.lives),
            markers=markers(row, lang),
            highlight=row.involved,
            deciding=row.deciding,
            faded=row.out,
            note=notes.get(row.seat, ""),
        )  # fmt: skip
        for row in frame.rows
    )
    centre = (tr(lang, "table.pack"), trn(lang, "count.cards", frame.pack_left))
    return TableDrawing(seats, arrows, centre, tr(lang, "table.label"))


def view_drawing(view: MatchView, names: Sequence[str], lang: Lang,
                 event: Event | None = None) -> TableDrawing:  # fmt: skip
    """The table as one seat sees it (Play): its own card face up, the others as the API says."""
    arrows, notes = action(event, lang)
    deciding = view.pending.seat if view.pending is not None else None
    seats = []
    for info in view.seats:
        card = view.hands[info.seat] if info.seat < len(view.hands) else None
        found = []
        if view.winner == info.seat:
            found.append(tr(lang, "seat.winner"))
        if info.seat == view.viewer:
            found.append(tr(lang, "seat.you"))
        if info.seat == view.dealer and view.status != "over":
            found.append(tr(lang, "seat.dealer"))
        if deciding == info.seat:
            found.append(tr(lang, "seat.deciding"))
        if info.skipped:
            found.append(tr(lang, "seat.skipped"))
        if info.dead:
            found.append(tr(lang, "seat.dead"))
        elif info.lives == 0:
            found.append(tr(lang, "seat.out"))
        seats.append(SeatDrawing(
            seat=info.seat, name=names[info.seat], card=face(card, info.dealt, lang),
            counter=info.lives, counter_max=view.starting_lives,
            counter_text=trn(lang, "count.lives", info.lives), markers=tuple(found),
            highlight=info.seat in notes or any(info.seat in (a.source, a.target) for a in arrows),
            deciding=deciding == info.seat, faded=info.lives == 0 and not info.dead,
            note=notes.get(info.seat, ""),
        ))  # fmt: skip
    left = 40 - view.cards_drawn if view.status == "in_round" else 40
    centre = (tr(lang, "table.pack"), trn(lang, "count.cards", max(0, left)))
    return TableDrawing(tuple(seats), arrows, centre, tr(lang, "table.label"))


def draw(table: TableDrawing) -> None:
    st.markdown(render(table), unsafe_allow_html=True)


def current_event(frame: Frame, replay: Replay, lang: Lang) -> None:
    if frame.event is None:
        st.info(T("replay.before"))
        return
    key = "replay.now" if frame.round > 0 else "replay.setup"
    st.markdown("**" + T(key, version=frame.step, total=frame.total, round=frame.round) + "**")
    st.info(replay.captions(lang)[frame.step - 1], icon=":material/play_arrow:")


def revealed(frame: Frame, replay: Replay, lang: Lang) -> None:
    names = replay.names
    shown = [f"{names[seat]}: {card_chip(card, lang)}" for seat, card in frame.revealed]
    st.markdown(f"**{T('replay.revealed')}:** " + (" · ".join(shown) or T("replay.nothing")))
    st.caption(T("replay.pack", left=N("count.cards", frame.pack_left), discard=frame.discard))


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
