"""The command service: the only place that touches both the domain and the store.

One API command is one transaction: load the stream, fold it, decide the human's command,
let the bot seats (and the dealer of new rounds) act until a human must decide, and append
everything with the expected version. A concurrent append surfaces as ConcurrencyError:
reload and decide again; the caller gets 409 only if its command is no longer legal.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from api.store import (
    CLAIM_FINGERPRINT_PREFIX,
    ConcurrencyError,
    EventStore,
    IdempotencyRecord,
    MatchRecord,
    MatchSummary,
    NewMatch,
    StoredEvent,
)
from api.store.seals import Sealer
from domain import (
    GENESIS_HASH,
    Choose,
    ClaimSeat,
    Command,
    CreateMatch,
    DomainError,
    Event,
    MatchState,
    SeatSpec,
    StartRound,
    apply,
    fold,
    initial_state,
    pending,
    shuffled_round,
    view,
)
from domain.bots import choose as bot_choose

MAX_ATTEMPTS = 8
#: matches whose folded state each process keeps (least recently used ones are dropped)
STATE_CACHE_SIZE = 2_000


class ServiceError(Exception):
    """A failure the API reports as an RFC 9457 problem."""

    def __init__(self, status: int, slug: str, title: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.title = title
        self.detail = detail
        self.extra = extra


# domain error code -> (HTTP status, problem slug, title)
DOMAIN_ERRORS: dict[str, tuple[int, str, str]] = {
    "not_your_turn": (409, "not-your-turn", "Not your turn"),
    "illegal_choice": (409, "illegal-choice", "Choice not allowed now"),
    "match_over": (409, "match-over", "Match is over"),
    "round_in_progress": (409, "round-in-progress", "A round is in progress"),
    "match_not_started": (409, "match-not-started", "Match not started"),
    "match_exists": (409, "match-exists", "Match already exists"),
    "seats_open": (409, "seats-open", "Seats still open"),
    "seat_taken": (409, "seat-taken", "Seat already taken"),
    "invalid_config": (422, "invalid-config", "Invalid match configuration"),
    "unknown_seat": (422, "unknown-seat", "Unknown seat"),
    "invalid_pack": (500, "internal-error", "Internal error"),
}


def domain_problem(exc: DomainError) -> ServiceError:
    status, slug, title = DOMAIN_ERRORS.get(exc.code, (409, exc.code.replace("_", "-"), "Conflict"))
    return ServiceError(status, slug, title, exc.message, code=exc.code)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def claim_fingerprint(name: str) -> str:
    """The fingerprint of a claim's request (its name), marked as a claim's for the store."""
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()
    return (CLAIM_FINGERPRINT_PREFIX + digest)[:64]  # the column holds 64 characters


def rng_for(seed: int | None, version: int, purpose: str) -> random.Random:
    """The randomness for one step: a CSPRNG, or a generator derived from the match seed."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"cuccu:{seed}:{version}:{purpose}")


def shuffle(rng: random.Random) -> StartRound:
    return shuffled_round(rng, salt_bytes=32)


def summary_of(state: MatchState, *, seats: bool = False) -> MatchSummary:
    """The matches row after ``state``; ``seats`` also rewrites the stored seats (claims)."""
    return MatchSummary(
        status=state.status,
        lives=list(state.lives),
        winner=state.winner,
        rounds=state.rounds_played,
        version=state.version,
        seats=[msgspec.to_builtins(s) for s in state.seats] if seats else None,
    )


def has_live_human(state: MatchState) -> bool:
    return any(spec.kind == "human" and state.lives[i] > 0 for i, spec in enumerate(state.seats))


@dataclass
class Step:
    """A command applied, with the events it produced and who issued it."""

    command: Command
    actor: str
    events: list[Event]


def _meta(step: Step) -> dict[str, Any]:
    # A round's pack and salt live in its round_started event (hidden until round_ended);
    # metadata names the command only, so it can never carry a card.
    command = step.command
    if isinstance(command, StartRound):
        return {"actor": step.actor, "command": {"type": "start_round"}}
    return {"actor": step.actor, "command": msgspec.to_builtins(command)}


def advance(state: MatchState, seed: int | None) -> tuple[MatchState, list[Step]]:
    """Let the service and the bots act until a human must decide or the match is over.

    The service deals each new round; a bot seat answers its own decisions from its view;
    the next round starts by itself once no human seat has lives left to start it.
    """
    steps: list[Step] = []
    while True:
        decision = pending(state)
        if decision is None:
            break
        command: Command
        if decision.kind == "claim_seat":
            break  # open seats wait for people; the last claim deals round 1 (below)
        if decision.kind == "next_round":
            if state.rounds_played > 0 and has_live_human(state):
                break  # a human starts the next round (round 1 is dealt at creation)
            command = shuffle(rng_for(seed, state.version, "shuffle"))
            actor = "service"
        else:
            assert decision.seat is not None
            spec = state.seats[decision.seat]
            if spec.kind != "bot":
                break
            level = spec.bot_level or "random"
            choice = bot_choose(
                level, view(state, decision.seat), rng_for(seed, state.version, "bot")
            )
            command = Choose(seat=decision.seat, choice=choice)  # type: ignore[arg-type]
            actor = f"bot:{level}"
        state, events = apply(state, command)
        steps.append(Step(command, actor, events))
    return state, steps


@dataclass(frozen=True)
class Loaded:
    record: MatchRecord
    stored: list[StoredEvent]
    state: MatchState

    @property
    def last_hash(self) -> str:
        return self.stored[-1].hash if self.stored else GENESIS_HASH


@dataclass(frozen=True)
class Current:
    """A match's folded state at ``state.version`` and the hash of its last event.

    Kept per process between requests. It may be stale when another process appended since:
    a command built on it fails the optimistic version lock, and the service then reads the
    newer events and decides again. Nothing is refused on the strength of a stale entry.
    """

    seed: int | None
    state: MatchState
    last_hash: str


@dataclass(frozen=True)
class Created:
    match_id: str
    tokens: dict[int, str]
    state: MatchState


@dataclass(frozen=True)
class CommandResult:
    status_code: int
    body: bytes
    replayed: bool = False


class MatchService:
    def __init__(
        self,
        store: EventStore,
        cache_size: int = STATE_CACHE_SIZE,
        sealer: Sealer | None = None,
    ) -> None:
        self.store = store
        #: signs each match whose commit ends it (api/signing.py); None: signing is off
        self.sealer = sealer
        self._cache: OrderedDict[str, Current] = OrderedDict()
        self._cache_size = cache_size

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
            loaded = await self.load(match_id)
            entry = Current(loaded.record.seed, loaded.state, loaded.last_hash)
        elif refresh:
            newer = await self.store.load(match_id, after=entry.state.version)
            if newer:
                state = fold([s.event for s in newer], entry.state)
                entry = Current(entry.seed, state, newer[-1].hash)
        else:
            self._cache.move_to_end(match_id)
            return entry, False
        return self._remember(match_id, entry), True

    async def ensure_exists(self, match_id: str) -> None:
        """404 unless the match exists (matches are never deleted: a kept one exists)."""
        if match_id not in self._cache and await self.store.get_match(match_id) is None:
            raise ServiceError(404, "match-not-found", "Match not found", f"no match {match_id!r}")

    async def load(self, match_id: str) -> Loaded:
        record = await self.store.get_match(match_id)
        if record is None:
            raise ServiceError(404, "match-not-found", "Match not found", f"no match {match_id!r}")
        stored = await self.store.load(match_id)
        state = fold([s.event for s in stored], initial_state())
        return Loaded(record, stored, state)

    async def create(
        self,
        seats: list[SeatSpec],
        starting_lives: int,
        seed: int | None,
        first_dealer: int | None,
    ) -> Created:
        match_id = str(uuid.uuid4())
        if first_dealer is None:
            first_dealer = rng_for(seed, 0, "first_dealer").randrange(len(seats))
        command = CreateMatch(
            seats=tuple(seats), starting_lives=starting_lives, first_dealer=first_dealer
        )
        try:
            state, events = apply(initial_state(), command)
            first = Step(command, "creator", events)
            state, steps = advance(state, seed)
        except DomainError as exc:
            raise domain_problem(exc) from exc
        steps = [first, *steps]
        tokens = {
            i: secrets.token_urlsafe(32) for i, spec in enumerate(seats) if spec.kind == "human"
        }
        all_events = [e for s in steps for e in s.events]
        metas = [_meta(s) for s in steps for _ in s.events]
        stored = await self.store.commit(
            match_id,
            expected_version=0,
            prev_hash=GENESIS_HASH,
            events=all_events,
            metas=metas,
            summary=summary_of(state),
            new_match=NewMatch(
                id=match_id,
                seats=[msgspec.to_builtins(s) for s in seats],
                starting_lives=starting_lives,
                seed=seed,
                token_hashes={i: hash_token(t) for i, t in tokens.items()},
            ),
        )
        self._remember(match_id, Current(seed, state, stored[-1].hash if stored else GENESIS_HASH))
        await self._seal_if_over(match_id, state, stored)
        return Created(match_id, tokens, state)

    async def command(
        self,
        match_id: str,
        seat: int,
        choice: str,
        expected_version: int | None,
        idempotency_key: str | None,
        fingerprint: str,
        render: Callable[[MatchState, list[tuple[int, Event]]], bytes],
    ) -> CommandResult:
        """Apply one seat's command (and the bot turns it triggers) in one transaction.

        ``render`` builds the success body from the new state and the new (version, event)s.
        """

        async def replay() -> CommandResult | None:
            """The stored answer to this Idempotency-Key, if a request with it succeeded."""
            previous = await self._remembered(
                match_id, seat, idempotency_key, fingerprint,
                "this Idempotency-Key was already used with a different request body",
            )  # fmt: skip
            if previous is None:
                return None
            return CommandResult(previous.status_code, previous.body.encode(), True)

        refresh = False  # the first attempt trusts the kept state; the version lock checks it
        for _attempt in range(MAX_ATTEMPTS):
            if (replayed := await replay()) is not None:
                return replayed
            loaded, fresh = await self.current(match_id, refresh=refresh)
            state = loaded.state
            if expected_version is not None and expected_version != state.version:
                if not fresh:  # refuse only on the stored state, not on a kept copy
                    refresh = True
                    continue
                # a twin request with this key may have won the race since the check above
                if (replayed := await replay()) is not None:
                    return replayed
                raise ServiceError(
                    409,
                    "stale-version",
                    "Stale expected_version",
                    f"the match is at version {state.version}, not {expected_version}",
                    version=state.version,
                )
            try:
                if choice == "next_round":
                    if pending(state) is None or state.status == "over":
                        raise DomainError("match_over", "the match is over")
                    if state.status != "between_rounds":
                        raise DomainError("round_in_progress", "a round is being played")
                    rng = rng_for(loaded.seed, state.version, "shuffle")
                    command: Command = shuffle(rng)
                    actor = f"seat:{seat}"
                else:
                    command = Choose(seat=seat, choice=choice)  # type: ignore[arg-type]
                    actor = f"seat:{seat}"
                new_state, events = apply(state, command)
                steps = [Step(command, actor, events)]
                new_state, more = advance(new_state, loaded.seed)
                steps += more
            except DomainError as exc:
                if not fresh:
                    refresh = True
                    continue
                if (replayed := await replay()) is not None:
                    return replayed
                raise domain_problem(exc) from exc
            all_events = [e for s in steps for e in s.events]
            numbered = list(enumerate(all_events, start=state.version + 1))
            body = render(new_state, numbered)
            try:
                stored = await self.store.commit(
                    match_id,
                    expected_version=state.version,
                    prev_hash=loaded.last_hash,
                    events=all_events,
                    metas=[_meta(s) for s in steps for _ in s.events],
                    summary=summary_of(new_state),
                    idempotency=(
                        IdempotencyRecord(
                            match_id, seat, idempotency_key, fingerprint, 200, body.decode()
                        )
                        if idempotency_key is not None
                        else None
                    ),
                )
            except ConcurrencyError:
                refresh = True
                continue  # someone else appended first: reload and decide again
            last_hash = stored[-1].hash if stored else loaded.last_hash
            self._remember(match_id, Current(loaded.seed, new_state, last_hash))
            await self._seal_if_over(match_id, new_state, stored)
            return CommandResult(200, body)
        raise ServiceError(
            409, "conflict", "Too much contention", "the match kept changing; try again"
        )

    async def _seal_if_over(
        self, match_id: str, state: MatchState, stored: list[StoredEvent]
    ) -> None:
        """Sign the match if the events just stored ended it (see api/signing.py)."""
        if self.sealer is not None and stored:
            await self.sealer.seal_if_over(
                match_id,
                over=state.status == "over",
                version=stored[-1].version,
                last_hash=stored[-1].hash,
            )

    async def _remembered(
        self, match_id: str, seat: int, key: str | None, fingerprint: str, reused: str
    ) -> IdempotencyRecord | None:
        """The record of an earlier success with this Idempotency-Key, if any; a different
        request under the same key is refused with 422 (``reused`` says how)."""
        if key is None:
            return None
        previous = await self.store.get_idempotency(match_id, seat, key)
        if previous is not None and previous.fingerprint != fingerprint:
            raise ServiceError(422, "idempotency-key-reused", "Idempotency key reused", reused)
        return previous

    async def claim(
        self,
        match_id: str,
        seat: int,
        name: str,
        idempotency_key: str | None,
        render: Callable[[MatchState, list[tuple[int, Event]], str], bytes],
    ) -> CommandResult:
        """Claim an open seat under ``name`` and issue its token, in one transaction.

        The claim that fills the last open seat also deals round 1 (with the match's shuffle
        source) and lets the bots play until a human must decide. Two claimers of one seat race
        on the stream's version: the loser reloads, finds the seat taken, and gets 409.

        ``render`` builds the success body from the new state, the new (version, event)s and
        the token. With ``idempotency_key`` the body is remembered with a blank token, in the
        claim's transaction; a retry with the same key and name answers that body again with
        a *new* token, which replaces the seat's token (only its hash is stored, so the first
        one cannot be shown again). Whoever holds the key made the claim: the seat stays theirs.
        """
        fingerprint = claim_fingerprint(name)

        async def replay() -> CommandResult | None:
            """The remembered answer to this key, with a fresh token, if the claim succeeded."""
            previous = await self._remembered(
                match_id, seat, idempotency_key, fingerprint,
                "this Idempotency-Key was already used for this seat with a different "
                "request (another name, or a command)",
            )  # fmt: skip
            if previous is None:
                return None
            token = secrets.token_urlsafe(32)
            if not await self.store.replace_seat_token(match_id, seat, hash_token(token)):
                raise ServiceError(  # the record and the token are stored together
                    500, "internal-error", "Internal error", "the claimed seat has no token"
                )
            body = msgspec.json.decode(previous.body.encode())
            body["token"] = token
            return CommandResult(previous.status_code, msgspec.json.encode(body), True)

        for _attempt in range(MAX_ATTEMPTS):
            if (replayed := await replay()) is not None:
                return replayed
            current, _ = await self.current(match_id)  # the stored state: refused only on it
            state = current.state
            if not 0 <= seat < len(state.seats):
                raise ServiceError(
                    404, "seat-not-found", "Seat not found",
                    f"match {match_id!r} has no seat {seat}",
                )  # fmt: skip
            command = ClaimSeat(seat=seat, name=name)
            try:
                new_state, events = apply(state, command)
                steps = [Step(command, f"seat:{seat}", events)]
                new_state, more = advance(new_state, current.seed)
                steps += more
            except DomainError as exc:
                # a twin request with this key may have taken the seat since the check above
                if (replayed := await replay()) is not None:
                    return replayed
                raise domain_problem(exc) from exc
            token = secrets.token_urlsafe(32)
            all_events = [e for s in steps for e in s.events]
            numbered = list(enumerate(all_events, start=state.version + 1))
            remembered = None
            if idempotency_key is not None:  # the answer, without its token (never kept)
                blank = render(new_state, numbered, "").decode()
                remembered = IdempotencyRecord(
                    match_id, seat, idempotency_key, fingerprint, 201, blank
                )
            try:
                stored = await self.store.commit(
                    match_id,
                    expected_version=state.version,
                    prev_hash=current.last_hash,
                    events=all_events,
                    metas=[_meta(s) for s in steps for _ in s.events],
                    summary=summary_of(new_state, seats=True),
                    seat_tokens={seat: hash_token(token)},
                    idempotency=remembered,
                )
            except ConcurrencyError:
                continue  # someone else appended first: reload (the seat may be taken now)
            last_hash = stored[-1].hash if stored else current.last_hash
            self._remember(match_id, Current(current.seed, new_state, last_hash))
            await self._seal_if_over(match_id, new_state, stored)
            return CommandResult(201, render(new_state, numbered, token))
        raise ServiceError(
            409, "conflict", "Too much contention", "the match kept changing; try again"
        )
