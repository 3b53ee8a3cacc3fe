"""Live notification of new events.

Every commit publishes ``(match_id, version)`` in-process. On PostgreSQL the same
commit also sends ``NOTIFY cuccu_events, 'match_id:version'`` inside its transaction
(so it is delivered only if the commit succeeds), and each API process listens on
that channel, so streams in every process see every event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

CHANNEL = "cuccu_events"
log = logging.getLogger(__name__)


class Subscription:
    """A wake-up signal for one match; the subscriber re-reads the store when woken."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.latest = 0

    def _wake(self, version: int) -> None:
        self.latest = max(self.latest, version)
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """Wait until woken or ``timeout`` seconds pass; True when woken."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Notifier:
    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    @contextlib.contextmanager
    def subscribe(self, match_id: str) -> Iterator[Subscription]:
        sub = Subscription()
        self._subs.setdefault(match_id, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self._subs.get(match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[match_id]

    def publish(self, match_id: str, version: int) -> None:
        for sub in list(self._subs.get(match_id, ())):
            sub._wake(version)

    def publish_payload(self, payload: str) -> None:
        match_id, _, version = payload.rpartition(":")
        try:
            self.publish(match_id, int(version))
        except ValueError:
            log.warning("ignoring malformed notification %r", payload)


class PgListener:
    """Runs ``LISTEN cuccu_events`` on its own connection and feeds a :class:`Notifier`."""

    def __init__(self, conninfo: str, notifier: Notifier) -> None:
        self._conninfo = conninfo
        self._notifier = notifier
        self._task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="cuccu-pg-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        import psycopg

        delay = 0.5
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    delay = 0.5
                    async for note in conn.notifies():
                        self._notifier.publish_payload(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # reconnect: the database may restart
                self.ready.clear()
                log.warning("LISTEN connection lost (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
