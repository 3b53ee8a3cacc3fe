"""The matchmaking queue's tickets in the database (revision 0007, api/queue.py)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
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


def _ticket(row: Any) -> Ticket:
    stamp = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=dt.UTC)
    return Ticket(
        row.id, row.player_id, row.game, row.seats, row.bots_after, row.bot_level, row.status,
        stamp, row.match_id, row.seat, row.claim_key,
    )  # fmt: skip


class QueueStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def join(
        self, player_id: str, game: str, seats: int, bots_after: int | None, bot_level: str
    ) -> Ticket:
        """A new waiting ticket, or the account's waiting ticket for the same table."""
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

    async def reserve(self, ticket_ids: Sequence[str]) -> bool:
        """Take the tickets out of the queue for seating: all of them, or none (another
        process seated one first)."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            done = await conn.execute(
                q.update()
                .where(q.c.id.in_(ticket_ids), q.c.status == WAITING)
                .values(status=SEATING)
            )
            if done.rowcount != len(ticket_ids):
                await conn.rollback()
                return False
        return True

    async def seated(self, ticket_id: str, match_id: str, seat: int, claim_key: str) -> None:
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update()
                .where(q.c.id == ticket_id)
                .values(status=MATCHED, match_id=match_id, seat=seat, claim_key=claim_key)
            )

    async def release(self, ticket_ids: Sequence[str]) -> None:
        """Put reserved tickets back in the queue (their seating failed)."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update()
                .where(q.c.id.in_(ticket_ids), q.c.status == SEATING)
                .values(status=WAITING)
            )

    async def leave(self, ticket_id: str) -> Ticket | None:
        """Take a waiting ticket out of the queue; the ticket as it is then."""
        q = t.queue_tickets
        async with self.engine.begin() as conn:
            await conn.execute(
                q.update().where(q.c.id == ticket_id, q.c.status == WAITING).values(status=LEFT)
            )
        return await self.get(ticket_id)
