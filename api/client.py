"""A typed Python client for the Cuccù match service, sync and async, built on httpx.

It needs only httpx and the standard library: importing it imports neither the service nor
the rules (``domain``), so a bot or an app may copy this one file. It covers every endpoint
of the API (see ``docs/API.md``):

- :class:`Client` (sync) and :class:`AsyncClient` (async) with the same methods;
- every creation, command and claim carries an ``Idempotency-Key`` generated for it and
  reused on its retries (a retried creation answers the same match and tokens);
- 429 and 503 answers are retried with exponential backoff and jitter, waiting at least what
  ``Retry-After`` asks; so are connection failures, where a retry cannot do harm;
- :meth:`Client.stream` follows a match over Server-Sent Events and reconnects by itself,
  resuming after the last event it delivered (``Last-Event-ID``);
- errors are raised as :class:`ApiError` (a subclass per status) carrying the RFC 9457 problem:
  ``type``, ``status``, ``title``, ``detail``, ``code`` and ``version``.

Example::

    from api.client import Client, bot, open_seat

    with Client("http://127.0.0.1:8000") as c:
        created = c.create_match([open_seat(), bot("Bo"), bot("Cy"), bot("Di")])
        mine = c.claim_seat(created["match_id"], 0, "Ann")  # the client now uses its token
        for message in c.stream(created["match_id"]):
            ...
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, Required, TypedDict, cast, overload

import httpx

__all__ = [
    "PROBLEM_PREFIX", "ApiError", "AsyncClient", "BadRequest", "Client", "ClaimedSeat",
    "CommandOut", "Conflict", "CreateCucco21Match", "CreateCuccuMatch", "CreateMatchBody",
    "CreatedMatch", "EventOut", "EventPage", "ExportLine", "Forbidden",
    "MatchList", "MatchOut", "MatchSummary", "MatchView", "NotFound", "PayloadTooLarge",
    "PendingDecision", "RateLimited", "RetryPolicy", "SeatIn", "ServiceUnavailable",
    "StreamEnded", "StreamMessage", "Unauthorized", "ValidationFailed", "bot", "human",
    "open_seat",
    # player accounts and ratings
    "Leaderboard", "LeaderboardEntry", "PlayedMatch", "Player", "PlayerRating", "Profile",
    "QueueTicket", "Registered",
]  # fmt: skip

PROBLEM_PREFIX = "urn:cuccu:problem:"

CommandType = Literal[
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse", "next_round"
]
MatchStatus = Literal["new", "between_rounds", "in_round", "over"]


# --- bodies (TypedDicts mirror docs/openapi.json; servers may add keys in later versions) ---


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


class CreateCuccuMatch(TypedDict, total=False):
    """The body of ``POST /matches`` for a Cuccù match (``game`` absent or ``"cuccu"``)."""

    seats: Required[list[SeatIn]]
    game: Literal["cuccu"]
    starting_lives: int
    seed: int | None
    first_dealer: int | None


class CreateCucco21Match(TypedDict, total=False):
    """The body of ``POST /matches`` for a Cucco 21 game."""

    seats: Required[list[SeatIn]]
    game: Required[Literal["cucco21"]]
    starting_chips: int
    powers: bool
    max_sets: int | None
    seed: int | None
    first_dealer: int | None


#: a creation body: one schema per game, chosen by ``game`` (docs/API.md, "Create a match")
CreateMatchBody = CreateCuccuMatch | CreateCucco21Match


class PendingDecision(TypedDict):
    seat: int | None
    kind: str
    choices: list[str]


class SeatInfo(TypedDict):
    seat: int
    name: str
    kind: str
    bot_level: str | None
    lives: int
    in_round: bool
    dealt: bool
    skipped: bool
    dead: bool


class Reveal(TypedDict):
    seat: int
    card: str


class MatchView(TypedDict):
    """A Cuccù match's view (``game`` is ``"cuccu"``)."""

    game: NotRequired[Literal["cuccu"]]  # API 0.5.0
    viewer: int | None
    status: MatchStatus
    starting_lives: int
    seats: list[SeatInfo]
    round: int
    dealer: int
    participants: list[int]
    step: str | None
    current: int | None
    pending: PendingDecision | None
    hand: str | None
    hands: list[str | None]
    revealed: list[Reveal]
    chain: list[list[int]]
    pledges: list[list[int]]
    cards_drawn: int
    round_events: list[dict[str, Any]]
    winner: int | None
    version: int


class Cucco21SeatInfo(TypedDict):
    seat: int
    name: str
    kind: str
    bot_level: str | None
    chips: int
    alive: bool
    bankrupt: bool
    out: bool
    holder: bool


class Cucco21View(TypedDict):
    """A Cucco 21 game's view (``game`` is ``"cucco21"``); docs/API.md, "Cucco 21"."""

    game: Literal["cucco21"]
    viewer: int | None
    status: MatchStatus
    starting_chips: int
    powers: bool
    max_sets: int | None
    seats: list[Cucco21SeatInfo]
    box: int
    set_number: int
    round: int
    round_card: str
    dealer: int
    turn_order: list[int]
    pending: PendingDecision | None
    hand: str | None
    revealed: list[Reveal]
    deck_size: int
    deck_number: int
    discard: list[str]
    round_events: list[dict[str, Any]]
    winners: list[int]
    version: int


#: the view of a match of either game: read its ``game``
AnyView = MatchView | Cucco21View


class EventOut(TypedDict):
    game: NotRequired[str]  # API 0.5.0: `cuccu` or `cucco21`
    version: int
    event: dict[str, Any]


class MatchOut(TypedDict):
    match_id: str
    version: int
    seat: int | None
    view: AnyView
    game: NotRequired[str]  # API 0.5.0


class SeatToken(TypedDict):
    seat: int
    token: str
    view: AnyView  # this seat's own view (API 0.4.0)


class CreatedMatch(TypedDict):
    match_id: str
    version: int
    status: MatchStatus
    seat_tokens: list[SeatToken]
    view: AnyView
    game: NotRequired[str]  # API 0.5.0


class ClaimedSeat(TypedDict):
    match_id: str
    seat: int
    token: str
    version: int
    status: MatchStatus
    view: AnyView
    events: list[EventOut]


class CommandOut(TypedDict):
    match_id: str
    version: int
    seat: int
    view: AnyView
    events: list[EventOut]


class EventPage(TypedDict):
    match_id: str
    version: int
    seat: int | None
    events: list[EventOut]
    next_after: int | None
    game: NotRequired[str]  # API 0.5.0


class SeatSummary(TypedDict):
    seat: int
    name: str
    kind: str
    bot_level: str | None
    lives: int | None  # Cuccù (null in Cucco 21)
    chips: NotRequired[int | None]  # Cucco 21 (API 0.5.0)


class MatchSummary(TypedDict):
    match_id: str
    status: MatchStatus
    created_at: str
    updated_at: str
    starting_lives: int | None  # Cuccù (null in Cucco 21)
    seats: list[SeatSummary]
    winner: int | None
    rounds: int
    version: int
    seeded: bool
    open_seats: list[int]
    game: NotRequired[str]  # API 0.5.0
    options: NotRequired[dict[str, Any]]
    winners: NotRequired[list[int]]


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


# --- errors --------------------------------------------------------------------------------


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
    status: Literal["waiting", "seating", "matched", "left"]
    game: str
    seats: int
    created_at: str
    match_id: str | None
    seat: int | None
    #: once matched: a new seat token at each answer (the previous one stops working)
    token: str | None


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


@dataclass(frozen=True)
class _Call:
    """One API request, as sent (identically) on each try."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: a failed connection may be retried only when repeating the request can do no harm:
    #: reads, creations, commands and claims (their Idempotency-Key makes a repeat apply once)
    repeatable: bool = True


def _retry_transport_error(call: _Call, exc: httpx.TransportError) -> bool:
    # a request that never reached the server (no connection) may always be sent again
    return call.repeatable or isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout)


# --- Server-Sent Events --------------------------------------------------------------------


@dataclass(frozen=True)
class StreamMessage:
    """One message of ``GET /matches/{id}/stream``.

    ``event`` is ``"view"`` (the caller's full view, sent first on a fresh connection; ``data``
    is a MatchOut) or ``"event"`` (one new event as the caller may see it; ``data`` is an
    EventOut). ``id`` is the stream version after it.
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
        """The match is over after this message."""
        if self.event == "view":
            return bool(self.data.get("view", {}).get("status") == "over")
        return self.data.get("event", {}).get("type") in LAST_EVENTS


#: the type of each game's last event (Cuccù's ``match_won``, Cucco 21's ``game_ended``)
LAST_EVENTS = frozenset({"match_won", "game_ended"})


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


# --- the sans-I/O core: requests built, answers read, retries and reconnections decided ------
# Both clients below are thin transports over it: they send what it builds and sleep what it
# says, the sync one blocking, the async one awaiting.

DEFAULT_TIMEOUT = 30.0
#: the service sends a keep-alive comment every 15 s by default: silence for longer than this
#: means a dead connection, and the stream reconnects
DEFAULT_STREAM_READ_TIMEOUT = 60.0


def _entropy() -> str:
    """This seat's contribution to the next deck (docs/API.md "Fairness"): fresh bytes from the
    OS's CSPRNG, in the call's body, so a retry of the same call sends the same ones."""
    return os.urandom(32).hex()


class _Base:
    def __init__(self, token: str | None, retry: RetryPolicy | None) -> None:
        self.token = token
        self.retry = retry or RetryPolicy()

    def _auth(self, token: str | None = None) -> dict[str, str]:
        tok = token or self.token
        return {"Authorization": f"Bearer {tok}"} if tok else {}

    @staticmethod
    def _result(response: httpx.Response) -> Any:
        if response.status_code >= 400:
            raise problem_error(response)
        return response.json()

    # the requests -----------------------------------------------------------------------

    def _create(
        self,
        seats: list[SeatIn],
        starting_lives: int | None,
        seed: int | None,
        first_dealer: int | None,
        game: str | None = None,
        options: dict[str, Any] | None = None,
    ) -> _Call:
        """The creation request. Every option given is sent, whichever game it belongs to:
        the server, not the client, refuses another game's option (422 ``invalid-config``)."""
        body: dict[str, Any] = {"seats": seats}
        if game is not None:
            body["game"] = game
        if starting_lives is not None:
            body["starting_lives"] = starting_lives
        body.update({k: v for k, v in (options or {}).items() if v is not None})
        if seed is not None:
            body["seed"] = seed
        if first_dealer is not None:
            body["first_dealer"] = first_dealer
        # the key makes a repeat safe: the server answers the match it made the first time
        # (same tokens) instead of making a second one
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        return _Call("POST", "/matches", json=body, headers=headers)

    @staticmethod
    def _list(
        status: str | None, open_seats: bool | None, cursor: str | None, limit: int | None
    ) -> _Call:
        params: dict[str, Any] = {}
        if status is not None:
            params["status"] = status
        if open_seats is not None:
            params["open_seats"] = "true" if open_seats else "false"
        if cursor is not None:
            params["cursor"] = cursor
        if limit is not None:
            params["limit"] = limit
        return _Call("GET", "/matches", params=params)

    def _get(self, match_id: str) -> _Call:
        return _Call("GET", f"/matches/{match_id}", headers=self._auth())

    @staticmethod
    def _claim(match_id: str, seat: int, name: str, idempotency_key: str | None) -> _Call:
        # the key makes a repeat safe: it answers again, with a new token that replaces the
        # first one (whose answer was lost), instead of 409 seat-taken
        headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        body = {"name": name, "entropy": _entropy()}
        return _Call(
            "POST", f"/matches/{match_id}/seats/{seat}/claim", json=body, headers=headers,
        )  # fmt: skip

    def _command(
        self,
        match_id: str,
        type: CommandType | str,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> _Call:
        body: dict[str, Any] = {"type": type, "entropy": _entropy()}
        if expected_version is not None:
            body["expected_version"] = expected_version
        headers = {**self._auth(), "Idempotency-Key": idempotency_key or str(uuid.uuid4())}
        return _Call("POST", f"/matches/{match_id}/commands", json=body, headers=headers)

    def _events(self, match_id: str, after: int, limit: int | None) -> _Call:
        params: dict[str, Any] = {"after": after}
        if limit is not None:
            params["limit"] = limit
        return _Call("GET", f"/matches/{match_id}/events", params=params, headers=self._auth())

    def _stream_headers(self, last: int | None) -> dict[str, str]:
        headers = {**self._auth(), "Accept": "text/event-stream"}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        return headers

    # player accounts: their requests (the methods are at the end of each client class)

    @staticmethod
    def _register(name: str, kind: str) -> _Call:
        # not repeated on a failed connection: a repeat of a registration that went through
        # is 409 name-taken, and its key would be lost
        return _Call("POST", "/players", json={"name": name, "kind": kind}, repeatable=False)

    @staticmethod
    def _key_call(method: str, key: str) -> _Call:
        headers = {"Authorization": f"Bearer {key}"}
        return _Call(method, "/players/me/key", headers=headers, repeatable=False)

    @staticmethod
    def _claim_as(
        match_id: str, seat: int, name: str, key: str, idempotency_key: str | None
    ) -> _Call:
        call = _Base._claim(match_id, seat, name, idempotency_key)
        return _Call(
            call.method, call.path, json=call.json,
            headers={**call.headers, "Authorization": f"Bearer {key}"},
        )  # fmt: skip

    @staticmethod
    def _join_queue(
        key: str, game: str, seats: int, bots_after: int | None, bot_level: str | None
    ) -> _Call:
        body: dict[str, Any] = {"game": game, "seats": seats}
        if bots_after is not None:
            body["bots_after"] = bots_after
        if bot_level is not None:
            body["bot_level"] = bot_level
        # joining again answers the same ticket: a repeat does no harm
        return _Call("POST", "/queue", json=body, headers={"Authorization": f"Bearer {key}"})

    @staticmethod
    def _ticket(method: str, key: str, ticket_id: str, wait: float | None = None) -> _Call:
        params = {"wait": wait} if wait is not None else None
        return _Call(
            method, f"/queue/{ticket_id}", params=params,
            headers={"Authorization": f"Bearer {key}"},
        )  # fmt: skip

    @staticmethod
    def _leaderboard(game: str, limit: int | None) -> _Call:
        params: dict[str, Any] = {"game": game}
        if limit is not None:
            params["limit"] = limit
        return _Call("GET", "/leaderboard", params=params)

    def _adopt(self, claimed: ClaimedSeat, use_token: bool) -> ClaimedSeat:
        if use_token:
            self.token = claimed["token"]
        return claimed

    # the decisions on an answer: one place for both transports ---------------------------

    def _wait_after(self, retry: int, response: httpx.Response) -> float | None:
        """Seconds to wait before try ``retry + 1`` after ``response``; None: it is the answer."""
        if response.status_code in self.retry.statuses and retry + 1 < self.retry.attempts:
            return self.retry.delay(retry, response)
        return None

    def _wait_after_error(self, call: _Call, retry: int, exc: httpx.TransportError) -> float | None:
        """Seconds to wait before sending ``call`` again after ``exc``; None: raise it."""
        if retry + 1 >= self.retry.attempts or not _retry_transport_error(call, exc):
            return None
        return self.retry.delay(retry)

    @staticmethod
    def _text(response: httpx.Response) -> str:
        if response.status_code >= 400:
            raise problem_error(response)
        return response.text

    def _follow(self, match_id: str, last: int | None, max_reconnects: int) -> _Follow:
        return _Follow(self, f"/matches/{match_id}/stream", match_id, last, max_reconnects)


class _Follow:
    """One :meth:`Client.stream` (or async) without its I/O: where to resume, what each line
    means, and how long to wait, or whether to give up, when a connection ends."""

    def __init__(
        self, client: _Base, path: str, match_id: str, last: int | None, max_reconnects: int
    ) -> None:
        self.client, self.path, self.match_id = client, path, match_id
        self.last, self.max_reconnects = last, max_reconnects
        self.finished = False
        self.failures = 0
        self.parser = _SseParser()

    def connect(self) -> dict[str, str]:
        """The headers of a new connection, resuming after the last message delivered."""
        self.parser = _SseParser()
        return self.client._stream_headers(self.last)

    def refused(self, response: httpx.Response) -> float:
        """The wait before reconnecting after an error answer (read); raises it when it is not
        one to retry, or too many came in a row."""
        if response.status_code not in self.client.retry.statuses:
            raise problem_error(response)
        if self.failures >= self.max_reconnects:
            raise problem_error(response)
        return self._failed(response)

    def feed(self, line: str) -> StreamMessage | None:
        message = self.parser.feed(line)
        if message is not None:
            self.failures = 0
            self.last = message.id
            self.finished = self.finished or message.ends_match
        return message

    def dropped(self) -> float | None:
        """The wait before reconnecting after a transport error; None: raise it."""
        if self.failures >= self.max_reconnects:
            return None
        return self._failed()

    def closed(self) -> float | None:
        """The wait before reconnecting after the server closed the stream; None: the match is
        over, the stream is done."""
        if self.finished:
            return None
        if self.failures >= self.max_reconnects:
            raise StreamEnded(f"the stream of {self.match_id} kept closing early")
        return self._failed()

    def _failed(self, response: httpx.Response | None = None) -> float:
        wait = self.client.retry.delay(self.failures, response)
        self.failures += 1
        return wait


def _export_records(text: str) -> list[ExportLine]:
    """The record lines of an export (not its closing seal line)."""
    # split on "\n" only: str.splitlines() also breaks at U+0085, U+2028 and U+2029, which
    # canonical JSON writes as themselves inside strings (a seat's name may hold them)
    lines = (json.loads(line) for line in text.split("\n") if line.strip())
    return [cast(ExportLine, obj) for obj in lines if "record" in obj]


# --- sync ----------------------------------------------------------------------------------


class Client(_Base):
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
        super().__init__(token, retry)
        self.http = httpx.Client(base_url=base_url, timeout=timeout, transport=transport)
        self.stream_read_timeout = stream_read_timeout
        self._sleep = sleep

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _send(self, call: _Call) -> httpx.Response:
        retry = 0
        while True:
            try:
                response = self.http.request(
                    call.method, call.path, json=call.json, params=call.params,
                    headers=dict(call.headers),
                )  # fmt: skip
            except httpx.TransportError as exc:
                wait = self._wait_after_error(call, retry, exc)
                if wait is None:
                    raise
            else:
                wait = self._wait_after(retry, response)
                if wait is None:
                    return response
            self._sleep(wait)
            retry += 1

    def _call(self, call: _Call) -> Any:
        return self._result(self._send(call))

    # endpoints ---------------------------------------------------------------------------

    def health(self) -> Health:
        """``GET /health``: the process answers."""
        return cast(Health, self._call(_Call("GET", "/health")))

    def ready(self) -> Health:
        """``GET /ready``: the database answers and its schema is current (else 503)."""
        return cast(Health, self._call(_Call("GET", "/ready")))

    def signing_keys(self) -> dict[str, Any]:
        """``GET /.well-known/cuccu-keys.json``: the public keys that sign finished matches."""
        return cast(dict[str, Any], self._call(_Call("GET", "/.well-known/cuccu-keys.json")))

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI 3.1 document the server serves."""
        return cast(dict[str, Any], self._call(_Call("GET", "/schema/openapi.json")))

    @overload
    def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: Literal["cuccu"] | None = None,
        starting_lives: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch: ...

    @overload
    def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: Literal["cucco21"],
        starting_chips: int | None = None,
        powers: bool | None = None,
        max_sets: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch: ...

    def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: str | None = None,
        starting_lives: int | None = None,
        starting_chips: int | None = None,
        powers: bool | None = None,
        max_sets: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch:
        """``POST /matches``: a Cuccù match (``starting_lives``), or with ``game="cucco21"`` a
        Cucco 21 game (``starting_chips``, ``powers``, ``max_sets``); the overloads let a type
        checker refuse the other game's options, as the server does (``ValidationFailed``,
        ``invalid-config``). The answer holds each human seat's token (shown only once) and
        that seat's own view, so a creator can play at once."""
        options = {"starting_chips": starting_chips, "powers": powers, "max_sets": max_sets}
        call = self._create(seats, starting_lives, seed, first_dealer, game, options)
        return cast(CreatedMatch, self._call(call))

    def list_matches(
        self,
        *,
        status: MatchStatus | None = None,
        open_seats: bool | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> MatchList:
        """``GET /matches``: one page, newest first."""
        return cast(MatchList, self._call(self._list(status, open_seats, cursor, limit)))

    def iter_matches(
        self, *, status: MatchStatus | None = None, open_seats: bool | None = None
    ) -> Iterator[MatchSummary]:
        """Every match (newest first), following ``next_cursor`` page by page."""
        cursor: str | None = None
        while True:
            page = self.list_matches(status=status, open_seats=open_seats, cursor=cursor)
            yield from page["matches"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def lobby(self, *, limit: int | None = None) -> list[MatchSummary]:
        """Matches waiting for open seats to be claimed (``GET /matches?open_seats=true``)."""
        return self.list_matches(open_seats=True, limit=limit)["matches"]

    def get_match(self, match_id: str) -> MatchOut:
        """``GET /matches/{id}``: this client's seat view (spectator view without a token)."""
        return cast(MatchOut, self._call(self._get(match_id)))

    def claim_seat(
        self,
        match_id: str,
        seat: int,
        name: str,
        *,
        use_token: bool = True,
        idempotency_key: str | None = None,
    ) -> ClaimedSeat:
        """``POST /matches/{id}/seats/{seat}/claim``; with ``use_token`` this client then plays
        that seat. The token is shown only in this answer: keep it if you need it again.

        An Idempotency-Key is generated for this claim (or the one given) and reused on its
        retries: a claim whose answer was lost is retried, and the repeat answers with a new
        token for the seat (the lost one stops working) instead of 409 ``seat-taken``."""
        call = self._claim(match_id, seat, name, idempotency_key)
        return self._adopt(cast(ClaimedSeat, self._call(call)), use_token)

    def send_command(
        self,
        match_id: str,
        type: CommandType | str,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandOut:
        """``POST /matches/{id}/commands``, with an Idempotency-Key generated for this command
        (or the one given) and reused on every retry, so the command applies at most once."""
        call = self._command(match_id, type, expected_version, idempotency_key)
        return cast(CommandOut, self._call(call))

    def events(self, match_id: str, *, after: int = 0, limit: int | None = None) -> EventPage:
        """``GET /matches/{id}/events``: one page of the log, as this seat may see it."""
        return cast(EventPage, self._call(self._events(match_id, after, limit)))

    def iter_events(self, match_id: str, *, after: int = 0) -> Iterator[EventOut]:
        """The log after version ``after`` up to now, page by page."""
        while True:
            page = self.events(match_id, after=after)
            yield from page["events"]
            if page["next_after"] is None:
                return
            after = page["next_after"]

    def export(self, match_id: str) -> str:
        """``GET /matches/{id}/export``: the complete NDJSON log of a finished match."""
        return self._text(self._send(_Call("GET", f"/matches/{match_id}/export")))

    def export_records(self, match_id: str) -> list[ExportLine]:
        return _export_records(self.export(match_id))

    def stream(
        self, match_id: str, *, last_event_id: int | None = None, max_reconnects: int = 20
    ) -> Iterator[StreamMessage]:
        """Follow ``GET /matches/{id}/stream`` until the match is over.

        Without ``last_event_id`` the first message is the full view; then one message per
        event. A dropped connection (or a server restart) is retried with backoff, resuming
        after the last message delivered, at most ``max_reconnects`` times in a row.
        """
        follow = self._follow(match_id, last_event_id, max_reconnects)
        timeout = httpx.Timeout(self.http.timeout.connect, read=self.stream_read_timeout)
        while True:
            try:
                with self.http.stream(
                    "GET", follow.path, headers=follow.connect(), timeout=timeout
                ) as response:
                    if response.status_code >= 400:
                        response.read()
                        self._sleep(follow.refused(response))
                        continue
                    for line in response.iter_lines():
                        message = follow.feed(line)
                        if message is not None:
                            yield message
            except httpx.TransportError:
                wait = follow.dropped()
                if wait is None:
                    raise
            else:
                wait = follow.closed()
                if wait is None:
                    return
            self._sleep(wait)

    # --- player accounts and ratings -------------------------------------------------------

    def register_player(self, name: str, kind: Literal["person", "bot"] = "person") -> Registered:
        """``POST /players``: a new account; its API key is in this answer only."""
        return cast(Registered, self._call(self._register(name, kind)))

    def claim_seat_as(
        self,
        key: str,
        match_id: str,
        seat: int,
        name: str,
        *,
        use_token: bool = True,
        idempotency_key: str | None = None,
    ) -> ClaimedSeat:
        """:meth:`claim_seat` as the account whose API key is ``key`` (rated when it ends)."""
        call = self._claim_as(match_id, seat, name, key, idempotency_key)
        return self._adopt(cast(ClaimedSeat, self._call(call)), use_token)

    def rotate_key(self, key: str) -> Registered:
        """``POST /players/me/key``: a new key for the account; ``key`` stops working."""
        return cast(Registered, self._call(self._key_call("POST", key)))

    def revoke_key(self, key: str) -> None:
        """``DELETE /players/me/key``: the account has no working key any more."""
        response = self._send(self._key_call("DELETE", key))
        if response.status_code >= 400:
            raise problem_error(response)

    def player(self, player_id: str) -> Profile:
        """``GET /players/{id}``: name, kind and rating per game."""
        return cast(Profile, self._call(_Call("GET", f"/players/{player_id}")))

    def player_matches(self, player_id: str, limit: int | None = None) -> list[PlayedMatch]:
        """``GET /players/{id}/matches``: the account's finished matches, latest first."""
        params = {"limit": limit} if limit is not None else None
        got = self._call(_Call("GET", f"/players/{player_id}/matches", params=params))
        return cast(list[PlayedMatch], got["matches"])

    def leaderboard(self, game: str, limit: int | None = None) -> Leaderboard:
        """``GET /leaderboard?game=…``: rated accounts, best first."""
        return cast(Leaderboard, self._call(self._leaderboard(game, limit)))

    def join_queue(
        self,
        key: str,
        game: str,
        seats: int,
        *,
        bots_after: int | None = None,
        bot_level: str | None = None,
    ) -> QueueTicket:
        """``POST /queue``: wait, as the account of ``key``, for a table of ``seats``."""
        call = self._join_queue(key, game, seats, bots_after, bot_level)
        return cast(QueueTicket, self._call(call))

    def queue_ticket(self, key: str, ticket_id: str, *, wait: float | None = None) -> QueueTicket:
        """``GET /queue/{ticket}``; ``wait`` (seconds, at most 30 and less than this client's
        timeout) answers as soon as the ticket is matched. Once matched, a new seat token."""
        return cast(QueueTicket, self._call(self._ticket("GET", key, ticket_id, wait)))

    def leave_queue(self, key: str, ticket_id: str) -> None:
        """``DELETE /queue/{ticket}``: out of the queue (a matched ticket is 409)."""
        response = self._send(self._ticket("DELETE", key, ticket_id))
        if response.status_code >= 400:
            raise problem_error(response)

    # the transparency log (docs/API.md, "Transparency log") -----------------------------

    def log_checkpoint(self) -> str:
        """``GET /log/checkpoint``: the log's latest signed checkpoint (a C2SP signed note)."""
        return _text(self._send(_Call("GET", "/log/checkpoint")))

    def log_key(self) -> str:
        """``GET /log/key``: the verifier key checkpoints are signed with."""
        return _text(self._send(_Call("GET", "/log/key"))).strip()

    def inclusion_proof(self, match_id: str, size: int | None = None) -> InclusionProof:
        """``GET /log/proof/inclusion``: a finished match's place in the log, proven."""
        return cast(InclusionProof, self._call(_inclusion_call(match_id, size)))

    def consistency_proof(self, size1: int, size2: int | None = None) -> ConsistencyProof:
        """``GET /log/proof/consistency``: the tree of ``size1`` leaves is a prefix of
        the tree of ``size2``."""
        return cast(ConsistencyProof, self._call(_consistency_call(size1, size2)))


# --- the transparency log: its answers and requests, shared by both clients ----------------


class InclusionProof(TypedDict):
    match_id: str
    index: int
    tree_size: int
    leaf: str
    leaf_hash: str
    inclusion: list[str]
    checkpoint: str


ConsistencyProof = TypedDict("ConsistencyProof", {"from": int, "to": int, "consistency": list[str]})


def _inclusion_call(match_id: str, size: int | None) -> _Call:
    params: dict[str, Any] = {"match": match_id}
    if size is not None:
        params["size"] = size
    return _Call("GET", "/log/proof/inclusion", params=params)


def _consistency_call(size1: int, size2: int | None) -> _Call:
    params: dict[str, Any] = {"from": size1}
    if size2 is not None:
        params["to"] = size2
    return _Call("GET", "/log/proof/consistency", params=params)


def _text(response: httpx.Response) -> str:
    if response.status_code >= 400:
        raise problem_error(response)
    return response.text


# --- async ---------------------------------------------------------------------------------


class AsyncClient(_Base):
    """The API over an ``httpx.AsyncClient``; the same methods as :class:`Client`, awaited."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        stream_read_timeout: float = DEFAULT_STREAM_READ_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        super().__init__(token, retry)
        self.http = httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)
        self.stream_read_timeout = stream_read_timeout
        self._sleep = sleep

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, call: _Call) -> httpx.Response:
        retry = 0
        while True:
            try:
                response = await self.http.request(
                    call.method, call.path, json=call.json, params=call.params,
                    headers=dict(call.headers),
                )  # fmt: skip
            except httpx.TransportError as exc:
                wait = self._wait_after_error(call, retry, exc)
                if wait is None:
                    raise
            else:
                wait = self._wait_after(retry, response)
                if wait is None:
                    return response
            await self._sleep(wait)
            retry += 1

    async def _call(self, call: _Call) -> Any:
        return self._result(await self._send(call))

    # endpoints ---------------------------------------------------------------------------

    async def health(self) -> Health:
        return cast(Health, await self._call(_Call("GET", "/health")))

    async def ready(self) -> Health:
        return cast(Health, await self._call(_Call("GET", "/ready")))

    async def signing_keys(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._call(_Call("GET", "/.well-known/cuccu-keys.json")))

    async def openapi(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._call(_Call("GET", "/schema/openapi.json")))

    @overload
    async def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: Literal["cuccu"] | None = None,
        starting_lives: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch: ...

    @overload
    async def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: Literal["cucco21"],
        starting_chips: int | None = None,
        powers: bool | None = None,
        max_sets: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch: ...

    async def create_match(
        self,
        seats: list[SeatIn],
        *,
        game: str | None = None,
        starting_lives: int | None = None,
        starting_chips: int | None = None,
        powers: bool | None = None,
        max_sets: int | None = None,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> CreatedMatch:
        options = {"starting_chips": starting_chips, "powers": powers, "max_sets": max_sets}
        call = self._create(seats, starting_lives, seed, first_dealer, game, options)
        return cast(CreatedMatch, await self._call(call))

    async def list_matches(
        self,
        *,
        status: MatchStatus | None = None,
        open_seats: bool | None = None,
        cursor: str | None = None,
        limit: int | None = None,
    ) -> MatchList:
        return cast(MatchList, await self._call(self._list(status, open_seats, cursor, limit)))

    async def iter_matches(
        self, *, status: MatchStatus | None = None, open_seats: bool | None = None
    ) -> AsyncIterator[MatchSummary]:
        cursor: str | None = None
        while True:
            page = await self.list_matches(status=status, open_seats=open_seats, cursor=cursor)
            for summary in page["matches"]:
                yield summary
            cursor = page["next_cursor"]
            if cursor is None:
                return

    async def lobby(self, *, limit: int | None = None) -> list[MatchSummary]:
        return (await self.list_matches(open_seats=True, limit=limit))["matches"]

    async def get_match(self, match_id: str) -> MatchOut:
        return cast(MatchOut, await self._call(self._get(match_id)))

    async def claim_seat(
        self,
        match_id: str,
        seat: int,
        name: str,
        *,
        use_token: bool = True,
        idempotency_key: str | None = None,
    ) -> ClaimedSeat:
        call = self._claim(match_id, seat, name, idempotency_key)
        claimed = cast(ClaimedSeat, await self._call(call))
        return self._adopt(claimed, use_token)

    async def send_command(
        self,
        match_id: str,
        type: CommandType | str,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandOut:
        call = self._command(match_id, type, expected_version, idempotency_key)
        return cast(CommandOut, await self._call(call))

    async def events(self, match_id: str, *, after: int = 0, limit: int | None = None) -> EventPage:
        return cast(EventPage, await self._call(self._events(match_id, after, limit)))

    async def iter_events(self, match_id: str, *, after: int = 0) -> AsyncIterator[EventOut]:
        while True:
            page = await self.events(match_id, after=after)
            for event in page["events"]:
                yield event
            if page["next_after"] is None:
                return
            after = page["next_after"]

    async def export(self, match_id: str) -> str:
        return self._text(await self._send(_Call("GET", f"/matches/{match_id}/export")))

    async def export_records(self, match_id: str) -> list[ExportLine]:
        return _export_records(await self.export(match_id))

    async def stream(
        self, match_id: str, *, last_event_id: int | None = None, max_reconnects: int = 20
    ) -> AsyncIterator[StreamMessage]:
        follow = self._follow(match_id, last_event_id, max_reconnects)
        timeout = httpx.Timeout(self.http.timeout.connect, read=self.stream_read_timeout)
        while True:
            try:
                async with self.http.stream(
                    "GET", follow.path, headers=follow.connect(), timeout=timeout
                ) as response:
                    if response.status_code >= 400:
                        await response.aread()
                        await self._sleep(follow.refused(response))
                        continue
                    async for line in response.aiter_lines():
                        message = follow.feed(line)
                        if message is not None:
                            yield message
            except httpx.TransportError:
                wait = follow.dropped()
                if wait is None:
                    raise
            else:
                wait = follow.closed()
                if wait is None:
                    return
            await self._sleep(wait)

    # --- player accounts and ratings -------------------------------------------------------

    async def register_player(
        self, name: str, kind: Literal["person", "bot"] = "person"
    ) -> Registered:
        """``POST /players``: a new account; its API key is in this answer only."""
        return cast(Registered, await self._call(self._register(name, kind)))

    async def claim_seat_as(
        self,
        key: str,
        match_id: str,
        seat: int,
        name: str,
        *,
        use_token: bool = True,
        idempotency_key: str | None = None,
    ) -> ClaimedSeat:
        """:meth:`claim_seat` as the account whose API key is ``key`` (rated when it ends)."""
        call = self._claim_as(match_id, seat, name, key, idempotency_key)
        claimed = cast(ClaimedSeat, await self._call(call))
        return self._adopt(claimed, use_token)

    async def rotate_key(self, key: str) -> Registered:
        """``POST /players/me/key``: a new key for the account; ``key`` stops working."""
        return cast(Registered, await self._call(self._key_call("POST", key)))

    async def revoke_key(self, key: str) -> None:
        """``DELETE /players/me/key``: the account has no working key any more."""
        response = await self._send(self._key_call("DELETE", key))
        if response.status_code >= 400:
            raise problem_error(response)

    async def player(self, player_id: str) -> Profile:
        """``GET /players/{id}``: name, kind and rating per game."""
        return cast(Profile, await self._call(_Call("GET", f"/players/{player_id}")))

    async def player_matches(self, player_id: str, limit: int | None = None) -> list[PlayedMatch]:
        """``GET /players/{id}/matches``: the account's finished matches, latest first."""
        params = {"limit": limit} if limit is not None else None
        got = await self._call(_Call("GET", f"/players/{player_id}/matches", params=params))
        return cast(list[PlayedMatch], got["matches"])

    async def leaderboard(self, game: str, limit: int | None = None) -> Leaderboard:
        """``GET /leaderboard?game=…``: rated accounts, best first."""
        return cast(Leaderboard, await self._call(self._leaderboard(game, limit)))

    async def join_queue(
        self,
        key: str,
        game: str,
        seats: int,
        *,
        bots_after: int | None = None,
        bot_level: str | None = None,
    ) -> QueueTicket:
        """``POST /queue``: wait, as the account of ``key``, for a table of ``seats``."""
        call = self._join_queue(key, game, seats, bots_after, bot_level)
        return cast(QueueTicket, await self._call(call))

    async def queue_ticket(
        self, key: str, ticket_id: str, *, wait: float | None = None
    ) -> QueueTicket:
        """``GET /queue/{ticket}``; ``wait`` (seconds, at most 30 and less than this client's
        timeout) answers as soon as the ticket is matched. Once matched, a new seat token."""
        return cast(QueueTicket, await self._call(self._ticket("GET", key, ticket_id, wait)))

    async def leave_queue(self, key: str, ticket_id: str) -> None:
        """``DELETE /queue/{ticket}``: out of the queue (a matched ticket is 409)."""
        response = await self._send(self._ticket("DELETE", key, ticket_id))
        if response.status_code >= 400:
            raise problem_error(response)

    # the transparency log (docs/API.md, "Transparency log") -----------------------------

    async def log_checkpoint(self) -> str:
        return _text(await self._send(_Call("GET", "/log/checkpoint")))

    async def log_key(self) -> str:
        return _text(await self._send(_Call("GET", "/log/key"))).strip()

    async def inclusion_proof(self, match_id: str, size: int | None = None) -> InclusionProof:
        return cast(InclusionProof, await self._call(_inclusion_call(match_id, size)))

    async def consistency_proof(self, size1: int, size2: int | None = None) -> ConsistencyProof:
        return cast(ConsistencyProof, await self._call(_consistency_call(size1, size2)))
