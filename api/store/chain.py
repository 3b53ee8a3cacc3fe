"""A stream's hash chain: the records of an append, encoded and hashed once before they are
written, and the check of a stored stream."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from api.store.records import StoredEvent, record_time
from domain.envelope import (
    GENESIS_HASH,
    LEGACY_ENVELOPE,
    RECORD_ENVELOPE,
    BadRecord,
    chain_hash,
    is_legacy,
    parse_body,
    record_body,
)
from domain.event_codec import event_type


class ChainBroken(Exception):
    """A stored stream whose hashes do not chain."""


def chain_records(
    match_id: str,
    expected_version: int,
    prev_hash: str,
    events: Sequence[Any],
    *,
    meta: Mapping[str, Any] | None = None,
    metas: Sequence[Mapping[str, Any] | None] | None = None,
    stamp: dt.datetime,
) -> list[tuple[Any, StoredEvent]]:
    """Each event with its stored form after ``expected_version``: the record encoded and
    hashed once, here, then stored and exported as is. ``metas`` (one per event) overrides
    ``meta`` (the same for every event)."""
    recorded_at = record_time(stamp)
    chained: list[tuple[Any, StoredEvent]] = []
    prev = prev_hash
    for i, event in enumerate(events, start=expected_version + 1):
        m = metas[i - expected_version - 1] if metas is not None else meta
        m = dict(m) if m is not None else None
        body = record_body(
            match_id=match_id, version=i, event=event, meta=m, recorded_at=recorded_at
        )
        h = chain_hash(prev, body)
        stored = StoredEvent(
            position=0,  # known only on reading
            match_id=match_id,
            version=i,
            type=event_type(event),  # the tag, whichever game's event it is
            meta=m,
            recorded_at=stamp,
            prev_hash=prev,
            hash=h,
            body=body.decode("utf-8"),
            envelope=RECORD_ENVELOPE,
        )
        chained.append((event, stored))
        prev = h
    return chained


def verify_chain(stored: Sequence[StoredEvent]) -> None:
    """Raise :class:`ChainBroken` unless every record hashes onto its predecessor.

    Checked on the stored record bytes, as hashed, so a stream verifies whatever became of
    the event types since; an envelope-2 record must also name the row's match and version
    (envelope-1 records do not cover them, and may only come before envelope-2 ones).
    """
    prev = GENESIS_HASH
    current = False
    for i, ev in enumerate(stored, start=1):
        body = ev.body.encode("utf-8")
        broken = ev.version != i or ev.prev_hash != prev or chain_hash(prev, body) != ev.hash
        if not broken and (ev.envelope == LEGACY_ENVELOPE) != is_legacy(body):
            broken = True
        elif not broken and ev.envelope == RECORD_ENVELOPE:
            current = True
            try:
                record = parse_body(body)
                broken = (record.match_id, record.version) != (ev.match_id, ev.version)
            except BadRecord:
                broken = True
        elif not broken and current:
            broken = True  # a legacy record after current ones: coverage stripped
        if broken:
            raise ChainBroken(f"match {ev.match_id}: hash chain broken at version {ev.version}")
        prev = ev.hash
