"""Request and response bodies of the REST API (msgspec)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

import msgspec
from msgspec import Meta

from domain import Event, MatchView

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
CommandType = Literal[
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse", "next_round"
]
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


class CreateMatchIn(msgspec.Struct, forbid_unknown_fields=True):
    """A new match. A match of bots only is played to its end at once."""

    seats: Annotated[list[SeatIn], Meta(min_length=2, max_length=20, description="2 to 20 seats")]
    starting_lives: Annotated[int, Meta(ge=1, le=20, description="Lives per seat (1 to 20)")] = 3
    seed: (
        Annotated[
            int,
            Meta(
                ge=0,
                le=2**63 - 1,
                description="Seed for a reproducible match (shuffles, first dealer, bots). "
                "Omit for a cryptographically random match.",
            ),
        ]
        | None
    ) = None
    first_dealer: (
        Annotated[int, Meta(ge=0, le=19, description="Seat that deals first; random if omitted")]
        | None
    ) = None


class SeatToken(msgspec.Struct):
    seat: int
    token: Annotated[
        str, Meta(description="Secret bearer token of this seat. Shown once, stored only hashed.")
    ]
    view: Annotated[
        MatchView,
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
    lives: int


class MatchSummary(msgspec.Struct):
    match_id: str
    status: MatchStatus
    created_at: dt.datetime
    updated_at: dt.datetime
    starting_lives: int
    seats: list[SeatSummary]
    winner: int | None
    rounds: int
    version: int
    seeded: bool
    open_seats: Annotated[
        list[int],
        Meta(description="Seats still waiting to be claimed; round 1 starts when none is left"),
    ] = msgspec.field(default_factory=list)


class CreatedMatch(msgspec.Struct):
    match_id: str
    version: int
    status: MatchStatus
    seat_tokens: Annotated[
        list[SeatToken],
        Meta(description="One per `human` seat (an `open` seat gets its token when claimed)"),
    ]
    view: Annotated[MatchView, Meta(description="The spectator's view of the new match")]


class MatchList(msgspec.Struct):
    matches: list[MatchSummary]
    next_cursor: Annotated[
        str | None, Meta(description="Pass as `cursor` for the next page; null at the end")
    ]


class MatchOut(msgspec.Struct):
    match_id: str
    version: Annotated[int, Meta(description="Number of events in the match's stream")]
    seat: Annotated[int | None, Meta(description="The caller's seat; null for a spectator")]
    view: MatchView


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
        MatchView,
        Meta(description="The claimed seat's view (round 1 is dealt once every seat is taken)"),
    ]
    events: Annotated[
        list[EventOut],
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


class EventOut(msgspec.Struct):
    version: Annotated[int, Meta(description="Position of the event in the match's stream")]
    event: Annotated[Event, Meta(description="The event as the caller may see it")]


class CommandOut(msgspec.Struct):
    match_id: str
    version: int
    seat: int
    view: MatchView
    events: Annotated[
        list[EventOut], Meta(description="Events of this command and the bot turns it triggered")
    ]


class EventPage(msgspec.Struct):
    match_id: str
    version: Annotated[int, Meta(description="Current version of the stream")]
    seat: int | None
    events: list[EventOut]
    next_after: Annotated[
        int | None, Meta(description="Pass as `after` for the next page; null when up to date")
    ]


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
