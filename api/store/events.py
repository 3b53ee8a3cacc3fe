"""The event store: hash-chained per-match streams with optimistic concurrency.

One call to :meth:`EventStore.commit` is one transaction: the match row (created or
version-checked), the new events with their hash chain, seat tokens of a new match, the
idempotency record of the command that produced them, and the seal of a match those events
end. Another writer having appended first surfaces as :class:`ConcurrencyError`; the service
reloads and decides again.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from api import metrics
from api.settings import (
    DEFAULT_DB_CONNECT_TIMEOUT,
    DEFAULT_DB_WRITER_WAIT,
    DEFAULT_DB_WRITERS,
)
from api.signing import Seal, SignFinal
from api.store import tables as t
from api.store.notify import CHANNEL, Notifier
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
from domain.games import LEGACY, Game


class ConcurrencyError(Exception):
    """Another writer changed the stream first (stale expected version or duplicate key)."""


class StoreUnavailable(Exception):
    """The database cannot be reached or refused the operation for operational reasons."""


#: seat tokens remembered per process (token hash -> (match id, seat))
TOKEN_CACHE_SIZE = 100_000

#: how the idempotency record of a claim starts its fingerprint (a command's fingerprint is
#: a bare sha256 hex digest): it marks the seats whose token a retried claim may replace
CLAIM_FINGERPRINT_PREFIX = "claim:"


def _is_down(exc: DBAPIError) -> bool:
    """An operational failure (connection lost, server shutting down), not a bad query."""
    code = getattr(exc.orig, "sqlstate", None) or ""
    return code[:2] in ("08", "57") or "OperationalError" in type(exc.orig).__name__


def _sync_wait_cut(diag: Any) -> bool:
    """The server's WARNING "canceling wait for synchronous replication": the transaction
    committed locally, but no synchronous standby confirmed it (a cancel request, or a
    statement timeout, cut the wait). PostgreSQL reports it as a notice and the statement
    *succeeds*, so only this notice tells the commit apart from a replicated one; the cluster
    sets ``lc_messages = C`` (docker/patroni/patroni.yml) so that the text is English."""
    return "synchronous replication" in (getattr(diag, "message_primary", None) or "")


def _notice_recorder(cut: list[bool]) -> Any:
    """A psycopg notice handler noting, per notice, whether it is :func:`_sync_wait_cut`'s.
    It reads the notice at once: psycopg's Diagnostic is valid only during the callback."""

    def notice(diag: Any) -> None:
        cut.append(_sync_wait_cut(diag))

    return notice


#: the matches columns a statement's parameters carry as JSON text
_JSON_COLUMNS = frozenset({"seats", "standing", "winners", "lives"})


def _jsonb(value: Any) -> str:
    """A JSON value as text for a JSONB parameter (the SQL casts it)."""
    return msgspec.json.encode(value).decode()


class ChainBroken(Exception):
    """A stored stream whose hashes do not chain."""


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def record_time(stamp: dt.datetime) -> str:
    """A UTC instant as records write it: ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always 6 digits)."""
    return stamp.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# --- the SQL of the one-statement append, compiled from tables.py (the one schema source) --

_EVENT_COLUMNS = (
    "match_id", "version", "type", "data", "meta", "recorded_at", "prev_hash", "hash", "body",
    "envelope",
)  # fmt: skip
_NOTIFY = sa.func.pg_notify(sa.bindparam("_channel"), sa.bindparam("_payload"))


def _pg_sql(statement: sa.ClauseElement) -> str:
    """``statement`` as PostgreSQL SQL with ``%(name)s`` parameters, for psycopg itself."""
    from sqlalchemy.dialects.postgresql.psycopg import dialect

    return str(statement.compile(dialect=dialect()))  # type: ignore[no-untyped-call]


#: events of one append written by the one-statement path (more: the SQLAlchemy path)
MAX_STATEMENT_EVENTS = 10_000


#: the match_seals columns the append writes (with ``signed_at``)
_SEAL_COLUMNS = ("match_id", "version", "final_hash", "key_id", "signature", "signed_at")


def _seal_row(seal: Seal, stamp: dt.datetime) -> dict[str, Any]:
    return {
        "match_id": seal.match_id,
        "version": seal.version,
        "final_hash": seal.final_hash,
        "key_id": seal.key_id,
        "signature": seal.signature,
        "signed_at": stamp,
    }


@functools.lru_cache(maxsize=128)
def _append_sql(
    columns: tuple[str, ...], tokens: int, remembered: bool, new_match: bool, sealed: bool = False
) -> str:
    """One statement for a whole append, so that in autocommit it is its own transaction and
    costs one round trip: data-modifying CTEs move the match row (or insert a new one), insert
    the events, the seat tokens, the idempotency record and the seal of a match the events
    end, and the SELECT sends the NOTIFY.
    The events come as one JSON array (``jsonb_to_recordset``), so the text of the statement
    does not depend on their number and psycopg converts and prepares it once (it re-parses a
    query longer than 4 kB on every call, and dumps array parameters in Python: each cost a
    quarter of the process's CPU in py-spy profiles).

    The optimistic lock: if the match row is not at ``_expected`` the UPDATE moves nothing and
    ``1 / count`` fails the statement with a division by zero (so would the event INSERTs, on
    the unique version); nothing is written and nothing notified.
    """
    m = t.matches
    row: dict[str, Any] = {c: sa.bindparam(c) for c in columns}
    head: Any
    if new_match:
        head = sa.insert(m).values({"id": sa.bindparam("_id"), **row})
    else:
        head = sa.update(m).where(
            m.c.id == sa.bindparam("_id"), m.c.version == sa.bindparam("_expected")
        )
        head = head.values(row)
    moved = head.returning(m.c.version).cte("moved")
    e = t.events
    recordset = (
        sa.func.jsonb_to_recordset(sa.bindparam("events", type_=JSONB))
        .table_valued(*(sa.column(c, e.c[c].type) for c in _EVENT_COLUMNS))
        .render_derived(with_types=True)
    )
    ctes = [
        sa.insert(e)
        .from_select(list(_EVENT_COLUMNS), sa.select(*(recordset.c[c] for c in _EVENT_COLUMNS)))
        .returning(e.c.version)
        .cte("added")
    ]
    if tokens:
        token_columns = ("match_id", "seat", "token_sha256")
        ctes.append(
            sa.insert(t.seat_tokens)
            .values([{c: sa.bindparam(f"t{i}_{c}") for c in token_columns} for i in range(tokens)])
            .returning(t.seat_tokens.c.seat)
            .cte("tokens")
        )
    if remembered:
        key_columns = (
            "match_id", "seat", "key", "fingerprint", "first_version", "last_version", "created_at"
        )  # fmt: skip
        ctes.append(
            sa.insert(t.idempotency_keys)
            .values({c: sa.bindparam(f"k_{c}") for c in key_columns})
            .returning(t.idempotency_keys.c.key)
            .cte("remembered")
        )
    if sealed:
        ctes.append(
            sa.insert(t.match_seals)
            .values({c: sa.bindparam(f"s_{c}") for c in _SEAL_COLUMNS})
            .returning(t.match_seals.c.match_id)
            .cte("sealed")
        )
    moved_rows = sa.select(sa.func.count()).select_from(moved).scalar_subquery()
    return _pg_sql(sa.select(_NOTIFY, sa.literal_column("1") // moved_rows).add_cte(*ctes))


@dataclass(frozen=True)
class StoredEvent:
    position: int
    match_id: str
    version: int
    type: str
    meta: dict[str, Any] | None
    recorded_at: dt.datetime
    prev_hash: str
    hash: str
    #: the record exactly as hashed (``domain.envelope``); exports serve it verbatim
    body: str
    #: 2 for records written since revision 0002, 1 for older (legacy) ones
    envelope: int = RECORD_ENVELOPE

    def event_of(self, game: Game) -> Any:
        """The event its record holds, read as ``game``'s (the match's game)."""
        body = self.body.encode("utf-8")
        if self.envelope == LEGACY_ENVELOPE:  # only Cuccù matches are older than envelope 2
            return LEGACY.event(body)
        record = parse_body(body)
        return game.read_event(record.type, record.schema, bytes(record.data))


@dataclass(frozen=True)
class MatchRecord:
    id: str
    status: str
    created_at: dt.datetime
    updated_at: dt.datetime
    seats: list[dict[str, Any]]
    rounds: int
    version: int
    seed: int | None
    #: the game's name in the registry (``domain.games``), its creation options, each seat's
    #: score in the game's unit (Cuccù's lives, Cucco 21's chips) and the winning seats
    game: str = "cuccu"
    options: dict[str, Any] = field(default_factory=dict)
    standing: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class MatchSummary:
    """What the ``matches`` row says about a stream after the events of a commit."""

    status: str
    standing: list[int]
    winners: list[int]
    rounds: int
    version: int
    #: the seats as they are now (after claims); None leaves the stored seats as they are
    seats: list[dict[str, Any]] | None = None


@dataclass(frozen=True)
class NewMatch:
    id: str
    seats: list[dict[str, Any]]
    seed: int | None
    game: str = "cuccu"
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def starting_lives(self) -> int:
        """The pre-0004 column's mirror: the option of that name, or 0."""
        return int(self.options.get("starting_lives", 0))

    token_hashes: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class IdempotencyRecord:
    """A request that succeeded under an Idempotency-Key: enough to answer its retry.

    ``first_version`` is the stream's version before the request, ``last_version`` after it:
    the answer is re-rendered from the events in between and the state at ``last_version``.
    """

    match_id: str
    seat: int
    key: str
    fingerprint: str
    first_version: int
    last_version: int


@dataclass(frozen=True)
class CreationRecord:
    """A ``POST /matches`` sent with an Idempotency-Key: the match it makes (reserved before
    the match is written) and its seat tokens, sealed (api/creation_keys.py)."""

    key_hash: str
    fingerprint: str
    match_id: str
    sealed_tokens: str


def _aware(stamp: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every stored stamp is UTC."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


def _row_to_event(row: sa.Row[Any]) -> StoredEvent:
    meta = row.meta
    if isinstance(meta, str):  # some drivers hand JSON back as text
        meta = msgspec.json.decode(meta)
    return StoredEvent(
        position=row.position,
        match_id=row.match_id,
        version=row.version,
        type=row.type,
        meta=meta,
        recorded_at=_aware(row.recorded_at),
        prev_hash=row.prev_hash,
        hash=row.hash,
        body=row.body,
        envelope=row.envelope,
    )


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


def _row(event: Any, stored: StoredEvent) -> dict[str, Any]:
    """The events row of a record about to be written (SQLAlchemy's insert)."""
    row = {f.name: getattr(stored, f.name) for f in fields(stored) if f.name != "position"}
    return row | {"data": msgspec.to_builtins(event)}


class _EventRow(msgspec.Struct):
    """One element of the append's JSON array of events (``jsonb_to_recordset``)."""

    match_id: str
    version: int
    type: str
    data: msgspec.Raw
    meta: dict[str, Any] | None
    recorded_at: dt.datetime
    prev_hash: str
    hash: str
    body: str
    envelope: int


_event_rows_encoder = msgspec.json.Encoder()


def _event_rows(chained: Sequence[tuple[Any, StoredEvent]]) -> str:
    """The append's events as one JSON text; ``data`` (the event, its tag included, as the
    ``data`` column holds it) is encoded straight from the event, with no builtins between."""
    return _event_rows_encoder.encode(
        [
            _EventRow(
                s.match_id, s.version, s.type, msgspec.Raw(msgspec.json.encode(event)), s.meta,
                s.recorded_at, s.prev_hash, s.hash, s.body, s.envelope,
            )
            for event, s in chained
        ]
    ).decode()  # fmt: skip


def _row_to_match(row: sa.Row[Any]) -> MatchRecord:
    return MatchRecord(
        id=row.id,
        status=row.status,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        seats=row.seats,
        rounds=row.rounds,
        version=row.version,
        seed=row.seed,
        game=row.game,
        options=_json(row.options),
        standing=_json(row.standing),
        winners=_json(row.winners),
    )


def _json(value: Any) -> Any:
    """Some drivers hand JSON columns back as text."""
    return msgspec.json.decode(value) if isinstance(value, str) else value


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


class EventStore:
    """The store on one database (``engine``, the primary).

    ``replica`` is a store on a read replica of it, for the service to read what never changes
    once a match is over (MatchService._from_replica); None reads everything here. ``writers``
    psycopg connections serve the one-statement append, each waited for up to
    ``writer_wait`` seconds (``CUCCU_DB_WRITERS``, ``CUCCU_DB_WRITER_WAIT``).
    """

    def __init__(
        self,
        engine: AsyncEngine,
        notifier: Notifier | None = None,
        *,
        replica: EventStore | None = None,
        writers: int = DEFAULT_DB_WRITERS,
        writer_wait: float = DEFAULT_DB_WRITER_WAIT,
        connect_timeout: int = DEFAULT_DB_CONNECT_TIMEOUT,
    ) -> None:
        self.engine = engine
        self.replica = replica
        self.writers = writers
        self.writer_wait = writer_wait
        self.connect_timeout = connect_timeout
        self.notifier = notifier or Notifier()
        self.is_postgres = engine.dialect.name == "postgresql"
        # reads run in autocommit on PostgreSQL: no BEGIN/ROLLBACK round trips around a SELECT
        self.read_engine: AsyncEngine = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if self.is_postgres else engine
        )
        self._tokens: dict[str, tuple[str, int]] = {}
        self._writers: Any = None  # psycopg_pool.AsyncConnectionPool, opened on first use
        self._writers_lock = asyncio.Lock()
        self._conninfo = (
            engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            if self.is_postgres
            else ""
        )

    # --- reads -------------------------------------------------------------------------

    async def ping(self) -> None:
        try:
            async with self.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))
        except (DBAPIError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def get_match(self, match_id: str) -> MatchRecord | None:
        row = await self._first(sa.select(t.matches).where(t.matches.c.id == match_id))
        return _row_to_match(row) if row is not None else None

    async def load(
        self, match_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The stream of ``match_id`` from version ``after + 1``, in order."""
        query = (
            # not ``data``: a copy for queries; the event is read from its record (``body``)
            sa.select(*(c for c in t.events.c if c.name != "data"))
            .where(t.events.c.match_id == match_id, t.events.c.version > after)
            .order_by(t.events.c.version)
        )
        if limit is not None:
            query = query.limit(limit)
        rows = await self._all(query)
        return [_row_to_event(r) for r in rows]

    async def list_matches(
        self,
        *,
        status: str | None = None,
        before: tuple[dt.datetime, str] | None = None,
        limit: int = 20,
        open_seats: bool | None = None,
    ) -> list[MatchRecord]:
        """Newest first; ``before`` is the (created_at, id) of the last row already seen.

        ``open_seats``: True for matches waiting for seats to be claimed (the lobby), False for
        the others. A match has open seats exactly while it is between rounds before its first
        round: the service deals round 1 in the transaction that fills the last seat.
        """
        m = t.matches
        query = sa.select(m).order_by(m.c.created_at.desc(), m.c.id.desc()).limit(limit)
        if status is not None:
            query = query.where(m.c.status == status)
        if open_seats is not None:
            waiting = sa.and_(m.c.status == "between_rounds", m.c.rounds == 0)
            query = query.where(waiting if open_seats else sa.not_(waiting))
        if before is not None:
            created, mid = before
            # a row-value comparison, so that the (created_at, id) indexes seek to the cursor
            # instead of scanning every newer row (pages deep in 100,000 matches stay fast)
            query = query.where(sa.tuple_(m.c.created_at, m.c.id) < sa.tuple_(created, mid))
        rows = await self._all(query)
        return [_row_to_match(r) for r in rows]

    async def seat_for_token(self, token_sha256: str) -> tuple[str, int] | None:
        """The (match id, seat) of a token, or None for an unknown (or replaced) token.

        Most tokens never change hands, and are remembered per process once seen (not the
        unknown ones, which may be claimed later). The exception is a seat claimed with an
        ``Idempotency-Key``: a retry of that claim replaces its token, in whichever API
        process receives the retry, and a token remembered by another process would keep
        working there. So the lookup also tells whether the seat has such a claim record (it
        is written in the transaction that stores the seat's first token, so it is always
        seen with it): those tokens are never remembered, and are checked against the store
        on every request, which is correct with any number of processes.
        """
        cached = self._tokens.get(token_sha256)
        if cached is not None:
            return cached
        st = t.seat_tokens
        ik = t.idempotency_keys
        replaceable = (
            sa.exists()
            .where(
                ik.c.match_id == st.c.match_id,
                ik.c.seat == st.c.seat,
                ik.c.fingerprint.startswith(CLAIM_FINGERPRINT_PREFIX, autoescape=True),
            )
            .label("replaceable")
        )
        row = await self._first(
            sa.select(st.c.match_id, st.c.seat, replaceable).where(
                st.c.token_sha256 == token_sha256
            )
        )
        if row is None:
            return None
        found = (row.match_id, row.seat)
        if not row.replaceable:
            if len(self._tokens) >= TOKEN_CACHE_SIZE:
                self._tokens.clear()
            self._tokens[token_sha256] = found
        return found

    async def replace_seat_token(self, match_id: str, seat: int, token_sha256: str) -> bool:
        """Give a claimed seat a new token (a replayed claim); the old one stops working.

        False if the seat has no token. The old token is not in any process's memory:
        :meth:`seat_for_token` never remembers the tokens of seats claimed with a key.
        """
        st = t.seat_tokens
        try:
            async with self._transaction() as conn:
                result = await conn.execute(
                    sa.update(st)
                    .where(st.c.match_id == match_id, st.c.seat == seat)
                    .values(token_sha256=token_sha256)
                )
                return bool(result.rowcount == 1)
        except IntegrityError as exc:  # pragma: no cover - a 256-bit token collision
            raise ConcurrencyError(str(exc.orig)) from exc
        except (DBAPIError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    async def get_idempotency(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        ik = t.idempotency_keys
        row = await self._first(
            sa.select(ik).where(ik.c.match_id == match_id, ik.c.seat == seat, ik.c.key == key)
        )
        if row is None:
            return None
        await self._replicated()  # the record may be an unconfirmed commit's (_replicated)
        return IdempotencyRecord(
            match_id=row.match_id,
            seat=row.seat,
            key=row.key,
            fingerprint=row.fingerprint,
            first_version=row.first_version,
            last_version=row.last_version,
        )

    async def get_creation(self, key_hash: str) -> CreationRecord | None:
        """The creation reserved under this Idempotency-Key's hash, if any."""
        ck = t.creation_keys
        row = await self._first(sa.select(ck).where(ck.c.key_hash == key_hash))
        if row is None:
            return None
        await self._replicated()
        return CreationRecord(row.key_hash, row.fingerprint, row.match_id, row.sealed_tokens)

    async def reserve_creation(self, record: CreationRecord) -> None:
        """Write a creation's reservation, in its own transaction, before its match.

        :class:`ConcurrencyError` when a twin request reserved the key first.
        """
        try:
            async with self._transaction() as conn:
                await conn.execute(
                    sa.insert(t.creation_keys).values(
                        key_hash=record.key_hash,
                        fingerprint=record.fingerprint,
                        match_id=record.match_id,
                        sealed_tokens=record.sealed_tokens,
                        created_at=now(),
                    )
                )
        except IntegrityError as exc:
            raise ConcurrencyError(str(exc.orig)) from exc
        except (DBAPIError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc

    # --- the write ---------------------------------------------------------------------

    async def commit(
        self,
        match_id: str,
        *,
        expected_version: int,
        prev_hash: str,
        events: Sequence[Any],
        summary: MatchSummary,
        meta: Mapping[str, Any] | None = None,
        metas: Sequence[Mapping[str, Any] | None] | None = None,
        new_match: NewMatch | None = None,
        idempotency: IdempotencyRecord | None = None,
        seat_tokens: Mapping[int, str] | None = None,
        seal_with: SignFinal | None = None,
    ) -> list[StoredEvent]:
        """Append ``events`` after ``expected_version`` in one transaction.

        ``metas`` (one per event) overrides ``meta`` (the same for every event).
        ``seat_tokens`` (seat -> token hash) adds tokens to an existing match (claimed seats).
        ``seal_with`` (given when these events end the match) signs the last new record, and
        the seal is written in the same transaction: a finished match is never stored
        unsigned, whenever the process dies (docs/API.md, "Signatures").
        Raises :class:`ConcurrencyError` when the stream is no longer at
        ``expected_version`` (or the match id or idempotency key was taken meanwhile).
        """
        stamp = now()
        chained = chain_records(
            match_id, expected_version, prev_hash, events, meta=meta, metas=metas, stamp=stamp
        )
        seal = None
        if seal_with is not None and chained:
            last = chained[-1][1]
            seal = seal_with(match_id, last.version, last.hash)
        summary_values: dict[str, Any] = {
            "status": summary.status,
            "standing": summary.standing,
            "winners": summary.winners,
            # the pre-0004 columns, mirrored (migrations/versions/0004_match_game.py)
            "lives": summary.standing,
            "winner": summary.winners[0] if len(summary.winners) == 1 else None,
            "rounds": summary.rounds,
            "version": summary.version,
            "updated_at": stamp,
        }
        if summary.seats is not None:
            summary_values["seats"] = summary.seats
        stored = [s for _, s in chained]
        if self.is_postgres and not seat_tokens and 0 < len(chained) <= MAX_STATEMENT_EVENTS:
            await self._append_statement(
                match_id, expected_version, summary_values, chained, idempotency, stamp, new_match,
                seal,
            )  # fmt: skip
            if seal is not None:
                metrics.sealed("final")
            self.notifier.publish(match_id, summary.version)
            return stored
        rows = [_row(event, s) for event, s in chained]
        # NOTIFY rides on the match row's statement (one round trip less); it is delivered
        # only if the transaction commits
        notify = (
            [sa.func.pg_notify(CHANNEL, f"{match_id}:{summary.version}")]
            if self.is_postgres and rows
            else []
        )
        for attempt in (1, 2):
            committing = False
            try:
                async with self._transaction() as conn:
                    if new_match is not None:
                        insert = sa.insert(t.matches).values(
                            id=match_id,
                            created_at=stamp,
                            seats=new_match.seats,
                            game=new_match.game,
                            options=dict(new_match.options),
                            starting_lives=new_match.starting_lives,
                            seed=new_match.seed,
                            **summary_values,
                        )
                        await conn.execute(insert.returning(*notify) if notify else insert)
                        if new_match.token_hashes:
                            await conn.execute(
                                sa.insert(t.seat_tokens),
                                [
                                    {"match_id": match_id, "seat": s, "token_sha256": h}
                                    for s, h in sorted(new_match.token_hashes.items())
                                ],
                            )
                    else:
                        # the optimistic lock: only a stream still at expected_version moves on
                        result = await conn.execute(
                            sa.update(t.matches)
                            .where(
                                t.matches.c.id == match_id,
                                t.matches.c.version == expected_version,
                            )
                            .values(**summary_values)
                            .returning(t.matches.c.version, *notify)
                        )
                        if len(result.all()) != 1:
                            raise ConcurrencyError(
                                f"match {match_id} is no longer at version {expected_version}"
                            )
                    if seat_tokens:
                        await conn.execute(
                            sa.insert(t.seat_tokens),
                            [
                                {"match_id": match_id, "seat": s, "token_sha256": h}
                                for s, h in sorted(seat_tokens.items())
                            ],
                        )
                    if rows:
                        await conn.execute(sa.insert(t.events), rows)
                    if idempotency is not None:
                        await conn.execute(
                            sa.insert(t.idempotency_keys).values(
                                match_id=idempotency.match_id,
                                seat=idempotency.seat,
                                key=idempotency.key,
                                fingerprint=idempotency.fingerprint,
                                first_version=idempotency.first_version,
                                last_version=idempotency.last_version,
                                created_at=stamp,
                            )
                        )
                    if seal is not None:
                        await conn.execute(sa.insert(t.match_seals).values(_seal_row(seal, stamp)))
                    committing = True  # leaving the block sends COMMIT
            except IntegrityError as exc:
                raise ConcurrencyError(str(exc.orig)) from exc
            except (DBAPIError, OSError) as exc:
                if (
                    isinstance(exc, DBAPIError)
                    and exc.connection_invalidated
                    and not committing
                    and attempt == 1
                ):
                    continue  # a pooled connection had died: nothing was written; again
                if isinstance(exc, DBAPIError) and not exc.connection_invalidated:
                    # serialization failures and lock timeouts are conflicts too
                    code = getattr(exc.orig, "sqlstate", None)
                    if code in ("40001", "40P01"):
                        raise ConcurrencyError(str(exc.orig)) from exc
                raise StoreUnavailable(str(exc)) from exc
            else:
                break
        if seal is not None:
            metrics.sealed("final")
        if rows:
            self.notifier.publish(match_id, summary.version)
        return stored

    async def _append_statement(
        self,
        match_id: str,
        expected_version: int,
        summary_values: Mapping[str, Any],
        chained: Sequence[tuple[Any, StoredEvent]],
        idempotency: IdempotencyRecord | None,
        stamp: dt.datetime,
        new_match: NewMatch | None = None,
        seal: Seal | None = None,
    ) -> None:
        """The PostgreSQL path of an append (or a new match): one statement (``_append_sql``)
        on a pooled autocommit connection, so one round trip per command and no SQLAlchemy
        work at run time (its SQL is compiled from tables.py once per shape).

        If the stream is no longer at ``expected_version`` the statement fails and writes
        nothing: :class:`ConcurrencyError`. If the connection dies on the way, the stream is
        read to learn whether the statement was committed.
        """
        import psycopg
        from psycopg_pool import PoolTimeout

        params: dict[str, Any] = {
            k: _jsonb(v) if k in _JSON_COLUMNS else v for k, v in summary_values.items()
        }
        params.update(
            _id=match_id,
            _expected=expected_version,
            _channel=CHANNEL,
            _payload=f"{match_id}:{summary_values['version']}",
        )
        token_hashes: list[tuple[int, str]] = []
        if new_match is not None:  # a new match: insert its row (a taken id is a conflict)
            params.update(
                seats=_jsonb(new_match.seats),
                created_at=stamp,
                game=new_match.game,
                options=_jsonb(dict(new_match.options)),
                starting_lives=new_match.starting_lives,
                seed=new_match.seed,
            )
            token_hashes = sorted(new_match.token_hashes.items())
        columns = tuple(k for k in params if not k.startswith("_"))
        params["events"] = _event_rows(chained)
        for i, (seat, h) in enumerate(token_hashes):
            params.update({f"t{i}_match_id": match_id, f"t{i}_seat": seat, f"t{i}_token_sha256": h})
        if idempotency is not None:
            params.update(
                k_match_id=idempotency.match_id,
                k_seat=idempotency.seat,
                k_key=idempotency.key,
                k_fingerprint=idempotency.fingerprint,
                k_first_version=idempotency.first_version,
                k_last_version=idempotency.last_version,
                k_created_at=stamp,
            )
        if seal is not None:
            params.update({f"s_{c}": v for c, v in _seal_row(seal, stamp).items()})
        statement = _append_sql(
            columns,
            len(token_hashes),
            idempotency is not None,
            new_match is not None,
            seal is not None,
        )
        pool = await self._writer_pool()
        in_use = metrics.WRITERS_IN_USE
        for attempt in (1, 2):
            cut: list[bool] = []  # per notice of the statement: a cut synchronous wait?
            notice = _notice_recorder(cut)
            try:
                # autocommit: the one statement is the transaction
                async with pool.connection(timeout=self.writer_wait) as pg:
                    in_use.inc()
                    pg.add_notice_handler(notice)
                    try:
                        await pg.execute(statement, params)
                    finally:
                        pg.remove_notice_handler(notice)
                        in_use.dec()
            except (psycopg.OperationalError, OSError) as exc:
                # The connection died (a database restart, most often a pooled connection that
                # died idle). Whether the statement was executed is unknown: ask the stream.
                last = chained[-1][1]
                if await self._has_event(match_id, last.version, last.hash):
                    return
                if attempt == 1:
                    continue  # nothing was committed: again, on a fresh connection
                raise StoreUnavailable(str(exc)) from exc
            except PoolTimeout as exc:
                raise StoreUnavailable(
                    f"no database connection within {self.writer_wait} s"
                ) from exc
            except (
                psycopg.errors.IntegrityError,
                psycopg.errors.SerializationFailure,
                psycopg.errors.DeadlockDetected,
                psycopg.errors.DivisionByZero,  # the stream was not at the expected version
            ) as exc:
                raise ConcurrencyError(str(exc)) from exc
            else:
                if any(cut):
                    # Committed here, but maybe on no standby: if this primary fails now, a
                    # standby without it takes over. Not acknowledged: the client retries
                    # with its Idempotency-Key, and the retry answers from the idempotency
                    # record once that is replicated (get_idempotency, _replicated).
                    raise StoreUnavailable(
                        "the commit was cut while waiting for the synchronous standby: it is "
                        "done locally, its replication unconfirmed"
                    )
                return

    async def _has_event(self, match_id: str, version: int, hash_: str) -> bool:
        """Whether the stream holds this event (an append of unknown outcome committed), and
        that commit is as durable as any (:meth:`_replicated`)."""
        e = t.events
        row = await self._first(
            sa.select(e.c.hash).where(e.c.match_id == match_id, e.c.version == version)
        )
        if row is None or row.hash != hash_:
            return False
        await self._replicated()
        return True

    async def _replicated(self) -> None:
        """Return once everything committed so far is as durable as a new commit; else
        :class:`StoreUnavailable`.

        A commit whose wait for the synchronous standby was cut (a cancel, a terminated
        connection) is visible on the primary before any standby has it. Before such a commit
        is acknowledged (found again by a retry, or by the lost-connection check above), a
        tiny write transaction is committed: its commit waits for the standby to confirm WAL up
        to it, so everything before it too (PostgreSQL waits only for a transaction that has
        an xid *and* wrote WAL: hence a logical message, which any role may emit). Without
        synchronous replication it costs one round trip; it runs only on those retries. On
        SQLite it does nothing.
        """
        if not self.is_postgres:
            return
        import psycopg
        from psycopg_pool import PoolTimeout

        cut: list[bool] = []
        notice = _notice_recorder(cut)
        pool = await self._writer_pool()
        try:
            async with pool.connection(timeout=self.writer_wait) as pg:
                pg.add_notice_handler(notice)
                try:
                    # a transaction id and a WAL record (a transactional logical-decoding
                    # message, a no-op on standbys): the commit waits for the standby
                    # (an xid alone, as txid_current() takes, commits without waiting)
                    await pg.execute("SELECT pg_logical_emit_message(true, 'cuccu', 'durable')")
                finally:
                    pg.remove_notice_handler(notice)
        except (psycopg.OperationalError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        except PoolTimeout as exc:
            raise StoreUnavailable(f"no database connection within {self.writer_wait} s") from exc
        if any(cut):
            raise StoreUnavailable("the synchronous standby did not confirm the commit")

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction of the SQLAlchemy path (claims, appends of more than
        ``MAX_STATEMENT_EVENTS`` events, creation reservations, replaced tokens), committed
        when the block ends. On PostgreSQL it watches the connection's notices as the
        one-statement append does: a commit whose wait for the synchronous standby was cut is
        :class:`StoreUnavailable` (done locally, its replication unconfirmed: not acknowledged).
        """
        async with self.engine.connect() as conn:
            if not self.is_postgres:
                async with conn.begin():
                    yield conn
                return
            cut: list[bool] = []
            notice = _notice_recorder(cut)
            pg = (await conn.get_raw_connection()).driver_connection
            assert pg is not None
            pg.add_notice_handler(notice)
            try:
                async with conn.begin():  # COMMIT, and its wait for the standby, at the end
                    yield conn
            finally:
                pg.remove_notice_handler(notice)
            if any(cut):
                raise StoreUnavailable(
                    "the commit was cut while waiting for the synchronous standby: it is done "
                    "locally, its replication unconfirmed"
                )

    async def _writer_pool(self) -> Any:
        """The psycopg connections of the pipelined append (psycopg_pool), opened once.

        The append bypasses SQLAlchemy (its transaction wrapper cost more CPU than the SQL).
        """
        from psycopg_pool import AsyncConnectionPool

        async with self._writers_lock:
            if self._writers is None:
                pool = AsyncConnectionPool(
                    self._conninfo,
                    min_size=0,
                    max_size=self.writers,
                    kwargs={"connect_timeout": self.connect_timeout, "autocommit": True},
                    open=False,
                    name="cuccu-writers",
                )
                await pool.open()
                self._writers = pool
                metrics.WRITERS_MAX.inc(self.writers)
            return self._writers

    async def close(self) -> None:
        """Close the writer connections (the engine is disposed by its owner)."""
        if self._writers is not None:
            await self._writers.close()
            self._writers = None
            metrics.WRITERS_MAX.dec(self.writers)

    # --- helpers -----------------------------------------------------------------------

    async def _read(self, query: sa.Executable) -> list[sa.Row[Any]]:
        """Run a read; a pooled connection found dead (the database restarted) is retried
        once on a fresh one, and an unreachable database is :class:`StoreUnavailable`."""
        for attempt in (1, 2):
            try:
                async with self.read_engine.connect() as conn:
                    return list((await conn.execute(query)).all())
            except DBAPIError as exc:
                if exc.connection_invalidated and attempt == 1:
                    continue
                if isinstance(exc.orig, OSError) or exc.connection_invalidated or _is_down(exc):
                    raise StoreUnavailable(str(exc)) from exc
                raise
            except OSError as exc:
                raise StoreUnavailable(str(exc)) from exc
        raise AssertionError("unreachable")

    async def _first(self, query: sa.Executable) -> sa.Row[Any] | None:
        rows = await self._read(query)
        return rows[0] if rows else None

    async def _all(self, query: sa.Executable) -> list[sa.Row[Any]]:
        return await self._read(query)
