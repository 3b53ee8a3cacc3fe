"""The ``/matches`` resource: create, list, view, command, events, stream, export."""

from __future__ import annotations

import asyncio
import base64
import datetime as dt
import re
from collections.abc import AsyncIterator, Coroutine, Sequence
from typing import Annotated, Any, TypeVar

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import Body, HeaderParameter, PathParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.streaming import Stream

from api import metrics
from api.bodies import CreateMatchDTO
from api.clock_views import clock_out
from api.controllers.players import bearer_key, players_in
from api.logs import note_seat
from api.models import (
    CREATE_TYPES,
    EVENT_OUT_TYPES,
    AnyEventOut,
    ClaimedSeat,
    ClaimIn,
    CommandIn,
    CommandOut,
    CreatedMatch,
    CreateMatchIn,
    EventPage,
    MatchList,
    MatchOut,
    MatchStatus,
    MatchSummary,
    RematchOut,
    SeatSummary,
    SeatToken,
    Views,
    creation_options,
    tagged_view,
)
from api.problems import UNAVAILABLE_RETRY_AFTER, problem_slug, responses
from api.rematch import rematch
from api.service import InvalidRequest, MatchService, MissingToken, NewSeat
from api.settings import Settings
from api.store import MatchRecord, StoredEvent, StoreUnavailable
from domain.errors import DomainError
from domain.games import DEFAULT_GAME, GAMES, Game, by_name

T = TypeVar("T")
BEARER: list[dict[str, list[str]]] = [{"seatToken": []}]
#: a seat token is optional (without one the caller is a spectator)
OPTIONAL_BEARER: list[dict[str, list[str]]] = [{}, {"seatToken": []}]
#: versions are stored as 32-bit integers
MAX_VERSION = 2**31 - 1
_encoder = msgspec.json.Encoder()

MatchId = Annotated[
    str,
    PathParameter(description="Match id (a UUID)", max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$"),
]
OptionalToken = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        description="`Bearer <seat token>`; without it you are a spectator",
    ),
]


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without the header."""
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise MissingToken("the Authorization header must be `Bearer <seat token>`")
    return token


def service_in(state: State) -> MatchService:
    """The application's match service (made by its lifespan), read from the app's state.

    Not a dependency provider: Litestar resolves a provider on every request through a
    signature model, which cost ~2 % of a command's CPU in py-spy profiles (docs/LOAD.md §10).
    """
    service: MatchService = state.service
    return service


async def caller_seat(
    service: MatchService, match_id: str, authorization: str | None, *, required: bool
) -> int | None:
    """The seat the bearer token belongs to (None: spectator), noted for the request's log."""
    seat = await service.seat_of(match_id, bearer_token(authorization), required=required)
    note_seat(seat)
    return seat


def summarize(r: MatchRecord) -> MatchSummary:
    # each seat's score under its game's name for it (``MatchRecord.standing``)
    score = by_name(r.game).score
    return MatchSummary(
        match_id=r.id,
        status=r.status,  # type: ignore[arg-type]
        created_at=r.created_at,
        updated_at=r.updated_at,
        starting_lives=r.options.get("starting_lives"),
        seats=[
            SeatSummary(
                seat=i,
                name=str(s.get("name", "")),
                kind=str(s.get("kind", "")),
                bot_level=s.get("bot_level"),
                **{score.field: r.standing[i] if i < len(r.standing) else 0},
            )
            for i, s in enumerate(r.seats)
        ],
        winner=r.winners[0] if score.one_winner and r.winners else None,
        rounds=r.rounds,
        version=r.version,
        seeded=r.seed is not None,
        open_seats=[i for i, s in enumerate(r.seats) if s.get("kind") == "open"],
        game=r.game,
        options=dict(r.options),
        winners=list(r.winners),
    )


def event_outs(
    game: Game, numbered: Sequence[tuple[int, Any]], seat: int | None, over: bool
) -> list[AnyEventOut]:
    redact, out = game.redact, EVENT_OUT_TYPES[game.name]
    return [out(version=v, event=redact(e, seat, reveal_all=over)) for v, e in numbered]


def view_of(game: Game, state: Any, seat: int | None) -> Views:
    """What ``seat`` (None: a spectator) may see now, tagged with the game."""
    return tagged_view(game.name, game.view(state, seat))


def stored_outs(
    game: Game, stored: Sequence[StoredEvent], seat: int | None, over: bool
) -> list[AnyEventOut]:
    return event_outs(game, [(s.version, s.event_of(game)) for s in stored], seat, over)


def encode_cursor(r: MatchRecord) -> str:
    raw = _encoder.encode([r.created_at.isoformat(), r.id])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[dt.datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created, mid = msgspec.json.decode(raw, type=tuple[str, str])
        stamp = dt.datetime.fromisoformat(created)
        if stamp.tzinfo is None:
            stamp = stamp.replace(tzinfo=dt.UTC)
        return stamp, mid
    except (ValueError, msgspec.DecodeError) as exc:
        raise InvalidRequest("`cursor` is not a cursor of this API") from exc


def _schemas_by_game() -> str:
    def which(name: str) -> str:
        default = f" or absent ({GAMES[name].title} is the default)" if name == DEFAULT_GAME else ""
        return f"`{CREATE_TYPES[name].__name__}` when `game` is `{name}`{default}"

    return ", ".join(which(name) for name in GAMES)


CREATE_BODY = (
    f"One schema per game, chosen by `game`: {_schemas_by_game()}. Each takes only its own "
    "game's options: an option of another game is 422 `invalid-config` naming it, and another "
    "`game` is 422 `unknown-game`, which lists the games."
)

THREE_SEATS = [
    {"name": "Ann"},
    {"name": "Bo", "kind": "bot", "bot_level": "expert"},
    {"name": "Cy", "kind": "bot", "bot_level": "basic"},
]

CREATE_EXAMPLES = [
    Example(
        id="vs_bots",
        summary="You against three bots",
        value={
            "seats": [
                {"name": "Ann"},
                {"name": "Bo", "kind": "bot", "bot_level": "basic"},
                {"name": "Cy", "kind": "bot", "bot_level": "random"},
                {"name": "Di", "kind": "bot", "bot_level": "basic"},
            ],
        },
    ),
    Example(
        id="lobby",
        summary="Two open seats for other people, and two bots",
        value={
            "seats": [
                {"name": "open", "kind": "open"},
                {"name": "open", "kind": "open"},
                {"name": "Bo", "kind": "bot", "bot_level": "basic"},
                {"name": "Cy", "kind": "bot", "bot_level": "basic"},
            ]
        },
    ),
    Example(
        id="bots_only",
        summary="A reproducible match of bots, played to its end at once",
        value={
            "seats": [{"name": f"bot{i}", "kind": "bot", "bot_level": "basic"} for i in range(4)],
            "seed": 42,
        },
    ),
    # one per game, with each of its options spelled out (at its default)
    *(
        Example(
            id=name,
            summary=f"A {game.title} match against two bots, every option given",
            value={"game": name, "seats": THREE_SEATS, **game.options},
        )
        for name, game in GAMES.items()
    ),
]


def _command_examples() -> list[Example]:
    """One choice of each game that no game before it has, and the same with a version."""
    shown: set[str] = {"next_round"}
    examples = []
    for name, game in GAMES.items():
        choice = next(c for c in game.choices if c not in shown)
        shown.add(choice)
        summary = f"{game.title}: `{choice}`"
        examples.append(Example(id=f"{name}_{choice}", summary=summary, value={"type": choice}))
    first = GAMES[DEFAULT_GAME].choices[0]
    return [
        *examples,
        Example(
            id="at_version",
            summary=f"`{first}`, only if the match is still at version 12",
            value={"type": first, "expected_version": 12},
        ),
        Example(id="next_round", summary="Deal the next round", value={"type": "next_round"}),
    ]


COMMAND_EXAMPLES = _command_examples()


class MatchController(Controller):
    path = "/matches"
    tags = ["matches"]

    @post(
        "/",
        summary="Create a match",
        description=(
            "Creates a match and deals its first round. Answers with one secret token per "
            "human seat (shown only here). A match of bots only is played to its end at once. "
            "With `open` seats, the match waits in the lobby (`GET /matches?open_seats=true`) "
            "until every open seat is claimed (`POST /matches/{id}/seats/{seat}/claim`); the "
            "last claim deals round 1. With `Idempotency-Key`, a retry with the same key and "
            "body answers the same match again (201, `Idempotent-Replayed: true`), its seat "
            "tokens included, and makes no other; the same key with another body is 422. "
            "With `precommitment` (from `POST /commitments`) and `entropy`, the first deck's "
            'secret is the one committed to before the entropy was sent (docs/API.md "Fairness"'
            "); a pre-commitment used by another match is 409."
        ),
        status_code=201,
        responses=responses(400, 409, 413, 415, 422, 503),
        dto=CreateMatchDTO,
        return_dto=None,
    )
    async def create(
        self,
        data: Annotated[
            CreateMatchIn,
            Body(
                media_type=RequestEncodingType.JSON,
                description=CREATE_BODY,
                examples=CREATE_EXAMPLES,
            ),
        ],
        state: State,
        idempotency_key: Annotated[
            str | None,
            HeaderParameter(
                name="Idempotency-Key",
                required=False,
                min_length=1,
                max_length=255,
                description=(
                    "Any string, secret and random (a UUID): a retry of the creation with it "
                    "and the same body makes one match and answers it again, seat tokens "
                    "included (they are stored encrypted under a key derived from it)"
                ),
            ),
        ] = None,
    ) -> Response[CreatedMatch]:
        service = service_in(state)
        seats = [NewSeat(s.name, s.kind, s.bot_level) for s in data.seats]
        given: dict[str, Any] = {
            "seed": data.seed,
            "first_dealer": data.first_dealer,
            "game": data.game,
            "options": creation_options(data),
            "clock": getattr(data, "clock", None),
            "entropy": data.entropy,
            "precommitment": data.precommitment,
        }
        created = await (
            service.create_once(seats, idempotency_key=idempotency_key, **given)
            if idempotency_key is not None
            else service.create(seats, **given)
        )
        now, game = created.state, created.game
        body = CreatedMatch(
            match_id=created.match_id,
            version=now.version,
            status=now.status,
            seat_tokens=[
                SeatToken(seat=s, token=t, view=view_of(game, now, s))
                for s, t in sorted(created.tokens.items())
            ],
            view=view_of(game, now, None),
            game=created.game.name,
            clock=clock_out(now),
        )
        headers = None
        if created.replayed:
            headers = {"Idempotent-Replayed": "true"}
            metrics.replayed("create")
        return Response(body, status_code=201, headers=headers)

    @get(
        "/",
        summary="List matches",
        description=(
            "Newest first, with cursor pagination and optional filters. "
            "`open_seats=true` is the lobby: matches with seats anyone may claim."
        ),
        responses=responses(422, 503),
    )
    async def list_matches(
        self,
        state: State,
        status: Annotated[
            MatchStatus | None, QueryParameter(description="Only matches with this status")
        ] = None,
        cursor: Annotated[
            str | None,
            QueryParameter(description="`next_cursor` of the previous page", max_length=200),
        ] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=100, description="Page size")] = 20,
        open_seats: Annotated[
            bool | None,
            QueryParameter(
                description="`true`: the lobby, matches waiting for open seats to be claimed; "
                "`false`: matches with every seat taken"
            ),
        ] = None,
    ) -> MatchList:
        service = service_in(state)
        before = decode_cursor(cursor) if cursor else None
        rows = await service.list_matches(
            status=status, before=before, limit=limit + 1, open_seats=open_seats
        )
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1]) if len(rows) > limit and page else None
        return MatchList(matches=[summarize(r) for r in page], next_cursor=next_cursor)

    @get(
        "/{match_id:str}",
        summary="View a match",
        description=(
            "With a seat token: that seat's view (its card, the pending decision and its "
            "choices). Without: the spectator's view. Always the stream version."
        ),
        responses=responses(401, 403, 404, 422, 503),
        security=OPTIONAL_BEARER,
    )
    async def get_match(
        self,
        match_id: MatchId,
        state: State,
        authorization: OptionalToken = None,
    ) -> MatchOut:
        service = service_in(state)
        await service.ensure_exists(match_id)
        seat = await caller_seat(service, match_id, authorization, required=False)
        shown = await service.shown(match_id)  # with its rematch links, in the same reads
        game, now = shown.game, shown.state
        return MatchOut(
            match_id=match_id,
            version=now.version,
            seat=seat,
            view=view_of(game, now, seat),
            game=game.name,
            clock=clock_out(now),
            rematch_of=shown.rematch_of,
            rematch=shown.rematch,
        )

    @post(
        "/{match_id:str}/commands",
        summary="Send a seat's decision",
        description=(
            "Applies the caller's choice, then lets bot seats play until a human must decide, "
            "all in one transaction. With `Idempotency-Key`, the same key and body give the "
            "same response without a second effect; the same key with another body is 422."
        ),
        status_code=200,
        responses=responses(400, 401, 403, 404, 409, 413, 415, 422, 503),
        security=BEARER,
    )
    async def command(
        self,
        match_id: MatchId,
        data: Annotated[
            CommandIn,
            Body(media_type=RequestEncodingType.JSON, examples=COMMAND_EXAMPLES),
        ],
        state: State,
        authorization: Annotated[
            str | None,
            HeaderParameter(
                name="Authorization", required=False, description="`Bearer <seat token>`"
            ),
        ] = None,
        idempotency_key: Annotated[
            str | None,
            HeaderParameter(
                name="Idempotency-Key",
                required=False,
                min_length=1,
                max_length=255,
                description="Any string; repeats of the same request with it apply once",
            ),
        ] = None,
    ) -> Response[CommandOut]:
        service = service_in(state)
        try:
            await service.ensure_exists(match_id)
            seat = await caller_seat(service, match_id, authorization, required=True)
            assert seat is not None
            played = await service.command(
                match_id, seat, data.type, data.expected_version, idempotency_key, data.entropy
            )
        except Exception as exc:
            metrics.command_answered(service.known_game(match_id), problem_slug(exc))
            raise
        metrics.command_answered(played.game.name)
        if played.replayed:
            metrics.replayed("command")
        over = played.state.status == "over"
        body = CommandOut(
            match_id=match_id,
            version=played.state.version,
            seat=seat,
            view=view_of(played.game, played.state, seat),
            events=event_outs(played.game, played.events, seat, over),
            clock=clock_out(played.state),
        )
        headers = {"Idempotent-Replayed": "true"} if played.replayed else None
        return Response(body, status_code=200, headers=headers)

    @post(
        "/{match_id:str}/seats/{seat:int}/claim",
        summary="Claim an open seat",
        description=(
            "Takes an `open` seat under a display name and answers with that seat's secret "
            "token, shown only here (201). The claim that fills the last open seat deals "
            "round 1 and lets bot seats play, in the same transaction. A seat already taken "
            "(also by a concurrent claim: exactly one of two racing claimers wins) is 409 "
            "`seat-taken`; an unknown match or seat is 404. Claims need no token. "
            "With `Authorization: Bearer <API key>` of a player account (`POST /players`), "
            "the seat is claimed as that account: its id is stored in the claim's event "
            "metadata, and the finished match is rated; an unknown or revoked key is 401 "
            "`unknown-key`, an account already at another seat of the match 409 "
            "`already-seated`. The open seats of a rematch are kept for the people of the "
            "match it follows (`POST /matches/{id}/rematch`), and those of a table the queue "
            "seated for its waiters (`POST /queue/{ticket_id}/claim`): claiming one is 409 "
            "`seat-taken`. With "
            "`Idempotency-Key`, a retry with the same key and name (say, after a lost answer) "
            "gives the same 201 answer, marked `Idempotent-Replayed: true`, with a NEW token "
            "for the seat that replaces the first one (only a hash of it is kept); the same key "
            "with another name is 422. Without a key, do not retry a claim whose outcome you "
            "did not see: its token is never shown again."
        ),
        status_code=201,
        response_description="The claimed seat's token (shown only here) and its view",
        responses=responses(400, 401, 404, 409, 413, 415, 422, 503),
        security=[{}, {"playerKey": []}],
    )
    async def claim(
        self,
        match_id: MatchId,
        seat: Annotated[int, PathParameter(description="The open seat's number (0-based)")],
        data: Annotated[
            ClaimIn,
            Body(
                media_type=RequestEncodingType.JSON,
                examples=[Example(id="claim", summary="Claim as Ann", value={"name": "Ann"})],
            ),
        ],
        state: State,
        idempotency_key: Annotated[
            str | None,
            HeaderParameter(
                name="Idempotency-Key",
                required=False,
                min_length=1,
                max_length=255,
                description=(
                    "Any string (a UUID); a retry of the claim with it and the same name "
                    "claims once and answers again, with a new token that replaces the "
                    "first one: whoever holds the key made the claim"
                ),
            ),
        ] = None,
        authorization: Annotated[
            str | None,
            HeaderParameter(
                name="Authorization",
                required=False,
                description="`Bearer <API key>` to claim as a player account (`POST /players`)",
            ),
        ] = None,
    ) -> Response[ClaimedSeat]:
        service = service_in(state)
        record = await service.record(match_id)
        if record.queued:
            # its open seats wait for the queue's waiters (api/queue.py)
            raise DomainError(
                "seat_taken",
                "the seats of a table the queue seated are kept for its waiters: they take "
                "them with POST /queue/{ticket_id}/claim",
            )
        follows = record.rematch_of
        if follows is not None:
            # its open seats are kept for the people of the finished match (api/rematch.py)
            raise DomainError(
                "seat_taken",
                "the seats of a rematch are kept for the people of the match it follows: "
                f"they take them with POST /matches/{follows}/rematch",
            )
        if authorization is None:
            played = await service.claim(
                match_id, seat, data.name, idempotency_key, entropy=data.entropy
            )
        else:  # as a player account (api/players.py)
            players = players_in(state)
            account = await players.authenticate(bearer_key(authorization))
            played = await players.claim(
                account, match_id, seat, data.name, idempotency_key, data.entropy
            )
        assert played.token is not None
        if played.replayed:
            metrics.replayed("claim")
        body = ClaimedSeat(
            match_id=match_id,
            seat=seat,
            token=played.token,
            version=played.state.version,
            status=played.state.status,
            view=view_of(played.game, played.state, seat),
            events=event_outs(played.game, played.events, seat, played.state.status == "over"),
        )
        headers = {"Idempotent-Replayed": "true"} if played.replayed else None
        return Response(body, status_code=201, headers=headers)

    @post(
        "/{match_id:str}/rematch",
        summary="Ask for a rematch",
        description=(
            "By a seat of a finished match (its seat token): the same game, options, clock "
            "and seats again, the next seat dealing first. The first request creates it "
            "(201); each other person gets their own seat by sending the same request with "
            "their own token (200). The answer is the caller's new seat token, shown only "
            "here; asking again gives a new one, which replaces it. A seat that was claimed "
            "is kept open for its person, whose request claims it, as the player account "
            "that claimed it in the finished match if one did (so the rematch is rated "
            'too). 409 `match-not-finished` before the end. See docs/API.md, "Rematches".'
        ),
        status_code=201,
        responses=responses(401, 403, 404, 409, 422, 503),
        security=BEARER,
    )
    async def rematch(
        self, match_id: MatchId, state: State, authorization: OptionalToken = None
    ) -> Response[RematchOut]:
        service = service_in(state)
        await service.ensure_exists(match_id)
        seat = await caller_seat(service, match_id, authorization, required=True)
        assert seat is not None
        found = await rematch(service, match_id, seat)
        game = by_name(found.game)
        body = RematchOut(
            match_id=found.match_id,
            rematch_of=match_id,
            seat=seat,
            token=found.token,
            version=found.state.version,
            view=view_of(game, found.state, seat),
            game=found.game,
            clock=clock_out(found.state),
        )
        return Response(body, status_code=201 if found.created else 200)

    @get(
        "/{match_id:str}/events",
        summary="The match's event log",
        description=(
            "Events after version `after`, redacted for the caller (a seat token shows that "
            "seat's own cards; everything is shown once the match is over)."
        ),
        responses=responses(401, 403, 404, 422, 503),
        security=OPTIONAL_BEARER,
    )
    async def events(
        self,
        match_id: MatchId,
        state: State,
        authorization: OptionalToken = None,
        after: Annotated[
            int, QueryParameter(ge=0, le=MAX_VERSION, description="Last version already seen")
        ] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000, description="Page size")] = 200,
    ) -> EventPage:
        service = service_in(state)
        await service.ensure_exists(match_id)
        seat = await caller_seat(service, match_id, authorization, required=False)
        page = await service.events(match_id, after, limit)
        record, stored = page.record, page.stored
        over = record.status == "over"
        last = stored[-1].version if stored else None
        more = last is not None and last < record.version
        return EventPage(
            match_id=match_id,
            version=record.version,
            seat=seat,
            events=stored_outs(page.game, stored, seat, over),
            next_after=last if more else None,
            game=record.game,
        )

    @get(
        "/{match_id:str}/stream",
        summary="Live events (Server-Sent Events)",
        description=(
            "First an event `view` with the caller's full view (id = version), then one event "
            "`event` per new stored event as the caller may see it (id = its version), and "
            "keep-alive comment lines (`: keep-alive`, no data). Reconnect with `Last-Event-ID` "
            "to resume after that version. Once a finished match has been sent completely, an "
            'event `end` (id = the last version; data `{"match_id", "version", "status"}`) '
            "comes last and the stream closes; a stream cut by a database outage ends with an "
            "event `unavailable` "
            '(no id; data `{"detail", "retry_after"}`): resume it after `retry_after` seconds.'
        ),
        responses=responses(401, 403, 404, 422, 503),
        security=OPTIONAL_BEARER,
        media_type="text/event-stream",
    )
    async def stream(
        self,
        request: Request[Any, Any, Any],
        match_id: MatchId,
        state: State,
        settings: NamedDependency[Settings],
        authorization: OptionalToken = None,
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID", required=False, description="Resume after this id"
            ),
        ] = None,
    ) -> ServerSentEvent:
        service = service_in(state)
        await service.ensure_exists(match_id)
        seat = await caller_seat(service, match_id, authorization, required=False)
        resume = resume_after(last_event_id)
        keepalive = settings.sse_keepalive_seconds

        async def generate() -> AsyncIterator[ServerSentEventMessage]:
            with service.subscribe(match_id) as sub, metrics.SSE_SUBSCRIBERS.track_inprogress():
                try:
                    # heard from every process before the first read: nothing committed after
                    # it is missed (the LISTEN connection starts with a process's first stream)
                    await service.listening()
                    after = resume
                    if after is None:
                        game, now = await uncancelled(service.game_state(match_id))
                        out = MatchOut(
                            match_id=match_id, version=now.version, seat=seat,
                            view=view_of(game, now, seat), game=game.name, clock=clock_out(now),
                        )  # fmt: skip
                        yield ServerSentEventMessage(
                            data=_encoder.encode(out).decode(), event="view", id=now.version
                        )
                        after = now.version
                    while True:
                        page = await uncancelled(
                            service.events(match_id, after, 500, replica=False)
                        )
                        over = page.record.status == "over"
                        stored = page.stored
                        for out_ev in stored_outs(page.game, stored, seat, over):
                            yield ServerSentEventMessage(
                                data=_encoder.encode(out_ev).decode(),
                                event="event",
                                id=out_ev.version,
                            )
                            after = out_ev.version
                        if stored:
                            continue  # there may be more than one page
                        if over:
                            yield end_notice(match_id, after)
                            return
                        if not await sub.wait(keepalive):
                            yield KEEP_ALIVE
                except StoreUnavailable:
                    metrics.store_error("unavailable")
                    yield unavailable_notice()

        return ServerSentEvent(generate(), headers={"Cache-Control": "no-cache"})

    @get(
        "/{match_id:str}/export",
        summary="Export a finished match",
        description=(
            'NDJSON: one line per stored event, `{"hash", "prev_hash", "record"}`, '
            "complete and unredacted, the record exactly as it was hashed; then one line "
            '`{"keys", "seal"}` with the service\'s Ed25519 signature over the final hash '
            "(absent when signing is off), and once the result is in the transparency log "
            '`"log"`, its inclusion proof and the signed checkpoint it is relative to. Only '
            'for finished matches (409 before). See docs/API.md, "Exports".'
        ),
        responses=responses(404, 409, 422, 503),
        media_type="application/x-ndjson",
    )
    async def export(self, match_id: MatchId, state: State) -> Stream:
        body = await service_in(state).export(match_id)
        return Stream(
            iter([body]),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="cuccu-{match_id}.ndjson"'},
        )


class _CommentLine(ServerSentEventMessage):
    """A comment line alone: no field, and no blank line after it, so it ends no message.

    Litestar's message writes ``data:`` (empty, by default) and a blank line even for a bare
    comment; a standard client dispatches a message at every blank line that follows a field,
    and httpx-sse (0.4) at every blank line once it has seen an ``id``. Either way a
    keep-alive became an empty ``message``. Comment lines may come anywhere between messages.
    """

    def encode(self) -> bytes:
        return f": {self.comment}{self.sep}".encode()


#: the stream's keep-alive: ``: keep-alive`` and a line break, nothing more
KEEP_ALIVE = _CommentLine(comment="keep-alive", data=None)


def unavailable_notice() -> ServerSentEventMessage:
    """The last message of a stream whose database went away: a named event ``unavailable``
    with a JSON body and no ``id`` (the client's Last-Event-ID stays the last version it got),
    so a browser's EventSource fires no ``message`` for it and a client may listen for it."""
    notice = {
        "detail": "the database is unavailable; reconnect later with Last-Event-ID",
        "retry_after": UNAVAILABLE_RETRY_AFTER,
    }
    return ServerSentEventMessage(data=_encoder.encode(notice).decode(), event="unavailable")


def end_notice(match_id: str, version: int) -> ServerSentEventMessage:
    """The last message of a finished match's stream, whatever its game: a named event
    ``end`` whose id is the match's last version, so a client knows the close that follows is
    the end and not a drop to resume (API 0.8.0). A browser's EventSource fires no
    ``message`` for it; a reconnection with its id gets it again, and nothing else."""
    body = {"match_id": match_id, "version": version, "status": "over"}
    return ServerSentEventMessage(data=_encoder.encode(body).decode(), event="end", id=version)


_in_flight: set[asyncio.Task[Any]] = set()


async def uncancelled(read: Coroutine[Any, Any, T]) -> T:
    """Await a database read that a client's disconnect must not interrupt.

    A stream is cancelled where it waits when its client hangs up. Cancelled mid-query, a read
    leaves SQLAlchemy to invalidate its connection, which logged "Task was destroyed but it is
    pending" (SQLite) or "non-checked-in connection" (issue 11). Shielded, the read finishes
    in the background and hands its connection back; only the stream stops.
    """
    task = asyncio.ensure_future(read)
    _in_flight.add(task)  # keep a reference until it is done
    task.add_done_callback(_finished)
    return await asyncio.shield(task)


def _finished(task: asyncio.Task[Any]) -> None:
    _in_flight.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: an abandoned read's failure is not an error to log


#: a ``Last-Event-ID`` the stream resumes after: ASCII digits only (``int()`` alone would
#: also take ``+3``, `` 3``, ``3_0`` and other scripts' digits)
_VERSION_ID = re.compile(r"[0-9]{1,10}")


def resume_after(last_event_id: str | None) -> int | None:
    """The version a ``Last-Event-ID`` resumes after (a version: 0 or more)."""
    if not last_event_id:
        return None
    if _VERSION_ID.fullmatch(last_event_id) is None or int(last_event_id) > MAX_VERSION:
        raise InvalidRequest(
            f"Last-Event-ID must be a version (an integer from 0 to {MAX_VERSION}, "
            "in ASCII digits only)"
        )
    return int(last_event_id)
