"""Audit a complete match from its event log alone (used by the viewer and ``cuccu verify``).

Any game's log: the first record names the game (``domain.games.of_first_event``), and the
report runs the generic checks around that game's own (``Game.audit``, a
:class:`~domain.audit_record.GameAudit`):

- ``hash_chain`` (every game): versions run 1, 2, …; each record chains onto the previous hash
  (the first onto ``GENESIS_HASH``), its hash is ``chain_hash(prev_hash, record bytes)``, its
  bytes are canonical (envelope 2) and hold the event the other checks read, and every record
  names the same match (``domain.envelope``);
- the game's checks, in its own package (``GameAudit.checks``; a game's checks are listed
  in docs/ARCHITECTURE.md, "The audit");
- ``entropy`` (every game, after its own; ``domain.entropy``): every deck mixed with the players'
  entropy is the one its revealed secret (which opens its commitment) and the contributions
  give; the report's ``decks`` names each deck's source, "operator-chosen" for a deck dealt
  with no commitment (a table of bots only, or a match older than the protocol);
- ``complete`` (every game): the log is a whole finished match (starts with its creation, ends
  with the game's final event).

The checks never stop at the first failing check: a tampered log shows every check that
notices, each at the first event where it does.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Final

import msgspec

from domain.audit_record import AuditRecord, CheckFailed, GameAudit
from domain.entropy import DeckSource, describe, sources
from domain.envelope import (
    GENESIS_HASH,
    LEGACY_ENVELOPE,
    RECORD_ENVELOPE,
    BadRecord,
    Record,
    chain_hash,
    export_line,
    is_canonical,
    parse_body,
    record_body,
)
from domain.event_codec import UnknownEvent, event_type
from domain.games import DEFAULT_GAME, GAMES, LEGACY, Game, by_name, of_first_event

#: a check's report name: ``hash_chain``, ``complete``, or one of a game's (``GameCheck.name``)
CheckName = str
#: the game a log is read as when nothing in it names one (an empty log, or records no game
#: can read): the registry's default, the game of matches that name none
_UNNAMED: Final[Game] = by_name(DEFAULT_GAME)

__all__ = ["AuditRecord", "CheckFailed"]


class CheckResult(msgspec.Struct, frozen=True):
    """One check: ``version`` names the first offending event (None when the check passes)."""

    name: CheckName
    ok: bool
    checked: int  # how many items (events, rounds, commands) the check looked at
    version: int | None = None
    detail: str = ""


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    events: int
    rounds: int
    winner: int | None
    checks: tuple[CheckResult, ...]
    #: what a signature over the match binds: its id, its last version and that event's hash
    match_id: str | None = None
    final_version: int = 0
    final_hash: str | None = None
    #: 1 when any record is of the legacy envelope (its match id and metadata are not hashed)
    envelope: int = RECORD_ENVELOPE
    #: the game the log belongs to (``domain.games``), and every winner (a game may have
    #: several; ``winner`` is set only when there is exactly one)
    game: str
    winners: tuple[int, ...] = ()
    #: where each dealt deck came from (``domain.entropy``): mixed with whose entropy, or
    #: chosen by the operator (a bots-only table, or a match older than the protocol)
    decks: tuple[DeckSource, ...] = ()

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def check(self, name: CheckName) -> CheckResult:
        return next(c for c in self.checks if c.name == name)

    @property
    def failures(self) -> tuple[CheckResult, ...]:
        return tuple(c for c in self.checks if not c.ok)


class AuditInputError(ValueError):
    """An export that cannot even be read as records (bad JSON, unknown event type…)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


# --- reading and writing records -----------------------------------------------------------


class SealClaim(msgspec.Struct, frozen=True):
    """A signature an export says the service made over its final hash (checked in ``api``)."""

    match_id: str
    version: int
    final_hash: str
    key_id: str
    signature: str
    algorithm: str = "Ed25519"


class Export(msgspec.Struct, frozen=True):
    """A parsed export: its records, and the seal line's signature and public keys if any."""

    records: list[AuditRecord]
    seal: SealClaim | None = None
    keys: tuple[dict[str, Any], ...] = ()
    #: the seal line's inclusion proof in the transparency log, as exported (checked in api)
    log: dict[str, Any] | None = None


class _RecordLine(msgspec.Struct):
    hash: str
    prev_hash: str
    record: msgspec.Raw
    legacy: dict[str, Any] | None = None


class _SealLine(msgspec.Struct):
    seal: SealClaim
    keys: list[dict[str, Any]] = []
    log: dict[str, Any] | None = None


_record_line: Final = msgspec.json.Decoder(_RecordLine)
_seal_line: Final = msgspec.json.Decoder(_SealLine)


class _Pending(msgspec.Struct, frozen=True):
    """An envelope-2 line read, its event not yet decoded (that needs the match's game)."""

    line: int
    record: Record
    prev_hash: str
    hash: str
    body: bytes


def _from_record_line(raw: bytes, line: int) -> AuditRecord | _Pending:
    try:
        obj = _record_line.decode(raw)
    except msgspec.DecodeError as error:
        raise AuditInputError(line, f"not a record line: {error}") from None
    body = bytes(obj.record)
    try:
        if obj.legacy is None:
            return _Pending(line, parse_body(body), obj.prev_hash, obj.hash, body)
        version = obj.legacy.get("version")
        if not isinstance(version, int):
            raise AuditInputError(line, "a legacy record needs its version under 'legacy'")
        return AuditRecord(
            version, LEGACY.event(body), obj.prev_hash, obj.hash, body, LEGACY_ENVELOPE,
            obj.legacy,
        )  # fmt: skip
    except (BadRecord, UnknownEvent, msgspec.ValidationError) as error:
        raise AuditInputError(line, f"not a valid record: {error}") from None


def _read(game: Game, record: Record) -> Any:
    """The event an envelope-2 record holds, read as an event of ``game``."""
    return game.read_event(record.type, record.schema, bytes(record.data))


def _reads_all(game: Game, records: Sequence[Record]) -> bool:
    try:
        for record in records:
            _read(game, record)
    except (UnknownEvent, msgspec.ValidationError, msgspec.DecodeError):
        return False
    return True


def game_of_records(records: Sequence[Record]) -> Game:
    """The game a log's records belong to: the one its first event opens
    (``domain.games.of_first_event``). A log that does not start with a creation (a
    truncated or tampered one) is read as the first game that can read every record, so the
    audit can say what is wrong with it; the registry's default game when none can."""
    if records:
        try:
            return of_first_event(records[0].type)
        except KeyError:
            pass
    return next((g for g in GAMES.values() if _reads_all(g, records)), _UNNAMED)


def _decoded(items: Sequence[AuditRecord | _Pending]) -> list[AuditRecord]:
    pending = [item for item in items if isinstance(item, _Pending)]
    game = game_of_records([item.record for item in pending])
    records: list[AuditRecord] = []
    for item in items:
        if isinstance(item, AuditRecord):
            records.append(item)
            continue
        try:
            event = _read(game, item.record)
        except (UnknownEvent, msgspec.ValidationError, msgspec.DecodeError) as error:
            raise AuditInputError(item.line, f"not a valid record: {error}") from None
        version = item.record.version
        records.append(AuditRecord(version, event, item.prev_hash, item.hash, item.body))
    return records


def parse_record(obj: Any, line: int = 0) -> AuditRecord:
    """One line of an export made before schema revision 0002 (envelope 1):
    ``{"version", "type", "data": {...}, "prev_hash", "hash", …}``.

    ``data`` is the event's JSON with or without its ``type`` tag, in any key order; an
    ``event`` key is accepted in place of ``data``. ``match_id``, ``meta`` and ``recorded_at``
    are kept as the record's unhashed context.
    """
    if not isinstance(obj, dict):
        raise AuditInputError(line, "a record must be a JSON object")
    data = obj.get("data", obj.get("event"))
    if not isinstance(data, dict):
        raise AuditInputError(line, "a record needs the event in 'data'")
    declared = obj.get("type")
    if "type" not in data:
        if not isinstance(declared, str):
            raise AuditInputError(line, "the record names no event type")
        data = {"type": declared, **data}
    type_ = data["type"]
    try:
        if not isinstance(type_, str):
            raise BadRecord("the event type must be a string")
        body = LEGACY.body(type_, data)
        event = LEGACY.event(body)
        version, prev_hash, digest = obj["version"], obj["prev_hash"], obj["hash"]
    except (BadRecord, UnknownEvent, msgspec.ValidationError) as error:
        raise AuditInputError(line, f"not a valid event: {error}") from None
    except KeyError as error:
        raise AuditInputError(line, f"the record has no {error.args[0]!r}") from None
    if (
        not isinstance(version, int)
        or not isinstance(prev_hash, str)
        or not isinstance(digest, str)
    ):
        raise AuditInputError(line, "version must be an integer, prev_hash and hash strings")
    context = {k: obj[k] for k in ("match_id", "version", "meta", "recorded_at") if k in obj}
    return AuditRecord(
        version, event, prev_hash, digest, body, LEGACY_ENVELOPE, context,
        declared if isinstance(declared, str) else None,
    )  # fmt: skip


def parse_export(text: str | bytes) -> Export:
    """An NDJSON export: one record a line (blank lines skipped), and at most one seal line.

    Reads today's lines (``{"hash", "prev_hash", "record"}``, docs/API.md "Exports") and the
    lines of exports made before schema revision 0002 (:func:`parse_record`).
    """
    if isinstance(text, str):
        text = text.encode("utf-8")
    records: list[AuditRecord | _Pending] = []
    seal: SealClaim | None = None
    keys: tuple[dict[str, Any], ...] = ()
    log: dict[str, Any] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = msgspec.json.decode(line)
        except msgspec.DecodeError as error:
            raise AuditInputError(number, f"not JSON: {error}") from None
        if isinstance(obj, dict) and "record" in obj:
            records.append(_from_record_line(line, number))
        elif isinstance(obj, dict) and "seal" in obj:
            if seal is not None:
                raise AuditInputError(number, "a second seal line")
            try:
                sealed = _seal_line.decode(line)
            except msgspec.DecodeError as error:
                raise AuditInputError(number, f"not a seal line: {error}") from None
            seal, keys, log = sealed.seal, tuple(sealed.keys), sealed.log
        else:
            records.append(parse_record(obj, number))
    return Export(_decoded(records), seal, keys, log)


def parse_ndjson(text: str | bytes) -> list[AuditRecord]:
    """The records of an NDJSON export (see :func:`parse_export`; a seal line is skipped)."""
    return parse_export(text).records


#: the time written into records chained in memory (:func:`chain`), which have none
UNRECORDED: Final = "1970-01-01T00:00:00.000000Z"


def chain(
    events: Iterable[Any],
    *,
    match_id: str = "00000000-0000-0000-0000-000000000000",
    metas: Sequence[dict[str, Any] | None] | None = None,
    recorded_at: str = UNRECORDED,
) -> list[AuditRecord]:
    """Records for ``events`` as the store writes them: envelope 2, versions from 1, chained."""
    records: list[AuditRecord] = []
    prev = GENESIS_HASH
    for version, event in enumerate(events, start=1):
        meta = metas[version - 1] if metas is not None else None
        body = record_body(
            match_id=match_id, version=version, event=event, meta=meta, recorded_at=recorded_at
        )
        digest = chain_hash(prev, body)
        records.append(AuditRecord(version, event, prev, digest, body))
        prev = digest
    return records


def export_line_of(record: AuditRecord) -> bytes:
    """The export line of one record (the shape :func:`parse_export` reads)."""
    context = record.context if record.envelope == LEGACY_ENVELOPE else None
    if record.envelope == LEGACY_ENVELOPE and context is None:
        context = {"version": record.version}
    return export_line(record.body, record.prev_hash, record.hash, context)


def record_json(record: AuditRecord) -> dict[str, Any]:
    """The export object of one record, decoded (for display)."""
    obj: dict[str, Any] = msgspec.json.decode(export_line_of(record))
    return obj


def to_ndjson(records: Iterable[AuditRecord]) -> str:
    """An NDJSON export of ``records``: one line each, ending with a newline."""
    return b"".join(export_line_of(r) for r in records).decode("utf-8")


# --- the checks ----------------------------------------------------------------------------


def _run(name: CheckName, body: Callable[[], int]) -> CheckResult:
    try:
        checked = body()
    except CheckFailed as failure:
        return CheckResult(name, False, 0, failure.version, failure.detail)
    return CheckResult(name, True, checked)


def _held(record: AuditRecord, game: Game) -> tuple[int, Any]:
    """The version and event a record's bytes hold (:class:`CheckFailed` if they hold none)."""
    v = record.version
    try:
        if record.envelope == RECORD_ENVELOPE:
            stored = parse_body(record.body)
            return stored.version, _read(game, stored)
        return v, LEGACY.event(record.body)
    except (BadRecord, UnknownEvent, msgspec.ValidationError, msgspec.DecodeError) as error:
        raise CheckFailed(v, f"v{v}'s record cannot be read: {error}") from None


def _check_chain(game: Game, records: Sequence[AuditRecord]) -> int:
    prev = GENESIS_HASH
    match_id = records[0].match_id if records else None
    seen_current = False
    for expected, record in enumerate(records, start=1):
        if record.version != expected:
            found = f"v{record.version} is found where v{expected} belongs"
            if record.version > expected and all(r.version != expected for r in records):
                found = f"v{expected} is missing: " + found
            raise CheckFailed(expected, found)
        if record.prev_hash != prev:
            raise CheckFailed(
                expected, f"v{expected} does not chain onto the hash of the event before it"
            )
        if record.type is not None and record.type != event_type(record.event):
            raise CheckFailed(
                expected,
                f"v{expected} is labelled {record.type} but holds {event_type(record.event)}",
            )
        if chain_hash(prev, record.body) != record.hash:
            raise CheckFailed(
                expected, f"v{expected}'s hash does not match its record: the event was altered"
            )
        if record.envelope == RECORD_ENVELOPE:
            seen_current = True
            if not is_canonical(record.body):
                raise CheckFailed(expected, f"v{expected}'s record is not in canonical form")
        elif seen_current:
            raise CheckFailed(expected, f"v{expected} is a legacy record after current ones")
        version, event = _held(record, game)
        if version != expected or event != record.event:
            raise CheckFailed(
                expected, f"v{expected} differs from the record its hash covers: it was altered"
            )
        if record.match_id != match_id:
            raise CheckFailed(
                expected, f"v{expected} belongs to match {record.match_id}, v1 to {match_id}"
            )
        prev = record.hash
    return len(records)


def _check_complete(game: Game, records: Sequence[AuditRecord]) -> int:
    spec: GameAudit = game.audit
    if not records:
        raise CheckFailed(1, "the log is empty")
    first, last = records[0], records[-1]
    if event_type(first.event) != game.created_event:
        raise CheckFailed(first.version, f"the log does not start with the {spec.noun}'s creation")
    if event_type(last.event) != spec.final_event:
        raise CheckFailed(last.version + 1, f"the log stops at v{last.version} {spec.unfinished}")
    return len(records)


def _game_of_classes() -> dict[type, Game]:
    return {cls: game for game in GAMES.values() for cls in typing.get_args(game.event_type)}


_GAME_OF_CLASS: Final = _game_of_classes()


def game_of(records: Sequence[AuditRecord]) -> Game:
    """The game of a log: the game its first event belongs to (the registry's default game for
    an empty log)."""
    if not records:
        return _UNNAMED
    first = records[0].event
    try:
        game = of_first_event(event_type(first))
        if isinstance(first, game.event_type):
            return game
    except KeyError:
        pass
    return _GAME_OF_CLASS.get(type(first), _UNNAMED)


def game_checks(game: Game) -> tuple[CheckName, ...]:
    """The names of the checks a report on ``game`` holds, in order."""
    spec: GameAudit = game.audit
    return ("hash_chain", *(check.name for check in spec.checks), "complete")


def audit(records: Sequence[AuditRecord]) -> AuditReport:
    """Run every check on a complete log; see the module docstring."""
    game = game_of(records)
    spec: GameAudit = game.audit
    bodies: list[tuple[CheckName, Callable[[Sequence[AuditRecord]], int]]] = [
        ("hash_chain", partial(_check_chain, game)),
        *((check.name, check.run) for check in spec.checks),
        ("complete", partial(_check_complete, game)),
    ]
    checks = tuple(_run(name, partial(body, records)) for name, body in bodies)
    events = [r.event for r in records]
    rounds, winners = spec.summary(events)
    decks = sources(game.decks, events) if game.decks is not None else ()
    last = records[-1] if records else None
    return AuditReport(
        events=len(records),
        rounds=rounds,
        winner=winners[0] if len(winners) == 1 else None,
        checks=checks,
        match_id=records[0].match_id if records else None,
        final_version=last.version if last is not None else 0,
        final_hash=last.hash if last is not None else None,
        envelope=min((r.envelope for r in records), default=RECORD_ENVELOPE),
        game=game.name,
        winners=winners,
        decks=decks,
    )


def audit_events(events: Iterable[Any]) -> AuditReport:
    """Audit bare events, chained here (only useful when the hashes are not in question)."""
    return audit(chain(events))


_TITLES: Final[dict[CheckName, str]] = {
    "hash_chain": "hash chain",
    "complete": "complete match",
    **{check.name: check.title for game in GAMES.values() for check in game.audit.checks},
}


def title(name: CheckName) -> str:
    return _TITLES.get(name, name)


def _outcome(report: AuditReport) -> str:
    if len(report.winners) > 1:
        return "won by seats " + ", ".join(str(s) for s in report.winners)
    return f"won by seat {report.winner}" if report.winner is not None else "no winner"


def render(report: AuditReport) -> str:
    """The report as plain text, one line a check (for ``cuccu verify``)."""
    lines = [f"{report.events} events, {report.rounds} rounds, " + _outcome(report)]
    for check in report.checks:
        if check.ok:
            lines.append(f"PASS {title(check.name)} ({check.checked} checked)")
        else:
            lines.append(f"FAIL {title(check.name)} at v{check.version}: {check.detail}")
    if report.decks:
        lines.append(describe(report.decks))
    lines.append("audit passed" if report.ok else f"audit FAILED ({len(report.failures)} checks)")
    return "\n".join(lines)
