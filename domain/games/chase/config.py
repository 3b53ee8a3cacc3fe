"""A match's settings (CHASE §2) and the limits the rules put on them."""

from __future__ import annotations

from typing import Final

import msgspec

from domain.seats import SeatSpec

MIN_SEATS: Final = 2
MAX_SEATS: Final = 20  # A3: a round takes at most N + 1 cards, 20 keeps the pack far from empty
MIN_LIVES: Final = 1
MAX_LIVES: Final = 9  # A4
DEFAULT_LIVES: Final = 3
BOT_LEVELS: Final[tuple[str, ...]] = ("random", "basic", "expert")


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The two optional rules, both off by default (A20, A21)."""

    announce_low: bool = False
    king_cut_loses: bool = False


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything fixed when a match is created. The first dealer is the caller's (A22)."""

    seats: tuple[SeatSpec, ...]
    starting_lives: int = DEFAULT_LIVES
    first_dealer: int = 0
    options: Options = msgspec.field(default_factory=Options)


def config_errors(config: Config) -> list[str]:
    """What is wrong with ``config``, for people; empty when it is a legal match."""
    n = len(config.seats)
    errors: list[str] = []
    if not MIN_SEATS <= n <= MAX_SEATS:
        errors.append(f"a match has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
    lives = config.starting_lives
    if type(lives) is not int or not MIN_LIVES <= lives <= MAX_LIVES:
        errors.append(f"starting lives must be {MIN_LIVES} to {MAX_LIVES}")
    if not 0 <= config.first_dealer < max(n, 1):
        errors.append(f"the first dealer must be a seat from 0 to {n - 1}")
    for i, seat in enumerate(config.seats):
        if not seat.name.strip():
            errors.append(f"seat {i} needs a name")
        if seat.kind == "bot" and seat.bot_level not in BOT_LEVELS:
            errors.append(f"seat {i}: bot level must be one of {', '.join(BOT_LEVELS)}")
        if seat.kind != "bot" and seat.bot_level is not None:
            errors.append(f"seat {i} is not a bot: it has no bot level")
    return errors
