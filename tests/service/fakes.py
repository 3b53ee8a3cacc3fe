"""An in-memory store with the interface of ``api.store.EventStore`` (api.service.MatchStore).

It keeps what the real store guarantees and the service relies on: one commit is all or
nothing, a stream moves only from the version it is expected at, a match id, a token and an
idempotency key (per match and seat) are unique, events chain by hash, and the seal of a
match its commit ends is kept with that commit. tests/store/test_store.py runs the store's
contract tests on it too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from api.signing import Seal, SignFinal
from api.store import (
    ConcurrencyError,
    CreationRecord,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    Notifier,
    StoredEvent,
)
from api.store.chain import chain_records
from domain.games.cuccu.events import Event


class InMemoryStore:
    def __init__(self) -> None:
        self.notifier = Notifier()
        self.replica = None  # reads from replicas: tests/store/test_read_replica.py
        self.matches: dict[str, MatchRecord] = {}
        self.events: dict[str, list[StoredEvent]] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.keys: dict[tuple[str, int, str], IdempotencyRecord] = {}
        self.seals: dict[str, Seal] = {}
        self.creations: dict[str, CreationRecord] = {}
        self.commits = 0
        self._clock = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)

    def _now(self) -> dt.datetime:
        self._clock += dt.timedelta(microseconds=1)  # distinct stamps keep the list ordered
        return self._clock

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return self.matches.get(match_id)

    async def load(
        self, match_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        newer = [e for e in self.events.get(match_id, []) if e.version > after]
        return newer if limit is None else newer[:limit]

    async def list_matches(
        self,
        *,
        status: str | None = None,
        before: tuple[dt.datetime, str] | None = None,
        limit: int = 20,
        open_seats: bool | None = None,
    ) -> list[MatchRecord]:
        rows = sorted(self.matches.values(), key=lambda m: (m.created_at, m.id), reverse=True)
        rows = [m for m in rows if status is None or m.status == status]
        if open_seats is not None:
            rows = [
                m
                for m in rows
                if (m.status == "between_rounds" and m.rounds == 0) == open_seats
                and not (open_seats and m.rematch_of is not None)  # kept for their people
            ]
        if before is not None:
            rows = [m for m in rows if (m.created_at, m.id) < before]
        return rows[:limit]

    async def seat_for_token(self, token_sha256: str) -> tuple[str, int] | None:
        return self.tokens.get(token_sha256)

    async def replace_seat_token(self, match_id: str, seat: int, token_sha256: str) -> bool:
        old = [h for h, found in self.tokens.items() if found == (match_id, seat)]
        if not old:
            return False
        del self.tokens[old[0]]
        self.tokens[token_sha256] = (match_id, seat)
        return True

    async def link_rematch(self, finished: str, rematch: str) -> None:
        record = self.matches[finished]
        if record.rematch is None:
            self.matches[finished] = dataclasses.replace(record, rematch=rematch)

    async def get_idempotency(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        return self.keys.get((match_id, seat, key))

    async def get_creation(self, key_hash: str) -> CreationRecord | None:
        return self.creations.get(key_hash)

    async def reserve_creation(self, record: CreationRecord) -> None:
        if record.key_hash in self.creations:
            raise ConcurrencyError("creation key taken")
        self.creations[record.key_hash] = record

    async def commit(
        self,
        match_id: str,
        *,
        expected_version: int,
        prev_hash: str,
        events: Sequence[Event],
        summary: MatchSummary,
        meta: Mapping[str, Any] | None = None,
        metas: Sequence[Mapping[str, Any] | None] | None = None,
        new_match: NewMatch | None = None,
        idempotency: IdempotencyRecord | None = None,
        seat_tokens: Mapping[int, str] | None = None,
        seal_with: SignFinal | None = None,
    ) -> list[StoredEvent]:
        stamp = self._now()
        record = self.matches.get(match_id)
        if new_match is not None and record is not None:
            raise ConcurrencyError(f"match {match_id} exists")
        if new_match is None and (record is None or record.version != expected_version):
            raise ConcurrencyError(f"match {match_id} is not at version {expected_version}")
        tokens = dict(new_match.token_hashes if new_match else {}) | dict(seat_tokens or {})
        if any(h in self.tokens for h in tokens.values()):
            raise ConcurrencyError("token taken")
        held = set(self.tokens.values())
        if any((match_id, seat) in held for seat in tokens):  # (match_id, seat) is a key too
            raise ConcurrencyError("seat has a token")
        if idempotency is not None and (
            (idempotency.match_id, idempotency.seat, idempotency.key) in self.keys
        ):
            raise ConcurrencyError("idempotency key taken")
        stored = [
            s
            for _, s in chain_records(
                match_id, expected_version, prev_hash, events, meta=meta, metas=metas, stamp=stamp
            )
        ]
        seal = (
            seal_with(match_id, stored[-1].version, stored[-1].hash)
            if seal_with is not None and stored
            else None
        )
        if seal is not None and match_id in self.seals:
            raise ConcurrencyError(f"match {match_id} is sealed already")
        # nothing can fail from here on: the commit is applied as a whole
        if new_match is not None:
            record = MatchRecord(
                id=match_id, status=summary.status, created_at=stamp, updated_at=stamp,
                seats=new_match.seats, rounds=summary.rounds, version=summary.version,
                seed=new_match.seed, game=new_match.game, options=dict(new_match.options),
                standing=summary.standing, winners=summary.winners,
                rematch_of=new_match.rematch_of,
            )  # fmt: skip
        else:
            assert record is not None
            record = dataclasses.replace(
                record, status=summary.status, updated_at=stamp, standing=summary.standing,
                winners=summary.winners, rounds=summary.rounds, version=summary.version,
                seats=summary.seats if summary.seats is not None else record.seats,
            )  # fmt: skip
        self.matches[match_id] = record
        self.events.setdefault(match_id, []).extend(stored)
        for seat, h in tokens.items():
            self.tokens[h] = (match_id, seat)
        if idempotency is not None:
            self.keys[(idempotency.match_id, idempotency.seat, idempotency.key)] = idempotency
        if seal is not None:
            self.seals[match_id] = seal
        self.commits += 1
        if stored:
            self.notifier.publish(match_id, summary.version)
        return stored
