"""``/players`` and ``/leaderboard``: accounts, their API keys, profiles, histories and the
ratings (api/players.py)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import msgspec
from litestar import Controller, Response, delete, get, post
from litestar.datastructures import State
from litestar.enums import RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import Body, HeaderParameter, PathParameter, QueryParameter
from msgspec import Meta

from api.models import GAME_NAMES
from api.players import PlayerService
from api.problems import responses
from api.ratings import Rating
from api.store.players import PlayerRecord

#: an account's key is required (see the ``playerKey`` security scheme of api/app.py)
PLAYER_KEY: list[dict[str, list[str]]] = [{"playerKey": []}]

PlayerName = Annotated[
    str,
    Meta(
        min_length=2,
        max_length=32,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$",
        description=(
            "2 to 32 letters, digits, `_`, `.` or `-`, starting with a letter or digit; "
            "unique whatever the case (`Ann` and `ann` are one name)"
        ),
        examples=["ann", "expert-bot"],
    ),
]
PlayerId = Annotated[
    str,
    PathParameter(
        description="Player id (a UUID)", max_length=64, pattern=r"^[0-9A-Za-z_-]{1,64}$"
    ),
]
PlayerKey = Annotated[
    str | None,
    HeaderParameter(
        name="Authorization",
        required=False,
        description="`Bearer <API key>`: the key `POST /players` answered with",
    ),
]


class RegisterIn(msgspec.Struct, forbid_unknown_fields=True):
    """A new account: a person, or a bot (a program that plays)."""

    name: PlayerName
    kind: Annotated[
        Literal["person", "bot"], Meta(description="`person` or `bot`; shown on the leaderboard")
    ] = "person"


class PlayerOut(msgspec.Struct):
    id: str
    name: str
    kind: Literal["person", "bot"]
    created_at: dt.datetime


class Registered(msgspec.Struct):
    player: PlayerOut
    key: Annotated[
        str,
        Meta(
            description=(
                "The account's secret API key (`cuccu_key_…`), shown only here: only a hash "
                "of it is stored. Send it as `Authorization: Bearer <key>`"
            )
        ),
    ]


class RatingOut(msgspec.Struct):
    game: str
    mu: Annotated[float, Meta(description="The estimated skill (OpenSkill, Plackett–Luce)")]
    sigma: Annotated[float, Meta(description="The uncertainty of `mu`")]
    ordinal: Annotated[float, Meta(description="`mu - 3 * sigma`: what the leaderboard sorts by")]
    matches: Annotated[int, Meta(description="Rated matches played in this game")]


class ProfileOut(msgspec.Struct):
    player: PlayerOut
    ratings: list[RatingOut]


class PlayedMatchOut(msgspec.Struct):
    match_id: str
    game: str
    seat: int
    standing: list[int]
    winners: list[int]
    finished_at: dt.datetime
    rated: Annotated[bool, Meta(description="Whether the match moved this account's rating")]
    rating: Annotated[
        RatingOut | None,
        Meta(description="The account's rating in this game just after this match (rated only)"),
    ] = None


class PlayerMatches(msgspec.Struct):
    matches: list[PlayedMatchOut]


class LeaderboardEntry(msgspec.Struct):
    rank: int
    player: PlayerOut
    rating: RatingOut


class Leaderboard(msgspec.Struct):
    game: str
    entries: list[LeaderboardEntry]


def players_in(state: State) -> PlayerService:
    players: PlayerService = state.players
    return players


def bearer_key(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, key = authorization.strip().partition(" ")
    return key.strip() if scheme.lower() == "bearer" else None


def player_out(p: PlayerRecord) -> PlayerOut:
    return PlayerOut(id=p.id, name=p.name, kind=p.kind, created_at=p.created_at)  # type: ignore[arg-type]


def rating_out(game: str, r: Rating) -> RatingOut:
    return RatingOut(game=game, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, matches=r.matches)


class PlayersController(Controller):
    path = "/players"
    tags = ["players"]

    @post(
        "/",
        summary="Register a player",
        description=(
            "Makes an account, for a person or a bot, and answers with its API key, shown "
            "only here (only a hash is stored). With the key, claim open seats as the account "
            "(`POST /matches/{id}/seats/{seat}/claim` with `Authorization: Bearer <key>`): "
            "finished matches between accounts are rated. A name another account has (in any "
            "case) is 409 `name-taken`; a bad name is 422."
        ),
        status_code=201,
        responses=responses(400, 409, 413, 415, 422, 503),
    )
    async def register(
        self,
        data: Annotated[
            RegisterIn,
            Body(
                media_type=RequestEncodingType.JSON,
                examples=[
                    Example(id="bot", summary="A bot", value={"name": "deep-ace", "kind": "bot"})
                ],
            ),
        ],
        state: State,
    ) -> Response[Registered]:
        made = await players_in(state).register(data.name, data.kind)
        return Response(Registered(player=player_out(made.player), key=made.key), status_code=201)

    @post(
        "/me/key",
        summary="Rotate your API key",
        description=(
            "Answers with a new API key (shown only here); the old one stops working at once."
        ),
        status_code=201,
        responses=responses(401, 503),
        security=PLAYER_KEY,
    )
    async def rotate(self, state: State, authorization: PlayerKey = None) -> Registered:
        players = players_in(state)
        player = await players.authenticate(bearer_key(authorization))
        key = await players.rotate_key(player)
        return Registered(player=player_out(player), key=key)

    @delete(
        "/me/key",
        summary="Revoke your API key",
        description=(
            "The key stops working at once and the account has none (its name, ratings and "
            "history stay). Seat tokens already issued to the account's claims keep working."
        ),
        status_code=204,
        responses=responses(401, 503),
        security=PLAYER_KEY,
    )
    async def revoke(self, state: State, authorization: PlayerKey = None) -> None:
        players = players_in(state)
        player = await players.authenticate(bearer_key(authorization))
        await players.revoke_key(player)

    @get(
        "/{player_id:str}",
        summary="A player's profile",
        description="Public: the account's name, kind and rating in each game it was rated in.",
        responses=responses(404, 422, 503),
    )
    async def profile(self, player_id: PlayerId, state: State) -> ProfileOut:
        found = await players_in(state).profile(player_id)
        return ProfileOut(
            player=player_out(found.player),
            ratings=[rating_out(g, r) for g, r in sorted(found.ratings.items())],
        )

    @get(
        "/{player_id:str}/matches",
        summary="A player's finished matches",
        description=(
            "The finished matches the account held a seat in, the latest first: its seat, "
            "the final standing and whether the match was rated. Export one with "
            "`GET /matches/{id}/export`."
        ),
        responses=responses(404, 422, 503),
    )
    async def matches(
        self,
        player_id: PlayerId,
        state: State,
        limit: Annotated[int, QueryParameter(ge=1, le=200, description="At most")] = 50,
    ) -> PlayerMatches:
        played = await players_in(state).history(player_id, limit)
        return PlayerMatches(
            matches=[
                PlayedMatchOut(
                    match_id=m.match_id,
                    game=m.game,
                    seat=m.seat,
                    standing=m.standing,
                    winners=m.winners,
                    finished_at=m.finished_at,
                    rated=m.rated,
                    rating=None if m.rating is None else rating_out(m.game, m.rating),
                )  # fmt: skip
                for m in played
            ]
        )


class LeaderboardController(Controller):
    path = "/leaderboard"
    tags = ["players"]

    @get(
        "/",
        summary="The leaderboard of a game",
        description=(
            "Rated accounts of `game`, best first by `ordinal` (`mu - 3 * sigma`). Ratings are "
            "OpenSkill (Plackett–Luce) over finished matches between accounts, a projection "
            "of the event log that `cuccu ratings rebuild` makes again with the same numbers. "
            "An unknown game is 422 `unknown-game`."
        ),
        responses=responses(422, 503),
    )
    async def leaderboard(
        self,
        state: State,
        game: Annotated[str, QueryParameter(description=f"The game: {GAME_NAMES}")],
        limit: Annotated[int, QueryParameter(ge=1, le=500, description="At most")] = 100,
    ) -> Leaderboard:
        ranked = await players_in(state).leaderboard(game, limit)
        return Leaderboard(
            game=game,
            entries=[
                LeaderboardEntry(
                    rank=i + 1, player=player_out(r.player), rating=rating_out(game, r.rating)
                )
                for i, r in enumerate(ranked)
            ],
        )
