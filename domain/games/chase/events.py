"""Events: facts of a Chase the Ace match, snake_case past tense in the ``type`` tag.

Fields that carry a card some seats may not see are ``str | None``: the stored event always
holds the card; ``views.redact`` blanks it for whoever may not see it (§5, A19).

Events evolve as every game's do (``domain.event_codec``): a type whose fields change bumps
its ``schema_version`` and gains a static ``upcast_vn_vn1(data) -> data``.
"""

from __future__ import annotations

from typing import ClassVar, Final, Literal

import msgspec

from domain.event_codec import EventCodec, event_type, snake
from domain.seats import SeatSpec

LossReason = Literal["lowest", "king_cut"]


class _Event(
    msgspec.Struct, frozen=True, tag_field="type", tag=True, omit_defaults=False, gc=False
):
    #: the version of this type's data layout; see the module docstring
    schema_version: ClassVar[int] = 1


class ChaseMatchCreated(_Event, frozen=True, tag=snake):
    """The first event of every match. Its tag names the game (``domain.games.of_first_event``):
    Cuccù already opens with ``match_created``, so this one carries the game's name."""

    seats: tuple[SeatSpec, ...]
    starting_lives: int
    first_dealer: int
    announce_low: bool
    king_cut_loses: bool


class SeatClaimed(_Event, frozen=True, tag=snake):
    """An open seat became a human seat under ``name``."""

    seat: int
    name: str


class RoundStarted(_Event, frozen=True, tag=snake):
    """A round begins: ``commitment`` = sha256(salt ‖ pack) is public at once; ``pack`` and
    ``salt`` stay hidden until ``RoundEnded`` opens them."""

    round: int
    dealer: int
    participants: tuple[int, ...]  # turn order, the dealer last (§1)
    commitment: str
    pack: tuple[str, ...] | None
    salt: str | None


class CardDealt(_Event, frozen=True, tag=snake):
    """A participant is dealt the top card of the pack (only it sees the card)."""

    seat: int
    card: str | None


class Kept(_Event, frozen=True, tag=snake):
    """A non-dealer keeps its card."""

    seat: int


class ExchangeRequested(_Event, frozen=True, tag=snake):
    """A non-dealer asks its next participant to exchange (A7)."""

    seat: int
    target: int


class KingBlocked(_Event, frozen=True, tag=snake):
    """The target ``seat`` shows its King: nothing is exchanged and ``seat`` is shown (A8, A9)."""

    seat: int
    requester: int
    card: str


class CardsExchanged(_Event, frozen=True, tag=snake):
    """Requester and target swapped cards; only the two of them see which."""

    requester: int
    target: int
    requester_gets: str | None
    target_gets: str | None


class LowCardAnnounced(_Event, frozen=True, tag=snake):
    """``announce_low``: the A, 2 or 3 ``seat`` just received was passed face up (A20)."""

    seat: int
    card: str


class DealerKept(_Event, frozen=True, tag=snake):
    seat: int


class StockCut(_Event, frozen=True, tag=snake):
    """The dealer turns up the top card of the stock: it is public (A11)."""

    seat: int
    card: str


class CutExchanged(_Event, frozen=True, tag=snake):
    """The cut card is no King: the dealer's card goes face down to the discard (only the
    dealer sees ``gave``, A13) and the dealer takes ``got``, the cut card everyone saw."""

    seat: int
    gave: str | None
    got: str


class CutVoided(_Event, frozen=True, tag=snake):
    """The cut card is a King: it stays on top of the stock; the dealer keeps its card (A12)."""

    seat: int


class Reveal(msgspec.Struct, frozen=True, gc=False):
    seat: int
    card: str


class RoundScored(_Event, frozen=True, tag=snake):
    """The reveal: every participant's card in turn order, and the round's losers (§4.5)."""

    revealed: tuple[Reveal, ...]
    losers: tuple[int, ...]  # turn order


class RoundWipedOut(_Event, frozen=True, tag=snake):
    """Every participant lost its last life at once: the round is void (A16)."""

    seats: tuple[int, ...]  # the losers, turn order


class LifeLost(_Event, frozen=True, tag=snake):
    seat: int
    reason: LossReason
    lives_after: int


class SeatEliminated(_Event, frozen=True, tag=snake):
    """Its lives reached 0 this round: it sits out every later round (A15)."""

    seat: int


class RoundEnded(_Event, frozen=True, tag=snake):
    """Opens the round's commitment (pack and salt) and names the next dealer (A18), None
    when the match is over. Nothing of the round is hidden any more: the next round is
    shuffled afresh (A5)."""

    round: int
    salt: str
    pack: tuple[str, ...]
    next_dealer: int | None


class MatchWon(_Event, frozen=True, tag=snake):
    """Exactly one seat has lives left (A17)."""

    winner: int


Event = (
    ChaseMatchCreated | SeatClaimed | RoundStarted | CardDealt | Kept | ExchangeRequested
    | KingBlocked | CardsExchanged | LowCardAnnounced | DealerKept | StockCut | CutExchanged
    | CutVoided | RoundScored | RoundWipedOut | LifeLost | SeatEliminated | RoundEnded | MatchWon
)  # fmt: skip

EVENT_TYPES: Final[tuple[type[_Event], ...]] = (
    ChaseMatchCreated, SeatClaimed, RoundStarted, CardDealt, Kept, ExchangeRequested,
    KingBlocked, CardsExchanged, LowCardAnnounced, DealerKept, StockCut, CutExchanged,
    CutVoided, RoundScored, RoundWipedOut, LifeLost, SeatEliminated, RoundEnded, MatchWon,
)  # fmt: skip

_CODEC: EventCodec[Event] = EventCodec(Event, EVENT_TYPES, "Chase the Ace")
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
