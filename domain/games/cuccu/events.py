"""Events: facts that happened, in the past tense. The stored log is made of these.

Fields that carry a card some seats may not see are ``str | None``: the stored event always
has the card, ``views.redact`` blanks it for whoever may not see it.

Events evolve as every game's do (``domain.event_codec``): a type whose fields change bumps
its ``schema_version`` and gains a static ``upcast_vn_vn1(data) -> data``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from domain.event_codec import EventCodec, event_data, event_type, schema_version, snake
from domain.seats import SeatSpec

LossReason = Literal["hunter", "cat", "scoring", "inn_pledge"]
PackEnd = Literal["bottom", "top"]


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False):
    #: the version of this type's data layout; see the module docstring
    schema_version: ClassVar[int] = 1


class MatchCreated(_Event, frozen=True, tag=snake):
    seats: tuple[SeatSpec, ...]
    starting_lives: int
    first_dealer: int


class SeatClaimed(_Event, frozen=True, tag=snake):
    """An open seat became a human seat under ``name``."""

    seat: int
    name: str


class RoundStarted(_Event, frozen=True, tag=snake):
    """A round begins: ``commitment`` is public, ``pack`` and ``salt`` hidden until RoundEnded."""

    round: int
    dealer: int
    participants: tuple[int, ...]
    commitment: str
    pack: tuple[str, ...] | None
    salt: str | None


class CardDealt(_Event, frozen=True, tag=snake):
    """A participant receives its card from the bottom of the pack (only it sees the card)."""

    seat: int
    card: str | None


class Kept(_Event, frozen=True, tag=snake):
    seat: int


class ExchangeRequested(_Event, frozen=True, tag=snake):
    seat: int
    target: int


class CardRevealed(_Event, frozen=True, tag=snake):
    """A targeted special is shown to everyone."""

    seat: int
    card: str


class HorseSkipped(_Event, frozen=True, tag=snake):
    seat: int


class Retargeted(_Event, frozen=True, tag=snake):
    """The request moves past a horse to the next undealt participant."""

    seat: int
    target: int


class CardsExchanged(_Event, frozen=True, tag=snake):
    """Two participants swapped cards; each learns only what it received."""

    requester: int
    target: int
    requester_gets: str | None
    target_gets: str | None


class ExchangeRefused(_Event, frozen=True, tag=snake):
    seat: int
    requester: int


class InnChoiceMade(_Event, frozen=True, tag=snake):
    seat: int
    choice: Literal["keep", "ask_pay"]


class InnResponded(_Event, frozen=True, tag=snake):
    seat: int
    response: Literal["accept", "refuse"]


class PledgeMade(_Event, frozen=True, tag=snake):
    innkeeper: int
    requester: int


class ExchangeReversed(_Event, frozen=True, tag=snake):
    """One exchange of the chain undone by a cat; parties named as in the original exchange."""

    requester: int
    target: int
    requester_gets: str | None
    target_gets: str | None


class LifeLost(_Event, frozen=True, tag=snake):
    seat: int
    reason: LossReason
    lives_after: int
    on_behalf_of: int | None = None


class SeatEliminated(_Event, frozen=True, tag=snake):
    seat: int


class PackExchanged(_Event, frozen=True, tag=snake):
    """A card went to the discard and one came from the pack; only the drawer sees either."""

    seat: int
    end: PackEnd
    gave: str | None
    got: str | None


class DealerKept(_Event, frozen=True, tag=snake):
    seat: int


class RoundScored(_Event, frozen=True, tag=snake):
    """The reveal: every live card is shown; dead cards are not."""

    live: tuple[int, ...]
    dead: tuple[int, ...]
    losers: tuple[int, ...]
    cards: tuple[str, ...]  # the live seats' cards, in the order of ``live``


class LivesReset(_Event, frozen=True, tag=snake):
    lives: int


class RoundEnded(_Event, frozen=True, tag=snake):
    """Opens the round's commitment (salt and pack) and names the next dealer."""

    round: int
    salt: str
    pack: tuple[str, ...]
    next_dealer: int | None


class MatchWon(_Event, frozen=True, tag=snake):
    winner: int


Event = (
    MatchCreated | SeatClaimed | RoundStarted | CardDealt | Kept | ExchangeRequested | CardRevealed
    | HorseSkipped | Retargeted | CardsExchanged | ExchangeRefused | InnChoiceMade
    | InnResponded | PledgeMade | ExchangeReversed | LifeLost | SeatEliminated
    | PackExchanged | DealerKept | RoundScored | LivesReset | RoundEnded | MatchWon
)  # fmt: skip

EVENT_TYPES: tuple[type[_Event], ...] = (
    MatchCreated, SeatClaimed, RoundStarted, CardDealt, Kept, ExchangeRequested, CardRevealed,
    HorseSkipped, Retargeted, CardsExchanged, ExchangeRefused, InnChoiceMade,
    InnResponded, PledgeMade, ExchangeReversed, LifeLost, SeatEliminated,
    PackExchanged, DealerKept, RoundScored, LivesReset, RoundEnded, MatchWon,
)  # fmt: skip

_CODEC: EventCodec[Event] = EventCodec(Event, EVENT_TYPES, "Cuccù")
#: each event class by its tag (the stored ``type``)
EVENT_CLASSES = _CODEC.classes
encode_event = _CODEC.encode
decode_event = _CODEC.decode
decode_events = _CODEC.decode_many
event_from_data = _CODEC.from_data
event_from_json = _CODEC.from_json

__all__ = [
    "EVENT_CLASSES", "EVENT_TYPES", "Event", "decode_event", "decode_events", "encode_event",
    "event_data", "event_from_data", "event_from_json", "event_type", "schema_version",
]  # fmt: skip
