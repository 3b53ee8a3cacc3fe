"""Request and response bodies of the REST API (msgspec)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from domain.games import CUCCO21, CUCCU, GAMES
from domain.games.cucco21.config import MAX_CHIPS, MIN_CHIPS
from domain.games.cucco21.config import MAX_SEATS as CUCCO21_MAX_SEATS
from domain.games.cucco21.config import MIN_SEATS as CUCCO21_MIN_SEATS
from domain.games.cucco21.events import Event as Cucco21Event
from domain.games.cucco21.views import GameView
from domain.games.cuccu.decide import MAX_SEATS as CUCCU_MAX_SEATS
from domain.games.cuccu.decide import MIN_SEATS as CUCCU_MIN_SEATS
from domain.games.cuccu.events import Event
from domain.games.cuccu.views import MatchView

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
#: every game's command types (each game accepts its own: ``domain.games``' ``choices``)
CommandType = Literal[
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse", "next_round",
    "trade", "refuse", "accept", "send_on", "claim", "decline",
]  # fmt: skip


# --- each game's views and events, tagged with the game's name ------------------------------
# The domain's structs carry no game tag; these subclasses add ``"game"`` so that one schema
# (a tagged ``oneOf``) describes the views and events of both games. A third game adds a line
# to each of the two tables below.


class CuccuView(MatchView, frozen=True, tag_field="game", tag="cuccu"):
    """What a seat (or a spectator) may see of a Cuccù match."""


class Cucco21View(GameView, frozen=True, tag_field="game", tag="cucco21"):
    """What a seat (or a spectator) may see of a Cucco 21 game (CUCCO21 §9 hides the rest)."""


AnyView = Annotated[
    CuccuView | Cucco21View,
    Meta(description="The match's view, `game` naming its game"),
]


class EventOut(msgspec.Struct, tag_field="game", tag="cuccu"):
    """A Cuccù event, as the caller may see it."""

    version: Annotated[int, Meta(description="Position of the event in the match's stream")]
    event: Annotated[Event, Meta(description="The event as the caller may see it")]


class Cucco21EventOut(msgspec.Struct, tag_field="game", tag="cucco21"):
    """A Cucco 21 event, as the caller may see it."""

    version: Annotated[int, Meta(description="Position of the event in the match's stream")]
    event: Annotated[Cucco21Event, Meta(description="The event as the caller may see it")]


AnyEventOut = EventOut | Cucco21EventOut

VIEW_TYPES: dict[str, type[CuccuView] | type[Cucco21View]] = {
    "cuccu": CuccuView,
    "cucco21": Cucco21View,
}
EVENT_OUT_TYPES: dict[str, type[EventOut] | type[Cucco21EventOut]] = {
    "cuccu": EventOut,
    "cucco21": Cucco21EventOut,
}


def tagged_view(game: str, view: Any) -> CuccuView | Cucco21View:
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
CuccuFirstDealer = Annotated[int, Meta(ge=0, le=CUCCU_MAX_SEATS - 1, description=FIRST_DEALER)]
Cucco21FirstDealer = Annotated[int, Meta(ge=0, le=CUCCO21_MAX_SEATS - 1, description=FIRST_DEALER)]


# --- the creation body: one schema per game -------------------------------------------------
# ``game`` picks the schema (api.bodies decodes it), so each lists its own options only and an
# option of the other game is refused by name. A third game adds a struct and a line to
# CREATE_TYPES.


class CreateCuccuMatch(msgspec.Struct, forbid_unknown_fields=True):
    """A new Cuccù match (`game` absent or `cuccu`). A match of bots only is played to its end
    at once."""

    seats: Annotated[
        list[SeatIn],
        Meta(
            min_length=CUCCU_MIN_SEATS,
            max_length=CUCCU_MAX_SEATS,
            description=f"{CUCCU_MIN_SEATS} to {CUCCU_MAX_SEATS} seats, in play order",
        ),
    ]
    game: Annotated[
        Literal["cuccu"],
        Meta(description="`cuccu`; absent, the match is a Cuccù match"),
    ] = "cuccu"
    starting_lives: Annotated[int, Meta(ge=1, le=20, description="Lives per seat (1 to 20)")] = (
        CUCCU.options["starting_lives"]
    )
    seed: Seed | None = None
    first_dealer: CuccuFirstDealer | None = None


class CreateCucco21Match(msgspec.Struct, forbid_unknown_fields=True):
    """A new Cucco 21 game (`game` is `cucco21`). A game of bots only is played to its end at
    once."""

    seats: Annotated[
        list[SeatIn],
        Meta(
            min_length=CUCCO21_MIN_SEATS,
            max_length=CUCCO21_MAX_SEATS,
            description=f"{CUCCO21_MIN_SEATS} to {CUCCO21_MAX_SEATS} seats, in play order",
        ),
    ]
    game: Annotated[Literal["cucco21"], Meta(description="`cucco21`")]
    starting_chips: Annotated[
        int,
        Meta(
            ge=MIN_CHIPS,
            le=MAX_CHIPS,
            description=f"Chips per seat ({MIN_CHIPS} to {MAX_CHIPS})",
        ),
    ] = CUCCO21.options["starting_chips"]
    powers: Annotated[bool, Meta(description="The six special cards' powers on or off")] = (
        CUCCO21.options["powers"]
    )
    max_sets: (
        Annotated[
            int,
            Meta(
                ge=1,
                le=1000,
                description="End after this many sets; omitted or null, play until a seat is "
                "bankrupt",
            ),
        ]
        | None
    ) = CUCCO21.options["max_sets"]
    seed: Seed | None = None
    first_dealer: Cucco21FirstDealer | None = None


#: a creation body: its ``game`` names the schema (absent: ``cuccu``)
CreateMatchIn = CreateCuccuMatch | CreateCucco21Match
CREATE_TYPES: dict[str, type[CreateCuccuMatch] | type[CreateCucco21Match]] = {
    "cuccu": CreateCuccuMatch,
    "cucco21": CreateCucco21Match,
}


def creation_options(body: CreateCuccuMatch | CreateCucco21Match) -> dict[str, Any]:
    """The game's own options of a creation body (what ``Game.options`` names)."""
    return {name: getattr(body, name) for name in GAMES[body.game].options}


class SeatToken(msgspec.Struct):
    seat: int
    token: Annotated[
        str, Meta(description="Secret bearer token of this seat. Shown once, stored only hashed.")
    ]
    view: Annotated[
        CuccuView | Cucco21View,
        Meta(
            description="This seat's own view (its card, its pending decision): no second "
            "request needed to start playing"
        ),
    ]


class SeatSummary(msgspec.Struct):
    seat: int
    name: str
    kind: Annotated[str, Meta(description="`human`, `bot`, or `open` (not claimed yet)")]
    bot_level: str | None
    lives: Annotated[int | None, Meta(description="Cuccù: lives left (null in Cucco 21)")] = None
    chips: Annotated[int | None, Meta(description="Cucco 21: chips (null in Cuccù)")] = None


class MatchSummary(msgspec.Struct):
    match_id: str
    status: MatchStatus
    created_at: dt.datetime
    updated_at: dt.datetime
    starting_lives: Annotated[int | None, Meta(description="Cuccù: lives per seat")]
    seats: list[SeatSummary]
    winner: Annotated[int | None, Meta(description="The winning seat once over (Cuccù)")]
    rounds: int
    version: int
    seeded: bool
    open_seats: Annotated[
        list[int],
        Meta(description="Seats still waiting to be claimed; round 1 starts when none is left"),
    ] = msgspec.field(default_factory=list)
    game: Annotated[str, Meta(description="`cuccu` or `cucco21`")] = "cuccu"
    options: Annotated[
        dict[str, object],
        Meta(description="The game's creation options (defaults filled in)"),
    ] = msgspec.field(default_factory=dict)
    winners: Annotated[
        list[int], Meta(description="The winning seats once over (Cucco 21 may have several)")
    ] = msgspec.field(default_factory=list)


class CreatedMatch(msgspec.Struct):
    match_id: str
    version: int
    status: MatchStatus
    seat_tokens: Annotated[
        list[SeatToken],
        Meta(description="One per `human` seat (an `open` seat gets its token when claimed)"),
    ]
    view: Annotated[
        CuccuView | Cucco21View, Meta(description="The spectator's view of the new match")
    ]
    game: Annotated[str, Meta(description="`cuccu` or `cucco21`")] = "cuccu"


class MatchList(msgspec.Struct):
    matches: list[MatchSummary]
    next_cursor: Annotated[
        str | None, Meta(description="Pass as `cursor` for the next page; null at the end")
    ]


class MatchOut(msgspec.Struct):
    match_id: str
    version: Annotated[int, Meta(description="Number of events in the match's stream")]
    seat: Annotated[int | None, Meta(description="The caller's seat; null for a spectator")]
    view: AnyView
    game: Annotated[str, Meta(description="`cuccu` or `cucco21`: how to read `view`")] = "cuccu"


class ClaimIn(msgspec.Struct, forbid_unknown_fields=True):
    """Take an open seat under a display name."""

    name: SeatName


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
        CuccuView | Cucco21View,
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


class CommandOut(msgspec.Struct):
    match_id: str
    version: int
    seat: int
    view: AnyView
    events: Annotated[
        list[AnyEventOut], Meta(description="Events of this command and the bot turns it triggered")
    ]


class EventPage(msgspec.Struct):
    match_id: str
    version: Annotated[int, Meta(description="Current version of the stream")]
    seat: int | None
    events: list[AnyEventOut]
    next_after: Annotated[
        int | None, Meta(description="Pass as `after` for the next page; null when up to date")
    ]
    game: Annotated[str, Meta(description="`cuccu` or `cucco21`: how to read `events`")] = "cuccu"


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
