"""The stored record of an event: its canonical bytes, what they cover, the hash chain over them.

Every stored event is a *record*. Its bytes are hashed once, when it is written, and kept
exactly as hashed (the ``events.body`` column); the hash chain and every export are checked
and served from those bytes, never from an event decoded and encoded again, so event types can
evolve (``domain.event_codec``) without breaking any stored chain. docs/API.md ("Hashes") defines
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
  recognised by having no ``envelope`` key. Every such record is Cuccù's (the only game
  before revision 0002): ``domain.games.cuccu.legacy`` rebuilds their exact bytes from the
  event's data, which is how migration 0002 filled ``body`` for old rows and how exports made
  before it are audited.

The hash of a record is ``sha256(prev_hash as ASCII hex ‖ record bytes)`` (:func:`chain_hash`),
the first record chaining onto ``GENESIS_HASH``. Pure: no clock, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from domain.event_codec import event_data, event_type, schema_version

#: the hash a match's first record chains onto
GENESIS_HASH: Final = "0" * 64
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


_record_decoder: Final = msgspec.json.Decoder(Record)


def record_body(
    *,
    match_id: str,
    version: int,
    event: Any,
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
