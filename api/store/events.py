"""The event store: hash-chained per-match streams with optimistic concurrency.

One call to :meth:`EventStore.commit` is one transaction: the match row (created or
version-checked), the new events with their hash chain, seat tokens of a new match, the
idempotency record of the command that produced them, and the seal of a match those events
end. Another writer having appended first surfaces as :class:`ConcurrencyError`; the service
reloads and decides again.

This module holds the reads and chooses a commit's write path. The records are in
api/store/records.py, chained and hashed by api/store/chain.py, and written by
api/store/statement.py (PostgreSQL's one statement) or api/store/transaction.py (a
SQLAlchemy transaction).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from api import metrics
from api.settings import (
    DEFAULT_DB_CONNECT_TIMEOUT,
    DEFAULT_DB_WRITER_WAIT,
    DEFAULT_DB_WRITERS,
)
from api.signing import SignFinal
from api.store import tables as t
from api.store.chain import chain_records
from api.store.notify import Notifier
from api.store.records import (
    CLAIM_FINGERPRINT_PREFIX,
    ConcurrencyError,
    CreationRecord,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    StoredEvent,
    StoreUnavailable,
    now,
    row_to_event,
    row_to_match,
)
from api.store.statement import MAX_STATEMENT_EVENTS, Writers
from api.store.transaction import commit_transaction, write_transaction

#: seat tokens remembered per process (token hash -> (match id, seat))
TOKEN_CACHE_SIZE = 100_000


def _is_down(exc: DBAPIError) -> bool:
    """An operational failure (connection lost, server shutting down), not a bad query."""
    code = getattr(exc.orig, "sqlstate", None) or ""
    return code[:2] in ("08", "57") or "OperationalError" in type(exc.orig).__name__


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
        self.notifier = notifier or Notifier()
        self.is_postgres = engine.dialect.name == "postgresql"
        # reads run in autocommit on PostgreSQL: no BEGIN/ROLLBACK round trips around a SELECT
        self.read_engine: AsyncEngine = (
            engine.execution_options(isolation_level="AUTOCOMMIT") if self.is_postgres else engine
        )
        self._tokens: dict[str, tuple[str, int]] = {}
        #: the one-statement append's connections (PostgreSQL only), opened on first use
        self._writers = Writers(
            engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            if self.is_postgres
            else "",
            size=writers,
            wait=writer_wait,
            connect_timeout=connect_timeout,
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
        return row_to_match(row) if row is not None else None

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
        return [row_to_event(r) for r in rows]

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
        round: the service deals round 1 in the transaction that fills the last seat. A
        rematch waiting for its people is in neither list: its open seats are kept for the
        people of the match it follows (api/rematch.py), not offered to anyone; nor is a
        table the queue seated, whose open seats wait for its waiters (api/queue.py).
        """
        m = t.matches
        query = sa.select(m).order_by(m.c.created_at.desc(), m.c.id.desc()).limit(limit)
        if status is not None:
            query = query.where(m.c.status == status)
        if open_seats is not None:
            waiting = sa.and_(m.c.status == "between_rounds", m.c.rounds == 0)
            lobby = sa.and_(waiting, m.c.rematch_of.is_(None), sa.not_(m.c.queued))
            query = query.where(lobby if open_seats else sa.not_(waiting))
        if before is not None:
            created, mid = before
            # a row-value comparison, so that the (created_at, id) indexes seek to the cursor
            # instead of scanning every newer row (pages deep in 100,000 matches stay fast)
            query = query.where(sa.tuple_(m.c.created_at, m.c.id) < sa.tuple_(created, mid))
        rows = await self._all(query)
        return [row_to_match(r) for r in rows]

    async def seat_for_token(self, token_sha256: str) -> tuple[str, int] | None:
        """The (match id, seat) of a token, or None for an unknown (or replaced) token.

        Most tokens never change hands, and are remembered per process once seen (not the
        unknown ones, which may be claimed later). Two kinds of seats have replaceable tokens:
        a seat claimed with an ``Idempotency-Key`` (a retry of that claim replaces its token)
        and a seat of a rematch (each rematch request of its person issues a new one,
        api/rematch.py). Either replacement happens in whichever API process receives the
        request, and a token remembered by another process would keep working there. So the
        lookup also tells whether the seat is of either kind (the claim record is written in
        the transaction that stores the seat's first token, and a rematch's link with its
        row, so each is always seen with the token): those tokens are never remembered, and
        are checked against the store on every request, which is correct with any number of
        processes.
        """
        cached = self._tokens.get(token_sha256)
        if cached is not None:
            return cached
        st = t.seat_tokens
        ik = t.idempotency_keys
        m = t.matches
        replaceable = sa.or_(
            sa.exists().where(
                ik.c.match_id == st.c.match_id,
                ik.c.seat == st.c.seat,
                ik.c.fingerprint.startswith(CLAIM_FINGERPRINT_PREFIX, autoescape=True),
            ),
            sa.exists().where(m.c.id == st.c.match_id, m.c.rematch_of.is_not(None)),
        ).label("replaceable")
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
        """Give a seat a new token (a replayed claim, a rematch request); the old one stops
        working.

        False if the seat has no token. The old token is not in any process's memory:
        :meth:`seat_for_token` never remembers the tokens of seats claimed with a key, nor
        those of a rematch's seats.
        """
        st = t.seat_tokens
        try:
            async with write_transaction(self.engine) as conn:
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

    async def link_rematch(self, finished: str, rematch: str) -> None:
        """Note on the finished match's row the rematch that follows it (idempotent; the
        rematch's own row names the finished match from its creation, ``NewMatch``)."""
        m = t.matches
        try:
            async with write_transaction(self.engine) as conn:
                await conn.execute(
                    sa.update(m)
                    .where(m.c.id == finished, m.c.rematch.is_(None))
                    .values(rematch=rematch)
                )
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
            async with write_transaction(self.engine) as conn:
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

    # --- the write: api/store/statement.py or api/store/transaction.py ---------------

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
            "deadline": summary.deadline,
            "updated_at": stamp,
        }
        if summary.seats is not None:
            summary_values["seats"] = summary.seats
        stored = [s for _, s in chained]
        if self.is_postgres and not seat_tokens and 0 < len(chained) <= MAX_STATEMENT_EVENTS:
            await self._writers.append(
                self._has_event, match_id, expected_version, summary_values, chained, idempotency,
                stamp, new_match, seal,
            )  # fmt: skip
            if seal is not None:
                metrics.sealed("final")
            self.notifier.publish(match_id, summary.version)
            return stored
        await commit_transaction(
            self.engine,
            postgres=self.is_postgres,
            match_id=match_id,
            expected_version=expected_version,
            summary_values=summary_values,
            chained=chained,
            stamp=stamp,
            new_match=new_match,
            seat_tokens=seat_tokens,
            idempotency=idempotency,
            seal=seal,
        )
        if seal is not None:
            metrics.sealed("final")
        if chained:
            self.notifier.publish(match_id, summary.version)
        return stored

    async def _replicated(self) -> None:
        """Return once everything committed so far is as durable as a new commit
        (:meth:`Writers.replicated`); on SQLite at once."""
        if self.is_postgres:
            await self._writers.replicated()

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

    async def close(self) -> None:
        """Close the writer connections (the engine is disposed by its owner)."""
        await self._writers.close()

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
