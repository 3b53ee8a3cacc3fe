"""RFC 9457 problem responses, with stable ``type`` identifiers."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.types import ExceptionHandlersMap
from sqlalchemy.exc import DataError, DBAPIError

from api import metrics, players, queue
from api import service as svc
from api.models import Problem
from api.store import SchemaOutOfDate, StoreUnavailable
from domain.errors import DomainError
from domain.games import GAMES

log = logging.getLogger(__name__)

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:cuccu:problem:"


def slug_of(code: str) -> str:
    """A domain error code's problem type (``not_your_turn``: ``not-your-turn``)."""
    return code.replace("_", "-")


#: domain error code -> (status, problem slug), from every game's ``errors``; a code the
#: games mark 500 (``invalid_pack``, ``match_exists``: the service built a bad command) can
#: come from no request, and is answered as the service's own fault
DOMAIN_ERRORS: dict[str, tuple[int, str]] = {
    code: (kind.status, slug_of(code))
    for game in GAMES.values()
    for code, kind in game.errors.items()
    if kind.status != 500
}

#: every problem type the API answers with, for docs and tests: its own, then the games'
PROBLEM_TYPES = {
    "malformed-request": (400, "Malformed request"),
    "missing-token": (401, "Missing seat token"),
    "unknown-token": (401, "Unknown seat token"),
    "wrong-match": (403, "Token of another match"),
    "match-not-found": (404, "Match not found"),
    "seat-not-found": (404, "Seat not found"),
    "not-found": (404, "Not found"),
    "method-not-allowed": (405, "Method not allowed"),
    "stale-version": (409, "Stale expected_version"),
    "match-not-finished": (409, "Match not finished"),
    "conflict": (409, "Too much contention"),
    "not-in-log": (409, "Not in the transparency log"),
    "body-too-large": (413, "Request body too large"),
    "unsupported-media-type": (415, "Unsupported media type"),
    "validation-error": (422, "Invalid values"),
    "invalid-config": (422, "Invalid match configuration"),
    "unknown-game": (422, "Unknown game"),
    "idempotency-key-reused": (422, "Idempotency key reused"),
    "unknown-precommitment": (422, "Unknown or expired pre-commitment"),
    "precommitment-unusable": (422, "No deck for the pre-commitment"),
    "precommitment-used": (409, "Pre-commitment already used"),
    "size-out-of-range": (422, "Tree size out of range"),
    "rate-limited": (429, "Too many requests"),
    # player accounts (api/players.py)
    "unknown-key": (401, "Unknown or revoked API key"),
    "player-not-found": (404, "Player not found"),
    "name-taken": (409, "Name already taken"),
    "already-seated": (409, "Account already seated in this match"),
    "ticket-not-found": (404, "Queue ticket not found"),
    "database-unavailable": (503, "Database unavailable"),
    "internal-error": (500, "Internal error"),
    **{
        slug_of(code): (kind.status, kind.title)
        for game in GAMES.values()
        for code, kind in game.errors.items()
        if kind.status != 500
    },
}

_BY_STATUS = {
    400: "malformed-request",
    401: "missing-token",
    403: "wrong-match",
    404: "not-found",
    405: "method-not-allowed",
    409: "conflict",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "validation-error",
    429: "rate-limited",
    503: "database-unavailable",
}


#: the ``Retry-After`` (seconds) of a 503: the database is usually back within seconds (a
#: restart, a failover), and clients back off further on their own when it is not
UNAVAILABLE_RETRY_AFTER = 2


class ProblemError(Exception):
    """An HTTP-level refusal raised by the API's own edges (rate limit, request parsing):
    already a status and a problem type. The service raises HTTP-free errors instead."""

    def __init__(self, status: int, slug: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.detail = detail
        self.extra = extra


#: service error -> (status, problem slug); the only place they meet HTTP
SERVICE_ERRORS: dict[type[svc.ServiceError], tuple[int, str]] = {
    svc.MatchNotFound: (404, "match-not-found"),
    svc.SeatNotFound: (404, "seat-not-found"),
    svc.MissingToken: (401, "missing-token"),
    svc.UnknownToken: (401, "unknown-token"),
    svc.WrongMatch: (403, "wrong-match"),
    svc.StaleVersion: (409, "stale-version"),
    svc.TooMuchContention: (409, "conflict"),
    svc.MatchNotFinished: (409, "match-not-finished"),
    svc.IdempotencyKeyReused: (422, "idempotency-key-reused"),
    svc.InvalidRequest: (422, "validation-error"),
    svc.UnknownGame: (422, "unknown-game"),
    svc.InvalidOptions: (422, "invalid-config"),
    svc.PrecommitmentNotFound: (422, "unknown-precommitment"),
    svc.PrecommitmentUnusable: (422, "precommitment-unusable"),
    svc.PrecommitmentUsed: (409, "precommitment-used"),
    players.UnknownKey: (401, "unknown-key"),
    players.PlayerNotFound: (404, "player-not-found"),
    players.NameAlreadyTaken: (409, "name-taken"),
    players.AlreadySeated: (409, "already-seated"),
    players.UnknownRatedGame: (422, "unknown-game"),
    queue.InvalidTable: (422, "invalid-config"),
    queue.TicketNotFound: (404, "ticket-not-found"),
    queue.TicketSeated: (409, "conflict"),
    queue.TicketWaiting: (409, "conflict"),
}


def problem(
    status: int, slug: str, detail: str, *, title: str | None = None, **extra: Any
) -> Response[Problem]:
    body = Problem(
        type=TYPE_PREFIX + slug,
        title=title or PROBLEM_TYPES.get(slug, (status, "Error"))[1],
        status=status,
        detail=detail,
        code=extra.get("code"),
        version=extra.get("version"),
        errors=extra.get("errors"),
    )
    headers = {"WWW-Authenticate": 'Bearer realm="cuccu"'} if status == 401 else None
    retry_after = extra.get("retry_after")
    if retry_after is None and status == 503:
        retry_after = UNAVAILABLE_RETRY_AFTER  # every 503 says when to come back
    if retry_after is not None:
        headers = {"Retry-After": str(retry_after)}
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _with_instance(request: Request[Any, Any, Any], resp: Response[Problem]) -> Response[Problem]:
    assert isinstance(resp.content, Problem)
    resp.content.instance = request.url.path
    return resp


def on_problem_error(request: Request[Any, Any, Any], exc: ProblemError) -> Response[Problem]:
    return _with_instance(request, problem(exc.status, exc.slug, exc.detail, **exc.extra))


def on_service_error(request: Request[Any, Any, Any], exc: svc.ServiceError) -> Response[Problem]:
    status, slug = SERVICE_ERRORS[type(exc)]
    version = exc.version if isinstance(exc, svc.StaleVersion) else None
    return _with_instance(request, problem(status, slug, str(exc), version=version))


def on_domain_error(request: Request[Any, Any, Any], exc: DomainError) -> Response[Problem]:
    found = DOMAIN_ERRORS.get(exc.code)
    if found is None:  # e.g. invalid_pack: the service built a bad command
        log.error("domain refused the service's own command: %r", exc)
        return _with_instance(request, problem(500, "internal-error", "internal error"))
    status, slug = found
    return _with_instance(request, problem(status, slug, exc.message, code=exc.code))


def on_http_exception(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    status = exc.status_code
    if isinstance(exc, ValidationException) or (status == 400 and exc.extra):
        errors = exc.extra if isinstance(exc.extra, list) else None
        detail = "; ".join(
            f"{e.get('key', '')}: {e.get('message', '')}".strip(": ")
            for e in (errors or [])
            if isinstance(e, dict)
        )
        return _with_instance(
            request,
            problem(422, "validation-error", detail or str(exc.detail), errors=errors),
        )
    if status >= 500:
        log.error("internal error: %s", exc.detail)
        return _with_instance(request, problem(500, "internal-error", "internal error"))
    slug = _BY_STATUS.get(status, "malformed-request" if status < 500 else "internal-error")
    detail = str(exc.detail)
    if status == 400:
        detail = f"the request body is not valid JSON or not readable ({exc.detail})"
    elif status == 413:
        detail = "the request body is larger than this service accepts"
    resp = _with_instance(request, problem(status, slug, detail))
    if status == 405 and exc.headers:  # e.g. `Allow: GET, POST` (RFC 9110)
        resp.headers.update(exc.headers)
    return resp


def store_error_kind(exc: BaseException) -> str:
    """The ``error`` label of ``cuccu_store_errors`` for an exception answered 503."""
    if isinstance(exc, StoreUnavailable | OSError):
        return "unavailable"
    if isinstance(exc, SchemaOutOfDate):
        return "schema"
    return "database"


def problem_slug(exc: BaseException) -> str:
    """The problem type (its slug) the exception handlers below answer ``exc`` with."""
    if isinstance(exc, ProblemError):
        return exc.slug
    if isinstance(exc, svc.ServiceError):
        return SERVICE_ERRORS.get(type(exc), (500, "internal-error"))[1]
    if isinstance(exc, DomainError):
        return DOMAIN_ERRORS.get(exc.code, (500, "internal-error"))[1]
    if isinstance(exc, DataError | psycopg.DataError):
        return "validation-error"
    if isinstance(exc, RecursionError):
        return "malformed-request"
    if isinstance(exc, HTTPException):
        if isinstance(exc, ValidationException) or (exc.status_code == 400 and exc.extra):
            return "validation-error"
        return _BY_STATUS.get(exc.status_code, "internal-error")
    if isinstance(exc, StoreUnavailable | DBAPIError | SchemaOutOfDate | OSError):
        return "database-unavailable"
    return "internal-error"


def on_store_unavailable(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    # the exception's text, never its statement's parameters (create_engine: hide_parameters)
    log.warning("database unavailable: %s", exc)
    metrics.store_error(store_error_kind(exc))
    return _with_instance(
        request,
        problem(503, "database-unavailable", "the database cannot be reached; try again later"),
    )


def on_unstorable(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """A value the database refuses to store or compare (e.g. a NUL character): the client's."""
    return _with_instance(
        request, problem(422, "validation-error", "a value in the request cannot be stored")
    )


def on_too_deep(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """JSON nested deeper than the decoder follows (e.g. thousands of ``[``)."""
    return _with_instance(
        request, problem(400, "malformed-request", "the request body is nested too deeply")
    )


def on_internal(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.exception("unhandled error", exc_info=exc)
    return _with_instance(request, problem(500, "internal-error", "internal error"))


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ProblemError: on_problem_error,
    svc.ServiceError: on_service_error,
    DomainError: on_domain_error,
    DataError: on_unstorable,
    RecursionError: on_too_deep,
    psycopg.DataError: on_unstorable,
    HTTPException: on_http_exception,
    StoreUnavailable: on_store_unavailable,
    DBAPIError: on_store_unavailable,
    SchemaOutOfDate: on_store_unavailable,
    OSError: on_store_unavailable,
    Exception: on_internal,
}


def responses(*statuses: int, limited: bool = True) -> dict[int, ResponseSpec]:
    """OpenAPI documentation of the problem responses a route may give.

    ``limited``: the route counts against the per-token rate limit (429, see api.ratelimit).
    """
    out: dict[int, ResponseSpec] = {}
    for status in sorted({*statuses, *((429,) if limited else ())}):
        kinds = [s for s, (st, _) in PROBLEM_TYPES.items() if st == status]
        out[status] = ResponseSpec(
            data_container=Problem,
            description="Problem details (RFC 9457); `type` is one of: "
            + ", ".join(f"`{TYPE_PREFIX}{k}`" for k in kinds)
            + (
                ". The `Retry-After` header gives the seconds to wait. Set with "
                "`CUCCU_RATE_LIMIT` (requests per second per seat token, default 100; 0 turns "
                "it off) and `CUCCU_RATE_BURST` (default 200)."
                if status == 429
                else ""
            )
            + (
                f". The `Retry-After` header gives the seconds to wait ({UNAVAILABLE_RETRY_AFTER}"
                "); retry with backoff, with the same `Idempotency-Key`."
                if status == 503
                else ""
            )
            + (
                ". The limit is `CUCCU_MAX_BODY_BYTES` (default 16384 bytes)."
                if status == 413
                else ""
            ),
            media_type=PROBLEM_JSON,
            generate_examples=False,
        )
    return out
