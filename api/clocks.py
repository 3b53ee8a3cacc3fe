"""The clock sweeper: every API process applies the timeouts that are due, whichever process
(or none) was serving the match when its deadline was set.

Deadlines are data: the match's log holds each one (``decision_opened``, ``domain.clock``) and
its ``matches`` row the one due next (``deadline``, written in the same commit), so a restart,
a killed replica or a second one loses no timeout: the next sweep of any live process finds
the row. Applying one twice is impossible: the timeout is appended at the version it was
decided on (the event store's optimistic lock), and a process that lost the race reloads and
finds nothing due (``MatchService.time_out``). On PostgreSQL each due match is also claimed
(``ClockStore.claimed``) so that two processes do not both do the work.
"""

from __future__ import annotations

import asyncio
import logging

from api.clock_time import as_datetime, now_ms
from api.service import MatchService, ServiceError
from api.store.clocks import ClockStore
from domain.errors import DomainError

log = logging.getLogger("cuccu.clocks")

#: how often each process looks for due deadlines (seconds): a timeout lands at most this late
SWEEP_EVERY = 0.5
#: due matches handled per sweep (the rest wait for the next one)
SWEEP_BATCH = 50


class ClockSweeper:
    def __init__(self, store: ClockStore, service: MatchService) -> None:
        self.store = store
        self.service = service

    async def sweep(self, at: int | None = None) -> int:
        """Apply every timeout due at ``at`` (ms; now by default); the number applied here."""
        at = now_ms() if at is None else at
        moment = as_datetime(at)
        assert moment is not None
        applied = 0
        for match_id in await self.store.due(moment, SWEEP_BATCH):
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
        return applied

    async def run(self) -> None:
        """Sweep for ever (an API process's background task)."""
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed; trying again")
            await asyncio.sleep(SWEEP_EVERY)
