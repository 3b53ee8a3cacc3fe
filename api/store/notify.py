"""Live notification of new events.

Every commit publishes ``(match_id, version)`` in-process. On PostgreSQL the same
commit also sends ``NOTIFY cuccu_events, 'match_id:version'`` inside its transaction
(so it is delivered only if the commit succeeds), and each API process listens on
that channel while it has live-stream subscribers, so streams in every process see every
event. A process with no subscriber does not listen: receiving every commit's notification
cost it about 4 % of its CPU (docs/LOAD.md, section 14f). Its listener starts with the first
subscriber, and a subscriber waits until the process listens (:meth:`Notifier.listening`)
before it reads what it has missed, so nothing committed after that read goes unheard; the
connection is closed :data:`LINGER` seconds after the last subscriber left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

CHANNEL = "cuccu_events"
#: seconds the LISTEN connection stays open after the last subscriber left (a reconnecting
#: stream, or the next page's, finds it still listening)
LINGER = 30.0
#: seconds a new subscriber waits for the LISTEN connection before its catch-up read: beyond
#: that (the database is down, say), the stream goes on and its keep-alive re-reads catch up
LISTEN_WAIT = 5.0
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
        self._count = 0
        #: the LISTEN connection of this process (PostgreSQL), run while anyone subscribes
        self.listener: PgListener | None = None

    @contextlib.contextmanager
    def subscribe(self, match_id: str) -> Iterator[Subscription]:
        """Wake-ups for ``match_id``; on PostgreSQL the first subscriber starts the process's
        LISTEN connection: await :meth:`listening` before reading what was missed."""
        sub = Subscription()
        self._subs.setdefault(match_id, set()).add(sub)
        self._count += 1
        if self.listener is not None:
            self.listener.demand()
        try:
            yield sub
        finally:
            self._count -= 1
            subs = self._subs.get(match_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[match_id]
            if self._count == 0 and self.listener is not None:
                self.listener.idle()

    async def listening(self, timeout: float = LISTEN_WAIT) -> bool:
        """Return once this process hears other processes' commits (at once without a
        listener: SQLite, or one process), or after ``timeout`` seconds; True when it does."""
        if self.listener is None:
            return True
        return await self.listener.wait_ready(timeout)

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
    """Runs ``LISTEN cuccu_events`` on its own connection and feeds a :class:`Notifier`.

    With ``lazy`` it attaches itself to the notifier and runs only while the notifier has
    subscribers (and :data:`LINGER` seconds after); :meth:`start` runs it at once.
    """

    def __init__(
        self, conninfo: str, notifier: Notifier, *, lazy: bool = False, linger: float = LINGER
    ) -> None:
        self._conninfo = conninfo
        self._notifier = notifier
        self._task: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        self._linger = linger
        self._idle: asyncio.TimerHandle | None = None
        self.ready = asyncio.Event()
        #: set once a connection attempt has ended, in success or failure (a subscriber of a
        #: process whose database is down does not wait for a LISTEN that cannot come)
        self._tried = asyncio.Event()
        #: connections opened so far (a test reads it)
        self.connections = 0
        if lazy:
            notifier.listener = self

    @property
    def running(self) -> bool:
        return self._task is not None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="cuccu-pg-listener")

    def demand(self) -> None:
        """A subscriber came: listen (again), and forget any pending close."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self.start()

    def idle(self) -> None:
        """The last subscriber left: close the connection :data:`LINGER` seconds from now,
        unless another one comes meanwhile."""
        if self._task is not None and self._idle is None:
            self._idle = asyncio.get_running_loop().call_later(self._linger, self._close)

    def _close(self) -> None:
        self._idle = None
        task, self._task = self._task, None
        self.ready.clear()
        self._tried.clear()
        if task is not None:
            task.cancel()
            self._closing.add(task)  # referenced until it has closed its connection
            task.add_done_callback(self._closing.discard)

    async def wait_ready(self, timeout: float) -> bool:
        """Wait until the connection listens, at most ``timeout`` seconds, or until an
        attempt to connect has failed; True when it listens."""
        if not self._tried.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tried.wait(), timeout)
        return self.ready.is_set()

    async def stop(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        task, self._task = self._task, None
        self.ready.clear()
        self._tried.clear()
        for t in [*([task] if task is not None else []), *self._closing]:
            t.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def _run(self) -> None:
        import psycopg

        delay = 0.5
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
                self.connections += 1
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    self._tried.set()
                    delay = 0.5
                    async for note in conn.notifies():
                        self._notifier.publish_payload(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # reconnect: the database may restart
                self.ready.clear()
                self._tried.set()
                log.warning("LISTEN connection lost (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)
