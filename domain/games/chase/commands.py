"""Commands: what someone asks a Chase the Ace match to do. Chance enters only through
``StartRound``: the shuffled pack and the salt of its commitment come from the caller."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.games.chase.config import Config

Choice = Literal["keep", "exchange", "cut"]
CHOICES: Final[tuple[Choice, ...]] = ("keep", "exchange", "cut")


class CreateMatch(msgspec.Struct, frozen=True, tag="create_match", tag_field="type"):
    """Open a match with ``config``; the caller picks the first dealer (A22)."""

    config: Config


class ClaimSeat(msgspec.Struct, frozen=True, tag="claim_seat", tag_field="type"):
    """A person takes an open seat under a display name, before the first round."""

    seat: int
    name: str


class StartRound(msgspec.Struct, frozen=True, tag="start_round", tag_field="type"):
    """Deal a round from ``pack`` (all 52 cards, index 0 = top), committed to with ``salt``
    (hex, at least 16 bytes). Every round is shuffled afresh (A5)."""

    pack: tuple[str, ...]
    salt: str


class Choose(msgspec.Struct, frozen=True, tag="choose", tag_field="type"):
    """A seat answers the prompt addressed to it (A24)."""

    seat: int
    choice: Choice


Command = CreateMatch | ClaimSeat | StartRound | Choose
