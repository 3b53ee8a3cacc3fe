"""A typed Python client for the Cuccù match service, sync and async, built on httpx.

It needs only httpx and the standard library: importing it imports neither the service nor
the rules (``domain``). It is installable on its own as the ``cuccu-client`` distribution
(``clients/python``, module ``cuccu_client``), and it names no game: a match's game, its
options and its views are whatever the server says (``docs/API.md``). It covers every
endpoint of the API:

- :class:`Client` (sync) and :class:`AsyncClient` (async) with the same methods, written once:
  each endpoint is a generator that yields what it needs done (send a request, sleep, open a
  stream, read a line, hand an item over) and each client is a small runner of those steps,
  the sync one blocking, the async one awaiting;
- every creation, command and claim carries an ``Idempotency-Key`` generated for it and
  reused on its retries (a retried creation answers the same match and tokens);
- 429 and 503 answers are retried with exponential backoff and jitter, waiting at least what
  ``Retry-After`` asks; so are connection failures, where a retry cannot do harm;
- :meth:`Client.stream` follows a match over Server-Sent Events and reconnects by itself,
  resuming after the last event it delivered (``Last-Event-ID``), until the server's ``end``
  message says the match is over (API 0.8.0);
- errors are raised as :class:`ApiError` (a subclass per status) carrying the RFC 9457 problem:
  ``type``, ``status``, ``title``, ``detail``, ``code`` and ``version``.

Example::

    from api.client import Client, bot, open_seat   # installed alone: from cuccu_client import …

    with Client("http://127.0.0.1:8000") as c:
        created = c.create_match([open_seat(), bot("Bo"), bot("Cy"), bot("Di")])
        mine = c.claim_seat(created["match_id"], 0, "Ann")  # the client now uses its token
        for message in c.stream(created["match_id"]):
            ...
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import json
import os
import random
import ssl
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import (
    Any,
    Concatenate,
    Generic,
    Literal,
    NotRequired,
    ParamSpec,
    TypeAlias,
    TypedDict,
    TypeVar,
    cast,
)  # fmt: skip

import httpx

__all__ = [
    "PROBLEM_PREFIX", "ApiError", "AnyView", "AsyncClient", "BadRequest", "Client",
    "ClaimedSeat", "CommandOut", "Conflict", "CreateMatchBody", "CreatedMatch", "EventOut",
    "EventPage", "ExportLine", "Forbidden", "MatchList", "MatchOut", "MatchSummary",
    "MatchView", "NotFound", "PayloadTooLarge", "PendingDecision", "RateLimited",
    "RetryPolicy", "SeatIn", "SeatSummary", "ServiceUnavailable", "StreamEnded",
    "StreamMessage", "Unauthorized", "ValidationFailed", "bot", "human", "open_seat",
    # player accounts and ratings
    "Leaderboard", "LeaderboardEntry", "PlayedMatch", "Player", "PlayerRating", "Profile",
    "Precommitment", "QueueTicket", "Registered",
    # the transparency log
    "ConsistencyProof", "InclusionProof",
]  # fmt: skip

PROBLEM_PREFIX = "urn:cuccu:problem:"

MatchStatus = Literal["new", "between_rounds", "in_round", "over"]


# --- bodies (TypedDicts mirror docs/openapi.json; servers may add keys in later versions) ---
# The game-specific parts (a view's fields, a creation's options, a seat's score) are plain
# dicts: the client serves every game the server has, including ones added after it.


class SeatIn(TypedDict, total=False):
    name: str
    kind: Literal["human", "bot", "open"]
    bot_level: str | None


def human(name: str) -> SeatIn:
    """A seat played with the token returned at creation."""
    return {"name": name, "kind": "human"}


def bot(name: str, level: str = "basic") -> SeatIn:
    """A seat the service plays."""
    return {"name": name, "kind": "bot", "bot_level": level}


def open_seat(name: str = "open") -> SeatIn:
    """A seat anyone may claim later (``Client.claim_seat``)."""
    return {"name": name, "kind": "open"}


#: the body of ``POST /matches``: ``seats``, ``game``, ``seed``, ``first_dealer`` and the
#: game's own options (docs/API.md, "Create a match"; one schema per game in the OpenAPI
#: document)
CreateMatchBody: TypeAlias = dict[str, Any]


class PendingDecision(TypedDict):
    seat: int | None
    kind: str
    choices: list[str]


#: a match's view as one seat (or a spectator) sees it. Every game's view has ``game``,
#: ``viewer``, ``status``, ``seats``, ``pending`` (a :class:`PendingDecision` or None) and
#: ``version``; the rest is the game's own (docs/API.md, "The view" and the game's section)
MatchView: TypeAlias = dict[str, Any]
#: the same (the name of the union of the games' views in earlier versions of this client)
AnyView: TypeAlias = MatchView


class EventOut(TypedDict):
    game: str
    version: int
    #: the event as this seat may see it: ``type`` and the game's own fields
    event: dict[str, Any]


class MatchOut(TypedDict):
    match_id: str
    version: int
    seat: int | None
    view: MatchView
    game: str


class SeatToken(TypedDict):
    seat: int
    token: str
    view: MatchView  # this seat's own view (API 0.4.0)


class CreatedMatch(TypedDict):
    match_id: str
    version: int
    status: MatchStatus
    seat_tokens: list[SeatToken]
    view: MatchView
    game: str
    #: added by the client, not the server: the commitment to the first deck's secret that
    #: the service showed before the creator's entropy was sent (docs/API.md "Fairness"); the
    #: match's first ``entropy_committed`` event must carry it. Absent at a table of bots.
    commitment: NotRequired[str]


class Precommitment(TypedDict):
    """``POST /commitments``: the service's commitment to a first deck's secret."""

    id: str
    commitment: str
    expires_at: str


class ClaimedSeat(TypedDict):
    match_id: str
    seat: int
    token: str
    version: int
    status: MatchStatus
    view: MatchView
    events: list[EventOut]


class Rematch(TypedDict):
    match_id: str
    rematch_of: str
    seat: int
    token: str
    version: int
    view: MatchView
    game: str
    clock: dict[str, Any] | None


class CommandOut(TypedDict):
    match_id: str
    version: int
    seat: int
    view: MatchView
    events: list[EventOut]


class EventPage(TypedDict):
    match_id: str
    version: int
    seat: int | None
    events: list[EventOut]
    next_after: int | None
    game: str


#: a seat in the matches list: ``seat``, ``name``, ``kind``, ``bot_level`` and one score field
#: per score name of the server's games (null in the games that score otherwise)
SeatSummary: TypeAlias = dict[str, Any]


class MatchSummary(TypedDict):
    """A row of the matches list; besides these, the games' own summary fields (e.g. one
    winner's seat in the games that have one): read them with ``.get``."""

    match_id: str
    status: MatchStatus
    created_at: str
    updated_at: str
    seats: list[SeatSummary]
    rounds: int
    version: int
    seeded: bool
    open_seats: list[int]
    game: str
    options: dict[str, Any]
    winners: list[int]


class MatchList(TypedDict):
    matches: list[MatchSummary]
    next_cursor: str | None


class ExportLine(TypedDict):
    """A record line of an export (docs/API.md, "Exports"); ``record`` is the hashed record."""

    hash: str
    prev_hash: str
    record: dict[str, Any]


class Health(TypedDict):
    status: str


class InclusionProof(TypedDict):
    match_id: str
    index: int
    tree_size: int
    leaf: str
    leaf_hash: str
    inclusion: list[str]
    checkpoint: str


ConsistencyProof = TypedDict("ConsistencyProof", {"from": int, "to": int, "consistency": list[str]})


# --- player accounts and ratings (docs/API.md "Players, keys and ratings") ---------------


class Player(TypedDict):
    id: str
    name: str
    kind: Literal["person", "bot"]
    created_at: str


class Registered(TypedDict):
    player: Player
    #: the account's API key (``cuccu_key_…``): shown only in this answer
    key: str


class PlayerRating(TypedDict):
    game: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


class Profile(TypedDict):
    player: Player
    ratings: list[PlayerRating]


class PlayedMatch(TypedDict):
    match_id: str
    game: str
    seat: int
    standing: list[int]
    winners: list[int]
    finished_at: str
    rated: bool
    #: the account's rating in the game just after this match (None: not rated)
    rating: PlayerRating | None


class LeaderboardEntry(TypedDict):
    rank: int
    player: Player
    rating: PlayerRating


class Leaderboard(TypedDict):
    game: str
    entries: list[LeaderboardEntry]


class QueueTicket(TypedDict):
    ticket_id: str
    #: ``seating`` with ``match_id``: the table exists, and its seat waits for this waiter's
    #: entropy (:meth:`Client.queue_seat` takes it)
    status: Literal["waiting", "seating", "matched", "left"]
    game: str
    seats: int
    created_at: str
    match_id: str | None
    seat: int | None
    #: once matched: a new seat token at each answer (the previous one stops working)
    token: str | None
    #: while ``seating`` at a table: the service's commitment to its first deck, and when the
    #: queue takes the seat without this waiter's entropy. In what :meth:`Client.queue_seat`
    #: returns, ``commitment`` is the one shown before the entropy was drawn (added by the
    #: client: the match's first ``entropy_committed`` event must carry it)
    commitment: str | None
    contribute_by: str | None
    #: the answer of ``POST /queue/{ticket}/claim``: whether the entropy went into the deck
    contributed: bool | None


class ApiError(Exception):
    """An error answer of the API: the RFC 9457 problem it carried."""

    def __init__(
        self,
        status: int,
        type: str,
        title: str,
        detail: str,
        *,
        code: str | None = None,
        version: int | None = None,
        retry_after: float | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {type}: {detail}")
        self.status = status
        self.type = type
        self.title = title
        self.detail = detail
        self.code = code
        self.version = version
        self.retry_after = retry_after
        self.body = dict(body or {})

    @property
    def slug(self) -> str:
        """The problem type without its ``urn:cuccu:problem:`` prefix, e.g. ``seat-taken``."""
        return self.type.removeprefix(PROBLEM_PREFIX)


class BadRequest(ApiError):
    """400: the body is not JSON."""


class Unauthorized(ApiError):
    """401: missing or unknown seat token."""


class Forbidden(ApiError):
    """403: a token of another match."""


class NotFound(ApiError):
    """404: unknown match, seat or route."""


class Conflict(ApiError):
    """409: not your turn, stale version, seat taken, match over, ..."""


class PayloadTooLarge(ApiError):
    """413: the body is larger than the service accepts."""


class ValidationFailed(ApiError):
    """422: invalid values."""


class RateLimited(ApiError):
    """429: too many requests (still so after the retries)."""


class ServiceUnavailable(ApiError):
    """503: the database is unavailable (still so after the retries)."""


class StreamEnded(Exception):
    """The event stream kept closing before the match was over, beyond the reconnect budget."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: ValidationFailed,
    429: RateLimited,
    503: ServiceUnavailable,
}


def retry_after_seconds(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (delta-seconds or an HTTP date), or None."""
    raw = response.headers.get("Retry-After")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def problem_error(response: httpx.Response) -> ApiError:
    """The exception for an error ``response`` (a problem document, or anything else)."""
    body: dict[str, Any] = {}
    try:
        parsed = response.json()
        if isinstance(parsed, dict):
            body = parsed
    except (ValueError, UnicodeDecodeError):
        pass
    status = response.status_code
    cls = _BY_STATUS.get(status, ApiError)
    code = body.get("code")
    version = body.get("version")
    return cls(
        status,
        str(body.get("type") or "about:blank"),
        str(body.get("title") or response.reason_phrase or "Error"),
        str(body.get("detail") or response.text[:200] or response.reason_phrase),
        code=code if isinstance(code, str) else None,
        version=version if isinstance(version, int) else None,
        retry_after=retry_after_seconds(response),
        body=body,
    )


# --- retries -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry 429 / 503 answers and failed connections.

    ``attempts`` counts every try (1 = never retry). The n-th retry waits
    ``backoff * 2**n`` seconds (at most ``max_backoff``), jittered down by up to half,
    and never less than the ``Retry-After`` the server asked for (at most ``max_retry_after``).
    """

    attempts: int = 6
    backoff: float = 0.25
    max_backoff: float = 8.0
    max_retry_after: float = 60.0
    statuses: frozenset[int] = frozenset({429, 503})

    def delay(self, retry: int, response: httpx.Response | None = None) -> float:
        wait = min(self.max_backoff, self.backoff * 2.0**retry)
        wait *= 0.5 + random.random() / 2
        asked = retry_after_seconds(response) if response is not None else None
        if asked is not None:
            wait = max(wait, min(asked, self.max_retry_after))
        return wait


# --- Server-Sent Events --------------------------------------------------------------------


@dataclass(frozen=True)
class StreamMessage:
    """One message of ``GET /matches/{id}/stream``.

    ``event`` is ``"view"`` (the caller's full view, sent first on a fresh connection; ``data``
    is a MatchOut) or ``"event"`` (one new event as the caller may see it; ``data`` is an
    EventOut). ``id`` is the stream version after it. The server's closing ``end`` message is
    not handed over: the stream simply stops after the match's last event.
    """

    event: str
    id: int
    data: dict[str, Any]

    @property
    def view(self) -> MatchOut | None:
        return cast(MatchOut, self.data) if self.event == "view" else None

    @property
    def match_event(self) -> EventOut | None:
        return cast(EventOut, self.data) if self.event == "event" else None

    @property
    def ends_match(self) -> bool:
        """The match is over after this message: a view of a finished match, or the server's
        ``end`` message (whatever the game, its last message before the stream closes)."""
        if self.event == "view":
            return bool(self.data.get("view", {}).get("status") == "over")
        return self.event == END_MESSAGE


#: the stream's closing message once a finished match has been sent completely (API 0.8.0)
END_MESSAGE = "end"


class _SseParser:
    """The text/event-stream format, line by line (comments and ``retry`` are ignored)."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None

    def feed(self, line: str) -> StreamMessage | None:
        if line == "":
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id":
            self._id = value
        return None

    def _dispatch(self) -> StreamMessage | None:
        event, data, ident = self._event or "message", self._data, self._id
        self._event, self._data, self._id = "", [], None
        if not data or ident is None:
            return None
        try:
            parsed = json.loads("\n".join(data))
            version = int(ident)
        except ValueError:
            return None
        return StreamMessage(event, version, parsed if isinstance(parsed, dict) else {})


# --- the sans-I/O core: what each endpoint needs done, as steps ------------------------------
# An endpoint is a generator of steps: it yields a request and is sent the answer, yields a
# sleep, opens a stream and reads it line by line, hands items over to an iterating caller.
# Failed connections are thrown into it. Retries, idempotency keys, problem parsing and stream
# resumption all live in these generators; the two clients only carry the steps out.

DEFAULT_TIMEOUT = 30.0
#: the service sends a keep-alive comment every 15 s by default: silence for longer than this
#: means a dead connection, and the stream reconnects
DEFAULT_STREAM_READ_TIMEOUT = 60.0

R = TypeVar("R")
T = TypeVar("T")
P = ParamSpec("P")


@dataclass(frozen=True)
class _Call:
    """Send one API request, once (answer: the ``httpx.Response``, its body read)."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: a failed connection may be retried only when repeating the request can do no harm:
    #: reads, creations, commands and claims (their Idempotency-Key makes a repeat apply once)
    repeatable: bool = True


@dataclass(frozen=True)
class _Sleep:
    seconds: float


@dataclass(frozen=True)
class _Open:
    """Open a streamed GET, closing the one open before (answer: the response, its body read
    only when it is an error)."""

    path: str
    headers: Mapping[str, str]


class _NextLine:
    """Read the open stream's next line (answer: the line, or None once the server closed)."""


@dataclass(frozen=True)
class _Emit(Generic[T]):
    """Hand ``item`` to the caller iterating over the endpoint (no answer)."""

    item: T


_Step: TypeAlias = _Call | _Sleep | _Open | _NextLine
#: an endpoint answering an ``R``
_Op: TypeAlias = Generator[_Step, Any, R]
#: an endpoint handing ``T``s over one by one
_Feed: TypeAlias = Generator["_Step | _Emit[T]", Any, None]


class _Session:
    """What both clients hold: the seat token, the retry policy, the stream's read timeout."""

    def __init__(self, token: str | None, retry: RetryPolicy | None, read_timeout: float) -> None:
        self.token = token
        self.retry = retry or RetryPolicy()
        self.stream_read_timeout = read_timeout

    def _auth(self, token: str | None = None) -> dict[str, str]:
        tok = token or self.token
        return {"Authorization": f"Bearer {tok}"} if tok else {}


def _send(client: _Session, call: _Call) -> _Op[httpx.Response]:
    """``call``'s answer after the retries its status or a failed connection calls for."""
    policy = client.retry
    retry = 0
    while True:
        try:
            response: httpx.Response = yield call
        except httpx.TransportError as exc:
            if retry + 1 >= policy.attempts or not _retry_transport_error(call, exc):
                raise
            wait = policy.delay(retry)
        else:
            if response.status_code not in policy.statuses or retry + 1 >= policy.attempts:
                return response
            wait = policy.delay(retry, response)
        yield _Sleep(wait)
        retry += 1


def _retry_transport_error(call: _Call, exc: httpx.TransportError) -> bool:
    # a request that never reached the server (no connection) may always be sent again
    return call.repeatable or isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)


def _json(client: _Session, call: _Call) -> _Op[Any]:
    """``call``'s JSON answer, or its problem raised."""
    response = yield from _send(client, call)
    if response.status_code >= 400:
        raise problem_error(response)
    return response.json()


def _text(client: _Session, call: _Call) -> _Op[str]:
    response = yield from _send(client, call)
    if response.status_code >= 400:
        raise problem_error(response)
    return response.text


def _nothing(client: _Session, call: _Call) -> _Op[None]:
    response = yield from _send(client, call)
    if response.status_code >= 400:
        raise problem_error(response)


def _entropy() -> str:
    """This seat's contribution to the next deck (docs/API.md "Fairness"): fresh bytes from the
    OS's CSPRNG, in the call's body, so a retry of the same call sends the same ones."""
    return os.urandom(32).hex()


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _given(**params: Any) -> dict[str, Any]:
    """The parameters that were given (not None)."""
    return {name: value for name, value in params.items() if value is not None}


# --- the endpoints, once for both clients (their docstrings are the methods') ----------------


def health(client: _Session, /) -> _Op[Health]:
    """``GET /health``: the process answers."""
    return cast(Health, (yield from _json(client, _Call("GET", "/health"))))


def ready(client: _Session, /) -> _Op[Health]:
    """``GET /ready``: the database answers and its schema is current (else 503)."""
    return cast(Health, (yield from _json(client, _Call("GET", "/ready"))))


def signing_keys(client: _Session, /) -> _Op[dict[str, Any]]:
    """``GET /.well-known/cuccu-keys.json``: the public keys that sign finished matches."""
    return cast(
        dict[str, Any], (yield from _json(client, _Call("GET", "/.well-known/cuccu-keys.json")))
    )


def openapi(client: _Session, /) -> _Op[dict[str, Any]]:
    """The OpenAPI 3.1 document the server serves."""
    return cast(dict[str, Any], (yield from _json(client, _Call("GET", "/schema/openapi.json"))))


def create_match(
    client: _Session,
    /,
    seats: list[SeatIn],
    *,
    game: str | None = None,
    seed: int | None = None,
    first_dealer: int | None = None,
    idempotency_key: str | None = None,
    **options: Any,
) -> _Op[CreatedMatch]:
    """``POST /matches``: a match of ``game`` (the server's default game when None) with the
    game's own ``options`` as keywords (docs/API.md, "Create a match"; those given as None are
    left out). The server, not the client, refuses an option the game does not have
    (``ValidationFailed``, ``invalid-config``). The answer holds each human seat's token
    (shown only once) and that seat's own view, so a creator can play at once.

    An Idempotency-Key is generated for this creation (or the one given) and reused on its
    retries: a repeat answers the match made the first time (same tokens), not a second one.
    The body carries ``entropy``, fresh bytes from the OS for the first deck (docs/API.md
    "Fairness"), which the server records for the human seats. At a table with a person or an
    open seat, the service first commits to its secret for that deck (``POST /commitments``),
    and the creation names that pre-commitment, so the service cannot choose its secret after
    seeing the entropy; the answer's ``commitment`` is the one the service showed."""
    body: dict[str, Any] = {"seats": seats, **_given(game=game, **options)}
    body.update(_given(seed=seed, first_dealer=first_dealer))
    shown: Precommitment | None = None
    if any(seat.get("kind", "human") != "bot" for seat in seats):  # a deck to mix
        shown = cast(Precommitment, (yield from _json(client, _Call("POST", "/commitments"))))
        body["precommitment"] = shown["id"]
    body["entropy"] = _entropy()  # drawn once the commitment is in hand, sent on every retry
    headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
    created = cast(
        CreatedMatch,
        (yield from _json(client, _Call("POST", "/matches", json=body, headers=headers))),
    )
    if shown is not None:
        created["commitment"] = shown["commitment"]
    return created


def list_matches(
    client: _Session,
    /,
    *,
    status: MatchStatus | None = None,
    open_seats: bool | None = None,
    cursor: str | None = None,
    limit: int | None = None,
) -> _Op[MatchList]:
    """``GET /matches``: one page, newest first."""
    seats = None if open_seats is None else ("true" if open_seats else "false")
    params = _given(status=status, open_seats=seats, cursor=cursor, limit=limit)
    return cast(MatchList, (yield from _json(client, _Call("GET", "/matches", params=params))))


def iter_matches(
    client: _Session, /, *, status: MatchStatus | None = None, open_seats: bool | None = None
) -> _Feed[MatchSummary]:
    """Every match (newest first), following ``next_cursor`` page by page."""
    cursor: str | None = None
    while True:
        page = yield from list_matches(client, status=status, open_seats=open_seats, cursor=cursor)
        for summary in page["matches"]:
            yield _Emit(summary)
        cursor = page["next_cursor"]
        if cursor is None:
            return


def lobby(client: _Session, /, *, limit: int | None = None) -> _Op[list[MatchSummary]]:
    """Matches waiting for open seats to be claimed (``GET /matches?open_seats=true``)."""
    return (yield from list_matches(client, open_seats=True, limit=limit))["matches"]


def get_match(client: _Session, /, match_id: str) -> _Op[MatchOut]:
    """``GET /matches/{id}``: this client's seat view (spectator view without a token)."""
    return cast(
        MatchOut,
        (yield from _json(client, _Call("GET", f"/matches/{match_id}", headers=client._auth()))),
    )


def _claim_call(
    match_id: str, seat: int, name: str, idempotency_key: str | None, key: str | None = None
) -> _Call:
    # the key makes a repeat safe: it answers again, with a new token that replaces the first
    # one (whose answer was lost), instead of 409 seat-taken
    headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
    if key is not None:
        headers.update(_bearer(key))
    path = f"/matches/{match_id}/seats/{seat}/claim"
    return _Call("POST", path, json={"name": name, "entropy": _entropy()}, headers=headers)


def _adopt(client: _Session, call: _Call, use_token: bool) -> _Op[ClaimedSeat]:
    claimed: ClaimedSeat = yield from _json(client, call)
    if use_token:
        client.token = claimed["token"]
    return claimed


def claim_seat(
    client: _Session,
    /,
    match_id: str,
    seat: int,
    name: str,
    *,
    use_token: bool = True,
    idempotency_key: str | None = None,
) -> _Op[ClaimedSeat]:
    """``POST /matches/{id}/seats/{seat}/claim``; with ``use_token`` this client then plays
    that seat. The token is shown only in this answer: keep it if you need it again.

    An Idempotency-Key is generated for this claim (or the one given) and reused on its
    retries: a claim whose answer was lost is retried, and the repeat answers with a new
    token for the seat (the lost one stops working) instead of 409 ``seat-taken``."""
    call = _claim_call(match_id, seat, name, idempotency_key)
    return (yield from _adopt(client, call, use_token))


def send_command(
    client: _Session,
    /,
    match_id: str,
    type: str,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> _Op[CommandOut]:
    """``POST /matches/{id}/commands`` (``type``: one of ``view.pending.choices``), with an
    Idempotency-Key generated for this command (or the one given) and reused on every retry,
    so the command applies at most once."""
    body = {"type": type, "entropy": _entropy(), **_given(expected_version=expected_version)}
    headers = {**client._auth(), "Idempotency-Key": idempotency_key or str(uuid.uuid4())}
    path = f"/matches/{match_id}/commands"
    return cast(
        CommandOut, (yield from _json(client, _Call("POST", path, json=body, headers=headers)))
    )


def rematch(client: _Session, /, match_id: str, *, use_token: bool = True) -> _Op[Rematch]:
    """``POST /matches/{id}/rematch`` as this client's seat of the finished match: the
    caller's own seat in the rematch (the same seats, game and options, the deal moved on; two
    seats asking make one match). With ``use_token`` this client then plays that seat. Asking
    again answers a new token, which replaces the first (docs/API.md, "Rematches")."""
    call = _Call("POST", f"/matches/{match_id}/rematch", headers=client._auth())
    answer: Rematch = yield from _json(client, call)
    if use_token:
        client.token = answer["token"]
    return answer


def events(
    client: _Session, /, match_id: str, *, after: int = 0, limit: int | None = None
) -> _Op[EventPage]:
    """``GET /matches/{id}/events``: one page of the log, as this seat may see it."""
    params = _given(after=after, limit=limit)
    call = _Call("GET", f"/matches/{match_id}/events", params=params, headers=client._auth())
    return cast(EventPage, (yield from _json(client, call)))


def iter_events(client: _Session, /, match_id: str, *, after: int = 0) -> _Feed[EventOut]:
    """The log after version ``after`` up to now, page by page."""
    while True:
        page = yield from events(client, match_id, after=after)
        for event in page["events"]:
            yield _Emit(event)
        if page["next_after"] is None:
            return
        after = page["next_after"]


def export(client: _Session, /, match_id: str) -> _Op[str]:
    """``GET /matches/{id}/export``: the complete NDJSON log of a finished match."""
    return (yield from _text(client, _Call("GET", f"/matches/{match_id}/export")))


def export_records(client: _Session, /, match_id: str) -> _Op[list[ExportLine]]:
    """The record lines of a finished match's export (not its closing seal line)."""
    text = yield from export(client, match_id)
    # split on "\n" only: str.splitlines() also breaks at U+0085, U+2028 and U+2029, which
    # canonical JSON writes as themselves inside strings (a seat's name may hold them)
    lines = (json.loads(line) for line in text.split("\n") if line.strip())
    return [cast(ExportLine, obj) for obj in lines if "record" in obj]


class _Follow:
    """One stream's memory across its connections: where to resume, what each message
    means, and how long to wait, or whether to give up, when a connection ends."""

    def __init__(self, client: _Session, match_id: str, last: int | None, budget: int) -> None:
        self.client, self.match_id = client, match_id
        self.last, self.budget = last, budget
        self.finished = False
        self.failures = 0
        self.parser = _SseParser()

    def connect(self) -> _Open:
        """A new connection, resuming after the last message delivered."""
        self.parser = _SseParser()
        headers = {**self.client._auth(), "Accept": "text/event-stream"}
        if self.last is not None:
            headers["Last-Event-ID"] = str(self.last)
        return _Open(f"/matches/{self.match_id}/stream", headers)

    def refused(self, response: httpx.Response) -> float:
        """The wait before reconnecting after an error answer; raises it when it is not one
        to retry, or too many came in a row."""
        if response.status_code not in self.client.retry.statuses or self.failures >= self.budget:
            raise problem_error(response)
        return self._failed(response)

    def feed(self, line: str) -> StreamMessage | None:
        """The message ``line`` completes, if one is to be handed over."""
        message = self.parser.feed(line)
        if message is None:
            return None
        self.failures = 0
        self.last = message.id
        self.finished = self.finished or message.ends_match
        return None if message.event == END_MESSAGE else message

    def dropped(self) -> float | None:
        """The wait before reconnecting after a transport error; None: raise it."""
        return None if self.failures >= self.budget else self._failed()

    def closed(self) -> float | None:
        """The wait before reconnecting after the server closed the stream; None: the match is
        over, the stream is done."""
        if self.finished:
            return None
        if self.failures >= self.budget:
            raise StreamEnded(f"the stream of {self.match_id} kept closing early")
        return self._failed()

    def _failed(self, response: httpx.Response | None = None) -> float:
        wait = self.client.retry.delay(self.failures, response)
        self.failures += 1
        return wait


def stream(
    client: _Session,
    /,
    match_id: str,
    *,
    last_event_id: int | None = None,
    max_reconnects: int = 20,
) -> _Feed[StreamMessage]:
    """Follow ``GET /matches/{id}/stream`` until the match is over.

    Without ``last_event_id`` the first message is the full view; then one message per
    event. A dropped connection (or a server restart) is retried with backoff, resuming
    after the last message delivered, at most ``max_reconnects`` times in a row. The stream
    stops after the server's ``end`` message, sent once a finished match has been sent."""
    follow = _Follow(client, match_id, last_event_id, max_reconnects)
    while True:
        try:
            response: httpx.Response = yield follow.connect()
            if response.status_code >= 400:
                yield _Sleep(follow.refused(response))
                continue
            while (line := (yield _NextLine())) is not None:
                message = follow.feed(line)
                if message is not None:
                    yield _Emit(message)
        except httpx.TransportError:
            wait = follow.dropped()
            if wait is None:
                raise
        else:
            wait = follow.closed()
            if wait is None:
                return
        yield _Sleep(wait)


# player accounts and ratings (docs/API.md, "Players, keys and ratings")


def register_player(
    client: _Session, /, name: str, kind: Literal["person", "bot"] = "person"
) -> _Op[Registered]:
    """``POST /players``: a new account; its API key is in this answer only."""
    # not repeated on a failed connection: a repeat of a registration that went through is
    # 409 name-taken, and its key would be lost
    call = _Call("POST", "/players", json={"name": name, "kind": kind}, repeatable=False)
    return cast(Registered, (yield from _json(client, call)))


def claim_seat_as(
    client: _Session,
    /,
    key: str,
    match_id: str,
    seat: int,
    name: str,
    *,
    use_token: bool = True,
    idempotency_key: str | None = None,
) -> _Op[ClaimedSeat]:
    """:meth:`claim_seat` as the account whose API key is ``key`` (rated when it ends)."""
    call = _claim_call(match_id, seat, name, idempotency_key, key)
    return (yield from _adopt(client, call, use_token))


def rotate_key(client: _Session, /, key: str) -> _Op[Registered]:
    """``POST /players/me/key``: a new key for the account; ``key`` stops working."""
    call = _Call("POST", "/players/me/key", headers=_bearer(key), repeatable=False)
    return cast(Registered, (yield from _json(client, call)))


def revoke_key(client: _Session, /, key: str) -> _Op[None]:
    """``DELETE /players/me/key``: the account has no working key any more."""
    call = _Call("DELETE", "/players/me/key", headers=_bearer(key), repeatable=False)
    yield from _nothing(client, call)


def player(client: _Session, /, player_id: str) -> _Op[Profile]:
    """``GET /players/{id}``: name, kind and rating per game."""
    return cast(Profile, (yield from _json(client, _Call("GET", f"/players/{player_id}"))))


def player_matches(
    client: _Session, /, player_id: str, limit: int | None = None
) -> _Op[list[PlayedMatch]]:
    """``GET /players/{id}/matches``: the account's finished matches, latest first."""
    call = _Call("GET", f"/players/{player_id}/matches", params=_given(limit=limit))
    return cast(list[PlayedMatch], (yield from _json(client, call))["matches"])


def leaderboard(client: _Session, /, game: str, limit: int | None = None) -> _Op[Leaderboard]:
    """``GET /leaderboard?game=…``: rated accounts, best first."""
    call = _Call("GET", "/leaderboard", params=_given(game=game, limit=limit))
    return cast(Leaderboard, (yield from _json(client, call)))


def join_queue(
    client: _Session,
    /,
    key: str,
    game: str,
    seats: int,
    *,
    bots_after: int | None = None,
    bot_level: str | None = None,
) -> _Op[QueueTicket]:
    """``POST /queue``: wait, as the account of ``key``, for a table of ``seats``. No entropy
    goes with it: the service has committed to nothing yet (:meth:`Client.queue_seat` sends
    it once the table's commitment is shown)."""
    body = {"game": game, "seats": seats, **_given(bots_after=bots_after, bot_level=bot_level)}
    # joining again answers the same ticket (matched: until its match is over, with a new
    # seat token): a repeat does no harm
    return cast(
        QueueTicket,
        (yield from _json(client, _Call("POST", "/queue", json=body, headers=_bearer(key)))),
    )


def queue_ticket(
    client: _Session,
    /,
    key: str,
    ticket_id: str,
    *,
    wait: float | None = None,
    seen: Literal["waiting", "seating"] | None = None,
) -> _Op[QueueTicket]:
    """``GET /queue/{ticket}``; ``wait`` (seconds, at most 30 and less than this client's
    timeout) answers as soon as the ticket's status is not ``seen`` (the one last seen:
    ``waiting`` answers once the table exists, with its ``commitment``), or without ``seen``
    once it is matched. Once matched, a new seat token."""
    params = _given(wait=wait, seen=seen)
    call = _Call("GET", f"/queue/{ticket_id}", params=params, headers=_bearer(key))
    return cast(QueueTicket, (yield from _json(client, call)))


def take_queue_seat(client: _Session, /, key: str, ticket_id: str) -> _Op[QueueTicket]:
    """``POST /queue/{ticket}/claim``: the seat of a ticket ``seating`` at a table, claimed as
    the account of ``key``, with ``entropy``: fresh bytes from the OS, drawn now (call it only
    once the ticket has shown its ``commitment``), the same ones on every retry of this call.
    The answer is the matched ticket with a seat token; ``contributed`` says whether the
    entropy went into the first deck (not when the queue had taken the seat already)."""
    call = _Call(
        "POST", f"/queue/{ticket_id}/claim", json={"entropy": _entropy()}, headers=_bearer(key)
    )
    return cast(QueueTicket, (yield from _json(client, call)))


def queue_seat(
    client: _Session, /, key: str, ticket: QueueTicket, *, wait: float = 20
) -> _Op[QueueTicket]:
    """A queue ticket to its seat: long polls (``wait`` seconds each, less than this client's
    timeout) until the ticket is at a table, then :meth:`take_queue_seat` with entropy drawn
    after the table's ``commitment`` was shown (docs/API.md "The queue"). The answer is the
    matched ticket, with the seat token and, as ``commitment``, the one shown; a ticket that
    left the queue is answered as it is (``left``)."""
    shown: str | None = None
    while ticket["status"] != "matched":
        if ticket["status"] == "left":
            return ticket
        if ticket["status"] == "seating" and ticket["match_id"] is not None:
            shown = ticket["commitment"]
            ticket = yield from take_queue_seat(client, key, ticket["ticket_id"])
            break
        # answered as soon as the table exists (not only once matched)
        ticket = yield from queue_ticket(
            client, key, ticket["ticket_id"], wait=wait, seen="waiting"
        )
    if shown is not None:
        ticket["commitment"] = shown
    return ticket


def leave_queue(client: _Session, /, key: str, ticket_id: str) -> _Op[None]:
    """``DELETE /queue/{ticket}``: out of the queue (a matched ticket is 409)."""
    yield from _nothing(client, _Call("DELETE", f"/queue/{ticket_id}", headers=_bearer(key)))


# the transparency log (docs/API.md, "Transparency log")


def log_checkpoint(client: _Session, /) -> _Op[str]:
    """``GET /log/checkpoint``: the log's latest signed checkpoint (a C2SP signed note)."""
    return (yield from _text(client, _Call("GET", "/log/checkpoint")))


def log_key(client: _Session, /) -> _Op[str]:
    """``GET /log/key``: the verifier key checkpoints are signed with."""
    return (yield from _text(client, _Call("GET", "/log/key"))).strip()


def inclusion_proof(
    client: _Session, /, match_id: str, size: int | None = None
) -> _Op[InclusionProof]:
    """``GET /log/proof/inclusion``: a finished match's place in the log, proven."""
    params = {"match": match_id, **_given(size=size)}
    return cast(
        InclusionProof,
        (yield from _json(client, _Call("GET", "/log/proof/inclusion", params=params))),
    )


def consistency_proof(
    client: _Session, /, size1: int, size2: int | None = None
) -> _Op[ConsistencyProof]:
    """``GET /log/proof/consistency``: the tree of ``size1`` leaves is a prefix of the tree
    of ``size2``."""
    params = {"from": size1, **_given(to=size2)}
    return cast(
        ConsistencyProof,
        (yield from _json(client, _Call("GET", "/log/proof/consistency", params=params))),
    )


# --- the runners: the same steps carried out blocking and awaiting ----------------------------


class _Driver(Generic[R]):
    """Advances an endpoint's generator: sends it the last step's answer, or throws the failed
    connection into it, and says what it wants next (``done`` once it returned)."""

    def __init__(self, op: Generator[Any, Any, R]) -> None:
        self.op = op
        self.done = False
        self.result: R | None = None

    def next(self, answer: Any, failure: httpx.TransportError | None) -> Any:
        try:
            return self.op.send(answer) if failure is None else self.op.throw(failure)
        except StopIteration as stop:
            self.done, self.result = True, stop.value
            return None


def _blocking(
    op: Callable[Concatenate[_Session, P], _Op[R]],
) -> Callable[Concatenate[Client, P], R]:
    """The :class:`Client` method of endpoint ``op``: runs its steps to its answer."""

    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> R:
        driver = _Driver(op(self, *args, **kwargs))
        for _ in self._drive(driver):
            pass
        return cast(R, driver.result)

    functools.update_wrapper(method, op)
    return method


def _iterating(
    op: Callable[Concatenate[_Session, P], _Feed[T]],
) -> Callable[Concatenate[Client, P], Iterator[T]]:
    """The :class:`Client` method of endpoint ``op``: an iterator of what it hands over."""

    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        return self._drive(_Driver(op(self, *args, **kwargs)))

    functools.update_wrapper(method, op)
    return method


def _awaiting(
    op: Callable[Concatenate[_Session, P], _Op[R]],
) -> Callable[Concatenate[AsyncClient, P], Coroutine[Any, Any, R]]:
    """The :class:`AsyncClient` method of endpoint ``op``: a coroutine of its answer."""

    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> R:
        driver = _Driver(op(self, *args, **kwargs))
        async for _ in self._drive(driver):
            pass
        return cast(R, driver.result)

    functools.update_wrapper(method, op)
    return method


def _async_iterating(
    op: Callable[Concatenate[_Session, P], _Feed[T]],
) -> Callable[Concatenate[AsyncClient, P], AsyncIterator[T]]:
    """The :class:`AsyncClient` method of endpoint ``op``: an async iterator of what it hands
    over."""

    def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
        return self._drive(_Driver(op(self, *args, **kwargs)))

    functools.update_wrapper(method, op)
    return method


@functools.cache
def _default_tls() -> ssl.SSLContext:
    """httpx's default TLS settings (its CA bundle, ``SSL_CERT_FILE`` and ``SSL_CERT_DIR``),
    built once per process and shared by every client: httpx builds them anew for each client,
    reading and parsing the CA bundle, about 24 ms of CPU, more than a request to a local API
    (the viewer makes a client for each short look at a stream, two a second per live table)."""
    return httpx.create_ssl_context()


class Client(_Session):
    """The API over a blocking ``httpx.Client``. One client acts as at most one seat (``token``).

    ``transport`` and ``sleep`` are for tests (an ``httpx.MockTransport``, a fake clock).
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        stream_read_timeout: float = DEFAULT_STREAM_READ_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(token, retry, stream_read_timeout)
        self.http = httpx.Client(base_url=base_url, timeout=timeout, transport=transport,
                                 verify=_default_tls())  # fmt: skip
        self._sleep = sleep

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _drive(self, driver: _Driver[Any]) -> Iterator[Any]:
        """Carries out the steps of ``driver``'s endpoint, yielding what it hands over; its
        result is left in ``driver.result``."""
        opened: httpx.Response | None = None
        lines: Iterator[str] | None = None
        answer: Any = None
        failure: httpx.TransportError | None = None
        try:
            while True:
                step = driver.next(answer, failure)
                answer, failure = None, None
                if driver.done:
                    return
                if isinstance(step, _Emit):
                    yield step.item
                    continue
                try:
                    if isinstance(step, _Call):
                        answer = self.http.request(
                            step.method, step.path, json=step.json, params=step.params,
                            headers=dict(step.headers),
                        )  # fmt: skip
                    elif isinstance(step, _Sleep):
                        self._sleep(step.seconds)
                    elif isinstance(step, _Open):
                        if opened is not None:
                            opened.close()
                        timeout = httpx.Timeout(
                            self.http.timeout.connect, read=self.stream_read_timeout
                        )
                        request = self.http.build_request(
                            "GET", step.path, headers=dict(step.headers), timeout=timeout
                        )
                        opened = answer = self.http.send(request, stream=True)
                        if opened.status_code >= 400:
                            opened.read()
                        lines = opened.iter_lines()
                    else:
                        answer = next(lines, None) if lines is not None else None
                except httpx.TransportError as exc:
                    failure = exc
        finally:
            if opened is not None:
                opened.close()
            driver.op.close()

    # endpoints (each written once above, as steps) ----------------------------------------

    health = _blocking(health)
    ready = _blocking(ready)
    signing_keys = _blocking(signing_keys)
    openapi = _blocking(openapi)
    create_match = _blocking(create_match)
    list_matches = _blocking(list_matches)
    iter_matches = _iterating(iter_matches)
    lobby = _blocking(lobby)
    get_match = _blocking(get_match)
    claim_seat = _blocking(claim_seat)
    send_command = _blocking(send_command)
    rematch = _blocking(rematch)
    events = _blocking(events)
    iter_events = _iterating(iter_events)
    export = _blocking(export)
    export_records = _blocking(export_records)
    stream = _iterating(stream)
    register_player = _blocking(register_player)
    claim_seat_as = _blocking(claim_seat_as)
    rotate_key = _blocking(rotate_key)
    revoke_key = _blocking(revoke_key)
    player = _blocking(player)
    player_matches = _blocking(player_matches)
    leaderboard = _blocking(leaderboard)
    join_queue = _blocking(join_queue)
    queue_ticket = _blocking(queue_ticket)
    take_queue_seat = _blocking(take_queue_seat)
    queue_seat = _blocking(queue_seat)
    leave_queue = _blocking(leave_queue)
    log_checkpoint = _blocking(log_checkpoint)
    log_key = _blocking(log_key)
    inclusion_proof = _blocking(inclusion_proof)
    consistency_proof = _blocking(consistency_proof)


class AsyncClient(_Session):
    """The API over an ``httpx.AsyncClient``; the same methods as :class:`Client`, awaited (the
    iterators ``iter_matches``, ``iter_events`` and ``stream`` are async iterators)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        stream_read_timeout: float = DEFAULT_STREAM_READ_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Coroutine[Any, Any, None]] = asyncio.sleep,
    ) -> None:
        super().__init__(token, retry, stream_read_timeout)
        self.http = httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport,
                                      verify=_default_tls())  # fmt: skip
        self._sleep = sleep

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _drive(self, driver: _Driver[Any]) -> AsyncIterator[Any]:
        """Carries out the steps of ``driver``'s endpoint, yielding what it hands over; its
        result is left in ``driver.result``."""
        opened: httpx.Response | None = None
        lines: AsyncIterator[str] | None = None
        answer: Any = None
        failure: httpx.TransportError | None = None
        try:
            while True:
                step = driver.next(answer, failure)
                answer, failure = None, None
                if driver.done:
                    return
                if isinstance(step, _Emit):
                    yield step.item
                    continue
                try:
                    if isinstance(step, _Call):
                        answer = await self.http.request(
                            step.method, step.path, json=step.json, params=step.params,
                            headers=dict(step.headers),
                        )  # fmt: skip
                    elif isinstance(step, _Sleep):
                        await self._sleep(step.seconds)
                    elif isinstance(step, _Open):
                        if opened is not None:
                            await opened.aclose()
                        timeout = httpx.Timeout(
                            self.http.timeout.connect, read=self.stream_read_timeout
                        )
                        request = self.http.build_request(
                            "GET", step.path, headers=dict(step.headers), timeout=timeout
                        )
                        opened = answer = await self.http.send(request, stream=True)
                        if opened.status_code >= 400:
                            await opened.aread()
                        lines = opened.aiter_lines()
                    else:
                        answer = await anext(lines, None) if lines is not None else None
                except httpx.TransportError as exc:
                    failure = exc
        finally:
            if opened is not None:
                await opened.aclose()
            driver.op.close()

    # endpoints (each written once above, as steps) ----------------------------------------

    health = _awaiting(health)
    ready = _awaiting(ready)
    signing_keys = _awaiting(signing_keys)
    openapi = _awaiting(openapi)
    create_match = _awaiting(create_match)
    list_matches = _awaiting(list_matches)
    iter_matches = _async_iterating(iter_matches)
    lobby = _awaiting(lobby)
    get_match = _awaiting(get_match)
    claim_seat = _awaiting(claim_seat)
    send_command = _awaiting(send_command)
    rematch = _awaiting(rematch)
    events = _awaiting(events)
    iter_events = _async_iterating(iter_events)
    export = _awaiting(export)
    export_records = _awaiting(export_records)
    stream = _async_iterating(stream)
    register_player = _awaiting(register_player)
    claim_seat_as = _awaiting(claim_seat_as)
    rotate_key = _awaiting(rotate_key)
    revoke_key = _awaiting(revoke_key)
    player = _awaiting(player)
    player_matches = _awaiting(player_matches)
    leaderboard = _awaiting(leaderboard)
    join_queue = _awaiting(join_queue)
    queue_ticket = _awaiting(queue_ticket)
    take_queue_seat = _awaiting(take_queue_seat)
    queue_seat = _awaiting(queue_seat)
    leave_queue = _awaiting(leave_queue)
    log_checkpoint = _awaiting(log_checkpoint)
    log_key = _awaiting(log_key)
    inclusion_proof = _awaiting(inclusion_proof)
    consistency_proof = _awaiting(consistency_proof)
