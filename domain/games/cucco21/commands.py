"""Commands: what someone asks a Cucco 21 game to do. Chance enters only through ``Shuffle``."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.games.cucco21.config import Config

Choice = Literal["keep", "trade", "refuse", "accept", "send_on", "claim", "decline"]
CHOICES: Final[tuple[Choice, ...]] = (
    "keep", "trade", "refuse", "accept", "send_on", "claim", "decline",
)  # fmt: skip


class CreateGame(msgspec.Struct, frozen=True, tag="create_game", tag_field="type"):
    """Open a game with ``config``; the caller picks the first dealer (the domain has no chance)."""

    config: Config


class Shuffle(msgspec.Struct, frozen=True, tag="shuffle", tag_field="type"):
    """Answer a ``shuffle`` step: the new deck (index 0 = top), a permutation of the pile to
    shuffle, and the salt (hex, at least 16 bytes) of its commitment (C27)."""

    order: tuple[str, ...]
    salt: str


class ClaimSeat(msgspec.Struct, frozen=True, tag="claim_seat", tag_field="type"):
    """A person takes an open seat under a display name, before the first round."""

    seat: int
    name: str


class StartRound(msgspec.Struct, frozen=True, tag="start_round", tag_field="type"):
    """Answer a ``next_round`` step: ante (round card 1) and deal from the persistent deck."""


class Choose(msgspec.Struct, frozen=True, tag="choose", tag_field="type"):
    """A seat answers the prompt addressed to it."""

    seat: int
    choice: Choice


Command = CreateGame | ClaimSeat | Shuffle | StartRound | Choose
