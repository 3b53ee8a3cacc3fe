"""Envelope 1: how Cuccù's events were recorded and hashed before schema revision 0002.

Only Cuccù existed then, so every legacy record is one of its events. The layout below is
FROZEN: it describes bytes already hashed (``domain.envelope`` explains both envelopes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from domain.envelope import BadRecord, canonical_json
from domain.games.cuccu.events import Event, event_from_json


def legacy_event(body: bytes) -> Event:
    """The event of an envelope-1 record (its bytes are the event's JSON with its type)."""
    try:
        obj = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        raise BadRecord(f"not JSON: {error}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise BadRecord("a legacy record is an event object with its type")
    type_ = obj.pop("type")
    return event_from_json(type_, 1, canonical_json(obj))


#: The field order of every event type at schema revision 0001, when the hash covered the
#: event's msgspec JSON in declaration order. FROZEN: it describes bytes already hashed and
#: must never change, whatever becomes of the event classes.
LEGACY_LAYOUT: Final[Mapping[str, tuple[str, ...]]] = {
    "match_created": ("seats", "starting_lives", "first_dealer"),
    "seat_claimed": ("seat", "name"),
    "round_started": ("round", "dealer", "participants", "commitment", "pack", "salt"),
    "card_dealt": ("seat", "card"),
    "kept": ("seat",),
    "exchange_requested": ("seat", "target"),
    "card_revealed": ("seat", "card"),
    "horse_skipped": ("seat",),
    "retargeted": ("seat", "target"),
    "cards_exchanged": ("requester", "target", "requester_gets", "target_gets"),
    "exchange_refused": ("seat", "requester"),
    "inn_choice_made": ("seat", "choice"),
    "inn_responded": ("seat", "response"),
    "pledge_made": ("innkeeper", "requester"),
    "exchange_reversed": ("requester", "target", "requester_gets", "target_gets"),
    "life_lost": ("seat", "reason", "lives_after", "on_behalf_of"),
    "seat_eliminated": ("seat",),
    "pack_exchanged": ("seat", "end", "gave", "got"),
    "dealer_kept": ("seat",),
    "round_scored": ("live", "dead", "losers", "cards"),
    "lives_reset": ("lives",),
    "round_ended": ("round", "salt", "pack", "next_dealer"),
    "match_won": ("winner",),
}
#: the seat objects inside ``match_created`` (``SeatSpec`` at revision 0001)
LEGACY_SEAT_LAYOUT: Final = ("name", "kind", "bot_level")


def _ordered(obj: Mapping[str, Any], layout: tuple[str, ...]) -> dict[str, Any]:
    """``obj``'s keys in ``layout`` order, then any others as given (so they fail the hash)."""
    ordered = {key: obj[key] for key in layout if key in obj}
    ordered.update((key, value) for key, value in obj.items() if key not in ordered)
    return ordered


def legacy_body(type_: str, data: Mapping[str, Any]) -> bytes:
    """The exact bytes an envelope-1 event of ``type_`` with ``data`` was hashed as.

    ``data`` may come in any key order (PostgreSQL's JSONB reorders keys) and with or without
    its ``type``. Raises :class:`BadRecord` for a type revision 0001 did not have.
    """
    layout = LEGACY_LAYOUT.get(type_)
    if layout is None:
        raise BadRecord(f"{type_!r} is not an event type of the legacy format")
    fields = {key: value for key, value in data.items() if key != "type"}
    if type_ == "match_created" and isinstance(fields.get("seats"), list):
        fields["seats"] = [
            _ordered(seat, LEGACY_SEAT_LAYOUT) if isinstance(seat, dict) else seat
            for seat in fields["seats"]
        ]
    return msgspec.json.encode({"type": type_, **_ordered(fields, layout)})
