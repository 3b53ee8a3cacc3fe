"""The event store: tables, engine, migrations, appends with optimistic concurrency."""

from api.store.chain import ChainBroken, verify_chain
from api.store.db import create_engine, is_sqlite
from api.store.events import EventStore
from api.store.migrate import SchemaOutOfDate, check_schema, upgrade, upgrade_database
from api.store.notify import Notifier, PgListener
from api.store.records import (
    CLAIM_FINGERPRINT_PREFIX,
    ConcurrencyError,
    CreationRecord,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    StoredEvent,
    StoreUnavailable,
)

__all__ = [
    "CLAIM_FINGERPRINT_PREFIX",
    "ChainBroken",
    "ConcurrencyError",
    "CreationRecord",
    "EventStore",
    "IdempotencyRecord",
    "MatchRecord",
    "MatchSummary",
    "NewMatch",
    "Notifier",
    "PgListener",
    "SchemaOutOfDate",
    "StoreUnavailable",
    "StoredEvent",
    "check_schema",
    "create_engine",
    "is_sqlite",
    "upgrade",
    "upgrade_database",
    "verify_chain",
]
