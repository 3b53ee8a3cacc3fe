"""Request and response bodies of the REST API (msgspec)."""

from __future__ import annotations

import datetime as dt
import types
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeAlias, Union

import msgspec
from msgspec import Meta

from api.clock_views import ClockField
from domain.clock import ClockSettings
from domain.games import DEFAULT_GAME, GAMES, Game

#: the names of the games, as descriptions list them
GAME_NAMES = " or ".join(f"`{name}`" for name in GAMES)

SeatName = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=40,
        # something visible, and no control characters (PostgreSQL stores no NUL)
        pattern=r"^(?=.*\S)[^\x00-\x1f\x7f]+$",
        description="Display name: 1 to 40 characters, not only spaces, no control characters; "
        "stored trimmed (leading and trailing spaces removed)",
        examples=["Ann"],
    ),
]
BotLevel = Literal["random", "basic", "expert"]


def schema_name(game: Game) -> str:
    """How the game's components are named in the OpenAPI document (``my_game``: ``MyGame``)."""
    return "".join(part.capitalize() for part in game.name.split("_"))


# --- each game's views and events, tagged with the game's name ------------------------------
# The domain's structs carry no game tag; these subclasses, built from the registry, add
# ``"game"`` so that one schema (a tagged ``oneOf``) describes the views and events of every
# game. Litestar reads them as any struct; only mypy is told less (``TYPE_CHECKING``).


def _tagged_view_type(game: Game) -> type[msgspec.Struct]:
    doc = f"What a seat (or a spectator) may see of a {game.title} match (its rules hide the rest)."
    return types.new_class(
        f"{schema_name(game)}View",
        (game.view_type,),
        {"frozen": True, "tag_field": "game", "tag": game.name},
        lambda namespace: namespace.update({"__doc__": doc, "__module__": __name__}),
    )


def _event_out_type(game: Game) -> type[EventOutBase]:
    doc = f"A {game.title} event, as the caller may see it."
    return msgspec.defstruct(  # type: ignore[return-value]
        f"{schema_name(game)}EventOut",
        [("event", Annotated[game.event_type, Meta(description=EVENT_DESCRIPTION)])],
        bases=(EventOutBase,),
        tag_field="game",
        tag=game.name,
        namespace={"__doc__": doc},
        module=__name__,
    )


EVENT_DESCRIPTION = "The event as the caller may see it"


class EventOutBase(msgspec.Struct):
    """What every game's event entry has besides its event."""

    version: Annotated[int, Meta(description="Position of the event in the match's stream")]
    #: each game's type (``EVENT_OUT_TYPES``) names its own event union here
    event: Any


VIEW_TYPES: dict[str, type[msgspec.Struct]] = {
    name: _tagged_view_type(game) for name, game in GAMES.items()
}
EVENT_OUT_TYPES: dict[str, type[EventOutBase]] = {
    name: _event_out_type(game) for name, game in GAMES.items()
}

if TYPE_CHECKING:
    Views: TypeAlias = msgspec.Struct
    EventOuts: TypeAlias = EventOutBase
    #: every game's command types (each game accepts its own: ``domain.games``' ``choices``)
    CommandType: TypeAlias = str
else:
    Views = Union[tuple(VIEW_TYPES.values())]  # noqa: UP007 (a union of a tuple of types)
    EventOuts = Union[tuple(EVENT_OUT_TYPES.values())]  # noqa: UP007
    CommandType = Literal[tuple(dict.fromkeys(c for g in GAMES.values() for c in g.choices))]

AnyView = Annotated[Views, Meta(description="The match's view, `game` naming its game")]
AnyEventOut = EventOuts


def tagged_view(game: str, view: Any) -> msgspec.Struct:
    """The domain's view of a ``game`` match as the API sends it (with its ``game`` tag)."""
    return VIEW_TYPES[game](*msgspec.structs.astuple(view))


MatchStatus = Literal["new", "between_rounds", "in_round", "over"]


class SeatIn(msgspec.Struct, forbid_unknown_fields=True):
    """One seat at the table: a human (gets a secret token), a bot of some level, or an open
    seat that a person claims later (`POST /matches/{id}/seats/{seat}/claim`)."""

    name: SeatName
    kind: Annotated[
        Literal["human", "bot", "open"],
        Meta(
            description="`human` seats are played with the token returned at creation; `open` "
            "seats get no token until claimed (their `name` is a placeholder until then); "
            "`bot` seats are played by the service"
        ),
    ] = "human"
    bot_level: Annotated[
        BotLevel | None,
        Meta(
            description="For bots: `random`, `basic` or `expert`. Omitted, a bot is `expert` "
            "(it reasons over what its seat knows). Only bots have a level (a level on another "
            "seat is 422 `invalid-config`)."
        ),
    ] = None


Seed = Annotated[
    int,
    Meta(
        ge=0,
        le=2**63 - 1,
        description="Seed for a reproducible match (shuffles, first dealer, bots). "
        "Omit for a cryptographically random match.",
    ),
]


FIRST_DEALER = "Seat that deals first (one of the seats); random if omitted"
CLOCK = (
    'A time control (docs/API.md, "Clocks"): omitted, the match has no clock; `{}` is the '
    "default for tables of people (60 s a decision, a 300 s reserve, no increment, a bot "
    "plays a seat after 3 timeouts in a row until it sends `resume`)"
)


# --- the creation body: one schema per game -------------------------------------------------
# ``game`` picks the schema (api.bodies decodes it), so each lists its own options only and an
# option of another game is refused by name. Each is built from its game's seat bounds and
# options struct (``Game.options_type``: defaults, bounds and descriptions).


#: a seat's randomness for the next deck (docs/API.md "Fairness")
Entropy = Annotated[
    str,
    Meta(
        min_length=32,
        max_length=128,
        pattern=r"^([0-9a-f]{2})+$",
        description="16 to 64 random bytes in lower-case hex, mixed into the next deck the "
        'service has committed to (docs/API.md "Fairness"); ignored when none is waiting',
    ),
]


#: the creator's randomness for the first deck (docs/API.md "Fairness")
CreationEntropy = Annotated[
    str,
    Meta(
        min_length=32,
        max_length=128,
        pattern=r"^([0-9a-f]{2})+$",
        description="16 to 64 random bytes in lower-case hex: the creator's contribution to "
        "the first deck, recorded for each `human` seat (whose tokens the creator is handed) "
        "right after the service's commitment to that deck and before its deal "
        '(docs/API.md "Fairness"); ignored when the match has no human seat',
    ),
]


#: a ``POST /commitments`` answer's id, for the creation (docs/API.md "Fairness")
PrecommitmentId = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=64,
        description="The `id` of a `POST /commitments` answer: the first deck's secret is the "
        "one the service committed to there, before this request's `entropy` was sent "
        '(docs/API.md "Fairness"). Single-use and short-lived: unknown or expired is 422 '
        "`unknown-precommitment`, used by another match 409 `precommitment-used`, a table "
        "with no person and no open seat 422 `precommitment-unusable`",
    ),
]


class CreateMatchBody(Protocol):
    """What every game's creation body has besides the game's own options."""

    @property
    def seats(self) -> list[SeatIn]: ...
    @property
    def game(self) -> str: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def first_dealer(self) -> int | None: ...
    @property
    def entropy(self) -> str | None: ...
    @property
    def precommitment(self) -> str | None: ...


def _game_field(game: Game) -> tuple[str, Any] | tuple[str, Any, Any]:
    if game.name == DEFAULT_GAME:
        described = Meta(description=f"`{game.name}`; absent, the match is a {game.title} match")
        return ("game", Annotated[Literal[game.name], described], game.name)
    return ("game", Annotated[Literal[game.name], Meta(description=f"`{game.name}`")])


def _creation_type(game: Game) -> type[msgspec.Struct]:
    low, high = game.min_seats, game.max_seats
    tag = (
        f"`game` absent or `{game.name}`"
        if game.name == DEFAULT_GAME
        else f"`game` is `{game.name}`"
    )
    own = [
        (field.encode_name, field.type, field.default)
        for field in msgspec.structs.fields(game.options_type)
    ]
    seats = Meta(
        min_length=low, max_length=high, description=f"{low} to {high} seats, in play order"
    )
    first_dealer = Annotated[int, Meta(ge=0, le=high - 1, description=FIRST_DEALER)]
    fields: list[Any] = [
        ("seats", Annotated[list[SeatIn], seats]),
        _game_field(game),
        *own,
        ("seed", Seed | None, None),
        ("first_dealer", first_dealer | None, None),
        ("clock", Annotated[ClockSettings | None, Meta(description=CLOCK)], None),
        ("entropy", CreationEntropy | None, None),
        ("precommitment", PrecommitmentId | None, None),
    ]
    doc = f"A new {game.title} match ({tag}). A match of bots only is played to its end at once."
    return msgspec.defstruct(
        f"Create{schema_name(game)}Match",
        fields,
        forbid_unknown_fields=True,
        namespace={"__doc__": doc},
        module=__name__,
    )


#: each game's creation body: its ``game`` names the schema (absent: the default game)
CREATE_TYPES: dict[str, type[msgspec.Struct]] = {
    name: _creation_type(game) for name, game in GAMES.items()
}
if TYPE_CHECKING:
    CreateMatchIn: TypeAlias = CreateMatchBody
else:
    CreateMatchIn = Union[tuple(CREATE_TYPES.values())]  # noqa: UP007


def creation_options(body: CreateMatchBody) -> dict[str, Any]:
    """The game's own options of a creation body (what ``Game.options`` names)."""
    return {name: getattr(body, name) for name in GAMES[body.game].options}


class SeatToken(msgspec.Struct):
    seat: int
    token: Annotated[
        str, Meta(description="Secret bearer token of this seat. Shown once, stored only hashed.")
    ]
    view: Annotated[
        Views,
        Meta(
            description="This seat's own view (its card, its pending decision): no second "
            "request needed to start playing"
        ),
    ]


class SeatRow(msgspec.Struct):
    """A seat in the matches list; :data:`SeatSummary` adds each game's score field."""

    seat: int
    name: str
    kind: Annotated[str, Meta(description="`human`, `bot`, or `open` (not claimed yet)")]
    bot_level: str | None


def _score_field(field: str) -> tuple[str, Any, None]:
    """A seat's score under ``field``: set in the games that name their score so, else null."""
    games = [game for game in GAMES.values() if game.score.field == field]
    others = [game.title for game in GAMES.values() if game.score.field != field]
    said = f"{' and '.join(game.title for game in games)}: {games[0].score.unit}"
    if others:
        said += f" (null in {' and '.join(others)})"
    return (field, Annotated[int | None, Meta(description=said)], None)


#: a seat in the matches list, with one field per score name of the games (null in the others)
if TYPE_CHECKING:
    SeatSummary: TypeAlias = SeatRow
else:
    SeatSummary = msgspec.defstruct(
        "SeatSummary",
        [_score_field(field) for field in dict.fromkeys(g.score.field for g in GAMES.values())],
        bases=(SeatRow,),
        module=__name__,
    )
#: the games whose matches have one winner, named in ``MatchSummary.winner``
ONE_WINNER = " and ".join(game.title for game in GAMES.values() if game.score.one_winner)


class MatchSummary(msgspec.Struct, kw_only=True):
    match_id: str
    status: MatchStatus
    created_at: dt.datetime
    updated_at: dt.datetime
    starting_lives: Annotated[
        int | None, Meta(description="Lives per seat, in the games with a `starting_lives` option")
    ]
    seats: list[SeatSummary]
    winner: Annotated[
        int | None, Meta(description=f"The winning seat once over ({ONE_WINNER}: one winner)")
    ]
    rounds: int
    version: int
    seeded: bool
    open_seats: Annotated[
        list[int],
        Meta(description="Seats still waiting to be claimed; round 1 starts when none is left"),
    ] = msgspec.field(default_factory=list)
    game: Annotated[str, Meta(description=GAME_NAMES)]
    options: Annotated[
        dict[str, object],
        Meta(description="The game's creation options (defaults filled in)"),
    ] = msgspec.field(default_factory=dict)
    winners: Annotated[
        list[int], Meta(description="The winning seats once over (a game may have several)")
    ] = msgspec.field(default_factory=list)


class CreatedMatch(msgspec.Struct, kw_only=True):
    match_id: str
    version: int
    status: MatchStatus
    seat_tokens: Annotated[
        list[SeatToken],
        Meta(description="One per `human` seat (an `open` seat gets its token when claimed)"),
    ]
    view: Annotated[Views, Meta(description="The spectator's view of the new match")]
    game: Annotated[str, Meta(description=GAME_NAMES)]
    clock: ClockField = None


class MatchList(msgspec.Struct):
    matches: list[MatchSummary]
    next_cursor: Annotated[
        str | None, Meta(description="Pass as `cursor` for the next page; null at the end")
    ]


class MatchOut(msgspec.Struct, kw_only=True):
    match_id: str
    version: Annotated[int, Meta(description="Number of events in the match's stream")]
    seat: Annotated[int | None, Meta(description="The caller's seat; null for a spectator")]
    view: AnyView
    game: Annotated[str, Meta(description=f"{GAME_NAMES}: how to read `view`")]
    clock: ClockField = None
    rematch_of: Annotated[
        str | None, Meta(description="The finished match this one is the rematch of")
    ] = None
    rematch: Annotated[
        str | None, Meta(description="The rematch of this finished match, once asked for")
    ] = None


class RematchOut(msgspec.Struct, kw_only=True):
    """The caller's seat in the rematch of a finished match (docs/API.md, "Rematches")."""

    match_id: Annotated[str, Meta(description="The rematch")]
    rematch_of: Annotated[str, Meta(description="The finished match it follows")]
    seat: int
    token: Annotated[
        str,
        Meta(
            description="Secret bearer token of the caller's seat in the rematch, shown only "
            "here; asking again answers a new one, which replaces it"
        ),
    ]
    version: int
    view: Annotated[Views, Meta(description="The seat's view of the rematch")]
    game: Annotated[str, Meta(description=GAME_NAMES)]
    clock: ClockField = None


class ClaimIn(msgspec.Struct, forbid_unknown_fields=True):
    """Take an open seat under a display name."""

    name: SeatName
    entropy: Entropy | None = None


class ClaimedSeat(msgspec.Struct):
    match_id: str
    seat: int
    token: Annotated[
        str,
        Meta(
            description="Secret bearer token of the claimed seat. Shown once (only in this "
            "response), stored only hashed: keep it. A retry of the claim with its "
            "Idempotency-Key answers with a new token, which replaces this one."
        ),
    ]
    version: int
    status: MatchStatus
    view: Annotated[
        Views,
        Meta(description="The claimed seat's view (round 1 is dealt once every seat is taken)"),
    ]
    events: Annotated[
        list[AnyEventOut],
        Meta(description="Events of the claim, and of round 1 and its bot turns if it started"),
    ]


class CommandIn(msgspec.Struct, forbid_unknown_fields=True):
    """A seat's decision. `next_round` deals the next round when the match waits for it."""

    type: Annotated[CommandType, Meta(description="The choice, among `view.pending.choices`")]
    expected_version: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=2**31 - 1,
                description="Refuse with 409 unless the stream is still at this version",
            ),
        ]
        | None
    ) = None
    entropy: Entropy | None = None


class CommandOut(msgspec.Struct):
    match_id: str
    version: int
    seat: int
    view: AnyView
    events: Annotated[
        list[AnyEventOut], Meta(description="Events of this command and the bot turns it triggered")
    ]
    clock: ClockField = None


class EventPage(msgspec.Struct, kw_only=True):
    match_id: str
    version: Annotated[int, Meta(description="Current version of the stream")]
    seat: int | None
    events: list[AnyEventOut]
    next_after: Annotated[
        int | None, Meta(description="Pass as `after` for the next page; null when up to date")
    ]
    game: Annotated[str, Meta(description=f"{GAME_NAMES}: how to read `events`")]


class Health(msgspec.Struct):
    status: str


class Problem(msgspec.Struct, omit_defaults=True):
    """RFC 9457 problem details."""

    type: Annotated[str, Meta(description="Stable identifier of the kind of problem")]
    title: str
    status: int
    detail: str
    instance: str | None = None
    code: Annotated[str | None, Meta(description="Domain error code, when there is one")] = None
    version: Annotated[int | None, Meta(description="Current stream version (stale)")] = None
    errors: list[dict[str, object]] | None = None
