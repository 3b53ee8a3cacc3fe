"""What the store reads and writes: a stored event, a match's row and the summary a commit
writes into it, a new match, the records of requests sent with an Idempotency-Key, and the
store's two errors. Rows read back become these records here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
import sqlalchemy as sa

from domain.envelope import LEGACY_ENVELOPE, RECORD_ENVELOPE, parse_body
from domain.games import LEGACY, Game


class ConcurrencyError(Exception):
    """Another writer changed the stream first (stale expected version or duplicate key)."""


class StoreUnavailable(Exception):
    """The database cannot be reached or refused the operation for operational reasons."""


#: how the idempotency record of a claim starts its fingerprint (a command's fingerprint is
#: a bare sha256 hex digest): it marks the seats whose token a retried claim may replace
CLAIM_FINGERPRINT_PREFIX = "claim:"


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def record_time(stamp: dt.datetime) -> str:
    """A UTC instant as records write it: ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always 6 digits)."""
    return stamp.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class StoredEvent:
    position: int
    match_id: str
    version: int
    type: str
    meta: dict[str, Any] | None
    recorded_at: dt.datetime
    prev_hash: str
    hash: str
    #: the record exactly as hashed (``domain.envelope``); exports serve it verbatim
    body: str
    #: 2 for records written since revision 0002, 1 for older (legacy) ones
    envelope: int = RECORD_ENVELOPE

    def event_of(self, game: Game) -> Any:
        """The event its record holds, read as ``game``'s (the match's game)."""
        body = self.body.encode("utf-8")
        if self.envelope == LEGACY_ENVELOPE:  # only one game is older than envelope 2
            return LEGACY.event(body)
        record = parse_body(body)
        return game.read_event(record.type, record.schema, bytes(record.data))


@dataclass(frozen=True)
class MatchRecord:
    id: str
    status: str
    created_at: dt.datetime
    updated_at: dt.datetime
    seats: list[dict[str, Any]]
    rounds: int
    version: int
    seed: int | None
    #: the game's name in the registry (``domain.games``), its creation options, each seat's
    #: score in the game's unit (its ``score.unit``) and the winning seats; every record names
    #: its game (a keyword, no default: a forgotten game must not read as some game's match)
    game: str = field(kw_only=True)
    options: dict[str, Any] = field(default_factory=dict)
    standing: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    #: a rematch's links: the finished match it follows, and the one that followed it
    rematch_of: str | None = None
    rematch: str | None = None
    #: created by the queue: its open seats are kept for its waiters (api/queue.py)
    queued: bool = False


@dataclass(frozen=True)
class MatchSummary:
    """What the ``matches`` row says about a stream after the events of a commit."""

    status: str
    standing: list[int]
    winners: list[int]
    rounds: int
    version: int
    #: the seats as they are now (after claims); None leaves the stored seats as they are
    seats: list[dict[str, Any]] | None = None
    #: the due deadline of the match's clock (``domain.clock``), None when nothing is awaited
    deadline: dt.datetime | None = None


@dataclass(frozen=True)
class NewMatch:
    id: str
    seats: list[dict[str, Any]]
    seed: int | None
    game: str = field(kw_only=True)  # no default, as in MatchRecord
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def starting_lives(self) -> int:
        """The pre-0004 column's mirror: the option of that name, or 0."""
        return int(self.options.get("starting_lives", 0))

    token_hashes: Mapping[int, str] = field(default_factory=dict)
    #: the finished match this one is the rematch of (api/rematch.py), written with its row
    rematch_of: str | None = None
    #: created by the queue for its waiters (api/queue.py), written with its row
    queued: bool = False


@dataclass(frozen=True)
class IdempotencyRecord:
    """A request that succeeded under an Idempotency-Key: enough to answer its retry.

    ``first_version`` is the stream's version before the request, ``last_version`` after it:
    the answer is re-rendered from the events in between and the state at ``last_version``.
    """

    match_id: str
    seat: int
    key: str
    fingerprint: str
    first_version: int
    last_version: int


@dataclass(frozen=True)
class CreationRecord:
    """A ``POST /matches`` sent with an Idempotency-Key: the match it makes (reserved before
    the match is written) and its seat tokens, sealed (api/creation_keys.py)."""

    key_hash: str
    fingerprint: str
    match_id: str
    sealed_tokens: str


def _aware(stamp: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every stored stamp is UTC."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


def row_to_event(row: sa.Row[Any]) -> StoredEvent:
    meta = row.meta
    if isinstance(meta, str):  # some drivers hand JSON back as text
        meta = msgspec.json.decode(meta)
    return StoredEvent(
        position=row.position,
        match_id=row.match_id,
        version=row.version,
        type=row.type,
        meta=meta,
        recorded_at=_aware(row.recorded_at),
        prev_hash=row.prev_hash,
        hash=row.hash,
        body=row.body,
        envelope=row.envelope,
    )


def row_to_match(row: sa.Row[Any]) -> MatchRecord:
    return MatchRecord(
        id=row.id,
        status=row.status,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        seats=row.seats,
        rounds=row.rounds,
        version=row.version,
        seed=row.seed,
        game=row.game,
        options=_json(row.options),
        standing=_json(row.standing),
        winners=_json(row.winners),
        rematch_of=getattr(row, "rematch_of", None),
        rematch=getattr(row, "rematch", None),
        queued=bool(getattr(row, "queued", False)),
    )


def _json(value: Any) -> Any:
    """Some drivers hand JSON columns back as text."""
    return msgspec.json.decode(value) if isinstance(value, str) else value
