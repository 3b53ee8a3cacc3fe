"""The clock sweeper: every API process applies the timeouts that are due, whichever process
(or none) was serving the match when its deadline was set.

Deadlines are data: the match's log holds each one (``decision_opened``, ``domain.clock``) and
its ``matches`` row the one due next (``deadline``, written in the same commit), so a restart,
a killed replica or a second one loses no timeout: the next sweep of any live process finds
the row. Applying one twice is impossible: the timeout is appended at the version it was
decided on (the event store's optimistic lock), and a process that lost the race reloads and
finds nothing due (``MatchService.time_out``). On PostgreSQL each due match is also claimed
(``ClockStore.claimed``) so that two processes do not both do the work.

A sweeper does not poll: each sweep reads the due matches and the next deadline together
(``ClockStore.ahead``, one read of the deadline index) and sleeps until that deadline, and the
service wakes it (``note``) when this process stores an earlier one. A deadline stored by
another process is one it cannot hear of, so it never sleeps longer than MAX_SLEEP: such a
timeout lands at most that late (docs/API.md, "Clocks").
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging

from api.clock_time import as_datetime, as_ms, now_ms
from api.service import MatchService, ServiceError
from api.store.clocks import ClockStore
from domain.errors import DomainError

log = logging.getLogger("cuccu.clocks")

#: the longest a sweeper sleeps (seconds): deadlines set by another process (which this one
#: hears nothing of) are applied at most this late; its own deadlines wake it (``note``)
MAX_SLEEP = 2.0
#: the pause before looking again at a match that was due but not timed out by this sweep
#: (another process held it, or its timeout failed): its deadline has passed, so without a
#: pause the sweeper would look again at once, for ever
RETRY_DUE = 0.5
#: due matches handled per sweep (the rest at once, in the next one)
SWEEP_BATCH = 50


class ClockSweeper:
    def __init__(
        self, store: ClockStore, service: MatchService, max_sleep: float = MAX_SLEEP
    ) -> None:
        self.store = store
        self.service = service
        self.max_sleep = max_sleep
        #: when the sleeping sweeper means to wake (ms since the epoch; 0 while it sweeps)
        self._wake_at = 0
        self._woken = asyncio.Event()
        #: the earliest deadline noted since the last sweep began (a sweep may have read the
        #: deadlines before it was stored)
        self._noted: int | None = None

    def note(self, deadline: dt.datetime) -> None:
        """A deadline this process has just stored (``MatchService.on_deadline``): one
        earlier than the sweeper's planned wake-up brings the wake-up forward."""
        at = as_ms(deadline)
        self._noted = at if self._noted is None else min(self._noted, at)
        if at < self._wake_at:
            self._wake_at = at
            self._woken.set()

    async def sweep(self, at: int | None = None) -> int:
        """Apply every timeout due at ``at`` (ms; now by default); the number applied here."""
        return (await self._sweep(at))[0]

    async def _sweep(self, at: int | None = None) -> tuple[int, int | None]:
        """The timeouts applied, and when to look again (ms; None: no clock runs)."""
        at = now_ms() if at is None else at
        moment = as_datetime(at)
        assert moment is not None
        ahead = await self.store.ahead(moment, SWEEP_BATCH)
        applied = 0
        for match_id in ahead.due:
            async with self.store.claimed(match_id) as mine:
                if not mine:
                    continue  # another process is on it
                try:
                    played = await self.service.time_out(match_id, at)
                except (DomainError, ServiceError) as exc:
                    log.warning("timeout of match %s not applied: %s", match_id, exc)
                    continue
                if played is not None:
                    applied += 1
        if len(ahead.due) == SWEEP_BATCH:
            return applied, at  # more may be due: look again at once
        after = None if ahead.next is None else as_ms(ahead.next)
        if ahead.due and applied < len(ahead.due):
            # one was not timed out here: it may still be due when the next one is
            retry = at + int(RETRY_DUE * 1000)
            after = retry if after is None else min(after, retry)
        # each timeout applied opened a decision whose deadline the service noted (``note``)
        return applied, after

    async def run(self) -> None:
        """Sweep for ever (an API process's background task): sleep until the next deadline
        known, ``max_sleep`` at most, or until this process stores an earlier one."""
        while True:
            after: int | None = None
            self._wake_at, self._noted = 0, None
            try:
                _, after = await self._sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed; trying again")
                after = now_ms() + int(RETRY_DUE * 1000)
            await self._sleep(after)

    async def _sleep(self, until: int | None) -> None:
        """Sleep until ``until`` (ms; None: no deadline known), ``max_sleep`` at most, waking
        earlier if ``note`` brings the wake-up forward."""
        latest = now_ms() + int(self.max_sleep * 1000)
        known = [at for at in (until, self._noted) if at is not None]
        self._wake_at = min([*known, latest])
        while (left := self._wake_at - now_ms()) > 0:
            self._woken.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), left / 1000)
