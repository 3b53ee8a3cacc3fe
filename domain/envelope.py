"""The stored record of an event: its canonical bytes, what they cover, the hash chain over them.

Every stored event is a *record*. Its bytes are hashed once, when it is written, and kept
exactly as hashed (the ``events.body`` column); the hash chain and every export are checked
and served from those bytes, never from an event decoded and encoded again, so event types can
evolve (``domain.events``) without breaking any stored chain. docs/API.md ("Hashes") defines
the encoding for implementers outside this code base.

Two envelopes exist:

- **2** (written since schema revision 0002): the record is the canonical JSON
  (:func:`canonical_json`) of ``{"data", "envelope": 2, "match_id", "meta", "recorded_at",
  "schema", "type", "version"}`` — the event's fields, its type and schema version, its place
  in its match, the acting seat and the command that caused it (``meta``), and when it was
  recorded. Everything an export shows of an event is covered.
- **1** (legacy, events written before revision 0002): the record is the bare event JSON,
  ``{"type": ..., <fields in the declaration order of revision 0001>}``. Only the event is
  covered; match id, version, metadata and time travel beside it, unhashed. Such records are
  recognised by having no ``envelope`` key; :func:`legacy_body` rebuilds their exact bytes
  from the event's data (frozen layout below), which is how migration 0002 filled ``body`` for
  old rows and how exports made before it are audited.

The hash of a record is ``sha256(prev_hash as ASCII hex ‖ record bytes)`` (:func:`chain_hash`),
the first record chaining onto ``GENESIS_HASH``. Pure: no clock, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from domain.events import Event, event_data, event_from_json, event_type, schema_version

RECORD_ENVELOPE: Final = 2
LEGACY_ENVELOPE: Final = 1


class BadRecord(ValueError):
    """Bytes that are not a record this code can read."""


def canonical_json(value: Any) -> bytes:
    """The canonical JSON of ``value`` (docs/API.md, "Canonical JSON").

    UTF-8; no whitespace; object keys sorted by code point; integers in plain decimal; no
    floats; strings escape only ``"``, ``\\``, and U+0000–U+001F (``\\b \\t \\n \\f \\r`` short,
    the rest as lower-case ``\\u00xx``), every other character is written as itself.
    """
    return msgspec.json.encode(value, order="sorted")


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An envelope-2 record as decoded (``data`` kept as its raw JSON, decoded on demand)."""

    data: msgspec.Raw
    envelope: int
    match_id: str
    meta: dict[str, Any] | None
    recorded_at: str
    schema: int
    type: str
    version: int

    @property
    def event(self) -> Event:
        """The event, upcast to today's schema of its type."""
        return event_from_json(self.type, self.schema, bytes(self.data))


_record_decoder: Final = msgspec.json.Decoder(Record)


def record_body(
    *,
    match_id: str,
    version: int,
    event: Event,
    meta: Mapping[str, Any] | None,
    recorded_at: str,
) -> bytes:
    """The canonical bytes of an envelope-2 record (what is hashed and stored)."""
    return canonical_json(
        {
            "data": event_data(event),
            "envelope": RECORD_ENVELOPE,
            "match_id": match_id,
            "meta": None if meta is None else dict(meta),
            "recorded_at": recorded_at,
            "schema": schema_version(event),
            "type": event_type(event),
            "version": version,
        }
    )


def chain_hash(prev_hash: str, body: bytes) -> str:
    """sha256(prev_hash as ASCII hex ‖ record bytes), hex."""
    return hashlib.sha256(prev_hash.encode("ascii") + body).hexdigest()


def is_legacy(body: bytes) -> bool:
    """Whether stored bytes are an envelope-1 record (a bare event: it starts with its type)."""
    return body.startswith(b'{"type":')


def parse_body(body: bytes) -> Record:
    """An envelope-2 record from its bytes; :class:`BadRecord` if they are not one."""
    try:
        record = _record_decoder.decode(body)
    except msgspec.DecodeError as error:  # ValidationError is a DecodeError
        raise BadRecord(f"not an envelope-2 record: {error}") from None
    if record.envelope != RECORD_ENVELOPE:
        raise BadRecord(f"envelope {record.envelope} is not one this code reads")
    return record


def is_canonical(body: bytes) -> bool:
    """Whether ``body`` is exactly the canonical JSON of what it decodes to."""
    try:
        return canonical_json(msgspec.json.decode(body)) == body
    except msgspec.DecodeError:
        return False


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


# --- envelope 1 (legacy) ------------------------------------------------------------------

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


# --- export lines -------------------------------------------------------------------------


def export_line(
    body: bytes, prev_hash: str, hash_: str, legacy: Mapping[str, Any] | None = None
) -> bytes:
    """One NDJSON line of an export: the stored record bytes spliced in verbatim.

    ``{"hash":…,"prev_hash":…,"record":<record>}``, keys in canonical order, so the line of an
    envelope-2 record is itself canonical JSON. An envelope-1 record carries what its bytes do
    not cover (``match_id``, ``version``, ``meta``, ``recorded_at``) under ``legacy``, unhashed.
    """
    head = b'{"hash":"' + hash_.encode("ascii") + b'",'
    if legacy is not None:
        head += b'"legacy":' + canonical_json(dict(legacy)) + b","
    return head + b'"prev_hash":"' + prev_hash.encode("ascii") + b'","record":' + body + b"}\n"
