"""PostgreSQL's write path: a whole append (or a new match) as one statement on a pooled
autocommit psycopg connection, so one round trip per command and no SQLAlchemy work at run
time (its SQL is compiled from tables.py, the one schema source, once per shape). The store
takes it for every append it can (api/store/events.py); the others go through
api/store/transaction.py.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB

from api import metrics
from api.settings import (
    DEFAULT_DB_CONNECT_TIMEOUT,
    DEFAULT_DB_WRITER_WAIT,
    DEFAULT_DB_WRITERS,
)
from api.signing import Seal
from api.store import tables as t
from api.store.notify import CHANNEL
from api.store.records import (
    ConcurrencyError,
    IdempotencyRecord,
    NewMatch,
    StoredEvent,
    StoreUnavailable,
)


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


def seal_row(seal: Seal, stamp: dt.datetime) -> dict[str, Any]:
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


@functools.cache
def _writer_connection() -> type[Any]:
    """The writers' connection class: a psycopg connection that keeps one cursor for its
    appends (a new cursor per execute, as ``connection.execute`` makes, is a tenth of the
    client's work for a statement). Made on first use: psycopg is imported only then."""
    import psycopg

    class WriterConnection(psycopg.AsyncConnection[Any]):
        _kept: psycopg.AsyncCursor[Any] | None = None

        def kept_cursor(self) -> psycopg.AsyncCursor[Any]:
            if self._kept is None or self._kept.closed:
                self._kept = self.cursor()
            return self._kept

    return WriterConnection


class Writers:
    """The psycopg connections of the one-statement append (psycopg_pool), opened on first use.

    The append bypasses SQLAlchemy (its transaction wrapper cost more CPU than the SQL).
    ``size`` connections, each waited for up to ``wait`` seconds (``CUCCU_DB_WRITERS``,
    ``CUCCU_DB_WRITER_WAIT``).
    """

    def __init__(
        self,
        conninfo: str,
        *,
        size: int = DEFAULT_DB_WRITERS,
        wait: float = DEFAULT_DB_WRITER_WAIT,
        connect_timeout: int = DEFAULT_DB_CONNECT_TIMEOUT,
    ) -> None:
        self.conninfo = conninfo
        self.size = size
        self.wait = wait
        self.connect_timeout = connect_timeout
        self._open: Any = None  # psycopg_pool.AsyncConnectionPool
        self._lock = asyncio.Lock()

    async def append(
        self,
        has_event: Callable[[str, int, str], Awaitable[bool]],
        match_id: str,
        expected_version: int,
        summary_values: Mapping[str, Any],
        chained: Sequence[tuple[Any, StoredEvent]],
        idempotency: IdempotencyRecord | None,
        stamp: dt.datetime,
        new_match: NewMatch | None = None,
        seal: Seal | None = None,
    ) -> None:
        """An append (or a new match) as one statement (``_append_sql``), its own transaction.

        If the stream is no longer at ``expected_version`` the statement fails and writes
        nothing: :class:`ConcurrencyError`. If the connection dies on the way, the stream is
        read (``has_event``: the stored event's hash, once durable) to learn whether the
        statement was committed.
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
            if new_match.rematch_of is not None:
                params["rematch_of"] = new_match.rematch_of
            if new_match.queued:
                params["queued"] = True
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
            params.update({f"s_{c}": v for c, v in seal_row(seal, stamp).items()})
        statement = _append_sql(
            columns,
            len(token_hashes),
            idempotency is not None,
            new_match is not None,
            seal is not None,
        )
        pool = await self._pool()
        in_use = metrics.WRITERS_IN_USE
        for attempt in (1, 2):
            cut: list[bool] = []  # per notice of the statement: a cut synchronous wait?
            notice = _notice_recorder(cut)
            try:
                # autocommit: the one statement is the transaction. getconn/putconn, not
                # ``pool.connection()``: its ``async with`` of the connection adds a no-op
                # commit (a lock, a wait) to every append; putconn still rolls back a
                # connection left in a transaction and replaces a broken one
                pg = await pool.getconn(timeout=self.wait)
                try:
                    in_use.inc()
                    pg.add_notice_handler(notice)
                    try:
                        await pg.kept_cursor().execute(statement, params)
                    finally:
                        pg.remove_notice_handler(notice)
                        in_use.dec()
                finally:
                    await pool.putconn(pg)
            except (psycopg.OperationalError, OSError) as exc:
                # The connection died (a database restart, most often a pooled connection that
                # died idle). Whether the statement was executed is unknown: ask the stream.
                last = chained[-1][1]
                if await has_event(match_id, last.version, last.hash):
                    return
                if attempt == 1:
                    continue  # nothing was committed: again, on a fresh connection
                raise StoreUnavailable(str(exc)) from exc
            except PoolTimeout as exc:
                raise StoreUnavailable(f"no database connection within {self.wait} s") from exc
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
                    # record once that is replicated (EventStore.get_idempotency, replicated).
                    raise StoreUnavailable(
                        "the commit was cut while waiting for the synchronous standby: it is "
                        "done locally, its replication unconfirmed"
                    )
                return

    async def replicated(self) -> None:
        """Return once everything committed so far is as durable as a new commit; else
        :class:`StoreUnavailable`.

        A commit whose wait for the synchronous standby was cut (a cancel, a terminated
        connection) is visible on the primary before any standby has it. Before such a commit
        is acknowledged (found again by a retry, or by the lost-connection check above), a
        tiny write transaction is committed: its commit waits for the standby to confirm WAL up
        to it, so everything before it too (PostgreSQL waits only for a transaction that has
        an xid *and* wrote WAL: hence a logical message, which any role may emit). Without
        synchronous replication it costs one round trip; it runs only on those retries.
        """
        import psycopg
        from psycopg_pool import PoolTimeout

        cut: list[bool] = []
        notice = _notice_recorder(cut)
        pool = await self._pool()
        try:
            async with pool.connection(timeout=self.wait) as pg:
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
            raise StoreUnavailable(f"no database connection within {self.wait} s") from exc
        if any(cut):
            raise StoreUnavailable("the synchronous standby did not confirm the commit")

    async def _pool(self) -> Any:
        """The pool, opened on first use."""
        from psycopg_pool import AsyncConnectionPool

        async with self._lock:
            if self._open is None:
                pool = AsyncConnectionPool(
                    self.conninfo,
                    connection_class=_writer_connection(),
                    min_size=0,
                    max_size=self.size,
                    kwargs={"connect_timeout": self.connect_timeout, "autocommit": True},
                    open=False,
                    name="cuccu-writers",
                )
                await pool.open()
                self._open = pool
                metrics.WRITERS_MAX.inc(self.size)
            return self._open

    async def close(self) -> None:
        """Close the connections."""
        if self._open is not None:
            await self._open.close()
            self._open = None
            metrics.WRITERS_MAX.dec(self.size)
