"""A per-token rate limit: a token bucket per seat token, in each API process.

Every request that carries ``Authorization: Bearer <token>`` (valid or not, so guessing tokens
is throttled too) takes one unit from that token's bucket, which holds ``burst`` units and
refills at ``rate`` units per second. An empty bucket answers 429 with ``Retry-After``.
Requests without a token, and ``/health``, ``/ready``, ``/schema`` and ``/metrics``, are not
counted.
Buckets live in the process: with N API processes a token may send up to N times the rate.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Receive, Scope, Send

from api.problems import ProblemError

#: buckets kept before the full (idle) ones are forgotten
MAX_BUCKETS = 100_000
EXEMPT_PREFIXES = ("/health", "/ready", "/schema", "/metrics")


class TokenBuckets:
    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (units, at)

    def take(self, key: str) -> float:
        """Take one unit for ``key``: 0.0 when allowed, else the seconds until one is back."""
        now = self.clock()
        units, at = self._buckets.get(key, (float(self.burst), now))
        units = min(float(self.burst), units + (now - at) * self.rate)
        if units >= 1.0:
            self._buckets[key] = (units - 1.0, now)
            if len(self._buckets) > MAX_BUCKETS:
                self._forget_full(now)
            return 0.0
        self._buckets[key] = (units, now)
        return (1.0 - units) / self.rate

    def _forget_full(self, now: float) -> None:
        full = [
            k for k, (u, at) in self._buckets.items() if u + (now - at) * self.rate >= self.burst
        ]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) > MAX_BUCKETS:  # still too many: start afresh
            self._buckets.clear()


def bearer_key(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.strip().partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return hashlib.sha256(token.strip()).hexdigest()
            return None
    return None


def rate_limit_middleware(rate: float, burst: int) -> Callable[[ASGIApp], ASGIApp]:
    """Litestar middleware factory; ``rate <= 0`` disables the limit."""
    buckets = TokenBuckets(rate, burst) if rate > 0 else None

    def factory(app: ASGIApp) -> ASGIApp:
        if buckets is None:
            return app

        async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == ScopeType.HTTP and not scope["path"].startswith(EXEMPT_PREFIXES):
                key = bearer_key(scope)
                if key is not None:
                    wait = buckets.take(key)
                    if wait > 0:
                        retry_after = max(1, math.ceil(wait))
                        raise ProblemError(
                            429,
                            "rate-limited",
                            f"this seat token may send {buckets.rate:g} requests per second "
                            f"(bursts of {buckets.burst}); retry after {retry_after} s",
                            retry_after=retry_after,
                        )
            await app(scope, receive, send)

        return middleware

    return factory
