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
from api.queue import QueueService, TicketView
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
                    "16 to 64 random bytes in lower-case hex: your contribution to the first "
                    "deck of the match you are seated in, kept with the ticket (never shown) "
                    "and sent by the claim of your seat, after the service's commitment to "
                    'that deck and before its deal (docs/API.md "Fairness")'
                )
            ),
        ]
        | None
    ) = None


class TicketOut(msgspec.Struct):
    ticket_id: str
    status: Annotated[
        Literal["waiting", "seating", "matched", "left"],
        Meta(description="`matched`: `match_id`, `seat` and `token` are set"),
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


def queue_in(state: State) -> QueueService:
    queue: QueueService = state.queue
    return queue


def ticket_out(view: TicketView) -> TicketOut:
    t = view.ticket
    return TicketOut(
        ticket_id=t.id, status=t.status, game=t.game, seats=t.seats,  # type: ignore[arg-type]
        created_at=t.created_at, match_id=t.match_id, seat=t.seat, token=view.token,
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
            "as enough different accounts wait, the service creates the match and claims a "
            "seat for each (so it is rated); with `bots_after`, bots take the seats nobody "
            "took after that many seconds. The answer is the ticket: `matched` at once, with "
            "match, seat and seat token, or `waiting` (then `GET /queue/{ticket_id}?wait=30`). "
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
        view = await queue_in(state).join(
            player, data.game, data.seats, data.bots_after, data.bot_level, data.entropy
        )
        return Response(ticket_out(view), status_code=201)

    @get(
        "/{ticket_id:str}",
        summary="Your queue ticket",
        description=(
            "The ticket of the key's account; with `wait`, answered as soon as it is matched "
            "or after that many seconds (a long poll). Once matched, each answer carries a NEW "
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
    ) -> TicketOut:
        player = await players_in(state).authenticate(bearer_key(authorization))
        return ticket_out(await queue_in(state).view(player, ticket_id, wait))

    @delete(
        "/{ticket_id:str}",
        summary="Leave the queue",
        description=(
            "Takes a waiting ticket out of the queue (204; again: 204). A ticket matched "
            "already is 409 `conflict`: its match is waiting for you."
        ),
        status_code=204,
        responses=responses(401, 404, 409, 422, 503),
    )
    async def leave(
        self, ticket_id: TicketId, state: State, authorization: PlayerKey = None
    ) -> None:
        player = await players_in(state).authenticate(bearer_key(authorization))
        await queue_in(state).leave(player, ticket_id)
