"""The ``cuccu`` command line: run, db upgrade, simulate, export, verify, openapi."""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import os
import sys
import time
from collections.abc import Sequence

from api.settings import Settings, normalize_database_url


def _settings(args: argparse.Namespace) -> Settings:
    settings = Settings.from_env()
    url = getattr(args, "database_url", None)
    if url:
        settings = dataclasses.replace(settings, database_url=normalize_database_url(url))
    return settings


async def _upgrade(url: str) -> str | None:
    from api.store import upgrade_database

    return await upgrade_database(url)


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    settings = _settings(args)
    revision = asyncio.run(_upgrade(settings.database_url))
    print(f"database schema is at revision {revision} ({_redacted(settings.database_url)})")
    return 0


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def cmd_run(args: argparse.Namespace) -> int:
    import uvicorn

    settings = _settings(args)
    host = args.host or settings.host
    port = args.port or settings.port
    if not args.no_migrate:
        asyncio.run(_upgrade(settings.database_url))
    os.environ["CUCCU_DATABASE_URL"] = settings.database_url
    print(f"cuccu: serving on http://{host}:{port} ({_redacted(settings.database_url)})")
    print(f"cuccu: API docs at http://{host}:{port}/schema")
    viewer = None
    if not args.no_viewer:
        from viewer.launch import start_viewer

        viewer = start_viewer(host, port, args.viewer_port)
    try:
        uvicorn.run(
            "api.app:create_app",
            factory=True,
            host=host,
            port=port,
            log_level=args.log_level,
            timeout_graceful_shutdown=5,
            workers=args.workers if args.workers > 1 else None,
        )
    finally:
        if viewer is not None:
            from viewer.launch import stop_viewer

            stop_viewer(viewer)
    return 0


async def _simulate(args: argparse.Namespace) -> int:
    from api.service import MatchService, advance
    from api.store import EventStore, check_schema, create_engine
    from domain import CreateMatch, SeatSpec, apply, initial_state

    seats = [SeatSpec(f"bot{i}", "bot", args.level) for i in range(args.seats)]
    wins: collections.Counter[int] = collections.Counter()
    rounds = events = 0
    store: EventStore | None = None
    if args.store:
        engine = create_engine(_settings(args).database_url)
        await check_schema(engine)
        store = EventStore(engine)
    start = time.perf_counter()
    try:
        for i in range(args.matches):
            seed = None if args.seed is None else args.seed + i
            if store is not None:
                created = await MatchService(store).create(seats, args.lives, seed, None)
                state = created.state
            else:
                state, _ = apply(
                    initial_state(),
                    CreateMatch(tuple(seats), args.lives, (seed or 0) % len(seats)),
                )
                state, _ = advance(state, seed)
            assert state.winner is not None
            wins[state.winner] += 1
            rounds += state.rounds_played
            events += state.version
            _progress(i + 1, args.matches)
    finally:
        if store is not None:
            await store.engine.dispose()
    elapsed = time.perf_counter() - start
    n = args.matches
    print(file=sys.stderr)
    print(f"{n} matches of {args.seats} '{args.level}' bots, {args.lives} lives, {elapsed:.2f}s")
    print(f"rounds per match: {rounds / n:.2f}   events per match: {events / n:.1f}")
    for seat in range(args.seats):
        print(f"  seat {seat}: {wins[seat]:5d} wins ({100 * wins[seat] / n:5.1f}%)")
    return 0


def _progress(done: int, total: int, width: int = 40) -> None:
    filled = width * done // total
    bar = "#" * filled + "-" * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total}")
    sys.stderr.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.matches < 1 or not 2 <= args.seats <= 20 or args.lives < 1:
        print("simulate: need --matches >= 1, 2 <= --seats <= 20, --lives >= 1", file=sys.stderr)
        return 2
    return asyncio.run(_simulate(args))


async def _export(args: argparse.Namespace) -> int:
    from api.controllers.matches import export_lines
    from api.store import EventStore, create_engine
    from api.store.migrate import check_schema

    engine = create_engine(_settings(args).database_url)
    try:
        await check_schema(engine)
        store = EventStore(engine)
        record = await store.get_match(args.match_id)
        if record is None:
            print(f"export: no match {args.match_id}", file=sys.stderr)
            return 1
        if record.status != "over" and not args.unfinished:
            print(
                f"export: match {args.match_id} is not over (use --unfinished to export anyway)",
                file=sys.stderr,
            )
            return 1
        sys.stdout.buffer.write(export_lines(await store.load(args.match_id)))
        sys.stdout.flush()
        return 0
    finally:
        await engine.dispose()


def cmd_export(args: argparse.Namespace) -> int:
    return asyncio.run(_export(args))


async def _load_records(match_id: str, args: argparse.Namespace) -> bytes | None:
    from api.controllers.matches import export_lines
    from api.store import EventStore, create_engine
    from api.store.migrate import check_schema

    engine = create_engine(_settings(args).database_url)
    try:
        await check_schema(engine)
        store = EventStore(engine)
        if await store.get_match(match_id) is None:
            return None
        return export_lines(await store.load(match_id))
    finally:
        await engine.dispose()


def cmd_verify(args: argparse.Namespace) -> int:
    """Audit a match (by id, from the database) or an NDJSON export file; non-zero on failure."""
    from pathlib import Path

    from domain.audit import AuditInputError, audit, parse_ndjson, render

    source = Path(args.target)
    if source.is_file():
        text = source.read_bytes()
    else:
        loaded = asyncio.run(_load_records(args.target, args))
        if loaded is None:
            print(f"verify: no file and no match {args.target!r}", file=sys.stderr)
            return 2
        text = loaded
    try:
        records = parse_ndjson(text)
    except AuditInputError as exc:
        print(f"verify: unreadable export, {exc}", file=sys.stderr)
        return 2
    report = audit(records)
    print(render(report))
    return 0 if report.ok else 1


def openapi_json() -> str:
    """The OpenAPI document the API serves at /schema/openapi.json, as committed in docs/."""
    import json

    from api.app import create_app

    document = create_app(Settings()).openapi_schema.to_schema()
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def cmd_openapi(args: argparse.Namespace) -> int:
    """Print the OpenAPI document (no database needed): ``cuccu openapi > docs/openapi.json``."""
    sys.stdout.write(openapi_json())
    sys.stdout.flush()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cuccu", description="The Cuccù match service")
    parser.add_argument(
        "--database-url",
        help="database URL (default: $CUCCU_DATABASE_URL, else sqlite ./cuccu.db)",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="migrate the database, then serve the API")
    run.add_argument("--host", help="bind address (default: $CUCCU_HOST or 127.0.0.1)")
    run.add_argument("--port", type=int, help="port (default: $CUCCU_PORT or 8000)")
    run.add_argument("--no-migrate", action="store_true", help="do not migrate first")
    run.add_argument("--log-level", default="info")
    run.add_argument("--no-viewer", action="store_true", help="serve the API only")
    run.add_argument(
        "--workers",
        type=int,
        default=1,
        help="API processes on the one port (PostgreSQL only: each process has its own "
        "caches, kept consistent by the store's version lock and LISTEN/NOTIFY)",
    )
    run.add_argument(
        "--viewer-port", type=int, default=8501, help="port of the viewer started beside the API"
    )
    run.set_defaults(func=cmd_run)

    db = sub.add_parser("db", help="database schema")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    up = db_sub.add_parser("upgrade", help="migrate the schema to the latest revision")
    up.set_defaults(func=cmd_db_upgrade)

    sim = sub.add_parser("simulate", help="play bot-only matches and summarize them")
    sim.add_argument("--matches", "-n", type=int, default=100)
    sim.add_argument("--seats", type=int, default=4)
    sim.add_argument("--lives", type=int, default=3)
    sim.add_argument("--level", choices=["random", "basic"], default="basic")
    sim.add_argument("--seed", type=int, help="first seed (match i uses seed + i)")
    sim.add_argument(
        "--store", action="store_true", help="store the matches in the database (else in memory)"
    )
    sim.set_defaults(func=cmd_simulate)

    exp = sub.add_parser("export", help="print a finished match's complete log as NDJSON")
    exp.add_argument("match_id")
    exp.add_argument("--unfinished", action="store_true", help="export a match still running")
    exp.set_defaults(func=cmd_export)

    ver = sub.add_parser(
        "verify", help="audit a match's complete log: hash chain, shuffles, replay, cards, lives"
    )
    ver.add_argument("target", metavar="MATCH_ID|FILE.ndjson", help="a match id or an export")
    ver.set_defaults(func=cmd_verify)

    oas = sub.add_parser(
        "openapi", help="print the OpenAPI document the API serves (docs/openapi.json)"
    )
    oas.set_defaults(func=cmd_openapi)

    from api.tournament import add_parser as add_tournament_parser

    add_tournament_parser(sub)  # cuccu tournament: seeded bot-only matches, in memory
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from sqlalchemy.exc import DBAPIError

    from api.settings import SettingError
    from api.store.events import StoreUnavailable
    from api.store.migrate import SchemaOutOfDate

    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except (SchemaOutOfDate, StoreUnavailable, OSError, SettingError) as exc:
        # a wrong or unmigrated database is the user's to fix: say how, without a traceback
        print(f"cuccu {args.command}: {exc}", file=sys.stderr)
        return 2
    except DBAPIError as exc:
        print(f"cuccu {args.command}: the database refused: {exc.orig}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    raise SystemExit(main())
