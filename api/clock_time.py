"""The host's time for match clocks (``domain.clock``): milliseconds since the epoch, read
here and nowhere in the domain, and the datetime a deadline is stored and shown as."""

from __future__ import annotations

import datetime as dt
import time


def now_ms() -> int:
    """The time a command is stamped with (the wall clock: deadlines are absolute)."""
    return time.time_ns() // 1_000_000


def as_datetime(ms: int | None) -> dt.datetime | None:
    """A clock time (ms since the epoch) as an aware UTC datetime; None stays None."""
    if ms is None:
        return None
    return dt.datetime.fromtimestamp(ms / 1000, tz=dt.UTC)


def as_ms(moment: dt.datetime) -> int:
    """A stored deadline (an aware datetime) as a clock time, ms since the epoch."""
    return round(moment.timestamp() * 1000)
