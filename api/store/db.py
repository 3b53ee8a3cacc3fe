"""Engine creation for the two supported databases."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from api.settings import normalize_database_url


def is_sqlite(url: str) -> bool:
    return make_url(normalize_database_url(url)).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
    finally:
        cursor.close()


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for ``url`` (psycopg 3 for PostgreSQL, aiosqlite for SQLite)."""
    url = normalize_database_url(url)
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30}, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(
        url,
        pool_pre_ping=True,
        pool_size=10,
        max_overflow=10,
        connect_args={"connect_timeout": 5},
        **kwargs,
    )


def libpq_conninfo(url: str) -> str:
    """A plain ``postgresql://`` URI for psycopg itself (LISTEN/NOTIFY)."""
    return (
        make_url(normalize_database_url(url))
        .set(drivername="postgresql")
        .render_as_string(hide_password=False)
    )
