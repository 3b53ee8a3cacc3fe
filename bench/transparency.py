"""What a proof costs when it is computed from the leaves per request (api/transparency).

    python bench/transparency.py [--leaves N] [--database-url URL]

Fills a log of N leaves (default 100000) in a fresh SQLite file (or the PostgreSQL database
given; its log tables must be empty), then times, best of five:

- ``append``: one more result appended by the appender (lock, anti-join, frontier update);
- ``checkpoint``: the tree head read and signed (what ``GET /log/checkpoint`` does);
- ``inclusion``: an inclusion proof at the full size (``SELECT`` of N hashes + O(N) hashing);
- ``consistency``: a consistency proof from N/2 to N;
- ``verify``: verifying each proof (O(log N), what a client does);
- ``hash only``: the proof's hashing over hashes already in memory (no database).

The ratios say how much of a proof is the database read and how much the hashing.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from api.signing import Signer  # noqa: E402
from api.store import create_engine, upgrade  # noqa: E402
from api.store import tables as t  # noqa: E402
from api.transparency.leaf import leaf_bytes  # noqa: E402
from api.transparency.note import NoteSigner  # noqa: E402
from api.transparency.store import ResultLog  # noqa: E402
from domain import merkle  # noqa: E402


def best(times: list[float]) -> str:
    return f"{min(times) * 1000:9.2f} ms"


async def timed(run: Callable[[], Awaitable[Any]], repeat: int = 5) -> tuple[list[float], Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = await run()
        times.append(time.perf_counter() - start)
    return times, result


async def fill(url: str, n: int) -> tuple[ResultLog, list[str]]:
    """A log of ``n`` leaves written directly (as the appender would have, in bulk)."""
    engine = create_engine(url)
    await upgrade(engine)
    log = ResultLog(engine, NoteSigner("bench.local/log", Ed25519PrivateKey.generate()))
    signer = Signer(Ed25519PrivateKey.generate())
    stamp = dt.datetime.now(dt.UTC)
    ids = [str(uuid.UUID(int=i)) for i in range(n)]
    hashes: list[bytes] = []
    rows = []
    for i, mid in enumerate(ids):
        seal = signer.sign(mid, 60, f"{i:064x}")
        leaf = leaf_bytes(mid, seal.version, seal.final_hash, seal.key_id, seal.signature)
        h = merkle.leaf_hash(leaf)
        hashes.append(h)
        rows.append(
            {"position": i, "match_id": mid, "leaf": leaf.decode(), "leaf_hash": h.hex(),
             "logged_at": stamp}
        )  # fmt: skip
    frontier = merkle.frontier_of(hashes)
    async with engine.begin() as conn:
        for lo in range(0, n, 5000):
            await conn.execute(sa.insert(t.log_leaves), rows[lo : lo + 5000])
        await conn.execute(
            sa.update(t.log_tree).values(
                size=n,
                root_hash=merkle.root(hashes).hex(),
                frontier=[h.hex() for h in frontier],
            )
        )
    return log, ids


async def append_one(log: ResultLog) -> int:
    """One sealed match, then the appender's pass that logs it."""
    mid = str(uuid.uuid4())
    now = dt.datetime.now(dt.UTC)
    seal = Signer(Ed25519PrivateKey.generate()).sign(mid, 1, "ab" * 32)
    async with log.engine.begin() as conn:
        await conn.execute(
            sa.insert(t.matches).values(
                id=mid, status="over", created_at=now, updated_at=now, seats=[],
                starting_lives=0, lives=[],
            )
        )  # fmt: skip
        await conn.execute(
            sa.insert(t.match_seals).values(
                match_id=mid, version=1, final_hash=seal.final_hash, key_id=seal.key_id,
                signature=seal.signature, signed_at=now,
            )
        )  # fmt: skip
    start = time.perf_counter()
    await log.append_pending()
    return int((time.perf_counter() - start) * 1e6)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=100_000)
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    args = parser.parse_args()
    n = args.leaves
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.db"
        start = time.perf_counter()
        log, ids = await fill(url, n)
        print(f"{n} leaves written in {time.perf_counter() - start:.1f}s ({url.split(':')[0]})")
        middle = ids[n // 2]

        appends = [await append_one(log) / 1e6 for _ in range(5)]
        size = n + 5
        print(f"append        {best(appends)}   (one result, lock to commit)")
        t_cp, _ = await timed(log.checkpoint)
        print(f"checkpoint    {best(t_cp)}")
        t_inc, inclusion = await timed(lambda: log.inclusion(middle))
        print(f"inclusion     {best(t_inc)}   ({len(inclusion.proof)} hashes, size {size})")
        t_con, (_, proof) = await timed(lambda: log.consistency(n // 2))
        print(f"consistency   {best(t_con)}   ({len(proof)} hashes, {n // 2} -> {size})")

        tree = await log.tree()
        hashes = await log.leaf_hashes(size)
        t_read, _ = await timed(lambda: log.leaf_hashes(size))
        print(f"read hashes   {best(t_read)}   (the SELECT of {size} leaf hashes alone)")

        async def hash_only() -> list[bytes]:
            return merkle.inclusion_proof(n // 2, hashes)

        t_hash, _ = await timed(hash_only)
        print(f"hash only     {best(t_hash)}   (the inclusion proof's hashing, in memory)")

        half = merkle.root(hashes[: n // 2])

        async def verify() -> bool:
            leaf = inclusion.entry.leaf_hash
            ok = merkle.verify_inclusion(n // 2, size, leaf, inclusion.proof, tree.root)
            return ok and merkle.verify_consistency(n // 2, size, proof, half, tree.root)

        t_ver, ok = await timed(verify)
        assert ok
        print(f"verify        {best(t_ver)}   (both proofs, as a client checks them)")
        print(f"inclusion/read: {min(t_inc) / min(t_read):.2f}   "
              f"inclusion/hash only: {min(t_inc) / min(t_hash):.2f}")  # fmt: skip
        await log.engine.dispose()


if __name__ == "__main__":
    asyncio.run(main())
