"""A rematch's links both ways on the ``matches`` rows (revision 0008, api/rematch.py)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import tables as t


class RematchStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def link(self, finished: str, rematch: str) -> None:
        """Note ``rematch`` on ``finished`` and the other way (idempotent)."""
        m = t.matches
        async with self.engine.begin() as conn:
            await conn.execute(sa.update(m).where(m.c.id == finished).values(rematch=rematch))
            await conn.execute(sa.update(m).where(m.c.id == rematch).values(rematch_of=finished))

    async def links(self, match_id: str) -> tuple[str | None, str | None]:
        """The match ``match_id`` is the rematch of, and its own rematch (None: none)."""
        m = t.matches
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(m.c.rematch_of, m.c.rematch).where(m.c.id == match_id))
            ).first()
        return (None, None) if row is None else (row.rematch_of, row.rematch)
