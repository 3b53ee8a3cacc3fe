"""What the ratings cost: the arithmetic alone, and a rebuild from a database's event log.

    python bench/ratings.py [--finishes 20000] [--matches 200] [--database-url URL]

1. **arithmetic**: ``api.ratings.replay`` over N synthetic finishes (2 to 4 accounts out of
   200, one of two games): finishes rated per second (OpenSkill's Plackett–Luce update).
2. **rebuild**: M real Cuccù matches (two accounts claim the open seats of a table with one
   random bot, and play them out with random choices, through ``MatchService``) on a fresh
   SQLite file (or the database of ``--database-url``, migrated first), then
   ``PlayerStore.rebuild()`` timed: matches per second, each read from its events, folded, ranked
   and rated. Also the cost of a match that ends with no account (the API's hook: one indexed
   read) and of ``catch_up()`` with nothing to do.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from api.ratings import Finish, replay


def arithmetic(n: int) -> float:
    rng = random.Random(1)
    players = [f"p{i}" for i in range(200)]
    t0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    finishes = []
    for i in range(n):
        seats = rng.sample(players, rng.randint(2, 4))
        ranks = tuple(rng.sample(range(len(seats)), len(seats)))
        game = rng.choice(["cuccu", "cucco21"])
        finishes.append(
            Finish(f"m{i}", game, t0 + dt.timedelta(seconds=i), dict(enumerate(seats)), ranks)
        )
    start = time.perf_counter()
    replay(finishes)
    return n / (time.perf_counter() - start)


async def rebuild(url: str, matches: int) -> None:
    from api.players import PlayerService
    from api.service import MatchService, NewSeat
    from api.store import EventStore, create_engine, upgrade_database
    from api.store.players import PlayerStore

    await upgrade_database(url)
    engine = create_engine(url)
    try:
        store = EventStore(engine)
        service = MatchService(store)
        players = PlayerService(PlayerStore(engine, store.load), service)
        accounts = [(await players.register(f"bench-{i}", "bot")).player for i in range(8)]
        rng = random.Random(2)
        for m in range(matches):
            seats = [
                NewSeat("open", "open"),
                NewSeat("open", "open"),
                NewSeat("Bo", "bot", "random"),
            ]
            created = await service.create(
                seats, seed=m, game="cuccu", options={"starting_lives": 1}
            )
            two = rng.sample(accounts, 2)
            for seat, account in enumerate(two):
                await players.claim(account, created.match_id, seat, account.name)
            while True:
                state = await service.state(created.match_id)
                decision = created.game.pending(state)
                if decision is None:
                    break
                seat = decision.seat if decision.seat is not None else 0
                choice = "next_round" if decision.seat is None else rng.choice(decision.choices)
                await service.command(created.match_id, seat, choice)
        plain = await service.create(
            [NewSeat("b0", "bot", "random"), NewSeat("b1", "bot", "random")], starting_lives=1
        )
        times = []
        for _ in range(5):
            start = time.perf_counter()
            taken = await players.store.rebuild()
            times.append(time.perf_counter() - start)
        best = min(times)
        print(
            f"rebuild: {taken} matches in {best * 1000:.0f} ms (best of 5, median "
            f"{statistics.median(times) * 1000:.0f} ms): {taken / best:,.0f} matches/s"
        )
        hook = []
        for _ in range(200):
            start = time.perf_counter()
            await players.store.catch_up(plain.match_id)
            hook.append(time.perf_counter() - start)
        print(
            f"a match that ends with no account: {statistics.median(hook) * 1e3:.2f} ms "
            "(median of 200 hook calls)"
        )
        idle = []
        for _ in range(20):
            start = time.perf_counter()
            await players.store.catch_up()
            idle.append(time.perf_counter() - start)
        print(
            f"catch_up() with nothing to do: {statistics.median(idle) * 1e3:.2f} ms (median of 20)"
        )
    finally:
        await engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--finishes", type=int, default=20_000)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    print(f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}")
    print(f"arithmetic: {arithmetic(args.finishes):,.0f} finishes/s ({args.finishes} finishes)")
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'ratings.db'}"
        asyncio.run(rebuild(url, args.matches))


if __name__ == "__main__":
    main()
