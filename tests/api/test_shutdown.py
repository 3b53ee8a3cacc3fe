"""The API's background tasks are stopped before its database engine is closed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from api.app import stop_tasks


async def _query_for_ever(engine: AsyncEngine) -> None:
    while True:
        async with engine.begin() as conn:
            await conn.execute(sa.text("insert into t values (1)"))


async def test_a_task_cancelled_mid_query_has_ended_before_the_engine_is_disposed(
    tmp_path: Path,
) -> None:
    # A task only cancelled (not awaited) and then left past ``dispose`` may wait for ever for
    # its aiosqlite connection: 2 runs in 30 in a probe, and a CI test client's exit hung 900 s.
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'busy.db'}")
    async with engine.begin() as conn:
        await conn.execute(sa.text("create table t (x int)"))
    tasks = [asyncio.create_task(_query_for_ever(engine), name=f"busy-{i}") for i in range(3)]
    await asyncio.sleep(0.05)  # each is somewhere inside a transaction
    await stop_tasks(*tasks, timeout=10)
    assert all(t.cancelled() for t in tasks)
    await engine.dispose()


async def test_a_task_that_will_not_stop_is_left_after_the_timeout_and_named(
    caplog: pytest.LogCaptureFixture,
) -> None:
    released = asyncio.Event()

    async def stubborn() -> None:
        while not released.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue  # swallows cancellation until released

    task = asyncio.create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    await stop_tasks(task, timeout=0.2)
    assert not task.done()
    assert "stubborn did not stop" in caplog.text
    released.set()
    task.cancel()
    await asyncio.wait([task], timeout=5)
    assert task.done()
