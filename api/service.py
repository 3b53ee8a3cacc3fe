"""The match service: the only place that touches both the domain and the store.

It knows no HTTP. Each method takes a request's values and returns a result, or raises a
:class:`domain.DomainError` or one of the :class:`ServiceError` subclasses below; the
controllers alone turn them into responses and RFC 9457 problems (api.problems).

One command is one transaction: load the stream, fold it, decide the seat's command, let the
bot seats (and the dealer of new rounds) act until a person must decide, and append everything
with the expected version. A concurrent append surfaces as ConcurrencyError: reload and decide
again; the caller is refused only if its command is no longer legal.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from itertools import takewhile
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import msgspec

from api import metrics
from api.bots_pool import BotPool
from api.clock_time import as_datetime, now_ms
from api.creation_keys import lookup_hash, open_tokens, seal_tokens
from api.export import sealed_export
from api.faults import CRASH_AFTER_FINAL_COMMIT, crash_point
from api.ratings import account_of
from api.signing import SignFinal
from api.store import (
    CLAIM_FINGERPRINT_PREFIX,
    ConcurrencyError,
    CreationRecord,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    StoredEvent,
    StoreUnavailable,
)
from api.store.notify import Notifier, Subscription
from api.store.seals import Sealer
from api.transparency.store import ResultLog
from api.turns import Step, _meta, advance, committed, contributed, rng_for
from domain.clock import ClockSettings, StartClock, due, stamp, timeout_command
from domain.envelope import GENESIS_HASH
from domain.errors import DomainError
from domain.games import GAMES, Game, by_name
from domain.seats import SeatSpec

if TYPE_CHECKING:  # it raises this module's errors
    from api.precommitments import Precommitments

__all__ = [
    "Step", "_meta", "advance", "rng_for",  # re-exported for the benches and the CLI
]  # fmt: skip

MAX_ATTEMPTS = 8
_T = TypeVar("_T")
#: matches whose folded state each process keeps (least recently used ones are dropped)
STATE_CACHE_SIZE = 2_000
#: creators' seat tokens each process keeps (all are forgotten when there are more)
ISSUED_TOKENS = 100_000


class MatchReader(Protocol):
    """What the service reads of a read replica: ``api.store.EventStore`` on it."""

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def load(
        self, match_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]: ...

    async def list_matches(
        self,
        *,
        status: str | None = None,
        before: tuple[dt.datetime, str] | None = None,
        limit: int = 20,
        open_seats: bool | None = None,
    ) -> list[MatchRecord]: ...


class MatchStore(MatchReader, Protocol):
    """What the service needs of a store: ``api.store.EventStore`` on a database, or the
    in-memory fake of the service tests (tests/service/fakes.py); its reads are
    :class:`MatchReader`'s."""

    notifier: Notifier

    @property
    def replica(self) -> MatchReader | None:
        """A store on a read replica (``CUCCU_READ_DATABASE_URL``), or None."""

    async def seat_for_token(self, token_sha256: str) -> tuple[str, int] | None: ...

    async def link_rematch(self, finished: str, rematch: str) -> None: ...

    async def replace_seat_token(self, match_id: str, seat: int, token_sha256: str) -> bool: ...

    async def get_idempotency(
        self, match_id: str, seat: int, key: str
    ) -> IdempotencyRecord | None: ...

    async def get_creation(self, key_hash: str) -> CreationRecord | None: ...

    async def reserve_creation(self, record: CreationRecord) -> None: ...

    async def commit(
        self,
        match_id: str,
        *,
        expected_version: int,
        prev_hash: str,
        events: Sequence[Any],
        summary: MatchSummary,
        meta: Mapping[str, Any] | None = None,
        metas: Sequence[Mapping[str, Any] | None] | None = None,
        new_match: NewMatch | None = None,
        idempotency: IdempotencyRecord | None = None,
        seat_tokens: Mapping[int, str] | None = None,
        seal_with: SignFinal | None = None,
    ) -> list[StoredEvent]: ...


# --- what the service refuses (besides DomainError) ------------------------------------------


class ServiceError(Exception):
    """A request the service refuses; ``str(exc)`` says why, for people."""


class MatchNotFound(ServiceError):
    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")


class SeatNotFound(ServiceError):
    def __init__(self, match_id: str, seat: int) -> None:
        super().__init__(f"match {match_id!r} has no seat {seat}")


class MissingToken(ServiceError):
    """The request needs a seat token and has none (or not a bearer one)."""


class UnknownToken(ServiceError):
    def __init__(self) -> None:
        super().__init__("this token is not valid")


class WrongMatch(ServiceError):
    def __init__(self) -> None:
        super().__init__("this seat token belongs to another match")


class StaleVersion(ServiceError):
    def __init__(self, version: int, expected: int) -> None:
        super().__init__(f"the match is at version {version}, not {expected}")
        self.version = version


class TooMuchContention(ServiceError):
    def __init__(self) -> None:
        super().__init__("the match kept changing; try again")


class IdempotencyKeyReused(ServiceError):
    """The key was used before with a different request."""


class MatchNotFinished(ServiceError):
    def __init__(
        self, detail: str = "the complete log is exported only once the match is over"
    ) -> None:
        super().__init__(detail)


class InvalidRequest(ServiceError):
    """A value the service cannot use (a foreign cursor, a malformed Last-Event-ID)."""


class UnknownGame(ServiceError):
    def __init__(self, name: str) -> None:
        super().__init__(f"there is no game {name!r}; the games are: {', '.join(GAMES)}")


class InvalidOptions(ServiceError):
    """Options that the match's game does not take."""


class PrecommitmentNotFound(ServiceError):
    """A creation's pre-commitment (``POST /commitments``) is unknown or has expired."""


class PrecommitmentUsed(ServiceError):
    """A creation's pre-commitment was used by another match (each is used once)."""


class PrecommitmentUnusable(ServiceError):
    """A creation's pre-commitment names a match with no deck to commit to (no person and no
    open seat at its table: its decks are the service's alone)."""


# --- helpers -------------------------------------------------------------------------------


async def retried(operation: str, attempt: Callable[[bool], Awaitable[_T | None]]) -> _T:
    """The outcome of the first of at most MAX_ATTEMPTS attempts that has one.

    An attempt raising ConcurrencyError lost a race (someone appended first): it counts as a
    retry of ``operation`` and the next attempt runs. An attempt answering None found its kept
    state stale. Every attempt after the first is told (``attempt(True)``) to read the stored
    state rather than a kept copy. Past MAX_ATTEMPTS, TooMuchContention.
    """
    refresh = False
    for _attempt in range(MAX_ATTEMPTS):
        try:
            outcome = await attempt(refresh)
        except ConcurrencyError:
            metrics.retried(operation)
            outcome = None
        if outcome is not None:
            return outcome
        refresh = True
    raise TooMuchContention()


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def command_fingerprint(choice: str, expected_version: int | None) -> str:
    """The fingerprint of a command's request: same key + other request = refused."""
    return hashlib.sha256(msgspec.json.encode([choice, expected_version])).hexdigest()


def creation_fingerprint(
    game: str,
    seats: Sequence[SeatSpec],
    seed: int | None,
    first_dealer: int | None,
    options: Mapping[str, Any],
) -> str:
    """The fingerprint of a creation's request, as the service reads it (names trimmed, bot
    levels and options with their defaults): a body that only spells a default differently is
    the same request."""
    request = [game, [msgspec.to_builtins(s) for s in seats], seed, first_dealer, dict(options)]
    return hashlib.sha256(msgspec.json.encode(request, order="sorted")).hexdigest()


def new_tokens(specs: Sequence[SeatSpec]) -> dict[int, str]:
    """A fresh secret token (256 random bits) for each human seat."""
    return {i: secrets.token_urlsafe(32) for i, spec in enumerate(specs) if spec.kind == "human"}


def claim_fingerprint(name: str) -> str:
    """The fingerprint of a claim's request (its name), marked as a claim's for the store."""
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()
    return (CLAIM_FINGERPRINT_PREFIX + digest)[:64]  # the column holds 64 characters


def step_metas(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """The stored metadata of each event of ``steps``: one per step, shared by its events
    (the store copies each one as it writes it)."""
    return [meta for step in steps for meta in [_meta(step)] * len(step.events)]


def summary_of(state: Any, game: Game, *, seats: bool = False) -> MatchSummary:
    """The matches row after ``state``; ``seats`` also rewrites the stored seats (claims)."""
    standing = game.summary(state)
    return MatchSummary(
        status=standing.status,
        standing=list(standing.standing),
        winners=list(standing.winners),
        rounds=standing.rounds,
        version=standing.version,
        seats=[msgspec.to_builtins(s) for s in standing.seats] if seats else None,
        deadline=as_datetime(due(state)),
    )


def game_options(game: Game, options: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options, defaults filled in; InvalidOptions names any it does not take."""
    unknown = sorted(set(options) - set(game.options))
    if unknown:
        raise InvalidOptions(
            f"{game.name} has no option {', '.join(unknown)}; "
            f"its options are: {', '.join(game.options)}"
        )
    return {**game.options, **options}


def _with_account(stored: Sequence[StoredEvent]) -> bool:
    """Whether one of these stored events is a claim that named a player account."""
    return any(account_of(s.meta) is not None for s in stored)


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Current:
    """A match's folded state at ``state.version`` and the hash of its last event.

    Kept per process between requests. It may be stale when another process appended since:
    a command built on it fails the optimistic version lock, and the service then reads the
    newer events and decides again. Nothing is refused on the strength of a stale entry.
    """

    seed: int | None
    state: Any
    last_hash: str
    game: Game
    #: the finished match this one is the rematch of (set at creation, never changed)
    rematch_of: str | None = None
    #: this finished match's rematch, as last read from its row (None: none, or not read:
    #: it is asked for only once the match is over, see :meth:`MatchService.shown`)
    rematch: str | None = None
    #: whether a claim among the events up to ``state.version`` named a player account (read
    #: from the stored events' metadata, as the ratings read it: api/ratings.py): a match that
    #: ends without one has nothing for the ratings, which are then not asked (True: unknown)
    accounts: bool = True


@dataclass(frozen=True)
class Shown:
    """A match as ``GET /matches/{id}`` shows it: its state and its rematch links."""

    game: Game
    state: Any
    rematch_of: str | None
    rematch: str | None


@dataclass(frozen=True)
class Created:
    match_id: str
    tokens: dict[int, str]
    state: Any
    events: list[tuple[int, Any]]
    game: Game
    #: a retry with the same Idempotency-Key, answered from the match the first one made
    replayed: bool = False


@dataclass(frozen=True)
class Played:
    """What a command or a claim did: the state after it and its numbered events.

    ``replayed``: a retry with the same Idempotency-Key, answered from the stored versions
    without a second effect. ``token``: a claim's new seat token.
    """

    state: Any
    events: list[tuple[int, Any]]
    game: Game
    replayed: bool = False
    token: str | None = None


@dataclass(frozen=True)
class EventsPage:
    record: MatchRecord
    stored: list[StoredEvent]

    @property
    def game(self) -> Game:
        return by_name(self.record.game)

    def numbered(self) -> list[tuple[int, Any]]:
        """The page's events, read as its match's game's, with their versions."""
        game = self.game
        return [(s.version, s.event_of(game)) for s in self.stored]


@dataclass(frozen=True)
class NewSeat:
    """A seat of a match to create, as the request gives it."""

    name: str
    kind: str = "human"
    bot_level: str | None = None


#: the level of a bot seat created without one: the strongest (docs/BOTS.md)
DEFAULT_BOT_LEVEL = "expert"


def seat_specs(seats: list[NewSeat]) -> list[SeatSpec]:
    """The domain's seats: names trimmed, bots without a level made experts (the domain
    refuses a level on a seat that is not a bot)."""
    return [
        SeatSpec(
            s.name.strip(),
            s.kind,  # type: ignore[arg-type]
            (s.bot_level or DEFAULT_BOT_LEVEL) if s.kind == "bot" else s.bot_level,
        )
        for s in seats
    ]


class MatchService:
    def __init__(
        self,
        store: MatchStore,
        cache_size: int = STATE_CACHE_SIZE,
        bots: BotPool | None = None,
        sealer: Sealer | None = None,
        result_log: ResultLog | None = None,
        precommitments: Precommitments | None = None,
    ) -> None:
        self.store = store
        #: the secrets committed to before a creation (api/precommitments.py); None: refused
        self.precommitments = precommitments
        self.bots = bots or BotPool(0)
        #: signs each match whose commit ends it (api/signing.py); None: signing is off
        self.sealer = sealer
        #: the transparency log its results are appended to (api/transparency); None: off
        self.result_log = result_log
        self._cache: OrderedDict[str, Current] = OrderedDict()
        self._cache_size = cache_size
        #: (match id, seat) of the seat tokens this process issued when creating a match. They
        #: belong to human seats, which are never claimed (open seats are, and get their tokens
        #: then), so no retried claim ever replaces them: the creator's first request needs no
        #: lookup (the store remembers the tokens it has looked up, except replaceable ones)
        self._issued: dict[str, tuple[str, int]] = {}
        #: called after each commit that ends a match in which a claim named a player account
        #: (``Current.accounts``: the others have nothing for it), with its id (the ratings
        #: projection, api/players.py); it must not raise: the match has ended whatever it does
        self.on_finished: Callable[[str], Awaitable[None]] | None = None
        #: called after each commit that stores a clock's deadline, with it (this process's
        #: clock sweeper, api/clocks.py, wakes for it instead of polling)
        self.on_deadline: Callable[[dt.datetime], None] | None = None

    # --- reads ------------------------------------------------------------------------------

    def _remember(self, match_id: str, entry: Current) -> Current:
        """Keep ``entry`` unless a newer one is already kept (requests finish out of order)."""
        old = self._cache.get(match_id)
        if old is not None and old.state.version > entry.state.version:
            entry = old
        self._cache[match_id] = entry
        self._cache.move_to_end(match_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return entry

    async def current(self, match_id: str, *, refresh: bool = True) -> tuple[Current, bool]:
        """The match's state and whether it was read from the store just now.

        A kept entry is brought up to date by reading only the events after its version
        (``refresh``), or used as it is (``refresh=False``: the optimistic lock will tell).
        """
        entry = self._cache.get(match_id)
        if entry is None:
            record = await self.record(match_id)
            game = by_name(record.game)
            stored = await self.store.load(match_id)
            state = game.fold([s.event_of(game) for s in stored], game.initial())
            last = stored[-1].hash if stored else GENESIS_HASH
            entry = Current(
                record.seed, state, last, game, record.rematch_of, record.rematch,
                accounts=_with_account(stored),
            )  # fmt: skip
        elif refresh:
            newer = await self.store.load(match_id, after=entry.state.version)
            if newer:
                game = entry.game
                state = game.fold([s.event_of(game) for s in newer], entry.state)
                entry = replace(
                    entry,
                    state=state,
                    last_hash=newer[-1].hash,
                    accounts=entry.accounts or _with_account(newer),
                )
        else:
            self._cache.move_to_end(match_id)
            return entry, False
        return self._remember(match_id, entry), True

    async def state(self, match_id: str) -> Any:
        """The match's state now (MatchNotFound if there is no such match)."""
        return (await self.current(match_id))[0].state

    async def game_state(self, match_id: str) -> tuple[Game, Any]:
        """The match's game and its state now."""
        current = (await self.current(match_id))[0]
        return current.game, current.state

    async def shown(self, match_id: str) -> Shown:
        """The match's game and state now with its rematch links, for ``GET /matches/{id}``,
        in the reads :meth:`current` makes anyway: one statement for a match this process
        keeps.

        A match that goes on has no rematch (one follows a finished match), and the match it
        is the rematch of is kept from its row (written at creation, never changed). A
        finished match has no newer events, so instead of them its row is read, for the
        rematch someone may have asked for since, in any process.
        """
        kept = self._cache.get(match_id)
        if kept is None or not kept.game.is_over(kept.state):
            entry, _ = await self.current(match_id)
            over = entry.game.is_over(entry.state)
            if not over or kept is None:  # a first read took the links with the row
                return Shown(entry.game, entry.state, entry.rematch_of, entry.rematch)
            kept = entry  # ended since it was kept: its row may name a rematch already
        record = await self.record(match_id)
        entry = self._remember(match_id, replace(kept, rematch=record.rematch))
        return Shown(entry.game, entry.state, entry.rematch_of, entry.rematch)

    def known_game(self, match_id: str) -> str | None:
        """The game of a match whose state this process keeps (None: not kept); no I/O."""
        entry = self._cache.get(match_id)
        return entry.game.name if entry is not None else None

    async def ensure_exists(self, match_id: str) -> None:
        """MatchNotFound unless the match exists (matches are never deleted)."""
        if match_id not in self._cache:
            await self.record(match_id)

    async def record(self, match_id: str) -> MatchRecord:
        record = await self.store.get_match(match_id)
        if record is None:
            raise MatchNotFound(match_id)
        return record

    async def seat_of(self, match_id: str, token: str | None, *, required: bool) -> int | None:
        """The seat ``token`` plays in ``match_id``; None for a spectator (no token)."""
        if token is None:
            if required:
                raise MissingToken("send `Authorization: Bearer <seat token>`")
            return None
        token_hash = hash_token(token)
        found = self._issued.get(token_hash) or await self.store.seat_for_token(token_hash)
        if found is None:
            raise UnknownToken()
        if found[0] != match_id:
            raise WrongMatch()
        return found[1]

    async def list_matches(
        self,
        *,
        status: str | None,
        before: tuple[dt.datetime, str] | None,
        limit: int,
        open_seats: bool | None,
    ) -> list[MatchRecord]:
        """A page of matches. The finished ones (``status="over"``) are listed by the read
        replica when there is one: a match it lists is over (an ended match never changes),
        and one it has not seen end yet is simply not listed yet."""
        replica = self.store.replica
        if status == "over" and replica is not None:
            try:
                rows = await replica.list_matches(
                    status=status, before=before, limit=limit, open_seats=open_seats
                )
            except StoreUnavailable:
                metrics.replica_read("unavailable")
            else:
                metrics.replica_read("replica")
                return rows
        return await self.store.list_matches(
            status=status, before=before, limit=limit, open_seats=open_seats
        )

    async def events(
        self, match_id: str, after: int, limit: int, *, replica: bool = True
    ) -> EventsPage:
        """A page of the match's events; from the read replica if it has seen the match end
        (:meth:`_from_replica`), unless ``replica`` is False (a live stream: it follows a match
        that goes on, whose events only the primary has first)."""
        found = await self._from_replica(match_id, after, limit) if replica else None
        if found is not None:
            return EventsPage(*found)
        record = await self.record(match_id)
        return EventsPage(record, await self.store.load(match_id, after=after, limit=limit))

    async def _from_replica(
        self, match_id: str, after: int = 0, limit: int | None = None
    ) -> tuple[MatchRecord, list[StoredEvent]] | None:
        """The row and events of a match that the read replica has seen end, read there; None
        when the primary must answer: no replica, a match the replica has not seen end (the
        match goes on, or the replica lags behind the commit that ended it) or does not know,
        or a replica that fails.

        Once a match is over nothing of it changes, and the commit that ended it carried its
        last events and its seal: a replica that has applied that commit holds the whole log,
        so what it serves is what the primary would. A replica never decides that a match is
        over: only a row it read as over sends the read there.
        """
        replica = self.store.replica
        if replica is None:
            return None
        kept = self._cache.get(match_id)
        if kept is not None and not kept.game.is_over(kept.state):
            # goes on as far as this process knows: the replica could only agree, or lag
            metrics.replica_read("primary")
            return None
        try:
            record = await replica.get_match(match_id)
            if record is None or record.status != "over":
                metrics.replica_read("primary")
                return None
            stored = await replica.load(match_id, after=after, limit=limit)
        except StoreUnavailable:
            metrics.replica_read("unavailable")
            return None
        metrics.replica_read("replica")
        return record, stored

    def subscribe(self, match_id: str) -> AbstractContextManager[Subscription]:
        """Wake-ups for the match's new events (from this process or, on PostgreSQL, any)."""
        return self.store.notifier.subscribe(match_id)

    async def listening(self) -> bool:
        """Return once this process hears every process's commits (a subscriber awaits it
        before reading what it missed: api/store/notify.py); False after a bounded wait."""
        return await self.store.notifier.listening()

    async def export(self, match_id: str) -> bytes:
        """The export of a finished match: its stored records and, when signed, its seal (the
        records from the read replica once it has seen the match end: :meth:`_from_replica`)."""
        found = await self._from_replica(match_id)
        if found is not None:
            stored = found[1]
        else:
            record = await self.record(match_id)
            if record.status != "over":
                raise MatchNotFinished()
            stored = await self.store.load(match_id)
        return await sealed_export(
            match_id, stored, self.sealer, over=True, result_log=self.result_log
        )

    # --- writes -----------------------------------------------------------------------------

    async def _commit(
        self, match_id: str, *, summary: MatchSummary, **kw: Any
    ) -> list[StoredEvent]:
        """The store's commit (``MatchStore.commit``); then whoever listens hears of the
        deadline it stored."""
        stored = await self.store.commit(match_id, summary=summary, **kw)
        if summary.deadline is not None and self.on_deadline is not None:
            self.on_deadline(summary.deadline)
        return stored

    async def create(
        self,
        seats: list[SeatSpec] | list[NewSeat],
        seed: int | None = None,
        first_dealer: int | None = None,
        *,
        game: str,
        options: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        clock: ClockSettings | None = None,
        match_id: str | None = None,
        entropy: str | None = None,
        rematch_of: str | None = None,
        precommitment: str | None = None,
        queued: bool = False,
    ) -> Created:
        """A new match of ``game`` with its ``options`` (the game's defaults for those left out).

        ``entropy``: the creator's randomness for the first deck, contributed for each human
        seat (the creator holds their tokens) right after the service's commitment to that
        deck and before its deal. It is no part of the request's fingerprint: a retry that
        sends other bytes answers the match the first one made.

        ``rematch_of``: the finished match this one is the rematch of (api/rematch.py), noted
        on the new row; its seat tokens are not remembered by this process (each person's
        rematch request replaces their seat's).

        ``precommitment``: the id of a ``POST /commitments`` answer, whose secret (committed to
        before ``entropy`` was sent) is the first deck's, instead of one drawn now. It is used
        once, by this match (a retry of the same creation uses it again).

        ``queued``: the queue creates it for its waiters (api/queue.py), noted on the row: its
        open seats are kept for them (not in the lobby, and claimed only by the queue).

        With ``idempotency_key`` see :meth:`create_once`, which retries this on the
        ConcurrencyError of a twin request.
        """
        try:
            hosted = by_name(game)
        except KeyError:
            raise UnknownGame(game) from None
        chosen = game_options(hosted, dict(options or {}))
        specs = [s if isinstance(s, SeatSpec) else seat_specs([s])[0] for s in seats]
        # a given id (a rematch's) makes a second creation of it a ConcurrencyError
        match_id = match_id or str(uuid.uuid4())
        fingerprint = creation_fingerprint(
            hosted.name, specs, seed, first_dealer,
            chosen if clock is None else {**chosen, "clock": msgspec.to_builtins(clock)},
        )  # fmt: skip
        if first_dealer is None:
            first_dealer = rng_for(seed, 0, "first_dealer").randrange(max(len(specs), 1))
        command = hosted.create_command(tuple(specs), first_dealer, chosen)
        # DomainError: an invalid match, in the game's own words
        state, events = hosted.apply(hosted.initial(), command)
        tokens: dict[int, str] | None = None
        if idempotency_key is not None:  # a valid request: answered again, or made once
            reserved = await self._reserve_creation(idempotency_key, fingerprint, match_id, specs)
            if isinstance(reserved, Created):
                return reserved
            match_id, tokens = reserved
        first = Step(command, "creator", events, hosted.name)
        steps = [first]
        if clock is not None:  # the clock starts with the match (domain.clock)
            start = StartClock(clock, now_ms())
            state, started = hosted.apply(state, start)
            steps.append(Step(start, "service", started, hosted.name))
        if entropy is not None or precommitment is not None:
            secret = None
            if precommitment is not None:
                if not committed(state, seed, hosted)[1]:
                    raise PrecommitmentUnusable(
                        "this match deals no deck mixed with a person's entropy (no human or "
                        "open seat): create it without a pre-commitment"
                    )
                if self.precommitments is None:
                    raise PrecommitmentNotFound("this service keeps no pre-commitments")
                secret = await self.precommitments.take(precommitment, match_id)
            state, commitment = committed(state, seed, hosted, secret)
            steps += commitment
            for seat in (i for i, spec in enumerate(specs) if spec.kind == "human"):
                # the creator's, not the seat's: a replay reads the creation's events up to
                # the first one a seat caused
                state, contribution = contributed(state, seat, entropy, hosted, "creator")
                steps += contribution
        state, more = await self.bots.advance(state, seed, hosted)
        steps += more
        if tokens is None:
            tokens = new_tokens(specs)
        hashes = {i: hash_token(t) for i, t in tokens.items()}
        all_events = [e for s in steps for e in s.events]
        stored = await self._commit(
            match_id,
            expected_version=0,
            prev_hash=GENESIS_HASH,
            events=all_events,
            metas=step_metas(steps),
            summary=summary_of(state, hosted),
            new_match=NewMatch(
                id=match_id,
                seats=[msgspec.to_builtins(s) for s in specs],
                seed=seed,
                token_hashes=hashes,
                game=hosted.name,
                options=chosen,
                rematch_of=rematch_of,
                queued=queued,
            ),
            seal_with=self._seal_with(state, hosted),
        )
        last_hash = stored[-1].hash if stored else GENESIS_HASH
        # a creation claims no seat: no account in its events
        self._remember(
            match_id, Current(seed, state, last_hash, hosted, rematch_of, accounts=False)
        )
        if rematch_of is None:  # a rematch's tokens are replaced by its people's requests
            if len(self._issued) + len(tokens) > ISSUED_TOKENS:
                self._issued.clear()
            for seat, token_hash in hashes.items():
                self._issued[token_hash] = (match_id, seat)
        crash_point(CRASH_AFTER_FINAL_COMMIT, armed=hosted.is_over(state))
        self._ended(hosted.is_over(state))
        return Created(match_id, tokens, state, list(enumerate(all_events, start=1)), hosted)

    async def create_once(
        self, seats: list[NewSeat], *, idempotency_key: str, **kw: Any
    ) -> Created:
        """:meth:`create` under an Idempotency-Key: a retry with the key and the same request
        answers the match the first one made (its tokens included) and makes no other, also
        after a crash between the creation and its answer; another request is refused.

        The key is reserved (with the match id and the sealed tokens) before the match is
        written. A twin request that reserved it, or wrote the match, first makes this
        attempt's write a ConcurrencyError: the next attempt answers from what the twin stored.
        """

        async def attempt(_refresh: bool) -> Created:
            return await self.create(seats, idempotency_key=idempotency_key, **kw)

        return await retried("create", attempt)

    async def _reserve_creation(
        self, key: str, fingerprint: str, match_id: str, specs: Sequence[SeatSpec]
    ) -> Created | tuple[str, dict[int, str]]:
        """The match id and tokens a keyed creation makes its match with (reserved now, or by
        an earlier attempt that never wrote its match), or the answer of the match it made."""
        key_hash = lookup_hash(key)
        found = await self.store.get_creation(key_hash)
        if found is None:
            tokens = new_tokens(specs)
            sealed = seal_tokens(key, match_id, fingerprint, tokens)
            # ConcurrencyError: a twin reserved the key first
            await self.store.reserve_creation(
                CreationRecord(key_hash, fingerprint, match_id, sealed)
            )
            return match_id, tokens
        if found.fingerprint != fingerprint:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used to create a match with a different "
                "request body"
            )
        tokens = open_tokens(key, found.match_id, fingerprint, found.sealed_tokens)
        record = await self.store.get_match(found.match_id)
        if record is None:
            return found.match_id, tokens  # reserved, never written: make it now
        game = by_name(record.game)
        # the creation's events: those before the first a seat caused (a command or a claim;
        # the creation's own are the creator's, the bots' and the service's)
        made = list(
            takewhile(
                lambda s: not str((s.meta or {}).get("actor", "")).startswith("seat:"),
                await self.store.load(record.id),
            )
        )
        events = [s.event_of(game) for s in made]
        state = game.fold(events, game.initial())
        numbered = list(enumerate(events, start=1))
        return Created(record.id, tokens, state, numbered, game, replayed=True)

    async def _replay(
        self, match_id: str, seat: int, key: str | None, fingerprint: str, reused: str
    ) -> Played | None:
        """The outcome of an earlier success with this Idempotency-Key, re-read from the
        versions it produced; a different request under the same key is refused."""
        if key is None:
            return None
        previous = await self.store.get_idempotency(match_id, seat, key)
        if previous is None:
            return None
        if previous.fingerprint != fingerprint:
            raise IdempotencyKeyReused(reused)
        game = by_name((await self.record(match_id)).game)
        stored = await self.store.load(match_id, limit=previous.last_version)
        events = [(s.version, s.event_of(game)) for s in stored]
        state = game.fold([e for _, e in events], game.initial())
        numbered = [(v, e) for v, e in events if v > previous.first_version]
        return Played(state, numbered, game, replayed=True)

    async def command(
        self,
        match_id: str,
        seat: int,
        choice: str,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        entropy: str | None = None,
    ) -> Played:
        """Apply one seat's command (and the bot turns it triggers) in one transaction;
        ``entropy``, the seat's randomness for the next deck, is taken first."""
        fingerprint = (
            command_fingerprint(choice, expected_version) if idempotency_key is not None else ""
        )

        async def replay() -> Played | None:
            return await self._replay(
                match_id, seat, idempotency_key, fingerprint,
                "this Idempotency-Key was already used with a different request body",
            )  # fmt: skip

        async def attempt(refresh: bool) -> Played | None:
            if (replayed := await replay()) is not None:
                return replayed
            # the first attempt trusts the kept state; the version lock checks it
            loaded, fresh = await self.current(match_id, refresh=refresh)
            state = loaded.state
            if expected_version is not None and expected_version != state.version:
                if not fresh:  # refuse only on the stored state, not on a kept copy
                    return None
                # a twin request with this key may have won the race since the check above
                if (replayed := await replay()) is not None:
                    return replayed
                raise StaleVersion(state.version, expected_version)
            game = loaded.game
            try:
                if choice not in game.choices:
                    raise DomainError(
                        "illegal_choice",
                        f"{game.name} has no command {choice!r}; "
                        f"its commands are: {', '.join(game.choices)}",
                    )
                mixed, contribution = contributed(state, seat, entropy, game)
                rng = rng_for(loaded.seed, state.version, "shuffle")
                command = game.player_command(mixed, seat, choice, rng)
                command = stamp(mixed, command, now_ms(), seat)  # a clock's time (domain.clock)
                new_state, events = game.apply(mixed, command)
            except DomainError:
                if not fresh:
                    return None
                if (replayed := await replay()) is not None:
                    return replayed
                raise
            new_state, more = await self.bots.advance(new_state, loaded.seed, game)
            steps = [*contribution, Step(command, f"seat:{seat}", events, game.name), *more]
            all_events = [e for s in steps for e in s.events]
            # a ConcurrencyError (someone appended first): the next attempt reloads and decides
            stored = await self._commit(
                match_id,
                expected_version=state.version,
                prev_hash=loaded.last_hash,
                events=all_events,
                metas=step_metas(steps),
                summary=summary_of(new_state, game),
                idempotency=(
                    IdempotencyRecord(
                        match_id, seat, idempotency_key, fingerprint,
                        state.version, new_state.version,
                    )
                    if idempotency_key is not None
                    else None
                ),
                seal_with=self._seal_with(new_state, game),
            )  # fmt: skip
            last_hash = stored[-1].hash if stored else loaded.last_hash
            self._remember(match_id, replace(loaded, state=new_state, last_hash=last_hash))
            crash_point(CRASH_AFTER_FINAL_COMMIT, armed=game.is_over(new_state))
            self._ended(game.is_over(new_state))
            if self.on_finished is not None and game.is_over(new_state) and loaded.accounts:
                await self.on_finished(match_id)
            numbered = list(enumerate(all_events, start=state.version + 1))
            return Played(new_state, numbered, game)

        return await retried("command", attempt)

    def _ended(self, over: bool) -> None:
        """After a commit that ended a match (and sealed it): the log appends it now."""
        if over and self.result_log is not None:
            self.result_log.wake()

    def _seal_with(self, state: Any, game: Game) -> SignFinal | None:
        """What signs the commit that leaves the match in ``state``: the sealer's signature
        when that commit ends it (written in the same transaction), else nothing."""
        if self.sealer is None or not game.is_over(state):
            return None
        return self.sealer.sign_final

    async def claim(
        self,
        match_id: str,
        seat: int,
        name: str,
        idempotency_key: str | None = None,
        account: str | None = None,
        entropy: str | None = None,
        guard: Callable[[], Awaitable[None]] | None = None,
    ) -> Played:
        """Claim an open seat under ``name`` and issue its token, in one transaction.

        The claim that fills the last open seat also deals round 1 (with the match's shuffle
        source) and lets the bots play until a person must decide. Two claimers of one seat race
        on the stream's version: the loser reloads, finds the seat taken, and is refused.

        With ``idempotency_key`` the claim's versions are remembered in its transaction; a
        retry with the same key and name answers the same outcome with a *new* token, which
        replaces the seat's token (only its hash is stored, so the first one cannot be shown
        again). Whoever holds the key made the claim: the seat stays theirs.

        ``account``: the player account claiming (api/players.py), written into the claim's
        stored metadata (``"account"``), so that the log alone says which account held the seat.
        ``entropy``: the claimer's randomness for the first deck, taken after the claim.

        ``guard``: a check that raises to refuse the claim, run after the match is loaded at
        the version the claim's commit expects, so that a claim committed meanwhile (which
        moves that version) makes the attempt run again, guard included.
        """
        name = name.strip()
        fingerprint = claim_fingerprint(name if account is None else f"{name}\n@{account}")

        async def replay() -> Played | None:
            played = await self._replay(
                match_id, seat, idempotency_key, fingerprint,
                "this Idempotency-Key was already used for this seat with a different "
                "request (another name, or a command)",
            )  # fmt: skip
            if played is None:
                return None
            token = secrets.token_urlsafe(32)
            if not await self.store.replace_seat_token(match_id, seat, hash_token(token)):
                # the record and the token are stored together: a broken store
                raise RuntimeError(f"claimed seat {seat} of {match_id!r} has no token")
            return Played(played.state, played.events, played.game, replayed=True, token=token)

        async def attempt(_refresh: bool) -> Played:
            if (replayed := await replay()) is not None:
                return replayed
            current, _ = await self.current(match_id)  # the stored state: refused only on it
            state, game = current.state, current.game
            if not 0 <= seat < len(state.seats):
                raise SeatNotFound(match_id, seat)
            if guard is not None:
                await guard()
            command = stamp(state, game.claim_command(seat, name), now_ms(), seat)
            try:
                new_state, events = game.apply(state, command)
            except DomainError:
                # a twin request with this key may have taken the seat since the check above
                if (replayed := await replay()) is not None:
                    return replayed
                raise
            new_state, contribution = contributed(new_state, seat, entropy, game)
            new_state, more = await self.bots.advance(new_state, current.seed, game)
            claimed = Step(command, f"seat:{seat}", events, game.name, account)
            steps = [claimed, *contribution, *more]
            token = secrets.token_urlsafe(32)
            all_events = [e for s in steps for e in s.events]
            remembered = (
                IdempotencyRecord(
                    match_id, seat, idempotency_key, fingerprint, state.version, new_state.version
                )
                if idempotency_key is not None
                else None
            )
            # a ConcurrencyError (someone appended first): the next attempt reloads, and finds
            # the seat taken if the other append claimed it
            stored = await self._commit(
                match_id,
                expected_version=state.version,
                prev_hash=current.last_hash,
                events=all_events,
                metas=step_metas(steps),
                summary=summary_of(new_state, game, seats=True),
                seat_tokens={seat: hash_token(token)},
                idempotency=remembered,
                seal_with=self._seal_with(new_state, game),
            )
            last_hash = stored[-1].hash if stored else current.last_hash
            accounts = current.accounts or account is not None
            self._remember(
                match_id,
                replace(current, state=new_state, last_hash=last_hash, accounts=accounts),
            )
            crash_point(CRASH_AFTER_FINAL_COMMIT, armed=game.is_over(new_state))
            self._ended(game.is_over(new_state))
            if self.on_finished is not None and game.is_over(new_state) and accounts:
                await self.on_finished(match_id)
            numbered = list(enumerate(all_events, start=state.version + 1))
            return Played(new_state, numbered, game, token=token)

        return await retried("claim", attempt)

    async def time_out(self, match_id: str, at: int | None = None) -> Played | None:
        """Time out the decision the match's clock awaits, if it is due at ``at`` (ms, the
        host's time by default): the game's safe answer, ``decision_timed_out`` and perhaps
        ``seat_abandoned`` (``domain.clock``), then the bots' turns, in one transaction.

        None when nothing is due (no clock, nothing awaited, not yet, the match over). Always
        decided on the stored state: a process that lost the race to another one's timeout
        (ConcurrencyError) reloads, finds the decision answered, and answers None, so a
        timeout is applied once however many sweepers saw it due.
        """
        at = now_ms() if at is None else at

        async def attempt(_refresh: bool) -> tuple[Played | None]:
            loaded, _ = await self.current(match_id)  # the stored state, never a kept copy
            state, game = loaded.state, loaded.game
            rng = rng_for(loaded.seed, state.version, "shuffle")
            command = timeout_command(game, state, at, rng)
            if command is None:
                return (None,)
            new_state, events = game.apply(state, command)
            new_state, more = await self.bots.advance(new_state, loaded.seed, game)
            steps = [Step(command, "service", events, game.name), *more]
            all_events = [e for s in steps for e in s.events]
            stored = await self._commit(
                match_id,
                expected_version=state.version,
                prev_hash=loaded.last_hash,
                events=all_events,
                metas=step_metas(steps),
                summary=summary_of(new_state, game),
                seal_with=self._seal_with(new_state, game),
            )
            last_hash = stored[-1].hash if stored else loaded.last_hash
            self._remember(match_id, replace(loaded, state=new_state, last_hash=last_hash))
            crash_point(CRASH_AFTER_FINAL_COMMIT, armed=game.is_over(new_state))
            self._ended(game.is_over(new_state))
            if self.on_finished is not None and game.is_over(new_state) and loaded.accounts:
                await self.on_finished(match_id)
            numbered = list(enumerate(all_events, start=state.version + 1))
            return (Played(new_state, numbered, game),)

        (played,) = await retried("timeout", attempt)
        return played
