"""CPU cost per event of the stored record (domain/envelope.py) against the event-only encoding
it replaced: writing (encode and hash) and reading (decode back to the event); then the
store's read path end to end (``EventStore.load`` and decoding, SQLite in a temp dir).

    .venv/bin/python bench/record_encoding.py [--matches 200] [--stored 50]

Prints microseconds per event, best of five runs, over the events of seeded bot matches.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.envelope import (  # noqa: E402
    GENESIS_HASH,  # noqa: E402
    chain_hash,
    parse_body,
    record_body,
)
from domain.games import CUCCU  # noqa: E402
from domain.games.cuccu.events import Event, decode_event, encode_event  # noqa: E402
from viewer.games.cuccu import bot_match  # noqa: E402

META = {"actor": "bot:basic", "command": {"type": "choose", "seat": 2, "choice": "keep"}}
STAMP = "2026-12-01T09:00:00.123456Z"


def best(run: Callable[[], None], events: int, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) / events * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--stored", type=int, default=50, help="matches stored for the load")
    args = parser.parse_args()
    events: list[Event] = [e for seed in range(args.matches) for e in bot_match(seed)]
    n = len(events)

    def write_old() -> None:
        prev = GENESIS_HASH
        for e in events:
            encoded = encode_event(e)
            prev = hashlib.sha256(prev.encode("ascii") + encoded).hexdigest()
            msgspec.json.decode(encoded)  # the data column's value

    def write_new() -> None:
        prev = GENESIS_HASH
        for v, e in enumerate(events, start=1):
            body = record_body(match_id="m", version=v, event=e, meta=META, recorded_at=STAMP)
            prev = chain_hash(prev, body)
            msgspec.to_builtins(e)  # the data column's value

    datas = [msgspec.json.decode(encode_event(e)) for e in events]
    bodies = [
        record_body(match_id="m", version=v, event=e, meta=META, recorded_at=STAMP)
        for v, e in enumerate(events, start=1)
    ]

    def read_old() -> None:
        for d in datas:
            decode_event(msgspec.json.encode(d))

    def read_new() -> None:
        for b in bodies:
            _ = parse_body(b).event

    print(f"{n} events of {args.matches} seeded 4-seat bot matches; microseconds per event")
    old, new = best(write_old, n), best(write_new, n)
    print(f"write (encode + hash): event only {old:.2f}, record {new:.2f}")
    old, new = best(read_old, n), best(read_new, n)
    print(f"read (decode):         event only {old:.2f}, record {new:.2f}")
    size_old = sum(len(encode_event(e)) for e in events) / n
    size_new = sum(len(b) for b in bodies) / n
    print(f"bytes per event:       event only {size_old:.0f}, record {size_new:.0f}")

    if args.stored:
        print(f"store load + decode:   {asyncio.run(stored_load(args.stored)):.2f}")


async def stored_load(matches: int) -> float:
    """Microseconds per event to load whole streams from SQLite and decode their events."""
    from api.cli import main as cuccu
    from api.store import EventStore, create_engine

    url = f"sqlite+aiosqlite:///{tempfile.mkdtemp()}/bench.db"
    sim = ["--database-url", url, "simulate", "-n", str(matches), "--store", "--seed", "1"]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        await asyncio.to_thread(cuccu, ["--database-url", url, "db", "upgrade"])
        await asyncio.to_thread(cuccu, sim)
    engine = create_engine(url)
    try:
        store = EventStore(engine)
        ids = [m.id for m in await store.list_matches(limit=matches)]
        times, n = [], 0
        for _ in range(5):
            start, n = time.perf_counter(), 0
            for match_id in ids:
                n += len([s.event_of(CUCCU) for s in await store.load(match_id)])
            times.append(time.perf_counter() - start)
        return min(times) / n * 1e6
    finally:
        await engine.dispose()


if __name__ == "__main__":
    main()
