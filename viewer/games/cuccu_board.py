"""Cuccù on the drawn table: a replay frame or a seat's view turned into a ``TableDrawing``,
with the action of the current event drawn as arrows and notes, and the replay's public facts
beside it (what was revealed this round, the pack)."""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.cuccu.cards import CARDS, rank
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
from viewer.table import PACK, Arrow, CardFace, SeatDrawing, TableDrawing


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
    shown = {r.seat: r.card for r in view.revealed}  # a revealed hunter or inn is face up
    for info in view.seats:
        card = view.hands[info.seat] if info.seat < len(view.hands) else None
        card = card if card is not None else shown.get(info.seat)
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
    # the cards of the last round stay on the table until the next shuffle (its scoring reveal
    # and, once the match is over, the final table): they are not back in the pack yet
    centre = (tr(lang, "table.pack"), trn(lang, "count.cards", len(CARDS) - view.cards_drawn))
    return TableDrawing(tuple(seats), arrows, centre, tr(lang, "table.label"))


def frame_facts(frame: Frame, replay: Replay, lang: Lang) -> str:
    """What the replay's side shows beside the table: the cards revealed this round, the pack."""
    names = replay.names
    shown = [f"{names[seat]}: {card_chip(card, lang)}" for seat, card in frame.revealed]
    listed = " · ".join(shown) or tr(lang, "replay.nothing")
    revealed = tr(lang, "replay.revealed") + ": " + listed
    pack = tr(lang, "replay.pack", left=trn(lang, "count.cards", frame.pack_left),
              discard=frame.discard)  # fmt: skip
    return f"{revealed}. {pack}"
