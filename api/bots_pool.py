"""Bot turns off the event loop: a pool of worker processes for the expensive tables.

An expert decision searches for 10-20 ms, and a match played by bots alone runs its whole
course in one command: on the event loop either would stall every other request of the
process. Tables with an expert bot, and tables where no human seat is left in play and the
bots' play to the end is long (the game's ``slow_bots``), run ``api.turns.advance`` in a worker
process. Other tables (random and basic bots decide in microseconds, and a short play-out takes
about a millisecond) run it in place: a round trip to a worker would cost more than the turns.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from api import metrics
from api.turns import Step, advance
from domain.games import Game


def _warm() -> None:
    """Run in each new worker: import the bots before the first table arrives."""
    import domain.games  # noqa: F401  (every game's package, its bots included)


def needs_worker(state: Any, game: Game) -> bool:
    """The bot turns after ``state`` may be long: an expert plays, or only bots are left and
    they have a long play-out ahead."""
    return game.slow_bots(state)


class BotPool:
    """``workers`` processes (0: every table in place, as a library user or a test may want).

    The processes start when the first long table arrives, and starting them (the forkserver
    imports the bots) takes 130-170 ms of the calling thread: that runs in a thread, so the
    event loop serves other requests meanwhile; tables that arrive during the start wait for it.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()

    @property
    def ready(self) -> bool:
        """The worker processes are running."""
        return self._executor is not None

    def _start(self) -> ProcessPoolExecutor:
        """A new pool, its first worker running (blocking: called in a thread)."""
        # forkserver, not fork: the API process has threads (aiosqlite, the loop's
        # executor), and forking a process with threads may copy a held lock
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["api.turns"])
        executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm)
        executor.submit(_warm).result()
        return executor

    async def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            async with self._starting:
                if self._executor is None:
                    self._executor = await asyncio.to_thread(self._start)
        return self._executor

    async def advance(self, state: Any, seed: int | None, game: Game) -> tuple[Any, list[Step]]:
        """``api.turns.advance(state, seed, game)``, in a worker when it may be long."""
        start = time.perf_counter()
        if self.workers <= 0 or not needs_worker(state, game):
            done = advance(state, seed, game)
            metrics.bot_turns("inline", time.perf_counter() - start)
            return done
        metrics.BOT_QUEUE.inc()
        try:
            return await self._in_pool(state, seed, game)
        finally:
            metrics.BOT_QUEUE.dec()
            metrics.bot_turns("pool", time.perf_counter() - start)

    async def _in_pool(self, state: Any, seed: int | None, game: Game) -> tuple[Any, list[Step]]:
        loop = asyncio.get_running_loop()
        executor = await self._pool()
        try:
            return await loop.run_in_executor(executor, advance, state, seed, game.name)
        except BrokenProcessPool:
            # a worker died (killed, out of memory): start a new pool (once, however many
            # tables found this one broken) and try once more
            if self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(await self._pool(), advance, state, seed, game.name)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
