"""Due clocks in the database (revision 0008, api/clocks.py): which matches' deadlines have
passed, and a claim on one so that two API processes do not both work on its timeout.

The claim is an optimisation, not the guarantee: a timeout is a command appended at the
version it was decided on, so the event store's optimistic lock lets only one of two processes
append it, and the loser, reloading, finds the decision answered (``MatchService.time_out``).
The claim spares the loser that work. On PostgreSQL it is a session advisory lock taken with
``pg_try_advisory_lock`` (never waited for: a process that does not get it moves on). Not
``SELECT … FOR UPDATE SKIP LOCKED`` on the ``matches`` row: the timeout's own commit updates
that row from another connection, so a sweeper holding the row lock while the service commits
would wait for itself. On SQLite (one process) nothing is claimed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import tables as t

#: the first key of every clock claim's advisory lock (the second is the match id's hash), so
#: that no other advisory lock of the service (the ratings') is ever taken by a clock claim
CLOCK_LOCK_CLASS = 0x636C6B  # "clk"


@dataclass(frozen=True)
class Ahead:
    #: the matches due now, earliest first
    due: list[str]
    #: the earliest deadline of the others (None: no other clock runs)
    next: dt.datetime | None


def _aware(stamp: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every stored deadline is UTC."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


class ClockStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_postgres = engine.dialect.name == "postgresql"

    async def ahead(self, now: dt.datetime, limit: int = 50) -> Ahead:
        """Up to ``limit`` matches due at ``now``, and the deadline after them, in one read of
        the deadline index (the earliest ``limit + 1`` deadlines)."""
        m = t.matches
        query = (
            sa.select(m.c.id, m.c.deadline)
            .where(m.c.deadline.is_not(None))
            .order_by(m.c.deadline)
            .limit(limit + 1)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        due = [r.id for r in rows[:limit] if _aware(r.deadline) <= now]
        later = rows[len(due)] if len(due) < len(rows) else None
        return Ahead(due, None if later is None else _aware(later.deadline))

    @asynccontextmanager
    async def claimed(self, match_id: str) -> AsyncIterator[bool]:
        """Whether this process may work on ``match_id``'s timeout now (another holds it:
        False); held until the block ends."""
        if not self.is_postgres:
            yield True
            return
        key = (sa.literal(CLOCK_LOCK_CLASS), sa.func.hashtext(match_id))
        async with self.engine.connect() as conn:
            got = bool(await conn.scalar(sa.select(sa.func.pg_try_advisory_lock(*key))))
            await conn.commit()
            try:
                yield got
            finally:
                if got:
                    await conn.scalar(sa.select(sa.func.pg_advisory_unlock(*key)))
                    await conn.commit()
