"""Events: facts of a Cucco 21 game, snake_case past tense in the ``type`` tag.

Fields that carry a card some seats may not see are ``str | None``: the stored event always
holds the card; ``views.redact`` blanks it for whoever may not see it (§9).

Events evolve as every game's do (``domain.event_codec``): a type whose fields change bumps
its ``schema_version`` and gains a static ``upcast_vn_vn1(data) -> data``.
"""

from __future__ import annotations

from typing import ClassVar, Final, Literal

import msgspec

from domain.event_codec import EventCodec, event_type, snake
from domain.games.cucco21.config import RoundCard
from domain.seats import SeatSpec

PayReason = Literal["ante", "penalty", "ceremony"]
OutReason = Literal["clown", "cat"]
DeathReason = Literal["clown", "cat", "scoring"]


class _Event(
    msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False, gc=False
):
    #: the version of this type's data layout; see the module docstring
    schema_version: ClassVar[int] = 1


class GameCreated(_Event, frozen=True, tag=snake):
    seats: tuple[SeatSpec, ...]
    starting_chips: int
    powers: bool
    max_sets: int | None
    first_dealer: int


class SeatClaimed(_Event, frozen=True, tag=snake):
    """An open seat became a human seat under ``name``."""

    seat: int
    name: str


class DeckShuffled(_Event, frozen=True, tag=snake):
    """Deck ``number`` is built: the first from all 42 cards, each later one from the discard
    pile (§4.7). ``commitment`` = sha256(salt ‖ order) is public at once; ``order`` and ``salt``
    stay hidden until ``DeckOpened`` (C27)."""

    number: int
    size: int
    commitment: str
    order: tuple[str, ...] | None
    salt: str | None


class DeckOpened(_Event, frozen=True, tag=snake):
    """A deck's order and salt, made public once it was used up (at the end of that round) or
    the game ended: anyone can check them against its commitment."""

    number: int
    order: tuple[str, ...]
    salt: str


class RoundStarted(_Event, frozen=True, tag=snake):
    set_number: int
    round: int  # counted over the whole game, from 1
    round_card: RoundCard
    dealer: int
    turn_order: tuple[int, ...]


class ChipsPaid(_Event, frozen=True, tag=snake):
    """``seat`` pays ``amount`` (≥ 1) chips to the box or to the claimer ``to`` (a seat)."""

    seat: int
    amount: int
    to: int | Literal["box"]
    reason: PayReason


class SeatBankrupted(_Event, frozen=True, tag=snake):
    """``seat`` could not pay in full (C23); ``card`` is the card it discarded at once, if any."""

    seat: int
    reason: PayReason
    card: str | None


class CardDealt(_Event, frozen=True, tag=snake):
    seat: int
    card: str | None


class Kept(_Event, frozen=True, tag=snake):
    seat: int


class Asked(_Event, frozen=True, tag=snake):
    seat: int
    target: int


class Refused(_Event, frozen=True, tag=snake):
    """A Lovers or a Cat refused: which of the two stays secret (C13)."""

    seat: int
    asker: int


class SentOn(_Event, frozen=True, tag=snake):
    seat: int
    asker: int


class Traded(_Event, frozen=True, tag=snake):
    asker: int
    target: int
    asker_gets: str | None
    target_gets: str | None


class DeckDiscarded(_Event, frozen=True, tag=snake):
    seat: int
    card: str


class CardDrawn(_Event, frozen=True, tag=snake):
    seat: int
    card: str | None


class PowerDiscarded(_Event, frozen=True, tag=snake):
    seat: int
    card: str


class TakenBack(_Event, frozen=True, tag=snake):
    seat: int
    card: str


class MadeOut(_Event, frozen=True, tag=snake):
    seat: int
    reason: OutReason
    card: str


class Died(_Event, frozen=True, tag=snake):
    seat: int
    reason: DeathReason


class Claimed(_Event, frozen=True, tag=snake):
    seat: int


class Declined(_Event, frozen=True, tag=snake):
    seat: int


class Reveal(msgspec.Struct, frozen=True, gc=False):
    seat: int
    card: str


class RoundScored(_Event, frozen=True, tag=snake):
    revealed: tuple[Reveal, ...]  # the holders' cards, in turn order
    out: tuple[int, ...]  # the holders of the lowest card, in turn order


class RevealedDiscarded(_Event, frozen=True, tag=snake):
    cards: tuple[str, ...]


class SetEnded(_Event, frozen=True, tag=snake):
    survivor: int | None
    undecided: bool


class BoxTaken(_Event, frozen=True, tag=snake):
    seat: int
    amount: int


class RoundEnded(_Event, frozen=True, tag=snake):
    """The set goes on: the next round's card and dealer."""

    next_round_card: RoundCard
    next_dealer: int


class SetStarted(_Event, frozen=True, tag=snake):
    """A new set: every seat that is not bankrupt is alive again; the round card is 1."""

    number: int
    dealer: int


class GameEnded(_Event, frozen=True, tag=snake):
    winners: tuple[int, ...]


Event = (
    GameCreated | SeatClaimed | DeckShuffled | DeckOpened | RoundStarted | ChipsPaid
    | SeatBankrupted | CardDealt | Kept | Asked | Refused | SentOn | Traded | DeckDiscarded
    | CardDrawn | PowerDiscarded | TakenBack | MadeOut | Died | Claimed | Declined | RoundScored
    | RevealedDiscarded | SetEnded | BoxTaken | RoundEnded | SetStarted | GameEnded
)  # fmt: skip

EVENT_TYPES: Final[tuple[type[_Event], ...]] = (
    GameCreated, SeatClaimed, DeckShuffled, DeckOpened, RoundStarted, ChipsPaid, SeatBankrupted,
    CardDealt, Kept, Asked, Refused, SentOn, Traded, DeckDiscarded, CardDrawn, PowerDiscarded,
    TakenBack, MadeOut, Died, Claimed, Declined, RoundScored, RevealedDiscarded, SetEnded,
    BoxTaken, RoundEnded, SetStarted, GameEnded,
)  # fmt: skip

_CODEC: EventCodec[Event] = EventCodec(Event, EVENT_TYPES, "Cucco 21")
#: each event class by its tag (the stored ``type``)
EVENT_CLASSES = _CODEC.classes
encode_event = _CODEC.encode
decode_event = _CODEC.decode
decode_events = _CODEC.decode_many
event_from_json = _CODEC.from_json

__all__ = [
    "EVENT_CLASSES", "EVENT_TYPES", "Event", "decode_event", "decode_events", "encode_event",
    "event_from_json", "event_type",
]  # fmt: skip
