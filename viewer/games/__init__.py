"""Which game a log is, and the records of a log whatever its game.

The viewer knows no game's rules: each game's presentation lives in its own module here
(``viewer.games.cucco21``; Cuccù's is the original ``viewer.board`` / ``viewer.replay_model``),
and the pages dispatch on the game that a log's first event names (``domain.games``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from domain.audit import AuditInputError, AuditRecord, Export, chain, parse_export
from domain.envelope import RECORD_ENVELOPE, canonical_json, chain_hash, parse_body
from domain.fairness import GENESIS_HASH
from domain.games import DEFAULT_GAME, GAMES, by_name, of_first_event

UNRECORDED = "1970-01-01T00:00:00.000000Z"
SAMPLE_MATCH_ID = "00000000-0000-0000-0000-000000000000"


def tag_of(event: Any) -> str:
    """The ``type`` tag of any game's event."""
    return str(type(event).__struct_config__.tag)


def game_of(events: Sequence[Any]) -> str:
    """The registry name of the game whose log starts with ``events[0]`` (Cuccù if empty)."""
    if not events:
        return DEFAULT_GAME
    try:
        return of_first_event(tag_of(events[0])).name
    except KeyError:
        return DEFAULT_GAME


def game_of_summary(match: Mapping[str, Any]) -> str:
    """A listed match's game (the API's ``game`` field); a service from before Cucco 21 sends
    none: its matches are Cuccù."""
    name = match.get("game")
    return name if isinstance(name, str) and name in GAMES else DEFAULT_GAME


def _body(version: int, event: Any) -> bytes:
    data = msgspec.to_builtins(event)
    data.pop("type", None)
    return canonical_json({
        "data": data, "envelope": RECORD_ENVELOPE, "match_id": SAMPLE_MATCH_ID, "meta": None,
        "recorded_at": UNRECORDED, "schema": 1, "type": tag_of(event), "version": version,
    })  # fmt: skip


def records_of(events: Iterable[Any]) -> list[AuditRecord]:
    """Chained records for an in-memory log (a sample), as the store writes them.

    ``domain.audit.chain`` does it for every game it knows; until it knows a game, the same
    envelope-2 records are built here so that the log can still be replayed and charted.
    """
    events = list(events)
    try:
        return chain(events)
    except Exception:  # noqa: BLE001 - an envelope that does not know this game's events yet
        pass
    records, prev = [], GENESIS_HASH
    for version, event in enumerate(events, start=1):
        body = _body(version, event)
        digest = chain_hash(prev, body)
        records.append(AuditRecord(version, event, prev, digest, body))
        prev = digest
    return records


def read_export(data: bytes | str) -> Export:
    """An NDJSON export of any game: ``domain.audit.parse_export`` when it reads it, else the
    envelope-2 records of a game the audit does not read yet (decoded by that game, from the
    type its first record names). Raises ``AuditInputError`` when neither can."""
    try:
        return parse_export(data)
    except AuditInputError as error:
        first_error = error
    raw = data.encode("utf-8") if isinstance(data, str) else data
    records: list[AuditRecord] = []
    game = None
    for line in raw.splitlines():
        if not line.strip():
            continue
        try:
            obj = msgspec.json.decode(line)
            if not isinstance(obj, dict) or "record" not in obj:
                continue  # a seal line: no audit can check it for this game yet
            body = canonical_json(obj["record"])
            record = parse_body(body)
            if game is None:
                game = of_first_event(record.type)
            tagged = b'{"type":' + msgspec.json.encode(record.type) + b"," + bytes(record.data)[1:]
            event = game.decode_events(b"[" + tagged + b"]")[0]
        except Exception:  # noqa: BLE001 - report the audit's own reading error instead
            raise first_error from None
        records.append(AuditRecord(record.version, event, obj["prev_hash"], obj["hash"], body))
    if not records:
        raise first_error
    return Export(records, None, ())


def game_title(name: str) -> str:
    """The name a game is shown under (not translated: it is a game's name)."""
    return {"cuccu": "Cuccù", "cucco21": "Cucco 21"}.get(by_name(name).name, name)
