"""``/queue``: the matchmaking queue of player accounts (api/queue.py)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import msgspec
from litestar import Controller, Response, delete, get, post
from litestar.datastructures import State
from litestar.enums import RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import Body, PathParameter, QueryParameter
from msgspec import Meta

from api.controllers.players import PLAYER_KEY, PlayerKey, bearer_key, players_in
from api.models import GAME_NAMES, Entropy
from api.problems import responses
from api.queue import QueueService, TicketView, public_status
from domain.games import GAMES, Game


def _queue_example(game: Game) -> Example:
    """A table of three (or the nearest size the game seats), bots after 30 s."""
    seats = min(max(3, game.min_seats), game.max_seats)
    return Example(
        id=game.name,
        summary=f"{game.title} for {seats}, bots after 30 s",
        value={"game": game.name, "seats": seats, "bots_after": 30},
    )


#: one example per game of the registry
QUEUE_EXAMPLES = [_queue_example(game) for game in GAMES.values()]
#: the smallest and the largest table any game seats (each game's own bounds are checked on join)
FEWEST_SEATS = min(game.min_seats for game in GAMES.values())
MOST_SEATS = max(game.max_seats for game in GAMES.values())


class QueueIn(msgspec.Struct, forbid_unknown_fields=True):
    """A table to wait for."""

    game: Annotated[str, Meta(max_length=32, description=f"The game: {GAME_NAMES}")]
    seats: Annotated[
        int,
        Meta(ge=FEWEST_SEATS, le=MOST_SEATS, description="The table's size (what the game seats)"),
    ]
    bots_after: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=3600,
                description=(
                    "Seconds after which the seats nobody took are given to the service's "
                    "bots (`null`, the default: wait for people only)"
                ),
            ),
        ]
        | None
    ) = None
    bot_level: Annotated[
        Literal["random", "basic", "expert"], Meta(description="The level of those bots")
    ] = "basic"
    entropy: (
        Annotated[
            Entropy,
            Meta(
                description=(
                    "Ignored (checked only for its form): sent before the service has "
                    "committed to your table's first deck, it could be ground against, so it "
                    "is not mixed into any deck. Contribute with `POST "
                    "/queue/{ticket_id}/claim` once your ticket shows the `commitment` "
                    '(docs/API.md "The queue")'
                )
            ),
        ]
        | None
    ) = None


class TakeSeatIn(msgspec.Struct, forbid_unknown_fields=True):
    """Your seat at the table your ticket was seated at, with your entropy."""

    entropy: (
        Annotated[
            Entropy,
            Meta(
                description=(
                    "16 to 64 random bytes in lower-case hex, drawn AFTER you saw the "
                    "ticket's `commitment`: your contribution to the table's first deck, "
                    'appended after that commitment and before the deal (docs/API.md "Fairness")'
                )
            ),
        ]
        | None
    ) = None


class TicketOut(msgspec.Struct):
    ticket_id: str
    status: Annotated[
        Literal["waiting", "seating", "matched", "left"],
        Meta(
            description=(
                "`seating` with `match_id`: your table exists and shows `commitment`; take "
                "your seat (`POST /queue/{ticket_id}/claim`) before `contribute_by`. "
                "`matched`: `match_id`, `seat` and `token` are set"
            )
        ),
    ]
    game: str
    seats: int
    created_at: dt.datetime
    match_id: str | None = None
    seat: int | None = None
    token: Annotated[
        str | None,
        Meta(
            description=(
                "The seat's token, new at each answer once matched (the previous one stops "
                "working): play the seat with it"
            )
        ),
    ] = None
    commitment: Annotated[
        str | None,
        Meta(
            description=(
                "While `seating` at a table: the service's commitment to its first deck "
                "(hex SHA-256 of its secret), the `commitment` of the match's first "
                "`entropy_committed` event; draw your entropy after reading it"
            )
        ),
    ] = None
    contribute_by: Annotated[
        dt.datetime | None,
        Meta(
            description=(
                "While `seating` at a table: when the queue takes your seat without your "
                "entropy (30 s after the table was made), so an absent waiter cannot stall it"
            )
        ),
    ] = None
    contributed: Annotated[
        bool | None,
        Meta(
            description=(
                "In the answer of `POST /queue/{ticket_id}/claim`: whether your entropy went "
                "into the first deck (`false`: the queue had taken your seat without it)"
            )
        ),
    ] = None


def queue_in(state: State) -> QueueService:
    queue: QueueService = state.queue
    return queue


def ticket_out(view: TicketView) -> TicketOut:
    t = view.ticket
    return TicketOut(
        ticket_id=t.id, status=public_status(t), game=t.game, seats=t.seats,  # type: ignore[arg-type]
        created_at=t.created_at, match_id=t.match_id,
        seat=t.seat if t.match_id is not None else None, token=view.token,
        commitment=view.commitment, contribute_by=view.contribute_by,
        contributed=view.contributed,
    )  # fmt: skip


TicketId = Annotated[
    str,
    PathParameter(
        description="Ticket id (a UUID)", max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$"
    ),
]


class QueueController(Controller):
    path = "/queue"
    tags = ["players"]
    security = PLAYER_KEY

    @post(
        "/",
        summary="Join the queue",
        description=(
            "Waits, as the account of the API key, for a table of `seats` in `game`. As soon "
            "as enough different accounts wait, the service creates the match, its waiters' "
            "seats kept open for them, which publishes its commitment to the first deck; "
            "with `bots_after`, bots take the seats nobody took after that many seconds. The "
            "answer is the ticket: `seating` at once, with match, seat and `commitment`, or "
            "`waiting` (then `GET /queue/{ticket_id}?wait=30`). Then take your seat with "
            "fresh entropy: `POST /queue/{ticket_id}/claim` (the seat is claimed as your "
            "account, so the match is rated). "
            "Joining again for the same table answers the same ticket while it waits or its "
            "match is not over (matched: with a new seat token), so a lost answer can be "
            "asked again. An unknown game is 422 "
            "`unknown-game`, a size the game does not seat 422 `invalid-config`."
        ),
        status_code=201,
        responses=responses(400, 401, 413, 415, 422, 503),
    )
    async def join(
        self,
        data: Annotated[
            QueueIn,
            Body(
                media_type=RequestEncodingType.JSON,
                examples=QUEUE_EXAMPLES,
            ),
        ],
        state: State,
        authorization: PlayerKey = None,
    ) -> Response[TicketOut]:
        player = await players_in(state).authenticate(bearer_key(authorization))
        # data.entropy is not taken: it was sent before any commitment (see QueueIn)
        view = await queue_in(state).join(
            player, data.game, data.seats, data.bots_after, data.bot_level
        )
        return Response(ticket_out(view), status_code=201)

    @get(
        "/{ticket_id:str}",
        summary="Your queue ticket",
        description=(
            "The ticket of the key's account; with `wait`, a long poll: answered as soon as "
            "its status is not `seen` (the one you last saw: `waiting` answers once your "
            "table exists, with its `commitment`), or without `seen` as soon as it is "
            "`matched`, else after that many seconds. Once matched, each answer carries a NEW "
            "seat token for the seat (the previous one stops working): a bot that restarted "
            "asks again. Another account's ticket is 404 `ticket-not-found`."
        ),
        responses=responses(401, 404, 422, 503),
    )
    async def ticket(
        self,
        ticket_id: TicketId,
        state: State,
        authorization: PlayerKey = None,
        wait: Annotated[
            float, QueryParameter(ge=0, le=30, description="Seconds to wait for a seat")
        ] = 0,
        seen: Annotated[
            Literal["waiting", "seating"] | None,
            QueryParameter(
                description=(
                    "The status you last saw: with `wait`, answered as soon as the ticket's "
                    "is another (without it: once `matched`)"
                )
            ),
        ] = None,
    ) -> TicketOut:
        player = await players_in(state).authenticate(bearer_key(authorization))
        return ticket_out(await queue_in(state).view(player, ticket_id, wait, seen))

    @post(
        "/{ticket_id:str}/claim",
        summary="Take your seat at the table the queue made",
        description=(
            "Once your ticket is `seating` at a table (it shows `match_id`, `seat` and "
            "`commitment`, the service's commitment to the table's first deck), take your seat "
            "with `entropy` drawn after you read that commitment: the seat is claimed as your "
            "account and your entropy is appended to the first deck, before its deal (the last "
            "waiter's claim deals). The answer is the ticket, `matched`, with a seat token; "
            "`contributed` says whether your entropy went in. Asking again answers the same "
            "claim with a NEW seat token (the previous one stops working); a seat the queue "
            "took for you at `contribute_by` is answered so too, with `contributed: false`. "
            "A ticket without a table yet is 409 `conflict`; another account's ticket 404 "
            '`ticket-not-found`. See docs/API.md "The queue".'
        ),
        status_code=200,
        responses=responses(400, 401, 404, 409, 413, 415, 422, 503),
    )
    async def take_seat(
        self,
        ticket_id: TicketId,
        data: Annotated[
            TakeSeatIn,
            Body(
                media_type=RequestEncodingType.JSON,
                examples=[
                    Example(
                        id="entropy",
                        summary="With 32 fresh random bytes",
                        value={"entropy": "5f" * 32},
                    )
                ],
            ),
        ],
        state: State,
        authorization: PlayerKey = None,
    ) -> TicketOut:
        player = await players_in(state).authenticate(bearer_key(authorization))
        return ticket_out(await queue_in(state).take_seat(player, ticket_id, data.entropy))

    @delete(
        "/{ticket_id:str}",
        summary="Leave the queue",
        description=(
            "Takes a waiting ticket out of the queue (204; again: 204). A ticket at a table "
            "(`seating` or `matched`) is 409 `conflict`: its match is waiting for you."
        ),
        status_code=204,
        responses=responses(401, 404, 409, 422, 503),
    )
    async def leave(
        self, ticket_id: TicketId, state: State, authorization: PlayerKey = None
    ) -> None:
        player = await players_in(state).authenticate(bearer_key(authorization))
        await queue_in(state).leave(player, ticket_id)
