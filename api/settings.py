"""Settings of the service, read from the environment (``CUCCU_*``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./cuccu.db"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_BODY_BYTES = 16 * 1024
#: requests per second per seat token (0 disables the limit), and the burst allowed above it
DEFAULT_RATE_LIMIT = 100.0
DEFAULT_RATE_BURST = 200

#: every environment variable the service reads; compose.yaml is tested against this list
ENV_VARS = (
    "CUCCU_DATABASE_URL",
    "CUCCU_HOST",
    "CUCCU_PORT",
    "CUCCU_MAX_BODY_BYTES",
    "CUCCU_RATE_LIMIT",
    "CUCCU_RATE_BURST",
    "CUCCU_SSE_KEEPALIVE",
    "CUCCU_API_URL",
    "CUCCU_SIGNING_KEY",
)


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

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if environ is None else environ)
        return cls(
            database_url=normalize_database_url(
                env.get("CUCCU_DATABASE_URL") or DEFAULT_DATABASE_URL
            ),
            host=env.get("CUCCU_HOST") or DEFAULT_HOST,
            port=int(env.get("CUCCU_PORT") or DEFAULT_PORT),
            max_body_bytes=int(env.get("CUCCU_MAX_BODY_BYTES") or DEFAULT_MAX_BODY_BYTES),
            sse_keepalive_seconds=float(env.get("CUCCU_SSE_KEEPALIVE") or 15.0),
            rate_limit_per_second=float(env.get("CUCCU_RATE_LIMIT") or DEFAULT_RATE_LIMIT),
            rate_limit_burst=int(env.get("CUCCU_RATE_BURST") or DEFAULT_RATE_BURST),
            signing_key=env.get("CUCCU_SIGNING_KEY") or "",
        )
