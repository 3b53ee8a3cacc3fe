"""Watching requests: their metrics (Litestar's Prometheus plugin), ids and log lines
(docs/DEPLOY.md, "Watching it").

HTTP requests are measured by the plugin (``litestar.plugins.prometheus``) with
:class:`RouteMetrics` as its middleware: rate, errors and duration per route template
(``/matches/{match_id}/commands``, never a raw path). A live stream
(``/matches/{match_id}/stream``) lasts as long as its client stays: it is counted when it
ends but kept out of the duration histogram and the in-progress gauge; the open ones are
``cuccu_sse_subscribers`` (api.metrics).

A request keeps the ``X-Request-ID`` its client sent when that is a sane short token (1 to 36
letters, digits and ``._:-``: a UUID fits, a seat token, 43 characters, never does), else it
gets a new one; the answer carries it in ``X-Request-ID``. While it is served, every log
record carries its id, and its match id and seat once known (:data:`api.logs.CURRENT`); when
its answer has been sent, the logger ``cuccu.request`` writes one line at info level:
``request_id``, ``method``, ``route`` (the template, ``/matches/{match_id}/commands``),
``status``, ``duration_ms``, and ``match_id`` and ``seat`` where there are. Headers, bodies and
query strings are never logged.
"""

from __future__ import annotations

import itertools
import logging
import os
import re
import sys
import threading
import time
from typing import Any

from litestar.enums import ScopeType
from litestar.plugins.prometheus import PrometheusConfig, PrometheusController
from litestar.plugins.prometheus.middleware import PrometheusMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from api.logs import CURRENT, RequestContext
from api.metrics import REQUEST_BUCKETS, STREAM_ROUTES, UNKNOWN, adder, observer, route_template
from api.problems import ProblemError

log = logging.getLogger("cuccu.request")

HEADER = b"x-request-id"
_SANE_ID = re.compile(rb"[A-Za-z0-9][A-Za-z0-9._:\-]{0,35}")
#: a match id as the service makes them (a UUID); another path value is not logged
_MATCH_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_PREFIX = os.urandom(4).hex() + "-"
#: the scope key under which :func:`watch_requests` keeps the answer's status, the time its
#: last body message was sent (``time.perf_counter``, 0.0 before) and the time the request
#: came in, for :class:`RouteMetrics`
ANSWER = "cuccu.answer"
_counter = itertools.count(1)


def request_id(scope: Scope) -> str:
    """The client's ``X-Request-ID`` if it is sane, else a new one (unique per process run:
    a random prefix drawn at start and a counter)."""
    for name, value in scope.get("headers", ()):
        if name == HEADER:
            value = value.strip()
            if _SANE_ID.fullmatch(value):
                return value.decode("ascii")
            break
    return _PREFIX + format(next(_counter), "x")


#: match ids already found well-formed, and the values of their ``{match_id}`` slices (most
#: requests name a match that earlier ones named; a lookup costs a fifth of the pattern)
_WELL_FORMED: dict[str, bool] = {}
_WELL_FORMED_MAX = 4096


def _well_formed(candidate: str) -> bool:
    known = _WELL_FORMED.get(candidate)
    if known is None:
        if len(_WELL_FORMED) >= _WELL_FORMED_MAX:
            _WELL_FORMED.clear()
        known = _WELL_FORMED[candidate] = _MATCH_ID.fullmatch(candidate) is not None
    return known


def _match_and_seat(path: str) -> tuple[str | None, int | None]:
    """The match id (a well-formed one only) and the claim's seat a path names."""
    # "/matches/" is 9 characters and a match id 36: "/matches/{id}" or "/matches/{id}/..."
    if not path.startswith("/matches/") or (len(path) > 45 and path[45] != "/"):
        return None, None
    match_id = path[9:45]
    if not _well_formed(match_id):
        return None, None
    seat = None
    if path.startswith("/seats/", 45):  # "/matches/{id}/seats/{seat}/claim"
        parts = path.split("/", 6)  # "", "matches", id, "seats", seat, "claim"
        if len(parts) > 4 and parts[4].isdigit() and len(parts[4]) <= 3:
            seat = int(parts[4])
    return match_id, seat


#: what every request line's record holds but its time and fields (``logging.LogRecord``'s
#: attributes, for any formatter; ``taskName`` is Python 3.12's)
_RECORD: dict[str, Any] = {
    "name": log.name, "msg": "request", "args": (), "levelname": "INFO",
    "levelno": logging.INFO, "pathname": "", "filename": "", "module": "", "exc_info": None,
    "exc_text": None, "stack_info": None, "lineno": 0, "funcName": None, "thread": None,
    "threadName": None, "processName": None, "process": None, "taskName": None,
    # for api.logs.JsonFormatter: a request line, whose head is fixed (api.logs.REQUEST_HEAD)
    "request_line": True,
}  # fmt: skip


def request_record(fields: dict[str, Any]) -> logging.LogRecord:
    """The record of one request line, made directly: ``Logger.info`` would look its caller
    up in the stack, and ``LogRecord.__init__`` derive a file and module name from it, for a
    line that shows neither (together half of what a line cost beside its formatting). The
    thread and process are filled in as ``logging``'s switches ask (api.logs turns them off)."""
    record = logging.LogRecord.__new__(logging.LogRecord)
    attrs = record.__dict__
    attrs.update(_RECORD)
    now = time.time()
    attrs["created"] = now
    attrs["msecs"] = int((now - int(now)) * 1000) + 0.0
    attrs["relativeCreated"] = (now - logging._startTime) * 1000  # type: ignore[attr-defined]
    attrs["fields"] = fields
    if logging.logThreads:
        attrs["thread"] = threading.get_ident()
        attrs["threadName"] = threading.current_thread().name
    if logging.logProcesses:
        attrs["process"] = os.getpid()
    if logging.logMultiprocessing:
        mp = sys.modules.get("multiprocessing")
        attrs["processName"] = mp.current_process().name if mp is not None else "MainProcess"
    return record


def watch_requests(app: ASGIApp) -> ASGIApp:
    """Request ids, the request context of log records, and one log line per request, around
    the whole application (``Litestar.asgi_handler``, where Litestar itself puts its CORS and
    OpenTelemetry middleware): every answer passes through it, those of requests that reach no
    route (404, 405) and of the rate limit included."""
    templates: dict[str, str | None] = {}

    async def watched(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await app(scope, receive, send)
            return
        rid = request_id(scope)
        ctx = RequestContext(rid, *_match_and_seat(scope.get("path", "")))
        token = CURRENT.set(ctx)
        start = time.perf_counter()
        answer: list[Any] = [500, 0.0, start]
        scope[ANSWER] = answer  # type: ignore[literal-required]
        header = (b"x-request-id", rid.encode("ascii"))

        async def tagged(message: Message) -> None:
            m: Any = message
            kind = m["type"]
            if kind == "http.response.start":
                answer[0] = m["status"]
                m["headers"] = [*m.get("headers", ()), header]
            elif kind == "http.response.body" and not m.get("more_body", False):
                answer[1] = time.perf_counter()
            await send(message)

        try:
            await app(scope, receive, tagged)
        finally:
            CURRENT.reset(token)
            if log.isEnabledFor(logging.INFO):
                raw = scope.get("path_template") or ""  # set by the router, when it routed
                route = templates.get(raw, "")
                if route == "":
                    route = templates[raw] = route_template(raw) or None
                fields: dict[str, Any] = {
                    "request_id": rid,
                    "method": scope.get("method"),
                    "route": route,
                    "status": answer[0],
                    "duration_ms": round(1000 * ((answer[1] or time.perf_counter()) - start), 3),
                }
                if ctx.match_id is not None:
                    fields["match_id"] = ctx.match_id
                if ctx.seat is not None:
                    fields["seat"] = ctx.seat
                record = request_record(fields)
                # Logger.handle, without its call to an empty filter list
                if not log.disabled and (not log.filters or log.filter(record)):
                    log.callHandlers(record)

    return watched


# --- HTTP: Litestar's Prometheus plugin -----------------------------------------------------


class RouteMetrics(PrometheusMiddleware):
    """The plugin's middleware, per route template, with streams kept apart.

    The plugin's own ``__call__`` builds a ``Request`` and looks every metric and label set
    up again for each request; this one remembers, per label set, the functions that add to
    its series (:func:`api.metrics.adder`, :func:`api.metrics.observer`), and reads the
    answer's status and end from what :func:`watch_requests` (outside it) recorded, instead
    of wrapping ``send`` a second time. Its status is the answer's; a request that raises
    instead of answering (which the application's exception handlers then answer) is counted
    with the status of its :class:`ProblemError`, else 500.
    """

    def __init__(self, app: Any, config: PrometheusConfig) -> None:
        super().__init__(app, config)
        self._templates: dict[str, str] = {}
        # per (method, path, status): add to the count, observe a duration, add to the errors
        self._children: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}
        # per (method, path): add to the in-progress gauge
        self._progress: dict[tuple[str, str], Any] = {}

    def _series(self, method: str, path: str, status: int) -> tuple[Any, Any, Any]:
        key = (method, path, status)
        found = self._children.get(key)
        if found is None:
            labels: dict[str, str | int | float] = {
                "method": method, "path": path, "status_code": status,
                "app_name": self._config.app_name,
            }  # fmt: skip
            values = list(labels.values())
            found = (
                adder(self.request_count(labels).labels(*values)),
                # a stream has no duration series at all (not even an empty one)
                None
                if path in STREAM_ROUTES
                else observer(self.request_time(labels).labels(*values)),
                adder(self.requests_error_count(labels).labels(*values)) if status >= 500 else None,
            )
            self._children[key] = found
        return found

    def _in_progress(self, method: str, path: str) -> Any:
        found = self._progress.get((method, path))
        if found is None:
            labels: dict[str, str | int | float] = {
                "method": method, "path": path, "status_code": 200,
                "app_name": self._config.app_name,
            }  # fmt: skip
            found = adder(self.requests_in_progress(labels).labels(*labels.values()))
            self._progress[(method, path)] = found
        return found

    async def _measure(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:  # the plugin's scopes (PROMETHEUS): HTTP only
            await self.app(scope, receive, send)
            return
        raw = scope.get("path_template") or ""
        path = self._templates.get(raw)
        if path is None:
            path = self._templates[raw] = route_template(raw) or UNKNOWN
        method: str = scope.get("method", "GET")
        answer: list[Any] | None = scope.get(ANSWER)  # type: ignore[assignment]
        if answer is None:  # not behind watch_requests: record the answer here
            answer = [500, 0.0, time.perf_counter()]
            send = _recording(send, answer)
        status: int | None = None
        start: float = answer[2]
        progress = None
        if path not in STREAM_ROUTES:
            progress = self._progress.get((method, path)) or self._in_progress(method, path)
            progress(1)
        try:
            await self.app(scope, receive, send)
        except ProblemError as exc:  # the rate limit's 429, answered by Litestar outside
            status = exc.status
            raise
        finally:
            if progress is not None:
                progress(-1)
            if status is None:
                status = int(answer[0])
            series = self._children.get((method, path, status)) or self._series(
                method, path, status
            )
            count, timing, errors = series
            count(1)
            if timing is not None:
                timing((answer[1] or time.perf_counter()) - start)
            if errors is not None:
                errors(1)


def _recording(send: Send, answer: list[Any]) -> Send:
    """``send``, noting the answer's status and the time its last body message was sent."""

    async def recorded(message: Message) -> None:
        m: Any = message
        kind = m["type"]
        if kind == "http.response.start":
            answer[0] = m["status"]
        elif kind == "http.response.body" and not m.get("more_body", False):
            answer[1] = time.perf_counter()
        await send(message)

    return recorded


# Litestar's AbstractMiddleware wrapped the ``__call__`` of the class above in a check, for
# every request, of the scope type, exclusion patterns and opt keys (a quarter of what this
# middleware cost); this configuration has none of the last two, and ``_measure`` checks the
# scope type itself.
RouteMetrics.__call__ = RouteMetrics._measure  # type: ignore[method-assign,assignment]


PROMETHEUS = PrometheusConfig(
    app_name="cuccu",
    prefix="cuccu_http",
    group_path=True,
    buckets=REQUEST_BUCKETS,
    scopes={ScopeType.HTTP},
    middleware_class=RouteMetrics,
)


class MetricsController(PrometheusController):
    """``GET /metrics``: the plugin's controller (the Prometheus text format; multiprocess
    aware), kept out of the public OpenAPI document; the rate limit does not count it."""

    path = "/metrics"
    include_in_schema = False
