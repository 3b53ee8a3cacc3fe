"""Audit a complete match from its event log alone (used by the viewer and ``cuccu verify``).

Five independent checks, each reporting pass or fail with the first offending event:

- ``hash_chain``: versions run 1, 2, …; each record chains onto the previous hash (the first
  onto ``GENESIS_HASH``), its hash is ``chain_hash(prev_hash, record bytes)``, its bytes are
  canonical (envelope 2) and hold the event the other checks read, and every record names the
  same match (``domain.envelope``);
- ``commitments``: every round's published commitment equals ``commitment(salt, pack)`` for
  the salt and pack revealed when the round ends;
- ``replay``: the decisions read off the log (creation, round starts with their revealed pack,
  every keep / exchange / inn choice) re-executed through ``apply`` reproduce exactly the
  recorded events;
- ``conservation``: after every event each of the 40 cards is in exactly one place (the pack,
  a hand or the discard), and every card shown (reveals, scoring) is the one its seat holds;
- ``lives``: every life loss, elimination, reset, scoring result, dealer change and the win
  agree with the lives counted from the log.

A sixth, ``complete``, says whether the log is a whole finished match (starts with its
creation, ends with its winner). The checks never stop at the first failing check: a tampered
log shows every check that notices, each at the first event where it does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, Final, Literal

import msgspec

from domain.cards import CARD_SET, rank
from domain.commands import Choice, Choose, ClaimSeat, Command, CreateMatch, StartRound
from domain.decide import apply, losers
from domain.envelope import (
    LEGACY_ENVELOPE,
    RECORD_ENVELOPE,
    BadRecord,
    chain_hash,
    export_line,
    is_canonical,
    legacy_body,
    legacy_event,
    parse_body,
    record_body,
)
from domain.errors import DomainError
from domain.events import (
    CardRevealed,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    LivesReset,
    MatchCreated,
    MatchWon,
    PackExchanged,
    PledgeMade,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatClaimed,
    SeatEliminated,
    UnknownEvent,
    encode_event,
    event_type,
)
from domain.evolve import evolve
from domain.fairness import GENESIS_HASH, commitment
from domain.state import MatchState, RoundState, initial_state

CheckName = Literal["hash_chain", "commitments", "replay", "conservation", "lives", "complete"]
CHECKS: Final[tuple[CheckName, ...]] = (
    "hash_chain",
    "commitments",
    "replay",
    "conservation",
    "lives",
    "complete",
)


class AuditRecord(msgspec.Struct, frozen=True):
    """One stored event as exported: its version, the event, its record bytes and its hashes.

    ``body`` is the record exactly as hashed (``domain.envelope``); ``event`` is what the
    checks read, and must be the event ``body`` holds (the hash-chain check makes sure).
    """

    version: int
    event: Event
    prev_hash: str
    hash: str
    body: bytes
    envelope: int = RECORD_ENVELOPE
    #: envelope 1 only: what the record bytes do not cover (match_id, version, meta, time)
    context: dict[str, Any] | None = None
    type: str | None = None  # the ``type`` label of a line exported before revision 0002

    @property
    def match_id(self) -> str | None:
        """The match the record belongs to (hashed in envelope 2, a bare label in 1)."""
        if self.envelope == RECORD_ENVELOPE:
            try:
                return parse_body(self.body).match_id
            except BadRecord:
                return None
        label = (self.context or {}).get("match_id")
        return label if isinstance(label, str) else None


class CheckResult(msgspec.Struct, frozen=True):
    """One check: ``version`` names the first offending event (None when the check passes)."""

    name: CheckName
    ok: bool
    checked: int  # how many items (events, rounds, commands) the check looked at
    version: int | None = None
    detail: str = ""


class AuditReport(msgspec.Struct, frozen=True):
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


class _Fail(Exception):
    def __init__(self, version: int, detail: str) -> None:
        super().__init__(detail)
        self.version = version
        self.detail = detail


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


class _RecordLine(msgspec.Struct):
    hash: str
    prev_hash: str
    record: msgspec.Raw
    legacy: dict[str, Any] | None = None


class _SealLine(msgspec.Struct):
    seal: SealClaim
    keys: list[dict[str, Any]] = []


_record_line: Final = msgspec.json.Decoder(_RecordLine)
_seal_line: Final = msgspec.json.Decoder(_SealLine)


def _from_record_line(raw: bytes, line: int) -> AuditRecord:
    try:
        obj = _record_line.decode(raw)
    except msgspec.DecodeError as error:
        raise AuditInputError(line, f"not a record line: {error}") from None
    body = bytes(obj.record)
    try:
        if obj.legacy is None:
            record = parse_body(body)
            return AuditRecord(record.version, record.event, obj.prev_hash, obj.hash, body)
        version = obj.legacy.get("version")
        if not isinstance(version, int):
            raise AuditInputError(line, "a legacy record needs its version under 'legacy'")
        return AuditRecord(
            version, legacy_event(body), obj.prev_hash, obj.hash, body, LEGACY_ENVELOPE,
            obj.legacy,
        )  # fmt: skip
    except (BadRecord, UnknownEvent, msgspec.ValidationError) as error:
        raise AuditInputError(line, f"not a valid record: {error}") from None


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
        body = legacy_body(type_, data)
        event = legacy_event(body)
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
    records: list[AuditRecord] = []
    seal: SealClaim | None = None
    keys: tuple[dict[str, Any], ...] = ()
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
            seal, keys = sealed.seal, tuple(sealed.keys)
        else:
            records.append(parse_record(obj, number))
    return Export(records, seal, keys)


def parse_ndjson(text: str | bytes) -> list[AuditRecord]:
    """The records of an NDJSON export (see :func:`parse_export`; a seal line is skipped)."""
    return parse_export(text).records


#: the time written into records chained in memory (:func:`chain`), which have none
UNRECORDED: Final = "1970-01-01T00:00:00.000000Z"


def chain(
    events: Iterable[Event],
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
    except _Fail as failure:
        return CheckResult(name, False, 0, failure.version, failure.detail)
    return CheckResult(name, True, checked)


def _short(event: Event) -> str:
    return encode_event(event).decode("utf-8")


def _held(record: AuditRecord) -> tuple[int, Event]:
    """The version and event a record's bytes hold (:class:`_Fail` if they hold none)."""
    v = record.version
    try:
        if record.envelope == RECORD_ENVELOPE:
            stored = parse_body(record.body)
            return stored.version, stored.event
        return v, legacy_event(record.body)
    except (BadRecord, UnknownEvent, msgspec.ValidationError) as error:
        raise _Fail(v, f"v{v}'s record cannot be read: {error}") from None


def _check_chain(records: Sequence[AuditRecord]) -> int:
    prev = GENESIS_HASH
    match_id = records[0].match_id if records else None
    seen_current = False
    for expected, record in enumerate(records, start=1):
        if record.version != expected:
            found = f"v{record.version} is found where v{expected} belongs"
            if record.version > expected and all(r.version != expected for r in records):
                found = f"v{expected} is missing: " + found
            raise _Fail(expected, found)
        if record.prev_hash != prev:
            raise _Fail(
                expected, f"v{expected} does not chain onto the hash of the event before it"
            )
        if record.type is not None and record.type != event_type(record.event):
            raise _Fail(
                expected,
                f"v{expected} is labelled {record.type} but holds {event_type(record.event)}",
            )
        if chain_hash(prev, record.body) != record.hash:
            raise _Fail(
                expected, f"v{expected}'s hash does not match its record: the event was altered"
            )
        if record.envelope == RECORD_ENVELOPE:
            seen_current = True
            if not is_canonical(record.body):
                raise _Fail(expected, f"v{expected}'s record is not in canonical form")
        elif seen_current:
            raise _Fail(expected, f"v{expected} is a legacy record after current ones")
        version, event = _held(record)
        if version != expected or event != record.event:
            raise _Fail(
                expected, f"v{expected} differs from the record its hash covers: it was altered"
            )
        if record.match_id != match_id:
            raise _Fail(
                expected, f"v{expected} belongs to match {record.match_id}, v1 to {match_id}"
            )
        prev = record.hash
    return len(records)


def _opening(salt: str, pack: tuple[str, ...]) -> str | None:
    """``commitment(salt, pack)``, or None for a salt that is not hex."""
    try:
        return commitment(salt, pack)
    except ValueError:
        return None


def _check_commitments(records: Sequence[AuditRecord]) -> int:
    opened: dict[int, tuple[int, RoundStarted]] = {}  # round number -> (version, start)
    rounds = 0
    for record in records:
        event, v = record.event, record.version
        if isinstance(event, RoundStarted):
            if event.pack is not None and event.salt is not None:
                if _bad_pack(event.pack):
                    raise _Fail(
                        v, f"round {event.round} is dealt from a pack that is not the 40 cards"
                    )
                if _opening(event.salt, event.pack) != event.commitment:
                    raise _Fail(
                        v, f"round {event.round}'s commitment does not match its pack and salt"
                    )
            opened[event.round] = (v, event)
        elif isinstance(event, RoundEnded):
            start = opened.pop(event.round, None)
            if start is None:
                raise _Fail(v, f"round {event.round} ends but never started")
            started_at, started = start
            if _bad_pack(event.pack):
                raise _Fail(v, f"round {event.round} reveals a pack that is not the 40 cards")
            if _opening(event.salt, event.pack) != started.commitment:
                raise _Fail(
                    v,
                    f"round {event.round}: the salt and pack revealed here do not match the "
                    f"commitment published at v{started_at}",
                )
            if started.pack is not None and started.pack != event.pack:
                raise _Fail(v, f"round {event.round} reveals another pack than it was dealt from")
            rounds += 1
    return rounds


def _bad_pack(pack: tuple[str, ...]) -> bool:
    return len(pack) != len(CARD_SET) or set(pack) != CARD_SET


def _command_for(event: Event, version: int) -> Command | None:
    """The command whose first event is ``event``, read off the log; None if none could be."""
    if isinstance(event, MatchCreated):
        return CreateMatch(event.seats, event.starting_lives, event.first_dealer)
    if isinstance(event, SeatClaimed):
        return ClaimSeat(event.seat, event.name)
    if isinstance(event, RoundStarted):
        pack, salt = event.pack, event.salt
        if pack is None or salt is None:
            raise _Fail(version, f"v{version} is redacted: the audit needs the complete log")
        return StartRound(pack, salt)
    choice: Choice | None = None
    if isinstance(event, Kept | DealerKept):
        choice = "keep"
    elif isinstance(event, ExchangeRequested) or (
        isinstance(event, PackExchanged) and event.end == "bottom"
    ):
        choice = "exchange"
    elif isinstance(event, InnChoiceMade):
        choice = "inn_keep" if event.choice == "keep" else "inn_ask_pay"
    elif isinstance(event, InnResponded):
        choice = "inn_accept" if event.response == "accept" else "inn_refuse"
    if choice is None:
        return None
    return Choose(event.seat, choice)  # type: ignore[union-attr]


def _check_replay(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    index, commands = 0, 0
    while index < len(records):
        record = records[index]
        command = _command_for(record.event, record.version)
        if command is None:
            raise _Fail(
                record.version,
                f"v{record.version} ({event_type(record.event)}) is not a decision, and the "
                "events before it do not produce it",
            )
        try:
            state, produced = apply(state, command)
        except DomainError as error:
            raise _Fail(
                record.version, f"v{record.version} is not allowed: {error.message}"
            ) from None
        except Exception as error:  # a log the rules cannot even follow
            raise _Fail(
                record.version, f"v{record.version} cannot be replayed: {error!r}"
            ) from None
        for offset, want in enumerate(produced):
            if index + offset >= len(records):
                raise _Fail(
                    records[-1].version + 1,
                    f"the log stops at v{records[-1].version}, the rules go on with {_short(want)}",
                )
            got = records[index + offset]
            if got.event != want:
                raise _Fail(
                    got.version,
                    f"v{got.version} records {_short(got.event)}; the rules produce {_short(want)}",
                )
        index += len(produced)
        commands += 1
    return commands


def _where_cards_are(rnd: RoundState) -> list[str | None]:
    places: list[str | None] = list(rnd.pack[rnd.top : rnd.bottom + 1])
    places.extend(rnd.hands)
    places.extend(rnd.discard)
    return places


def _check_places(rnd: RoundState, version: int) -> None:
    places = [card for card in _where_cards_are(rnd) if card is not None]
    if len(places) != len(CARD_SET) or set(places) != CARD_SET:
        twice = sorted(card for card, count in Counter(places).items() if count > 1)
        missing = sorted(CARD_SET - set(places))
        parts = []
        if twice:
            parts.append("in two places: " + ", ".join(twice))
        if missing:
            parts.append("nowhere: " + ", ".join(missing))
        unknown = sorted(set(places) - CARD_SET)
        if unknown:
            parts.append("not in the pack: " + ", ".join(unknown))
        raise _Fail(version, f"after v{version} cards are " + "; ".join(parts or ["miscounted"]))
    for seat, card in enumerate(rnd.hands):
        if card is not None and seat not in rnd.participants:
            raise _Fail(
                version, f"after v{version} seat {seat} holds a card but is not in the round"
            )


def _conserve(state: MatchState, record: AuditRecord) -> MatchState:
    event, version = record.event, record.version
    rnd = state.round
    if isinstance(event, CardRevealed) and rnd is not None and rnd.hands[event.seat] != event.card:
        raise _Fail(
            version,
            f"v{version} shows seat {event.seat} with {event.card}, "
            f"but it holds {rnd.hands[event.seat]}",
        )
    if isinstance(event, RoundScored) and rnd is not None:
        held = tuple(rnd.hands[s] for s in event.live)
        if held != event.cards:
            raise _Fail(
                version,
                f"v{version} shows cards {list(event.cards)}, but the live seats hold {list(held)}",
            )
    state = evolve(state, event)
    if state.round is not None:
        _check_places(state.round, version)
    return state


def _check_conservation(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    for record in records:
        try:
            state = _conserve(state, record)
        except _Fail:
            raise
        except Exception as error:  # an event that cannot happen where it stands
            v = record.version
            raise _Fail(v, f"v{v} cannot be applied to the match: {error!r}") from None
    return len(records)


class _Lives:
    """The lives ledger, counted from the log alone."""

    def __init__(self) -> None:
        self.lives: list[int] = []
        self.start = 0
        self.next_dealer: int | None = None
        self.round_start: list[int] = []
        self.participants: tuple[int, ...] = ()
        self.eliminated: set[int] = set()
        self.zeroed: set[int] = set()  # seats whose lives reached zero this round
        self.scored: RoundScored | None = None
        self.paid: list[int] = []  # losers whose scoring loss was recorded
        self.pledges: set[tuple[int, int]] = set()  # (requester, innkeeper)
        self.dealer = 0
        self.won: int | None = None
        self.scored_lives: list[int] = []

    def step(self, records: Sequence[AuditRecord], i: int) -> None:
        event, v = records[i].event, records[i].version
        if self.won is not None:
            raise _Fail(v, f"v{v} follows the end of the match")
        if not self.lives and not isinstance(event, MatchCreated):
            raise _Fail(v, f"v{v} comes before the match was created")
        if isinstance(event, MatchCreated):
            if self.lives:
                raise _Fail(v, f"v{v} creates the match a second time")
            self.start = event.starting_lives
            self.lives = [event.starting_lives] * len(event.seats)
            self.next_dealer = event.first_dealer
        elif isinstance(event, RoundStarted):
            self._round_started(event, v)
        elif isinstance(event, PledgeMade):
            self.pledges.add((event.requester, event.innkeeper))
        elif isinstance(event, LifeLost):
            self._life_lost(records, i)
        elif isinstance(event, SeatEliminated):
            if self.lives[event.seat] != 0 or event.seat in self.eliminated:
                raise _Fail(
                    v,
                    f"v{v} eliminates seat {event.seat}, which has "
                    f"{self.lives[event.seat]} lives and was not in play to lose them",
                )
            if self.round_start[event.seat] == 0:
                raise _Fail(v, f"v{v} eliminates seat {event.seat}, already out before the round")
            self.eliminated.add(event.seat)
        elif isinstance(event, RoundScored):
            self._round_scored(event, v)
        elif isinstance(event, LivesReset):
            if any(self.lives) or event.lives != self.start:
                raise _Fail(v, f"v{v} resets lives to {event.lives} while lives are {self.lives}")
            self.lives = [self.start] * len(self.lives)
        elif isinstance(event, RoundEnded):
            self._round_ended(event, v)
        elif isinstance(event, MatchWon):
            alive = [s for s, n in enumerate(self.lives) if n > 0]
            if alive != [event.winner]:
                raise _Fail(
                    v, f"v{v} names seat {event.winner} the winner, but lives are {self.lives}"
                )
            self.won = event.winner

    def _round_started(self, e: RoundStarted, v: int) -> None:
        n = len(self.lives)
        if e.dealer != self.next_dealer:
            raise _Fail(v, f"v{v}: seat {e.dealer} deals, but seat {self.next_dealer} was due to")
        expected = tuple(
            s for s in ((e.dealer + k) % n for k in range(1, n + 1)) if self.lives[s] > 0
        )
        if e.participants != expected:
            raise _Fail(
                v,
                f"v{v}: the round is played by {list(e.participants)}, "
                f"but seats with lives in turn order are {list(expected)}",
            )
        self.round_start = list(self.lives)
        self.participants = e.participants
        self.eliminated = set()
        self.zeroed = set()
        self.scored = None
        self.paid = []
        self.pledges = set()
        self.dealer = e.dealer
        self.next_dealer = None

    def _life_lost(self, records: Sequence[AuditRecord], i: int) -> None:
        e, v = records[i].event, records[i].version
        assert isinstance(e, LifeLost)
        before = self.lives[e.seat]
        if e.lives_after != max(0, before - 1) or e.lives_after > self.start:
            raise _Fail(v, f"v{v}: seat {e.seat} had {before} lives, not {e.lives_after + 1}")
        if e.reason in ("hunter", "cat"):
            refused = records[i - 1].event if i >= 2 else None
            shown = records[i - 2].event if i >= 2 else None
            if (
                not isinstance(refused, ExchangeRefused)
                or refused.requester != e.seat
                or not isinstance(shown, CardRevealed)
                or rank(shown.card) != e.reason
                or self.scored is not None
                or before == 0
            ):
                raise _Fail(v, f"v{v}: seat {e.seat} loses a life to a {e.reason} it never met")
        else:
            scored = self.scored
            loser = e.on_behalf_of if e.reason == "inn_pledge" else e.seat
            if scored is None or loser is None or loser not in scored.losers or loser in self.paid:
                raise _Fail(v, f"v{v}: seat {e.seat} loses a life at scoring without losing it")
            card = scored.cards[scored.live.index(loser)]
            pledged = {k for r, k in self.pledges if r == loser and self.scored_lives[k] > 0}
            owes = rank(card) == "zero" and bool(pledged)
            if e.reason == "inn_pledge" and (not owes or e.seat not in pledged):
                raise _Fail(v, f"v{v}: seat {e.seat} pays for seat {loser} without a valid pledge")
            if e.reason == "scoring" and owes:
                raise _Fail(
                    v, f"v{v}: seat {loser} loses with a zero its innkeeper pledged to pay for"
                )
            self.paid.append(loser)
        if before > 0 and e.lives_after == 0:
            self.zeroed.add(e.seat)
        self.lives[e.seat] = e.lives_after

    def _round_scored(self, e: RoundScored, v: int) -> None:
        live = tuple(sorted(s for s in self.participants if self.lives[s] > 0))
        dead = tuple(sorted(s for s in self.participants if self.lives[s] == 0))
        if e.live != live or e.dead != dead:
            raise _Fail(
                v,
                f"v{v} scores live seats {list(e.live)} and dead {list(e.dead)}; "
                f"the lives say {list(live)} and {list(dead)}",
            )
        try:
            lowest = tuple(e.live[k] for k in losers(e.cards))
        except (KeyError, IndexError, ValueError):
            raise _Fail(v, f"v{v} scores cards that are not in the pack") from None
        if lowest != e.losers:
            raise _Fail(
                v, f"v{v} names losers {list(e.losers)}; the cards make {list(lowest)} lose"
            )
        self.scored = e
        self.scored_lives = list(self.lives)

    def _round_ended(self, e: RoundEnded, v: int) -> None:
        scored = self.scored
        if scored is None or sorted(self.paid) != sorted(scored.losers):
            raise _Fail(v, f"v{v} ends the round before every loser lost a life")
        if self.zeroed != self.eliminated:
            raise _Fail(
                v,
                f"v{v}: seats {sorted(self.zeroed)} reached zero lives but "
                f"{sorted(self.eliminated)} were eliminated",
            )
        alive = [s for s, n in enumerate(self.lives) if n > 0]
        n = len(self.lives)
        due = None
        if len(alive) != 1:
            due = next(
                s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if self.lives[s] > 0
            )
        if e.next_dealer != due:
            raise _Fail(v, f"v{v} names seat {e.next_dealer} the next dealer; seat {due} is due")
        self.next_dealer = e.next_dealer
        self.scored = None


def _check_lives(records: Sequence[AuditRecord]) -> int:
    ledger = _Lives()
    for i in range(len(records)):
        try:
            ledger.step(records, i)
        except _Fail:
            raise
        except Exception as error:  # seats out of range and the like
            v = records[i].version
            raise _Fail(v, f"v{v} does not fit the match: {error!r}") from None
    return len(records)


def _check_complete(records: Sequence[AuditRecord]) -> int:
    if not records:
        raise _Fail(1, "the log is empty")
    first, last = records[0], records[-1]
    if not isinstance(first.event, MatchCreated):
        raise _Fail(first.version, "the log does not start with the match's creation")
    if not isinstance(last.event, MatchWon):
        raise _Fail(last.version + 1, f"the log stops at v{last.version} before the match is won")
    return len(records)


def audit(records: Sequence[AuditRecord]) -> AuditReport:
    """Run every check on a complete log; see the module docstring."""
    bodies: dict[CheckName, Callable[[Sequence[AuditRecord]], int]] = {
        "hash_chain": _check_chain,
        "commitments": _check_commitments,
        "replay": _check_replay,
        "conservation": _check_conservation,
        "lives": _check_lives,
        "complete": _check_complete,
    }
    checks = tuple(_run(name, partial(body, records)) for name, body in bodies.items())
    ends = [r.event for r in records if isinstance(r.event, RoundEnded)]
    winner = next((r.event.winner for r in records if isinstance(r.event, MatchWon)), None)
    last = records[-1] if records else None
    return AuditReport(
        events=len(records),
        rounds=len(ends),
        winner=winner,
        checks=checks,
        match_id=records[0].match_id if records else None,
        final_version=last.version if last is not None else 0,
        final_hash=last.hash if last is not None else None,
        envelope=min((r.envelope for r in records), default=RECORD_ENVELOPE),
    )


def audit_events(events: Iterable[Event]) -> AuditReport:
    """Audit bare events, chained here (only useful when the hashes are not in question)."""
    return audit(chain(events))


_TITLES: Final[dict[CheckName, str]] = {
    "hash_chain": "hash chain",
    "commitments": "shuffle commitments",
    "replay": "re-execution of the decisions",
    "conservation": "card conservation",
    "lives": "lives bookkeeping",
    "complete": "complete match",
}


def title(name: CheckName) -> str:
    return _TITLES[name]


def render(report: AuditReport) -> str:
    """The report as plain text, one line a check (for ``cuccu verify``)."""
    lines = [
        f"{report.events} events, {report.rounds} rounds, "
        + (f"won by seat {report.winner}" if report.winner is not None else "no winner")
    ]
    for check in report.checks:
        if check.ok:
            lines.append(f"PASS {title(check.name)} ({check.checked} checked)")
        else:
            lines.append(f"FAIL {title(check.name)} at v{check.version}: {check.detail}")
    lines.append("audit passed" if report.ok else f"audit FAILED ({len(report.failures)} checks)")
    return "\n".join(lines)
