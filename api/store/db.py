"""Engine creation for the two supported databases."""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from api.settings import (
    DEFAULT_DB_CONNECT_TIMEOUT,
    DEFAULT_DB_MAX_OVERFLOW,
    DEFAULT_DB_POOL_SIZE,
    DEFAULT_DB_POOL_TIMEOUT,
    Settings,
    normalize_database_url,
)


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


def _json_text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def create_engine(
    url: str,
    *,
    pool_size: int = DEFAULT_DB_POOL_SIZE,
    max_overflow: int = DEFAULT_DB_MAX_OVERFLOW,
    pool_timeout: float = DEFAULT_DB_POOL_TIMEOUT,
    connect_timeout: int = DEFAULT_DB_CONNECT_TIMEOUT,
    **kwargs: Any,
) -> AsyncEngine:
    """An async engine for ``url`` (psycopg 3 for PostgreSQL, aiosqlite for SQLite); the pool
    sizes and timeouts apply to PostgreSQL (``CUCCU_DB_*``, :func:`engine_options`)."""
    url = normalize_database_url(url)
    # an error's text (logged, e.g. "database unavailable: ...") names the statement but never
    # its parameters: they hold events (cards, salts) and token hashes
    kwargs.setdefault("hide_parameters", True)
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30}, **kwargs)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    # No pool_pre_ping: it costs a round trip per checkout. A pooled connection that died
    # (database restart) fails its first statement instead; the store retries reads once and
    # retries a commit whose COMMIT was never sent, and SQLAlchemy then recycles the whole pool.
    return create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=max_overflow,
        pool_timeout=pool_timeout,
        json_serializer=_json_text,
        connect_args={"connect_timeout": connect_timeout},
        **kwargs,
    )


def engine_options(settings: Settings) -> dict[str, Any]:
    """:func:`create_engine`'s pool options from the settings."""
    return {
        "pool_size": settings.db_pool_size,
        "max_overflow": settings.db_max_overflow,
        "pool_timeout": settings.db_pool_timeout,
        "connect_timeout": settings.db_connect_timeout,
    }


def libpq_conninfo(url: str) -> str:
    """A plain ``postgresql://`` URI for psycopg itself (LISTEN/NOTIFY)."""
    return (
        make_url(normalize_database_url(url))
        .set(drivername="postgresql")
        .render_as_string(hide_password=False)
    )


def admin_connection(
    url: URL, dbname: str | None = None, *, autocommit: bool = True, **kwargs: Any
) -> Any:
    """A plain (sync) psycopg connection to the PostgreSQL server of ``url``, on ``dbname`` or
    the URL's own database: for what an engine is not for, such as creating and dropping
    databases or bulk COPY (the benches and the test fixtures). ``kwargs`` go to psycopg."""
    import psycopg

    return psycopg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        dbname=dbname or url.database or "postgres",
        autocommit=autocommit,
        **kwargs,
    )
