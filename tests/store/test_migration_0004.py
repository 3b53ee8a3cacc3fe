"""Migration 0004: matches name their game; old Cuccù matches list as they did."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from api.controllers.matches import summarize
from api.store import EventStore, MatchSummary, create_engine
from api.store.migrate import upgrade


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    try:
        yield eng
    finally:
        await eng.dispose()


async def test_old_cuccu_matches_get_their_game_and_list_as_before(engine: AsyncEngine) -> None:
    await upgrade(engine, "0003")
    stamp = dt.datetime(2026, 11, 30, tzinfo=dt.UTC)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "bot", "bot_level": "basic"}]
    async with engine.begin() as conn:
        for mid, status, lives, winner, minute in (
            ("over", "over", [2, 0], 0, 1),
            ("playing", "in_round", [1, 3], None, 2),
        ):
            await conn.execute(
                sa.text(
                    "INSERT INTO matches (id, status, created_at, updated_at, seats,"
                    " starting_lives, lives, winner, rounds, version, seed) VALUES (:id, :s, :t,"
                    " :t, :seats, 3, :lives, :w, 4, 40, NULL)"
                ),
                {
                    "id": mid, "s": status, "t": stamp + dt.timedelta(minutes=minute),
                    "seats": json.dumps(seats), "lives": json.dumps(lives), "w": winner,
                },
            )  # fmt: skip
    await upgrade(engine)
    store = EventStore(engine)
    try:
        rows = {r.id: r for r in await store.list_matches()}
        over, playing = rows["over"], rows["playing"]
        assert (over.game, over.options, over.standing, over.winners) == (
            "cuccu", {"starting_lives": 3}, [2, 0], [0],
        )  # fmt: skip
        assert (playing.standing, playing.winners) == ([1, 3], [])
        listed = summarize(over)  # as GET /matches shows it: as before 0004, plus the new fields
        assert (listed.starting_lives, listed.winner, listed.game) == (3, 0, "cuccu")
        assert [s.lives for s in listed.seats] == [2, 0]
        assert [s.chips for s in listed.seats] == [None, None]
        # a match in progress goes on: the generic columns move, the old ones mirror them
        await store.commit(
            "playing",
            expected_version=40,
            prev_hash="0" * 64,
            events=[],
            summary=MatchSummary("over", [0, 3], [1], 5, 40),
        )
        async with engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.text(
                        "SELECT lives, winner, standing, winners FROM matches WHERE id = 'playing'"
                    )
                )
            ).one()
        decoded = [json.loads(v) if isinstance(v, str) else v for v in row]
        assert decoded == [[0, 3], 1, [0, 3], [1]]
    finally:
        await store.close()
