"""The matchmaking queue's tickets in the database (revision 0007, api/queue.py)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import tables as t

WAITING, SEATING, MATCHED, LEFT = "waiting", "seating", "matched", "left"


@dataclass(frozen=True)
class Ticket:
    id: str
    player_id: str
    game: str
    seats: int
    bots_after: int | None
    bot_level: str
    status: str
    created_at: dt.datetime
    match_id: str | None = None
    seat: int | None = None
    claim_key: str | None = None
    reserved_at: dt.datetime | None = None
    #: revision 0009 kept here the randomness a join sent for its match's first deck; it was
    #: sent before the service committed to that deck, so it is no longer taken (a waiter
    #: contributes once it has seen the commitment, api/queue.py) and only old rows hold one,
    #: until seated: never in a repr, so never in a log line
    entropy: str | None = field(default=None, repr=False)


def _utc(stamp: dt.datetime | None) -> dt.datetime | None:
    """SQLite hands back naive datetimes; every stored stamp is UTC."""
    return stamp.replace(tzinfo=dt.UTC) if stamp is not None and not stamp.tzinfo else stamp


def _ticket(row: Any) -> Ticket:
    created = _utc(row.created_at)
    assert created is not None
    return Ticket(
        row.id, row.player_id, row.game, row.seats, row.bots_after, row.bot_level, row.status,
        created, row.match_id, row.seat, row.claim_key, _utc(row.reserved_at), row.entropy,
    )  # fmt: skip


class QueueStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def join(
        self,
        player_id: str,
        game: str,
        seats: int,
        bots_after: int | None,
        bot_level: str,
    ) -> Ticket:
        """A new waiting ticket, or the account's waiting (or seating) ticket for the same
        table."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(q).where(
                        q.c.player_id == player_id,
                        q.c.game == game,
                        q.c.seats == seats,
                        q.c.status.in_((WAITING, SEATING)),
                    )  # fmt: skip
                )
            ).first()
            if row is not None:
                return _ticket(row)
            ticket = Ticket(
                str(uuid.uuid4()), player_id, game, seats, bots_after, bot_level, WAITING,
                dt.datetime.now(dt.UTC),
            )  # fmt: skip
            await conn.execute(
                q.insert().values(
                    id=ticket.id,
                    player_id=player_id,
                    game=game,
                    seats=seats,
                    bots_after=bots_after,
                    bot_level=bot_level,
                    status=WAITING,
                    created_at=ticket.created_at,
                )  # fmt: skip
            )
        return ticket

    async def last_matched(self, player_id: str, game: str, seats: int) -> Ticket | None:
        """The account's newest matched ticket for one table (the only one whose match can be
        unfinished: a join while it is not over answers it rather than making a new one)."""
        q = t.queue_tickets
        query = (
            sa.select(q)
            .where(
                q.c.player_id == player_id,
                q.c.game == game,
                q.c.seats == seats,
                q.c.status == MATCHED,
            )  # fmt: skip
            .order_by(q.c.created_at.desc())
            .limit(1)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _ticket(row) if row is not None else None

    async def get(self, ticket_id: str) -> Ticket | None:
        q = t.queue_tickets
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(q).where(q.c.id == ticket_id))).first()
        return _ticket(row) if row is not None else None

    async def waiting(self, game: str | None = None, seats: int | None = None) -> list[Ticket]:
        """Waiting tickets, the oldest first (of one table, when given)."""
        q = t.queue_tickets
        query = sa.select(q).where(q.c.status == WAITING)
        if game is not None:
            query = query.where(q.c.game == game, q.c.seats == seats)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(q.c.created_at, q.c.id))).all()
        return [_ticket(r) for r in rows]

    async def reserve(self, seats: Mapping[str, tuple[int, str]]) -> bool:
        """Take the tickets out of the queue for seating, each with its seat and the claim's
        Idempotency-Key: all of them, or none (another process seated one first)."""
        q = t.queue_tickets
        now = dt.datetime.now(dt.UTC)
        async with self.engine.begin() as conn:
            for ticket_id, (seat, key) in seats.items():
                done = await conn.execute(
                    q.update()
                    .where(q.c.id == ticket_id, q.c.status == WAITING)
                    .values(status=SEATING, seat=seat, claim_key=key, reserved_at=now)
                )
                if done.rowcount != 1:
                    await conn.rollback()
                    return False
        return True

    async def created(self, ticket_ids: Sequence[str], match_id: str) -> None:
        """The reserved tickets' match exists: from here a cut-off seating is finished."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(q.update().where(q.c.id.in_(ticket_ids)).values(match_id=match_id))

    async def seated(self, ticket_id: str) -> None:
        """The ticket's seat is claimed (an old row's join entropy is forgotten)."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update().where(q.c.id == ticket_id).values(status=MATCHED, entropy=None)
            )

    async def seating(self, before: dt.datetime | None = None) -> list[Ticket]:
        """Tickets being seated (reserved, their seats not yet claimed), the oldest first;
        only those whose seating began before ``before``, when given."""
        q = t.queue_tickets
        query = sa.select(q).where(q.c.status == SEATING)
        if before is not None:
            query = query.where(q.c.reserved_at < before)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(q.c.reserved_at, q.c.id))).all()
        return [_ticket(r) for r in rows]

    async def release(self, ticket_ids: Sequence[str]) -> None:
        """Put reserved tickets back in the queue (their seating failed before a match)."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update()
                .where(q.c.id.in_(ticket_ids), q.c.status == SEATING)
                .values(status=WAITING, seat=None, claim_key=None, reserved_at=None)
            )

    async def leave(self, ticket_id: str) -> Ticket | None:
        """Take a waiting ticket out of the queue; the ticket as it is then."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update()
                .where(q.c.id == ticket_id, q.c.status == WAITING)
                .values(status=LEFT, entropy=None)
            )
        return await self.get(ticket_id)
