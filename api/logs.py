"""The service's logs: one line per record, JSON objects or text for people (docs/DEPLOY.md,
"Watching it").

Every record of every logger (``cuccu``, uvicorn's, SQLAlchemy's, asyncio's) goes through one
handler on the root logger whose formatter is structlog's ``ProcessorFormatter``: JSON when
``CUCCU_LOG_FORMAT=json`` (or ``auto`` and standard error is not a terminal), structlog's
console renderer for ``text`` (or ``auto`` on a terminal). ``cuccu run`` hands the
configuration to uvicorn (``log_config``), which applies it in each of its processes.

Each request is one record of the logger ``cuccu.request`` at info level, written when its
answer is sent (:mod:`api.observe`): the request id, method, route template, status,
duration, and the match id and seat where the request has them. A record logged while a
request is being served carries that request's id, match id and seat too.

Nothing here logs a header, a body or a query string: a seat token, a creation's
Idempotency-Key, a card or a salt never reaches a log line through this module.
"""

from __future__ import annotations

import contextvars
import logging
import os
import sys
import time
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

import msgspec

EventDict = MutableMapping[str, Any]


@dataclass(slots=True)
class RequestContext:
    """What the log knows of the request being served (set by :mod:`api.observe`)."""

    request_id: str
    match_id: str | None = None
    seat: int | None = None


#: the request being served in this task, if any
CURRENT: contextvars.ContextVar[RequestContext | None] = contextvars.ContextVar(
    "cuccu_request", default=None
)


def note_seat(seat: int | None) -> None:
    """Record the caller's seat on the request being served (for its log line)."""
    ctx = CURRENT.get()
    if ctx is not None and seat is not None:
        ctx.seat = seat


def wants_json(fmt: str, stream: Any = None) -> bool:
    """Whether ``fmt`` (a ``CUCCU_LOG_FORMAT`` value) means JSON on ``stream`` (stderr)."""
    if fmt == "json":
        return True
    if fmt == "text":
        return False
    stream = sys.stderr if stream is None else stream
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return True


# --- structlog processors ------------------------------------------------------------------


def _add_request(_logger: Any, _name: str, event: EventDict) -> EventDict:
    """Add the id, match and seat of the request being served, unless the record has them."""
    ctx = CURRENT.get()
    if ctx is not None:
        event.setdefault("request_id", ctx.request_id)
        if ctx.match_id is not None:
            event.setdefault("match_id", ctx.match_id)
        if ctx.seat is not None:
            event.setdefault("seat", ctx.seat)
    return event


#: the fields a ``cuccu.request`` record passes in ``extra={"fields": {...}}``
def _add_fields(_logger: Any, _name: str, event: EventDict) -> EventDict:
    record = event.get("_record")
    fields = getattr(record, "fields", None)
    if isinstance(fields, dict):
        event.update(fields)
    return event


#: the second last stamped, and its text (most lines share their second with the one before)
_second: tuple[int, str] = (-1, "")


#: the milliseconds' part of a stamp, by milliseconds (one lookup, not a formatting)
_MILLIS = [f".{ms:03d}Z" for ms in range(1000)]


def _stamp(created: float) -> str:
    """ISO 8601 in UTC with milliseconds: ``2026-12-01T22:17:27.276Z``."""
    global _second
    whole = int(created)
    second, text = _second
    if whole != second:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
        _second = (whole, text)
    return text + _MILLIS[int(created * 1000) % 1000]


def _utc_stamp(_logger: Any, _name: str, event: EventDict) -> EventDict:
    record = event.get("_record")
    event["timestamp"] = _stamp(record.created if record is not None else time.time())
    return event


_ENCODER = msgspec.json.Encoder(enc_hook=str)


def _json(obj: Any, **_kw: Any) -> str:
    return _ENCODER.encode(obj).decode()


def formatter(json: bool = True) -> logging.Formatter:
    """The formatter of every log line (a ``logging.config`` factory, see :func:`log_config`)."""
    import structlog

    # no line shows a record's thread, process or multiprocessing names: do not collect them
    # (each record would look them up; this process's logging is configured here, once)
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False

    pre_chain: list[Any] = [
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        _utc_stamp,
        _add_fields,
        _add_request,
    ]
    renderer: Any
    if json:
        renderer = structlog.processors.JSONRenderer(serializer=_json)
        # a traceback as one string field (plain: no local variables, which may hold secrets)
        tail: list[Any] = [structlog.processors.format_exc_info, renderer]
    else:
        renderer = structlog.dev.ConsoleRenderer(
            colors=_colors(), exception_formatter=structlog.dev.plain_traceback
        )
        tail = [renderer]
    _configure_structlog()
    structured = structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=pre_chain,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *tail],
    )
    return JsonFormatter(structured) if json else structured


#: what every request line (api.observe's ``request_record``) starts with
REQUEST_HEAD = {"event": "request", "level": "info", "logger": "cuccu.request"}


class JsonFormatter(logging.Formatter):
    """The JSON lines of standard-library records, built directly (the same fields as
    structlog's ``ProcessorFormatter`` above, for about half its cost: it copies each record
    and runs a chain of processors); records that structlog made go through ``structured``."""

    def __init__(self, structured: logging.Formatter) -> None:
        super().__init__()
        self.structured = structured

    def format(self, record: logging.LogRecord) -> str:
        attrs = record.__dict__
        if attrs.get("request_line"):  # api.observe's line: a fixed head, its fields, no error
            line = {**REQUEST_HEAD, "timestamp": _stamp(record.created), **attrs["fields"]}
            return _ENCODER.encode(line).decode()
        if isinstance(record.msg, dict):  # a structlog logger's record (wrap_for_formatter)
            return self.structured.format(record)
        event: dict[str, Any] = {
            "event": record.getMessage(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "timestamp": _stamp(record.created),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            event.update(fields)
        if CURRENT.get() is not None:
            _add_request(None, "", event)
        if record.exc_info:
            event["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            event["exception"] = record.exc_text
        if record.stack_info:
            event["stack"] = self.formatStack(record.stack_info)
        return _ENCODER.encode(event).decode()


class LineHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A ``StreamHandler`` whose ``emit`` writes and flushes the line under the lock that
    ``Handler.handle`` already holds, without ``flush`` taking it again (three calls fewer
    for each line, on every request's); and whose ``handle`` calls neither an empty filter
    list nor ``acquire`` and ``release`` (three Python calls around every line's lock)."""

    def handle(self, record: logging.LogRecord) -> bool:
        if self.filters:  # a filter may drop (or, from Python 3.12, replace) the record
            return super().handle(record)
        lock = self.lock
        if lock is None:
            self.emit(record)
        else:
            with lock:
                self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = self.stream
            stream.write((self.formatter or _PLAIN).format(record) + self.terminator)
            stream.flush()
        except RecursionError:  # as StreamHandler.emit does
            raise
        except Exception:
            self.handleError(record)


_PLAIN = logging.Formatter()


def _colors() -> bool:
    try:
        return sys.stderr.isatty() and "NO_COLOR" not in os.environ
    except (AttributeError, ValueError):
        return False


def _stdlib_logger(*args: Any) -> logging.Logger:
    return logging.getLogger(args[0] if args and isinstance(args[0], str) else "cuccu")


def _configure_structlog() -> None:
    """structlog's own loggers (``structlog.get_logger()``) write through the same handler."""
    import structlog

    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.stdlib.add_log_level,
            structlog.stdlib.add_logger_name,
            _utc_stamp,
            _add_request,
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        # not structlog.stdlib.LoggerFactory: it makes every stdlib logger of the process look
        # its caller up through structlog (a third of a request line's cost), for fields these
        # lines do not show
        logger_factory=_stdlib_logger,
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def log_config(fmt: str, level: str = "info") -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of a server process (uvicorn's ``log_config``).

    uvicorn's own loggers propagate to the root's one handler (standard error), and its access
    log is off: each request's line is the service's own (``cuccu.request``).
    """
    numeric = logging.getLevelName(level.upper())
    level_name = level.upper() if isinstance(numeric, int) else "INFO"
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "cuccu": {"()": "api.logs.formatter", "json": wants_json(fmt)},
        },
        "handlers": {
            "cuccu": {
                "class": "api.logs.LineHandler",
                "formatter": "cuccu",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["cuccu"], "level": level_name},
        "loggers": {
            name: {"handlers": [], "propagate": True, "level": level_name}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "cuccu")
        },
    }


def say(message: str, *, json: bool) -> None:
    """A line of the ``cuccu run`` command itself (its banner): printed to standard output,
    as a log object when the logs are JSON, so that every line of a JSON run parses."""
    if json:
        stamp = _utc_stamp(None, "", {"_record": None})["timestamp"]
        line = _json({"event": message, "level": "info", "logger": "cuccu.cli", "timestamp": stamp})
        print(line, flush=True)
    else:
        print(message, flush=True)
