"""The service's Prometheus metrics, served at ``/metrics`` (docs/DEPLOY.md, "Watching it").

HTTP requests are measured by Litestar's Prometheus plugin (api.observe, ``cuccu_http_*``);
the service's own metrics are here. No label ever holds a match id, a seat token, a card or
a salt: every label takes its values from a short fixed set (games, outcomes, problem types,
route templates, status codes), so the number of series stays bounded and nothing secret is
exposed.

With ``cuccu run --workers N`` (N > 1) the processes write their values to files in
``PROMETHEUS_MULTIPROC_DIR`` (a temporary directory ``cuccu run`` makes for the run, unless
the variable is set) and whichever process answers ``/metrics`` sums them
(prometheus_client's multiprocess mode).
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

# no ``*_created`` series (the start of each series): half the text for nothing
disable_created_metrics()  # type: ignore[no-untyped-call]

#: the route whose requests are streams: counted, never timed
STREAM_ROUTES = frozenset({"/matches/{match_id}/stream"})
#: request durations (seconds): fine below 25 ms, where the service's p99 target lies
REQUEST_BUCKETS: list[str | float] = [
    0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
]  # fmt: skip
BOT_BUCKETS = (0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
UNKNOWN = "unknown"


def multiprocess() -> bool:
    return "PROMETHEUS_MULTIPROC_DIR" in os.environ or "prometheus_multiproc_dir" in os.environ


# --- the service's own metrics --------------------------------------------------------------

COMMANDS = Counter(
    "cuccu_commands",
    "Seat commands answered (POST /matches/{match_id}/commands), by game and outcome: ok "
    "(idempotent replays included), conflict (stale-version or conflict: the version lock), "
    "refused (problem: the problem type's slug)",
    ["game", "outcome", "problem"],
)
OCC_RETRIES = Counter(
    "cuccu_occ_retries",
    "Optimistic-concurrency retries: a write that found its stream moved on (another request "
    "appended first), decided again on the newer state",
    ["operation"],
)
REPLAYS = Counter(
    "cuccu_idempotent_replays",
    "Requests answered again from an earlier one with the same Idempotency-Key",
    ["operation"],
)
BOT_QUEUE = Gauge(
    "cuccu_bot_pool_queue_length",
    "Tables handed to the bot worker pool and not yet back (waiting or being played)",
    multiprocess_mode="livesum",
)
BOT_TURNS = Histogram(
    "cuccu_bot_turns_seconds",
    "Time of the bot (and dealer) turns that follow one command or creation, in the worker "
    "pool (where=pool, waiting included) or in place (where=inline)",
    ["where"],
    buckets=BOT_BUCKETS,
)
SEALS = Counter(
    "cuccu_seals",
    "Seals (signatures) written: kind final in the commit that ends a match, legacy for a "
    "match that ended before signatures existed, sealed at its first export",
    ["kind"],
)
SSE_SUBSCRIBERS = Gauge(
    "cuccu_sse_subscribers",
    "Open live streams (GET /matches/{match_id}/stream)",
    multiprocess_mode="livesum",
)
STORE_ERRORS = Counter(
    "cuccu_store_errors",
    "Requests or streams cut by the database: unavailable (an outage, answered 503), "
    "schema (out of date), database (another database error)",
    ["error"],
)
WRITERS_IN_USE = Gauge(
    "cuccu_writer_pool_in_use",
    "PostgreSQL writer connections (the pipelined append's pool) in use now",
    multiprocess_mode="livesum",
)
WRITERS_MAX = Gauge(
    "cuccu_writer_pool_max",
    "The size limit of the PostgreSQL writer pools (summed over processes)",
    multiprocess_mode="livesum",
)

REPLICA_READS = Counter(
    "cuccu_replica_reads",
    "Reads of finished matches (exports, events, the list of finished matches) with "
    "CUCCU_READ_DATABASE_URL set, by who answered: replica, primary (the replica had not seen "
    "the match end, or the match goes on) or unavailable (the replica failed; the primary "
    "answered)",
    ["served_by"],
)


def adder(child: Any) -> Callable[[float], None]:
    """``child.inc`` (a counter's or a gauge's labelled child), without its checks on the way.

    prometheus_client's ``inc`` checks that the metric is observable, the amount non-negative
    and an exemplar valid, three Python calls before the one that adds; the callers here add
    fixed amounts to children they made, so they call the value's own ``inc`` (its lock
    kept). A client version without that value falls back to the public method.
    """
    value: Any = getattr(child, "_value", None)
    add: Callable[[float], None] = value.inc if hasattr(value, "inc") else child.inc
    return add


def observer(child: Any) -> Callable[[float], None]:
    """``child.observe`` (a histogram's labelled child), without its checks and its walk over
    the buckets: the bucket is found by bisection, the sum and that bucket's count added to
    (what ``observe`` does, without an exemplar). Falls back to ``observe`` as :func:`adder`
    does."""
    total = getattr(child, "_sum", None)
    bounds = getattr(child, "_upper_bounds", None)
    buckets = getattr(child, "_buckets", None)
    if not (hasattr(total, "inc") and isinstance(bounds, list) and isinstance(buckets, list)):
        return child.observe  # type: ignore[no-any-return]
    add = total.inc  # type: ignore[union-attr]
    counts = [bucket.inc for bucket in buckets]
    bounds = list(bounds)  # the last is +Inf: every amount (NaN aside) finds its bucket

    def observe(amount: float) -> None:
        add(amount)
        counts[bisect_left(bounds, amount)](1)

    return observe


def _cached(metric: Any, use: Callable[[Any], Callable[[float], None]]) -> Callable[..., Any]:
    """``use(metric.labels(*values))``, remembered (a label set is looked up once, not per
    use)."""
    children: dict[tuple[str, ...], Callable[[float], None]] = {}

    def child(*values: str) -> Callable[[float], None]:
        found = children.get(values)
        if found is None:
            found = children[values] = use(metric.labels(*values))
        return found

    return child


_commands = _cached(COMMANDS, adder)
_retries = _cached(OCC_RETRIES, adder)
_replays = _cached(REPLAYS, adder)
_bot_turns = _cached(BOT_TURNS, observer)
_seals = _cached(SEALS, adder)
_store_errors = _cached(STORE_ERRORS, adder)
_replica_reads = _cached(REPLICA_READS, adder)

#: problem slugs that are the version lock's refusals
CONFLICTS = frozenset({"stale-version", "conflict"})


def command_answered(game: str | None, problem: str | None = None) -> None:
    """One command answered: ``problem`` None for a success, else its problem type's slug."""
    if problem is None:
        _commands(game or UNKNOWN, "ok", "")(1)
    elif problem in CONFLICTS:
        _commands(game or UNKNOWN, "conflict", problem)(1)
    else:
        _commands(game or UNKNOWN, "refused", problem)(1)


def retried(operation: str) -> None:
    _retries(operation)(1)


def replayed(operation: str) -> None:
    _replays(operation)(1)


def bot_turns(where: str, seconds: float) -> None:
    _bot_turns(where)(seconds)


def sealed(kind: str = "final") -> None:
    _seals(kind)(1)


def store_error(error: str) -> None:
    _store_errors(error)(1)


def replica_read(served_by: str) -> None:
    _replica_reads(served_by)(1)


def route_template(template: str) -> str:
    """``/matches/{match_id:str}`` -> ``/matches/{match_id}`` (the OpenAPI spelling)."""
    out, depth, skipping = [], 0, False
    for ch in template:
        if ch == "{":
            depth, skipping = depth + 1, False
        elif ch == "}":
            depth, skipping = depth - 1, False
        elif ch == ":" and depth:
            skipping = True
            continue
        if not skipping:
            out.append(ch)
    return "".join(out)
