"""A card table's drawing data (seats, cards, markers, counters, arrows) and a static SVG of it.

The pages draw this data with the card table component (``viewer.card_table``); ``render``,
the older static SVG of the same data, is no longer on any page (its tests still read it).

It knows no game: a game's page describes what to draw (``TableDrawing``) in words it has
already translated, and this module only places and draws it. One game fills it with lives
and one card per seat; another may fill the same shapes with chips and several cards.

Nothing is said by an emoji or by colour alone: every marker, card and arrow carries its text,
so the table reads on a machine with no emoji font and to a person who does not see colours.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Final, Literal

from viewer.typeface import FONT_STACK

WIDTH: Final = 760
HEIGHT: Final = 680
CX: Final = WIDTH / 2
CY: Final = HEIGHT / 2
SEAT_RX: Final = 300  # the oval the seats sit on
SEAT_RY: Final = 222
PACK: Final = -1  # an arrow's end at the pack in the middle of the table

ArrowKind = Literal["ask", "swap", "refused", "skip", "undo", "pack", "pledge", "draw", "pay"]

# Wong's colour-blind-safe palette; each kind of arrow also has its own dash pattern and label.
_ARROW_STYLE: Final[dict[str, tuple[str, str]]] = {
    "ask": ("#0072B2", ""),
    "swap": ("#009E73", ""),
    "refused": ("#D55E00", "10 6"),
    "skip": ("#6b6b6b", "3 5"),
    "undo": ("#CC79A7", "12 4 3 4"),
    "pack": ("#0072B2", "2 4"),
    "pledge": ("#E69F00", "8 4"),
    "draw": ("#56B4E9", "6 3"),  # a card drawn from the deck
    "pay": ("#E69F00", "1 3"),  # chips paid to the box or a seat, or the box taken
}


@dataclass(frozen=True)
class CardFace:
    """A card as drawn. ``corner`` is its short mark (``"XV"``), ``name`` its words."""

    corner: str = ""
    name: str = ""
    face_down: bool = False  # a card is there but this viewer may not see it

    @property
    def empty(self) -> bool:
        return not self.face_down and not self.corner and not self.name


@dataclass(frozen=True)
class SeatClockDrawing:
    """A seat's clock as the table draws it. Its times are absolute (ms since the epoch), so the
    browser counts down by itself between two answers; its words are already translated, with
    ``{time}`` where the time goes."""

    reserve_ms: int  # the reserve left as of the last answer
    deadline_ms: int | None = None  # the pending decision's deadline, if this seat may answer it
    reserve_from_ms: int | None = None  # when this seat's reserve starts to run down
    abandoned: bool = False  # a stand-in bot plays the seat
    left_words: str = ""  # "{time} to decide"
    reserve_words: str = ""  # "reserve {time}"
    abandoned_words: str = ""  # "a bot plays"
    resume_words: str = ""  # the button that takes the seat back: the viewer's own seat only


@dataclass(frozen=True)
class SeatDrawing:
    seat: int
    name: str
    card: CardFace
    counter: int  # the game's score of the seat (lives, chips)
    counter_max: int
    counter_text: str  # the counter in words, e.g. "2 lives"
    markers: tuple[str, ...] = ()  # words: "dealer", "to decide", "out"...
    highlight: bool = False  # named by the action being shown
    deciding: bool = False
    faded: bool = False  # sits out
    note: str = ""  # an action on this seat alone, e.g. "loses a life"
    clock: SeatClockDrawing | None = None  # a clocked match's, in Play


@dataclass(frozen=True)
class Arrow:
    source: int  # a seat, or PACK
    target: int
    kind: ArrowKind
    label: str


@dataclass(frozen=True)
class TableDrawing:
    seats: tuple[SeatDrawing, ...]
    arrows: tuple[Arrow, ...] = ()
    centre: tuple[str, ...] = ()  # lines written on the cloth (the pack, the round)
    label: str = "table"  # what a screen reader announces


def seat_position(index: int, count: int) -> tuple[float, float]:
    """Seat ``index`` of ``count``: seat 0 at the bottom, the next ones anticlockwise (to its
    right, as play moves)."""
    angle = math.pi / 2 - 2 * math.pi * index / max(count, 1)
    return CX + SEAT_RX * math.cos(angle), CY + SEAT_RY * math.sin(angle)


def _scale(count: int) -> float:
    return min(1.0, 7.0 / max(count, 1))


def _text(x: float, y: float, text: str, size: float, *, cls: str = "",
          weight: int = 400, fill: str = "currentColor") -> str:  # fmt: skip
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.1f}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="middle" class="{cls}">{escape(text)}</text>'
    )


def _fit(size: float, width: float, text: str) -> float:
    """``size``, or smaller so that ``text`` fits in ``width`` (a glyph is about 0.58 em)."""
    return min(size, width / (0.58 * max(len(text), 1)))


def _card(face: CardFace, x: float, y: float, w: float, h: float) -> str:
    left, top = x - w / 2, y - h / 2
    if face.empty:
        return (
            f'<g class="card empty" data-card=""><rect x="{left:.1f}" y="{top:.1f}" '
            f'width="{w:.1f}" height="{h:.1f}" rx="7" fill="none" stroke="#8a8a8a" '
            f'stroke-dasharray="5 4"/>'
            + _text(x, y + 4, face.name, _fit(h * 0.14, w - 6, face.name), fill="#555555")
            + "</g>"
        )
    if face.face_down:
        return (
            f'<g class="card face-down" data-card="face-down"><rect x="{left:.1f}" y="{top:.1f}" '
            f'width="{w:.1f}" height="{h:.1f}" rx="7" fill="url(#cuccu-back)" stroke="#12304f" '
            f'stroke-width="2"/>'
            + _text(
                x,
                y + h * 0.05,
                face.name,
                _fit(h * 0.13, w - 6, face.name),
                fill="#ffffff",
                weight=600,
            )
            + "</g>"
        )
    return (
        f'<g class="card face-up" data-card="{escape(face.corner)}"><rect x="{left:.1f}" '
        f'y="{top:.1f}" width="{w:.1f}" height="{h:.1f}" rx="7" fill="#fffdf7" stroke="#2b2b2b" '
        f'stroke-width="2"/>'
        + f'<text x="{left + 6:.1f}" y="{top + h * 0.17:.1f}" font-size="{h * 0.15:.1f}" '
        f'fill="#2b2b2b">{escape(face.corner)}</text>'
        + _text(x, y + h * 0.1, face.corner, h * 0.3, fill="#111111", weight=700)
        + _text(x, top + h - 8, face.name, _fit(h * 0.14, w - 6, face.name), fill="#2b2b2b")
        + "</g>"
    )


def _heart(x: float, y: float, size: float, full: bool) -> str:
    s = size / 2
    path = (
        f"M{x:.1f},{y + s * 0.9:.1f} C{x - s * 1.6:.1f},{y - s * 0.1:.1f} "
        f"{x - s * 0.7:.1f},{y - s * 1.3:.1f} {x:.1f},{y - s * 0.4:.1f} "
        f"C{x + s * 0.7:.1f},{y - s * 1.3:.1f} {x + s * 1.6:.1f},{y - s * 0.1:.1f} "
        f"{x:.1f},{y + s * 0.9:.1f} Z"
    )
    fill = "#c0392b" if full else "none"
    return f'<path d="{path}" fill="{fill}" stroke="#c0392b" stroke-width="1.5"/>'


def _counter(seat: SeatDrawing, x: float, y: float, k: float) -> str:
    """The counter as pictures (one heart per life, hollow when lost) and always in words."""
    parts = [_text(x, y + 31 * k, seat.counter_text, 19 * k, weight=600, cls="counter")]
    if 0 < seat.counter_max <= 10:
        size = 16 * k
        start = x - (seat.counter_max - 1) * size * 0.65
        parts += [
            _heart(start + i * size * 1.3, y, size, i < seat.counter)
            for i in range(seat.counter_max)
        ]
    return "".join(parts)


def _seat(seat: SeatDrawing, count: int) -> str:
    x, y = seat_position(seat.seat, count)
    k = _scale(count)
    w, h = 78 * k, 108 * k
    box_w, box_h = 160 * k, 226 * k
    top = y - box_h / 2
    # a light box under every seat keeps its words readable over the cloth; the seat an action
    # names gets a thick solid frame, the seat to decide a dashed one (shape, not colour alone)
    colour, width, dash = "#c9c4b5", 1.5, ""
    if seat.highlight:
        colour, width = "#E69F00", 5.0
    elif seat.deciding:
        colour, width, dash = "#0072B2", 4.0, ' stroke-dasharray="8 5"'
    frame = (
        f'<rect x="{x - box_w / 2:.1f}" y="{top:.1f}" width="{box_w:.1f}" height="{box_h:.1f}" '
        f'rx="12" fill="#f7f5ef" stroke="{colour}" stroke-width="{width}"{dash}/>'
    )
    markers = " · ".join(seat.markers)
    # the markers' line shrinks to fit its box (a bold capital is about 0.68 em wide)
    marker_size = min(15 * k, (box_w - 10) / (0.68 * max(len(markers), 1)))
    opacity = ' opacity="0.5"' if seat.faded else ""
    note = ""
    if seat.note:
        # as wide as its words, up to a little wider than the seat; the words shrink past that
        widest = box_w + 20 * k
        size = min(16 * k, (widest - 12 * k) / (0.62 * len(seat.note)))
        width = min(widest, 0.62 * size * len(seat.note) + 16 * k)
        note = (
            f'<g class="note"><rect x="{x - width / 2:.1f}" y="{top + 30 * k:.1f}" '
            f'width="{width:.1f}" height="{28 * k:.1f}" rx="6" fill="#7a1d12" stroke="#ffffff"/>'
            + _text(x, top + 49 * k, seat.note, size, fill="#ffffff", weight=700)
            + "</g>"
        )
    return (
        f'<g class="seat" data-seat="{seat.seat}" data-highlight="{int(seat.highlight)}" '
        f'data-deciding="{int(seat.deciding)}" data-counter="{seat.counter}"{opacity}>'
        + frame
        + _text(x, top + 20 * k, markers.upper(), marker_size, weight=700, cls="markers")
        + _card(seat.card, x, top + 30 * k + h / 2, w, h)
        + _text(x, top + 57 * k + h, seat.name, 22 * k, weight=700, cls="name")
        + _counter(seat, x, top + 74 * k + h, k)
        + note
        + "</g>"
    )


def _point(end: int, count: int) -> tuple[float, float]:
    return (CX, CY) if end == PACK else seat_position(end, count)


def _arrow(arrow: Arrow, count: int, index: int) -> str:
    (x1, y1), (x2, y2) = _point(arrow.source, count), _point(arrow.target, count)
    colour, dash = _ARROW_STYLE[arrow.kind]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    gap = 70 * _scale(count)  # stop short of the seats' cards
    gap_from = 40 if arrow.source == PACK else gap
    gap_to = 40 if arrow.target == PACK else gap
    sx, sy = x1 + ux * gap_from, y1 + uy * gap_from
    ex, ey = x2 - ux * gap_to, y2 - uy * gap_to
    bend = 18 * (1 if index % 2 == 0 else -1)  # two arrows between the same seats do not overlap
    mx, my = (sx + ex) / 2 - uy * bend, (sy + ey) / 2 + ux * bend
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    both = f' marker-start="url(#cuccu-head-{arrow.kind})"' if arrow.kind == "swap" else ""
    label_w = 10.5 * len(arrow.label) + 18
    return (
        f'<g class="arrow" data-arrow="{arrow.kind}" data-from="{arrow.source}" '
        f'data-to="{arrow.target}">'
        f'<path d="M{sx:.1f},{sy:.1f} Q{mx:.1f},{my:.1f} {ex:.1f},{ey:.1f}" fill="none" '
        f'stroke="{colour}" stroke-width="5"{dashes}{both} '
        f'marker-end="url(#cuccu-head-{arrow.kind})"/>'
        f'<rect x="{mx - label_w / 2:.1f}" y="{my - 16:.1f}" width="{label_w:.1f}" height="28" '
        f'rx="6" fill="#ffffff" stroke="{colour}" stroke-width="2"/>'
        + _text(mx, my + 5, arrow.label, 18, fill="#111111", weight=700)
        + "</g>"
    )


def _defs() -> str:
    heads = "".join(
        f'<marker id="cuccu-head-{kind}" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 Z" '
        f'fill="{colour}"/></marker>'
        for kind, (colour, _) in _ARROW_STYLE.items()
    )
    back = (
        '<pattern id="cuccu-back" width="10" height="10" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="10" height="10" fill="#1f4e79"/>'
        '<rect width="4" height="10" fill="#2f6ea5"/></pattern>'
    )
    return f"<defs>{heads}{back}</defs>"


def render(table: TableDrawing) -> str:
    """The whole table as one inline SVG element (scales to the page's width)."""
    count = len(table.seats)
    centre = "".join(
        _text(CX, CY - 10 + 24 * i, line, 18, fill="#f4f1e8", weight=600 if i == 0 else 400)
        for i, line in enumerate(table.centre)
    )
    cloth = (
        f'<ellipse cx="{CX}" cy="{CY}" rx="{SEAT_RX - 40}" ry="{SEAT_RY - 40}" fill="#1d5c3f" '
        f'stroke="#0f3624" stroke-width="10"/>'
    )
    seats = "".join(_seat(seat, count) for seat in table.seats)
    arrows = "".join(_arrow(a, count, i) for i, a in enumerate(table.arrows))
    return (
        f'<svg class="cuccu-table" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(table.label)}" xmlns="http://www.w3.org/2000/svg" '
        f'style="width:100%;max-width:{WIDTH}px;height:auto;display:block;margin:auto;'
        f'font-family:{FONT_STACK};color:#1b1b1b">'
        f"<title>{escape(table.label)}</title>{_defs()}{cloth}{centre}{seats}{arrows}</svg>"
    )
