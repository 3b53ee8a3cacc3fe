"""The store's other write path: an append as one SQLAlchemy transaction, statement by
statement. SQLite always takes it; PostgreSQL for what its one statement (api/store/statement.py)
does not cover: seat tokens of claimed seats, an append without events, a huge one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

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
from api.store.statement import _notice_recorder, seal_row


@contextlib.asynccontextmanager
async def write_transaction(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A write transaction of the SQLAlchemy path (claims, appends of more than
    ``MAX_STATEMENT_EVENTS`` events, creation reservations, replaced tokens), committed when
    the block ends. On PostgreSQL it watches the connection's notices as the one-statement
    append does: a commit whose wait for the synchronous standby was cut is
    :class:`StoreUnavailable` (done locally, its replication unconfirmed: not acknowledged).
    """
    async with engine.connect() as conn:
        if engine.dialect.name != "postgresql":
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


def _row(event: Any, stored: StoredEvent) -> dict[str, Any]:
    """The events row of a record about to be written (SQLAlchemy's insert)."""
    row = {f.name: getattr(stored, f.name) for f in fields(stored) if f.name != "position"}
    return row | {"data": msgspec.to_builtins(event)}


async def commit_transaction(
    engine: AsyncEngine,
    *,
    postgres: bool,
    match_id: str,
    expected_version: int,
    summary_values: Mapping[str, Any],
    chained: Sequence[tuple[Any, StoredEvent]],
    stamp: dt.datetime,
    new_match: NewMatch | None,
    seat_tokens: Mapping[int, str] | None,
    idempotency: IdempotencyRecord | None,
    seal: Seal | None,
) -> None:
    """Write an append in one transaction (EventStore.commit says what it holds).

    :class:`ConcurrencyError` when the stream is no longer at ``expected_version`` (or a key
    was taken meanwhile); a pooled connection found dead before the commit is retried once.
    """
    rows = [_row(event, s) for event, s in chained]
    # NOTIFY rides on the match row's statement (one round trip less); it is delivered
    # only if the transaction commits
    notify = (
        [sa.func.pg_notify(CHANNEL, f"{match_id}:{summary_values['version']}")]
        if postgres and rows
        else []
    )
    for attempt in (1, 2):
        committing = False
        try:
            async with write_transaction(engine) as conn:
                if new_match is not None:
                    insert = sa.insert(t.matches).values(
                        id=match_id,
                        created_at=stamp,
                        seats=new_match.seats,
                        game=new_match.game,
                        options=dict(new_match.options),
                        starting_lives=new_match.starting_lives,
                        seed=new_match.seed,
                        rematch_of=new_match.rematch_of,
                        queued=new_match.queued,
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
                    await conn.execute(sa.insert(t.match_seals).values(seal_row(seal, stamp)))
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
