"""The event store: tables, engine, migrations, appends with optimistic concurrency."""

from api.store.db import create_engine, is_sqlite
from api.store.events import (
    CLAIM_FINGERPRINT_PREFIX,
    ChainBroken,
    ConcurrencyError,
    CreationRecord,
    EventStore,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    StoredEvent,
    StoreUnavailable,
    verify_chain,
)
from api.store.migrate import SchemaOutOfDate, check_schema, upgrade, upgrade_database
from api.store.notify import Notifier, PgListener

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
