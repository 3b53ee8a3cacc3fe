"""Seals of finished matches in the ``match_seals`` table, and the sealer that makes them."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from api import metrics
from api.keys import KeyRing
from api.signing import Seal, Signer, now
from api.store import tables as t
from api.store.chain import verify_chain
from api.store.records import StoredEvent, StoreUnavailable
from domain.envelope import LEGACY_ENVELOPE


class SealStore:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def get(self, match_id: str) -> Seal | None:
        s = t.match_seals
        try:
            async with self.engine.connect() as conn:
                row = (await conn.execute(sa.select(s).where(s.c.match_id == match_id))).first()
        except (DBAPIError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        if row is None:
            return None
        return Seal(row.match_id, row.version, row.final_hash, row.key_id, row.signature)

    async def put(self, seal: Seal) -> Seal:
        """Store ``seal`` unless the match has one already; the stored one is returned."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    sa.insert(t.match_seals).values(
                        match_id=seal.match_id,
                        version=seal.version,
                        final_hash=seal.final_hash,
                        key_id=seal.key_id,
                        signature=seal.signature,
                        signed_at=now(),
                    )
                )
        except IntegrityError:
            kept = await self.get(seal.match_id)  # another process sealed it first
            if kept is not None:
                return kept
            raise
        except (DBAPIError, OSError) as exc:
            raise StoreUnavailable(str(exc)) from exc
        return seal


class Sealer:
    """Signs finished matches with the service's active key and keeps the seals."""

    def __init__(self, engine: AsyncEngine, signer: Signer, ring: KeyRing) -> None:
        self.seals = SealStore(engine)
        self.signer = signer
        self.ring = ring

    def sign_final(self, match_id: str, version: int, final_hash: str) -> Seal:
        """The seal of a match whose commit is about to end it: the store writes it in that
        commit's transaction (``EventStore.commit(seal_with=...)``), so no crash, restart or
        replayed answer can leave a finished match unsigned."""
        return self.signer.sign(match_id, version, final_hash)

    async def seal_of(
        self, match_id: str, stored: Sequence[StoredEvent], *, sign_legacy: bool = True
    ) -> Seal | None:
        """The seal of a finished match; None if it has none.

        A match is sealed once, in the transaction of the commit that ends it, and never again
        from what the database holds later: signing then would attest to whatever an intruder
        wrote into the database since (after deleting the seal). The one exception is a match
        that ended before signatures existed (all its records are envelope 1): with
        ``sign_legacy`` it is sealed now, its chain checked first, which attests to the log as
        held at that moment.
        """
        seal = await self.seals.get(match_id)
        if seal is not None or not stored or not sign_legacy:
            return seal
        if any(s.envelope != LEGACY_ENVELOPE for s in stored):
            return None
        verify_chain(stored)
        last = stored[-1]
        seal = self.signer.sign(match_id, last.version, last.hash)
        kept = await self.seals.put(seal)
        if kept is seal:
            metrics.sealed("legacy")
        return kept
