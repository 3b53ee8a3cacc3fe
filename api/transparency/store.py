"""The log's storage, its appender, and what it serves: checkpoints and proofs.

**Appending.** A result is appended *after* the commit that seals it, by :meth:`ResultLog.
append_pending`, not inside that commit: the commit ending a match would otherwise wait for
the log's one lock, which every replica's finishing matches share. The appender is
idempotent and crash-safe: one transaction takes the log's lock (the ``log_tree`` row, ``FOR
UPDATE`` on PostgreSQL; on SQLite its first write takes the database's write lock), reads the
seals that have no leaf yet, appends their leaves at the next positions and writes the new
size, root and frontier. It commits whole or not at all, and a match id is unique among
leaves, so a result sealed but not yet logged (the process died between the two) is appended
on the next pass, by whichever process runs it, and never twice. Every process runs a pass
after each commit that ends a match and every :data:`PASS_INTERVAL` seconds (for results
sealed elsewhere: a legacy match sealed at its first export).

Because appends are serialized and only ever add leaves at the end, every checkpoint this
service signs is consistent with every earlier one: the property a witness checks.

**Proofs** are computed per request from the leaf hashes up to the size asked for (one
``SELECT`` of 32-byte hashes, then O(n) hashing): simple, and fast enough at the sizes of
this service (bench/transparency.py measures it). A larger log would store interior nodes or
tiles (C2SP tlog-tiles).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import logging
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from api.store import tables as t
from api.store.records import StoreUnavailable
from api.transparency.leaf import leaf_bytes
from api.transparency.note import Checkpoint, NoteSigner
from domain import merkle

log = logging.getLogger("cuccu")

#: seconds between the appender's passes when no match ends in this process
PASS_INTERVAL: Final = 2.0
#: leaves appended by one transaction at most (a backlog is appended over several)
BATCH: Final = 500


class LogUnavailable(LookupError):
    """What a proof asks for is not in the log (see the ``reason``)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        #: "unknown-match", "not-yet-logged", "size-out-of-range"
        self.reason = reason
        self.detail = detail


@dataclass(frozen=True)
class Entry:
    """Where a result is in the log."""

    match_id: str
    position: int
    leaf: bytes
    leaf_hash: bytes


@dataclass(frozen=True)
class Inclusion:
    """A result's inclusion proof at one tree size, and the checkpoint of that size."""

    entry: Entry
    tree_size: int
    proof: list[bytes]
    checkpoint: str

    def document(self) -> dict[str, Any]:
        """As exports and the API carry it (docs/API.md, "Transparency log")."""
        return {
            "checkpoint": self.checkpoint,
            "index": self.entry.position,
            "inclusion": [b64(h) for h in self.proof],
            "tree_size": self.tree_size,
        }


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _unhex(text: str) -> bytes:
    return bytes.fromhex(text)


def _wrap(exc: Exception) -> StoreUnavailable:
    return StoreUnavailable(str(exc))


class ResultLog:
    """The transparency log of one database, signing checkpoints with ``signer``."""

    def __init__(self, engine: AsyncEngine, signer: NoteSigner) -> None:
        self.engine = engine
        self.signer = signer
        self.is_postgres = engine.dialect.name == "postgresql"
        self._wake = asyncio.Event()
        self._stopping = False

    @property
    def origin(self) -> str:
        return self.signer.name

    # --- appending ----------------------------------------------------------------------

    def wake(self) -> None:
        """Ask the appender for a pass now (a match of this process was just sealed)."""
        self._wake.set()

    async def run_appender(self) -> None:
        """Pass after pass until :meth:`stop`: on each wake-up, and every PASS_INTERVAL."""
        while not self._stopping:
            try:
                while await self.append_pending() and not self._stopping:
                    pass
            except StoreUnavailable as exc:
                log.warning("transparency log: append deferred (%s)", exc)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), PASS_INTERVAL)
            self._wake.clear()

    async def stop(self, appender: asyncio.Task[None], timeout: float = 5.0) -> None:
        """End the appender between passes (a pass cancelled mid-query would leave a
        connection for the garbage collector), or cancel it after ``timeout``."""
        self._stopping = True
        self._wake.set()
        with contextlib.suppress(TimeoutError):  # then wait_for has cancelled it
            await asyncio.wait_for(appender, timeout)

    async def append_pending(self, limit: int = BATCH) -> int:
        """Append the sealed results that have no leaf yet (up to ``limit``): how many."""
        s, leaves, tree = t.match_seals, t.log_leaves, t.log_tree
        pending = (
            sa.select(s.c.match_id, s.c.version, s.c.final_hash, s.c.key_id, s.c.signature)
            .select_from(s.outerjoin(leaves, leaves.c.match_id == s.c.match_id))
            .where(leaves.c.match_id.is_(None))
            .order_by(s.c.signed_at, s.c.match_id)
            .limit(limit)
        )
        try:
            async with self.engine.connect() as conn:  # no lock while there is nothing to do
                if (await conn.execute(pending.limit(1))).first() is None:
                    return 0
            async with self.engine.begin() as conn:
                if self.is_postgres:
                    locked = sa.select(tree).where(tree.c.id == 1).with_for_update()
                    row = (await conn.execute(locked)).one()
                else:  # the write takes SQLite's one write lock before anything is read
                    await conn.execute(
                        sa.update(tree).where(tree.c.id == 1).values(size=tree.c.size)
                    )
                    row = (await conn.execute(sa.select(tree).where(tree.c.id == 1))).one()
                rows = (await conn.execute(pending)).all()
                if not rows:
                    return 0  # another process appended them meanwhile
                size = int(row.size)
                frontier = [_unhex(h) for h in row.frontier]
                stamp = dt.datetime.now(dt.UTC)
                values = []
                for r in rows:
                    leaf = leaf_bytes(r.match_id, r.version, r.final_hash, r.key_id, r.signature)
                    hashed = merkle.leaf_hash(leaf)
                    frontier = merkle.frontier_append(frontier, size, hashed)
                    values.append(
                        {
                            "position": size,
                            "match_id": r.match_id,
                            "leaf": leaf.decode("utf-8"),
                            "leaf_hash": hashed.hex(),
                            "logged_at": stamp,
                        }
                    )
                    size += 1
                await conn.execute(sa.insert(leaves), values)
                await conn.execute(
                    sa.update(tree)
                    .where(tree.c.id == 1)
                    .values(
                        size=size,
                        root_hash=merkle.frontier_root(frontier).hex(),
                        frontier=[h.hex() for h in frontier],
                        updated_at=stamp,
                    )
                )
        except (DBAPIError, OSError) as exc:
            raise _wrap(exc) from exc
        return len(values)

    # --- reading ------------------------------------------------------------------------

    async def tree(self) -> Checkpoint:
        """The tree as of the last append."""
        tree = t.log_tree
        try:
            async with self.engine.connect() as conn:
                row = (await conn.execute(sa.select(tree).where(tree.c.id == 1))).one()
        except (DBAPIError, OSError) as exc:
            raise _wrap(exc) from exc
        return Checkpoint(self.origin, int(row.size), _unhex(row.root_hash))

    def sign(self, checkpoint: Checkpoint) -> str:
        """The checkpoint as a signed note (Ed25519 signs deterministically: one tree, one
        note, whichever process signs it)."""
        return self.signer.sign(checkpoint.text())

    async def checkpoint(self) -> str:
        return self.sign(await self.tree())

    async def entry(self, match_id: str) -> Entry | None:
        leaves = t.log_leaves
        try:
            async with self.engine.connect() as conn:
                row = (
                    await conn.execute(sa.select(leaves).where(leaves.c.match_id == match_id))
                ).first()
        except (DBAPIError, OSError) as exc:
            raise _wrap(exc) from exc
        if row is None:
            return None
        return Entry(row.match_id, int(row.position), row.leaf.encode(), _unhex(row.leaf_hash))

    async def leaf_hashes(self, size: int) -> list[bytes]:
        """The first ``size`` leaf hashes, in order."""
        leaves = t.log_leaves
        query = (
            sa.select(leaves.c.leaf_hash)
            .where(leaves.c.position < size)
            .order_by(leaves.c.position)
        )
        try:
            async with self.engine.connect() as conn:
                hashes = [_unhex(h) for h in (await conn.execute(query)).scalars()]
        except (DBAPIError, OSError) as exc:
            raise _wrap(exc) from exc
        return hashes

    async def _sized(self, size: int | None) -> Checkpoint:
        """The tree at ``size`` (default: now), its root recomputed from the leaves for an
        earlier size."""
        now = await self.tree()
        if size is None or size == now.size:
            return now
        if not 0 <= size <= now.size:
            raise LogUnavailable(
                "size-out-of-range", f"the log has {now.size} leaves; no tree of {size}"
            )
        return Checkpoint(self.origin, size, merkle.root(await self.leaf_hashes(size)))

    async def inclusion(self, match_id: str, size: int | None = None) -> Inclusion:
        """The inclusion proof of ``match_id``'s result at ``size`` (default: the log now)."""
        entry = await self.entry(match_id)
        if entry is None:
            raise LogUnavailable("not-yet-logged", f"match {match_id} is not in the log (yet)")
        tree = await self._sized(size)
        if entry.position >= tree.size:
            raise LogUnavailable(
                "size-out-of-range",
                f"match {match_id} is leaf {entry.position}, not in the tree of {tree.size}",
            )
        hashes = await self.leaf_hashes(tree.size)
        proof = merkle.inclusion_proof(entry.position, hashes)
        return Inclusion(entry, tree.size, proof, self.sign(tree))

    async def consistency(self, size1: int, size2: int | None = None) -> tuple[int, list[bytes]]:
        """(size2, the consistency proof from ``size1`` to ``size2``; default: the log now)."""
        now = await self.tree()
        size2 = now.size if size2 is None else size2
        if not 0 <= size1 <= size2 <= now.size:
            raise LogUnavailable(
                "size-out-of-range",
                f"need 0 <= from <= to <= {now.size} (the log's size); got {size1} and {size2}",
            )
        return size2, merkle.consistency_proof(size1, await self.leaf_hashes(size2))
