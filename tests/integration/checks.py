"""Checks on what a live server stored: chains, audits, gapless versions, acknowledged commands."""

from __future__ import annotations

import asyncio
from typing import Any

from api.export import export_lines
from api.store import EventStore, StoredEvent, create_engine, verify_chain
from domain.audit import audit, parse_ndjson
from domain.games import CUCCU


async def _stored(database_url: str, match_id: str) -> tuple[list[StoredEvent], Any]:
    engine = create_engine(database_url)
    try:
        store = EventStore(engine)
        return await store.load(match_id), await store.get_match(match_id)
    finally:
        await engine.dispose()


def stored_events(database_url: str, match_id: str) -> list[StoredEvent]:
    return asyncio.run(_stored(database_url, match_id))[0]


def audited(database_url: str, match_id: str) -> list[StoredEvent]:
    """The stored stream of ``match_id`` after every check a stored log must pass.

    Versions run 1..n with no gap or duplicate; the hash chain verifies; the matches row agrees
    with the fold; and ``domain.audit`` passes (re-execution of every decision, card
    conservation, lives, shuffle commitments), "complete" only once the match is over.
    """
    stored, record = asyncio.run(_stored(database_url, match_id))
    assert [s.version for s in stored] == list(range(1, len(stored) + 1))
    verify_chain(stored)
    state = CUCCU.fold([s.event_of(CUCCU) for s in stored], CUCCU.initial())
    assert record is not None
    assert record.version == state.version == len(stored)
    assert record.status == state.status
    report = audit(parse_ndjson(export_lines(stored)))
    for check in report.checks:
        if check.name == "complete" and state.status != "over":
            continue
        assert check.ok, (check.name, check.version, check.detail)
    return stored
