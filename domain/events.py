"""Events: facts that happened, in the past tense. The stored log is made of these.

Fields that carry a card some seats may not see are ``str | None``: the stored event always
has the card, ``views.redact`` blanks it for whoever may not see it.

Events evolve: each type has a ``schema_version`` (1 until its fields change), stored with
every event. Changing a type's fields means bumping its ``schema_version`` to n + 1 and giving
it a static ``upcast_vn_vn1(data) -> data`` that lifts the stored data of version n; reading
runs the upcasters in turn (:func:`event_from_data`), so old streams keep loading. An added
optional field needs only its default (old data decodes without it) — bump the version anyway
when the meaning of old data changes. Hashes never depend on this: they are checked on the
stored bytes (``domain.envelope``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

import msgspec

from domain.commands import SeatSpec

LossReason = Literal["hunter", "cat", "scoring", "inn_pledge"]
PackEnd = Literal["bottom", "top"]


class _Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False):
    #: the version of this type's data layout; see the module docstring
    schema_version: ClassVar[int] = 1


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


class MatchCreated(_Event, frozen=True, tag=_snake):
    seats: tuple[SeatSpec, ...]
    starting_lives: int
    first_dealer: int


class SeatClaimed(_Event, frozen=True, tag=_snake):
    """An open seat became a human seat under ``name``."""

    seat: int
    name: str


class RoundStarted(_Event, frozen=True, tag=_snake):
    """A round begins: ``commitment`` is public, ``pack`` and ``salt`` hidden until RoundEnded."""

    round: int
    dealer: int
    participants: tuple[int, ...]
    commitment: str
    pack: tuple[str, ...] | None
    salt: str | None


class CardDealt(_Event, frozen=True, tag=_snake):
    """A participant receives its card from the bottom of the pack (only it sees the card)."""

    seat: int
    card: str | None


class Kept(_Event, frozen=True, tag=_snake):
    seat: int


class ExchangeRequested(_Event, frozen=True, tag=_snake):
    seat: int
    target: int


class CardRevealed(_Event, frozen=True, tag=_snake):
    """A targeted special is shown to everyone."""

    seat: int
    card: str


class HorseSkipped(_Event, frozen=True, tag=_snake):
    seat: int


class Retargeted(_Event, frozen=True, tag=_snake):
    """The request moves past a horse to the next undealt participant."""

    seat: int
    target: int


class CardsExchanged(_Event, frozen=True, tag=_snake):
    """Two participants swapped cards; each learns only what it received."""

    requester: int
    target: int
    requester_gets: str | None
    target_gets: str | None


class ExchangeRefused(_Event, frozen=True, tag=_snake):
    seat: int
    requester: int


class InnChoiceMade(_Event, frozen=True, tag=_snake):
    seat: int
    choice: Literal["keep", "ask_pay"]


class InnResponded(_Event, frozen=True, tag=_snake):
    seat: int
    response: Literal["accept", "refuse"]


class PledgeMade(_Event, frozen=True, tag=_snake):
    innkeeper: int
    requester: int


class ExchangeReversed(_Event, frozen=True, tag=_snake):
    """One exchange of the chain undone by a cat; parties named as in the original exchange."""

    requester: int
    target: int
    requester_gets: str | None
    target_gets: str | None


class LifeLost(_Event, frozen=True, tag=_snake):
    seat: int
    reason: LossReason
    lives_after: int
    on_behalf_of: int | None = None


class SeatEliminated(_Event, frozen=True, tag=_snake):
    seat: int


class PackExchanged(_Event, frozen=True, tag=_snake):
    """A card went to the discard and one came from the pack; only the drawer sees either."""

    seat: int
    end: PackEnd
    gave: str | None
    got: str | None


class DealerKept(_Event, frozen=True, tag=_snake):
    seat: int


class RoundScored(_Event, frozen=True, tag=_snake):
    """The reveal: every live card is shown; dead cards are not."""

    live: tuple[int, ...]
    dead: tuple[int, ...]
    losers: tuple[int, ...]
    cards: tuple[str, ...]  # the live seats' cards, in the order of ``live``


class LivesReset(_Event, frozen=True, tag=_snake):
    lives: int


class RoundEnded(_Event, frozen=True, tag=_snake):
    """Opens the round's commitment (salt and pack) and names the next dealer."""

    round: int
    salt: str
    pack: tuple[str, ...]
    next_dealer: int | None


class MatchWon(_Event, frozen=True, tag=_snake):
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

#: each event class by its tag (the stored ``type``)
EVENT_CLASSES: dict[str, type[_Event]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in EVENT_TYPES
}

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Event)
_list_decoder = msgspec.json.Decoder(list[Event])
_data_decoders: dict[str, msgspec.json.Decoder[Any]] = {
    tag: msgspec.json.Decoder(cls) for tag, cls in EVENT_CLASSES.items()
}


class UnknownEvent(ValueError):
    """Stored data this code cannot read: an unknown type, or a schema version from the future."""


#: each struct class's tag, looked up once: ``__struct_config__`` builds a new object on every
#: access, and the tag is read for every event written (py-spy: 5 % of an API command's CPU)
_TAGS: dict[type, str] = {}


def event_type(event: Event) -> str:
    """The stable tag of an event, as stored in the ``type`` column (any game's event)."""
    cls = type(event)
    tag = _TAGS.get(cls)
    if tag is None:
        tag = _TAGS[cls] = str(cls.__struct_config__.tag)
    return tag


def schema_version(event: Event) -> int:
    """The schema version an event of this type is written with today."""
    return type(event).schema_version


def event_data(event: Event) -> dict[str, Any]:
    """The event's fields as JSON values, without its ``type`` tag (what the record stores)."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    del data["type"]
    return data


def _upcast(cls: type[_Event], type_: str, schema: int, data: dict[str, Any]) -> dict[str, Any]:
    if not 1 <= schema <= cls.schema_version:
        raise UnknownEvent(
            f"{type_} schema version {schema}: this code reads versions 1 to {cls.schema_version}"
        )
    for version in range(schema, cls.schema_version):
        step: Callable[[dict[str, Any]], dict[str, Any]] = getattr(
            cls, f"upcast_v{version}_v{version + 1}"
        )
        data = step(dict(data))
    return data


def event_from_data(type_: str, schema: int, data: dict[str, Any]) -> Event:
    """The event stored as ``type_`` at ``schema`` with ``data``, upcast to today's version.

    Raises :class:`UnknownEvent` for a type or version this code does not know, and
    ``msgspec.ValidationError`` for data that does not fit the type.
    """
    cls = EVENT_CLASSES.get(type_)
    if cls is None:
        raise UnknownEvent(f"unknown event type {type_!r}")
    data = _upcast(cls, type_, schema, data)
    return msgspec.convert(data, cls)  # type: ignore[return-value]


def event_from_json(type_: str, schema: int, data: bytes | str) -> Event:
    """:func:`event_from_data` for the data's JSON text (decoded directly when current)."""
    cls = EVENT_CLASSES.get(type_)
    if cls is None:
        raise UnknownEvent(f"unknown event type {type_!r}")
    if schema == cls.schema_version:
        return _data_decoders[type_].decode(data)  # type: ignore[no-any-return]
    return event_from_data(type_, schema, msgspec.json.decode(data))


def encode_event(event: Event) -> bytes:
    """The event as JSON, tag first then fields in declaration order.

    A plain serialisation (tests, benchmarks, the ``data`` column): what is hashed is the
    record of ``domain.envelope``, never this.
    """
    return _encoder.encode(event)


def decode_event(data: bytes | str) -> Event:
    return _decoder.decode(data)


def decode_events(data: bytes | str) -> list[Event]:
    return _list_decoder.decode(data)
