"""Commands: what someone asks the match to do. Randomness enters only through them."""

from __future__ import annotations

from typing import Literal

import msgspec

Choice = Literal["keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse"]
CHOICES: tuple[Choice, ...] = (
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse",
)  # fmt: skip
SeatKind = Literal["human", "bot"]
BOT_LEVELS: tuple[str, ...] = ("random", "basic", "expert")


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat at creation: a display name, human or bot, and the bot's level."""

    name: str
    kind: SeatKind = "human"
    bot_level: str | None = None


class CreateMatch(msgspec.Struct, frozen=True, tag="create_match", tag_field="type"):
    """Open a match. The caller chooses the first dealer (the domain has no randomness)."""

    seats: tuple[SeatSpec, ...]
    starting_lives: int = 3
    first_dealer: int = 0


class StartRound(msgspec.Struct, frozen=True, tag="start_round", tag_field="type"):
    """Deal a new round from ``pack`` (index 0 = top), committed to with ``salt`` (hex)."""

    pack: tuple[str, ...]
    salt: str


class Choose(msgspec.Struct, frozen=True, tag="choose", tag_field="type"):
    """A seat answers the decision it is prompted for."""

    seat: int
    choice: Choice


Command = CreateMatch | StartRound | Choose
