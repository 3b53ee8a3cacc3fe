"""What the API shows of a match's clock (``domain.clock``): public to every seat and to
spectators, absolute times in RFC 3339 (UTC), reserves in seconds."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from api.clock_time import as_datetime
from domain.clock import MS, ClockSettings, clock_of


class AwaitingOut(msgspec.Struct):
    seat: Annotated[
        int | None, Meta(description="The seat that must answer; null: any seat (next round)")
    ]
    opened_at: Annotated[dt.datetime, Meta(description="When the decision became due")]
    reserve_from: Annotated[
        dt.datetime,
        Meta(description="When the decision's own time ends and the seat's reserve runs"),
    ]
    deadline: Annotated[
        dt.datetime,
        Meta(description="When the service plays the safe answer for the seat (`timeout`)"),
    ]


class ClockOut(msgspec.Struct):
    """A match's clock: its settings, the decision it awaits, each seat's reserve."""

    settings: ClockSettings
    awaiting: Annotated[
        AwaitingOut | None, Meta(description="The decision the clock runs for; null: none")
    ]
    reserves: Annotated[list[float], Meta(description="Each seat's reserve left, in seconds")]
    timeouts: Annotated[list[int], Meta(description="Each seat's timeouts in a row")]
    abandoned: Annotated[
        list[bool],
        Meta(description="Seats a bot plays after too many timeouts, until `resume`"),
    ]


ClockField = Annotated[
    ClockOut | None, Meta(description='The match\'s clock (docs/API.md, "Clocks"); null: none')
]


def clock_out(state: Any) -> ClockOut | None:
    """The clock of a match's state, or None when it has none."""
    clock = clock_of(state)
    if clock is None:
        return None
    awaiting = None
    if clock.awaiting is not None:
        a = clock.awaiting
        allowance = a.opened_at + clock.settings.per_decision * MS
        awaiting = AwaitingOut(
            seat=a.seat,
            opened_at=_at(a.opened_at),
            reserve_from=_at(min(allowance, a.deadline)),
            deadline=_at(a.deadline),
        )
    return ClockOut(
        settings=clock.settings,
        awaiting=awaiting,
        reserves=[r / MS for r in clock.reserves],
        timeouts=list(clock.timeouts),
        abandoned=list(clock.abandoned),
    )


def _at(ms: int) -> dt.datetime:
    at = as_datetime(ms)
    assert at is not None
    return at
