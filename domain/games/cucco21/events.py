"""Events: facts of a Cucco 21 game, snake_case past tense in the ``type`` tag.

Fields that carry a card some seats may not see are ``str | None``: the stored event always
holds the card; ``views.redact`` blanks it for whoever may not see it (§9).
"""

from __future__ import annotations

from typing import ClassVar, Final, Literal

import msgspec

from domain.commands import SeatSpec
from domain.games.cucco21.config import RoundCard

PayReason = Literal["ante", "penalty", "ceremony"]
OutReason = Literal["clown", "cat"]
DeathReason = Literal["clown", "cat", "scoring"]


class _Event(
    msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False, gc=False
):
    #: the version of this type's data layout in a stored record (domain.envelope)
    schema_version: ClassVar[int] = 1


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class GameCreated(_Event, frozen=True, tag=_snake):
    seats: tuple[SeatSpec, ...]
    starting_chips: int
    powers: bool
    max_sets: int | None
    first_dealer: int


class SeatClaimed(_Event, frozen=True, tag=_snake):
    """An open seat became a human seat under ``name``."""

    seat: int
    name: str


class DeckShuffled(_Event, frozen=True, tag=_snake):
    """Deck ``number`` is built: the first from all 42 cards, each later one from the discard
    pile (§4.7). ``commitment`` = sha256(salt ‖ order) is public at once; ``order`` and ``salt``
    stay hidden until ``DeckOpened`` (C27)."""

    number: int
    size: int
    commitment: str
    order: tuple[str, ...] | None
    salt: str | None


class DeckOpened(_Event, frozen=True, tag=_snake):
    """A deck's order and salt, made public once it was used up (at the end of that round) or
    the game ended: anyone can check them against its commitment."""

    number: int
    order: tuple[str, ...]
    salt: str


class RoundStarted(_Event, frozen=True, tag=_snake):
    set_number: int
    round: int  # counted over the whole game, from 1
    round_card: RoundCard
    dealer: int
    turn_order: tuple[int, ...]


class ChipsPaid(_Event, frozen=True, tag=_snake):
    """``seat`` pays ``amount`` (≥ 1) chips to the box or to the claimer ``to`` (a seat)."""

    seat: int
    amount: int
    to: int | Literal["box"]
    reason: PayReason


class SeatBankrupted(_Event, frozen=True, tag=_snake):
    """``seat`` could not pay in full (C23); ``card`` is the card it discarded at once, if any."""

    seat: int
    reason: PayReason
    card: str | None


class CardDealt(_Event, frozen=True, tag=_snake):
    seat: int
    card: str | None


class Kept(_Event, frozen=True, tag=_snake):
    seat: int


class Asked(_Event, frozen=True, tag=_snake):
    seat: int
    target: int


class Refused(_Event, frozen=True, tag=_snake):
    """A Lovers or a Cat refused: which of the two stays secret (C13)."""

    seat: int
    asker: int


class SentOn(_Event, frozen=True, tag=_snake):
    seat: int
    asker: int


class Traded(_Event, frozen=True, tag=_snake):
    asker: int
    target: int
    asker_gets: str | None
    target_gets: str | None


class DeckDiscarded(_Event, frozen=True, tag=_snake):
    seat: int
    card: str


class CardDrawn(_Event, frozen=True, tag=_snake):
    seat: int
    card: str | None


class PowerDiscarded(_Event, frozen=True, tag=_snake):
    seat: int
    card: str


class TakenBack(_Event, frozen=True, tag=_snake):
    seat: int
    card: str


class MadeOut(_Event, frozen=True, tag=_snake):
    seat: int
    reason: OutReason
    card: str


class Died(_Event, frozen=True, tag=_snake):
    seat: int
    reason: DeathReason


class Claimed(_Event, frozen=True, tag=_snake):
    seat: int


class Declined(_Event, frozen=True, tag=_snake):
    seat: int


class Reveal(msgspec.Struct, frozen=True, gc=False):
    seat: int
    card: str


class RoundScored(_Event, frozen=True, tag=_snake):
    revealed: tuple[Reveal, ...]  # the holders' cards, in turn order
    out: tuple[int, ...]  # the holders of the lowest card, in turn order


class RevealedDiscarded(_Event, frozen=True, tag=_snake):
    cards: tuple[str, ...]


class SetEnded(_Event, frozen=True, tag=_snake):
    survivor: int | None
    undecided: bool


class BoxTaken(_Event, frozen=True, tag=_snake):
    seat: int
    amount: int


class RoundEnded(_Event, frozen=True, tag=_snake):
    """The set goes on: the next round's card and dealer."""

    next_round_card: RoundCard
    next_dealer: int


class SetStarted(_Event, frozen=True, tag=_snake):
    """A new set: every seat that is not bankrupt is alive again; the round card is 1."""

    number: int
    dealer: int


class GameEnded(_Event, frozen=True, tag=_snake):
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

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[Event] = msgspec.json.Decoder(Event)
_list_decoder: msgspec.json.Decoder[list[Event]] = msgspec.json.Decoder(list[Event])


def event_type(event: Event) -> str:
    """The event's ``type`` tag, e.g. ``"chips_paid"``."""
    return str(type(event).__struct_config__.tag)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)


def decode_event(data: bytes | str) -> Event:
    return _decoder.decode(data)


def decode_events(data: bytes | str) -> list[Event]:
    return _list_decoder.decode(data)
