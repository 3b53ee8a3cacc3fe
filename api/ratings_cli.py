"""``cuccu ratings``: the ratings projection from the command line (api/store/players.py)."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any


async def _rebuild(args: argparse.Namespace) -> int:
    from api.cli import _settings
    from api.store import EventStore, create_engine
    from api.store.migrate import check_schema
    from api.store.players import PlayerStore

    engine = create_engine(_settings(args).database_url)
    try:
        await check_schema(engine)
        players = PlayerStore(engine, EventStore(engine).load)
        if args.ratings_command == "catch-up":
            taken = await players.catch_up()
            print(f"rated {taken} finished match(es) not rated yet")
        else:
            taken = await players.rebuild()
            print(f"rebuilt the ratings from the event log: {taken} finished match(es)")
        table = await players.all_ratings()
        for game in sorted(table):
            print(f"{game}: {len(table[game])} rated player(s)")
        return 0
    finally:
        await engine.dispose()


def cmd_ratings(args: argparse.Namespace) -> int:
    return asyncio.run(_rebuild(args))


def add_parser(sub: Any) -> None:
    ratings = sub.add_parser("ratings", help='player ratings (docs/API.md, "Ratings")')
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    ratings_sub.add_parser(
        "rebuild",
        help="make every rating again from the event log alone (the finished matches claimed "
        "as accounts, in the order they ended): the same numbers the API keeps",
    ).set_defaults(func=cmd_ratings)
    ratings_sub.add_parser(
        "catch-up", help="rate the finished matches not rated yet (the API does it as they end)"
    ).set_defaults(func=cmd_ratings)
