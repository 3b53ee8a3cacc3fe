"""The service's pre-commitments to a first deck's secret (revision 0010, docs/API.md
"Fairness"): stored so that any replica's creation can use one, once."""

from __future__ import annotations

import datetime as dt
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import tables as t

#: how long after its expiry a row is kept: a reuse within it is answered "used", not "unknown"
KEPT_AFTER_EXPIRY = dt.timedelta(hours=1)

Refusal = Literal["unknown", "expired", "used"]


class PrecommitmentStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add(self, id_: str, secret: str, now: dt.datetime, expires_at: dt.datetime) -> None:
        """A new unused pre-commitment; the rows that expired long ago are deleted with it."""
        p = t.precommitments
        async with self.engine.begin() as conn:
            await conn.execute(p.delete().where(p.c.expires_at < now - KEPT_AFTER_EXPIRY))
            await conn.execute(
                p.insert().values(id=id_, secret=secret, created_at=now, expires_at=expires_at)
            )

    async def take(self, id_: str, match_id: str, now: dt.datetime) -> str | Refusal:
        """The secret of ``id_``, now the one of ``match_id``: unused and unexpired, or already
        taken by that same match (a retry of its creation); else why not."""
        p = t.precommitments
        async with self.engine.begin() as conn:
            # one conditional UPDATE: of two creations racing for it, one matches no row
            taken = await conn.execute(
                p.update()
                .where(
                    p.c.id == id_,
                    sa.or_(
                        sa.and_(p.c.match_id.is_(None), p.c.expires_at > now),
                        p.c.match_id == match_id,
                    ),
                )
                .values(match_id=match_id)
            )
            row = (
                await conn.execute(sa.select(p.c.secret, p.c.match_id).where(p.c.id == id_))
            ).one_or_none()
        if row is None:
            return "unknown"
        if taken.rowcount == 1:
            return str(row.secret)
        return "used" if row.match_id is not None else "expired"
