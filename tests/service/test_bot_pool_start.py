"""The bot pool's worker processes start off the event loop: while the first expert table
waits for them, the process's other requests are served."""

from __future__ import annotations

import asyncio

from api.bots_pool import BotPool
from domain.games import CUCCU
from domain.games.cuccu.commands import CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.state import initial_state
from domain.seats import SeatSpec


def _expert_table() -> object:
    seats = (
        SeatSpec(name="Ann"),
        SeatSpec(name="Bo", kind="bot", bot_level="expert"),
        SeatSpec(name="Cy", kind="bot", bot_level="expert"),
    )
    state, _ = apply(initial_state(), CreateMatch(seats=seats, starting_lives=2, first_dealer=0))
    return state


async def test_other_work_runs_while_the_pool_starts() -> None:
    pool = BotPool(1)
    try:
        first = asyncio.create_task(pool.advance(_expert_table(), seed=7, game=CUCCU))
        await asyncio.sleep(0)  # the task's first step: it needs the pool, which is not there
        turns_while_starting = 0
        while not first.done():  # the loop turns: another request's work would run here
            turns_while_starting += pool._executor is None
            await asyncio.sleep(0)
        # the loop kept turning while the workers were starting (a start on the loop itself
        # would have created the pool within the task's first step)
        assert turns_while_starting > 0
        state, steps = first.result()
        assert pool.ready and steps
        # a second table arriving during a start waits for the same pool; none starts again
        executor = pool._executor
        await asyncio.gather(
            pool.advance(_expert_table(), 8, CUCCU), pool.advance(_expert_table(), 9, CUCCU)
        )
        assert pool._executor is executor
    finally:
        pool.close()


async def test_concurrent_first_tables_share_one_start() -> None:
    pool = BotPool(1)
    try:
        results = await asyncio.gather(*(pool.advance(_expert_table(), s, CUCCU) for s in range(3)))
        assert all(steps for _, steps in results)
        assert pool.ready
    finally:
        pool.close()
