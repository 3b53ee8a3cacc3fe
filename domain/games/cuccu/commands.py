"""Commands: what someone asks the match to do. Randomness enters only through them."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.seats import SeatSpec

Choice = Literal["keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse"]
CHOICES: tuple[Choice, ...] = (
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse",
)  # fmt: skip
BOT_LEVELS: tuple[str, ...] = ("random", "basic", "expert")


class CreateMatch(msgspec.Struct, frozen=True, tag="create_match", tag_field="type"):
    """Open a match. The caller chooses the first dealer (the domain has no randomness)."""

    seats: tuple[SeatSpec, ...]
    starting_lives: int = 3
    first_dealer: int = 0


class ClaimSeat(msgspec.Struct, frozen=True, tag="claim_seat", tag_field="type"):
    """A person takes an open seat under a display name, before the first round."""

    seat: int
    name: str


class StartRound(msgspec.Struct, frozen=True, tag="start_round", tag_field="type"):
    """Deal a new round from ``pack`` (index 0 = top), committed to with ``salt`` (hex)."""

    pack: tuple[str, ...]
    salt: str


class Choose(msgspec.Struct, frozen=True, tag="choose", tag_field="type"):
    """A seat answers the decision it is prompted for."""

    seat: int
    choice: Choice


Command = CreateMatch | ClaimSeat | StartRound | Choose
