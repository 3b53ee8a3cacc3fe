"""Settings of the service, read from the environment (``CUCCU_*``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from api.faults import CRASH_POINTS

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./cuccu.db"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_BODY_BYTES = 16 * 1024
#: requests per second per seat token (0 disables the limit), and the burst allowed above it
DEFAULT_RATE_LIMIT = 100.0
DEFAULT_RATE_BURST = 200
#: worker processes for expert bots (api.bots_pool); 0 plays every table on the event loop
DEFAULT_BOT_WORKERS = 2
#: connections of one API process to PostgreSQL (api/store/db.py, api/store/events.py): the
#: SQLAlchemy pool (reads, claims, large appends) and its overflow, the psycopg pool of the
#: one-statement append, and the seconds each waits for a free connection; one more connection
#: listens for NOTIFY. The same pool sizes apply to the read replica's engine, if any.
DEFAULT_DB_POOL_SIZE = 10
DEFAULT_DB_MAX_OVERFLOW = 10
DEFAULT_DB_POOL_TIMEOUT = 30.0
DEFAULT_DB_WRITERS = 10
DEFAULT_DB_WRITER_WAIT = 0.5
DEFAULT_DB_CONNECT_TIMEOUT = 5
#: the transparency log's name: its checkpoints' origin line and its key's name
DEFAULT_LOG_ORIGIN = "cuccu.local/log"

#: every environment variable the service reads; compose.yaml is tested against this list
ENV_VARS = (
    "CUCCU_DATABASE_URL",
    "CUCCU_READ_DATABASE_URL",
    "CUCCU_DB_POOL_SIZE",
    "CUCCU_DB_MAX_OVERFLOW",
    "CUCCU_DB_POOL_TIMEOUT",
    "CUCCU_DB_WRITERS",
    "CUCCU_DB_WRITER_WAIT",
    "CUCCU_DB_CONNECT_TIMEOUT",
    "CUCCU_HOST",
    "CUCCU_PORT",
    "CUCCU_MAX_BODY_BYTES",
    "CUCCU_RATE_LIMIT",
    "CUCCU_RATE_BURST",
    "CUCCU_SSE_KEEPALIVE",
    "CUCCU_BOT_WORKERS",
    "CUCCU_API_URL",
    "CUCCU_SIGNING_KEY",
    "CUCCU_LOG_ORIGIN",
    "CUCCU_CRASH_AT",
    "CUCCU_LOG_FORMAT",
)
#: ``CUCCU_LOG_FORMAT``: JSON lines, text for people, or ``auto`` (text on a terminal, else
#: JSON); api/logs.py
LOG_FORMATS = ("auto", "json", "text")


def normalize_database_url(url: str) -> str:
    """Map plain URLs onto the async drivers the service uses.

    ``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``;
    ``sqlite://`` becomes ``sqlite+aiosqlite://``.
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url


T = TypeVar("T", int, float)


class SettingError(ValueError):
    """An environment variable whose value the service cannot use; the message names it."""


def _number(env: Mapping[str, str], name: str, kind: Callable[[str], T], default: T) -> T:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = kind(raw.strip())
    except ValueError:
        what = "an integer" if kind is int else "a number"
        raise SettingError(f"{name}={raw!r} is not {what}") from None
    if value < 0:
        raise SettingError(f"{name}={raw!r} must not be negative")
    return value


def _at_least(env: Mapping[str, str], name: str, kind: Callable[[str], T], default: T, low: T) -> T:
    """:func:`_number`, refusing values below ``low`` (a pool of 0 connections serves no one)."""
    value = _number(env, name, kind, default)
    if value < low:
        raise SettingError(f"{name}={env.get(name)!r} must be at least {low}")
    return value


def _read_database_url(raw: str, primary: str) -> str:
    """``CUCCU_READ_DATABASE_URL``: "" (reads from the primary) or a PostgreSQL URL, as the
    primary's must be (a SQLite file has no replica)."""
    raw = raw.strip()
    if not raw:
        return ""
    url = normalize_database_url(raw)
    if not url.startswith("postgresql+psycopg://") or not primary.startswith("postgresql"):
        raise SettingError(
            "CUCCU_READ_DATABASE_URL needs PostgreSQL URLs, for it and for CUCCU_DATABASE_URL"
        )
    return url


def _crash_points(raw: str) -> frozenset[str]:
    points = frozenset(p.strip() for p in raw.split(",") if p.strip())
    if unknown := sorted(points - CRASH_POINTS):
        known = ", ".join(sorted(CRASH_POINTS))
        raise SettingError(f"CUCCU_CRASH_AT names unknown crash points {unknown}; known: {known}")
    return points


def _log_format(raw: str) -> str:
    value = raw.strip().lower() or "auto"
    if value not in LOG_FORMATS:
        raise SettingError(f"CUCCU_LOG_FORMAT={raw!r} is not one of: {', '.join(LOG_FORMATS)}")
    return value


def _log_origin(raw: str) -> str:
    """A checkpoint's origin is also its key's name: no space, no '+', nothing unprintable."""
    value = raw.strip()
    if "+" in value or any(c.isspace() or not c.isprintable() for c in value):
        raise SettingError(f"CUCCU_LOG_ORIGIN={raw!r}: no spaces or '+' (e.g. example.org/log)")
    return value


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE_URL
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    sse_keepalive_seconds: float = 15.0
    rate_limit_per_second: float = DEFAULT_RATE_LIMIT
    rate_limit_burst: int = DEFAULT_RATE_BURST
    #: the Ed25519 key that signs finished matches; "" = beside a SQLite file (api/signing.py)
    signing_key: str = ""
    #: the transparency log's origin (docs/API.md, "Transparency log"): name it after the host
    log_origin: str = DEFAULT_LOG_ORIGIN
    bot_workers: int = DEFAULT_BOT_WORKERS
    #: crash points a test arms (api/faults.py); empty outside tests
    crash_at: frozenset[str] = frozenset()
    #: the log lines' format: "auto" (text on a terminal, else JSON), "json" or "text"
    log_format: str = "auto"
    #: a PostgreSQL standby (or a router to standbys) for what never changes once a match is
    #: over; "" reads everything from ``database_url`` (docs/DEPLOY.md, "Reads from replicas")
    read_database_url: str = ""
    db_pool_size: int = DEFAULT_DB_POOL_SIZE
    db_max_overflow: int = DEFAULT_DB_MAX_OVERFLOW
    db_pool_timeout: float = DEFAULT_DB_POOL_TIMEOUT
    db_writers: int = DEFAULT_DB_WRITERS
    db_writer_wait: float = DEFAULT_DB_WRITER_WAIT
    #: whole seconds (libpq's connect_timeout)
    db_connect_timeout: int = DEFAULT_DB_CONNECT_TIMEOUT

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """The settings from ``CUCCU_*`` variables; :class:`SettingError` names a malformed one."""
        env = dict(os.environ if environ is None else environ)
        database_url = normalize_database_url(env.get("CUCCU_DATABASE_URL") or DEFAULT_DATABASE_URL)
        return cls(
            database_url=database_url,
            read_database_url=_read_database_url(
                env.get("CUCCU_READ_DATABASE_URL") or "", database_url
            ),
            db_pool_size=_at_least(env, "CUCCU_DB_POOL_SIZE", int, DEFAULT_DB_POOL_SIZE, 1),
            db_max_overflow=_number(env, "CUCCU_DB_MAX_OVERFLOW", int, DEFAULT_DB_MAX_OVERFLOW),
            db_pool_timeout=_at_least(
                env, "CUCCU_DB_POOL_TIMEOUT", float, DEFAULT_DB_POOL_TIMEOUT, 0.001
            ),
            db_writers=_at_least(env, "CUCCU_DB_WRITERS", int, DEFAULT_DB_WRITERS, 1),
            db_writer_wait=_at_least(
                env, "CUCCU_DB_WRITER_WAIT", float, DEFAULT_DB_WRITER_WAIT, 0.001
            ),
            db_connect_timeout=_at_least(
                env, "CUCCU_DB_CONNECT_TIMEOUT", int, DEFAULT_DB_CONNECT_TIMEOUT, 1
            ),
            host=env.get("CUCCU_HOST") or DEFAULT_HOST,
            port=_number(env, "CUCCU_PORT", int, DEFAULT_PORT),
            max_body_bytes=_number(env, "CUCCU_MAX_BODY_BYTES", int, DEFAULT_MAX_BODY_BYTES),
            sse_keepalive_seconds=_number(env, "CUCCU_SSE_KEEPALIVE", float, 15.0),
            rate_limit_per_second=_number(env, "CUCCU_RATE_LIMIT", float, DEFAULT_RATE_LIMIT),
            rate_limit_burst=_number(env, "CUCCU_RATE_BURST", int, DEFAULT_RATE_BURST),
            bot_workers=_number(env, "CUCCU_BOT_WORKERS", int, DEFAULT_BOT_WORKERS),
            signing_key=env.get("CUCCU_SIGNING_KEY") or "",
            log_origin=_log_origin(env.get("CUCCU_LOG_ORIGIN") or DEFAULT_LOG_ORIGIN),
            crash_at=_crash_points(env.get("CUCCU_CRASH_AT") or ""),
            log_format=_log_format(env.get("CUCCU_LOG_FORMAT") or ""),
        )
