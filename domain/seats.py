"""Who sits at a table: shared by every game (a seat is a person, a bot, or open)."""

from __future__ import annotations

from typing import Literal

import msgspec

SeatKind = Literal["human", "bot", "open"]


class SeatSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat at creation: a display name, human, bot (with its level) or open.

    An open seat waits for a person to claim it; the first round starts when none is left.
    """

    name: str
    kind: SeatKind = "human"
    bot_level: str | None = None
