"""A game's settings (CUCCO21 §2) and the limits the rules put on them."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from domain.seats import SeatSpec

MIN_SEATS: Final = 2
MAX_SEATS: Final = 12  # the box holds 12 Life cards (C3)
MIN_CHIPS: Final = 1
MAX_CHIPS: Final = 100
DEFAULT_CHIPS: Final = 15
BOT_LEVELS: Final[tuple[str, ...]] = ("random", "basic", "expert")

RoundCard = Literal["1", "2", "3", "SD"]
ROUND_CARDS: Final[tuple[RoundCard, ...]] = ("1", "2", "3", "SD")
PENALTY: Final[dict[RoundCard, int]] = {"1": 1, "2": 2, "3": 3}  # SD: the out seat dies (§6)


def next_round_card(card: RoundCard) -> RoundCard:
    """``1→2→3→SD``, then ``SD`` stays (§4.9)."""
    return ROUND_CARDS[min(ROUND_CARDS.index(card) + 1, len(ROUND_CARDS) - 1)]


class Config(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Everything fixed when a game is created. ``max_sets`` None: play until a bankruptcy."""

    seats: tuple[SeatSpec, ...]
    starting_chips: int = DEFAULT_CHIPS
    powers: bool = True
    max_sets: int | None = None
    first_dealer: int = 0


def config_errors(config: Config) -> list[str]:
    """What is wrong with ``config``, for people; empty when it is a legal game."""
    n = len(config.seats)
    errors: list[str] = []
    if not MIN_SEATS <= n <= MAX_SEATS:
        errors.append(f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
    if not MIN_CHIPS <= config.starting_chips <= MAX_CHIPS:
        errors.append(f"starting chips must be {MIN_CHIPS} to {MAX_CHIPS}")
    if config.max_sets is not None and config.max_sets < 1:
        errors.append("max_sets must be at least 1 (or absent)")
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
