"""The ``cuccu`` command line: run, db upgrade, simulate, export, verify, keys, openapi."""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import os
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from api.settings import Settings, normalize_database_url

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncEngine

    from api.keys import KeyRing
    from api.store import EventStore
    from api.store.seals import Sealer
    from api.transparency.note import Checkpoint, NoteVerifier


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
    import logging.config
    import shutil
    import tempfile

    import uvicorn

    from api.logs import log_config, say, wants_json

    settings = _settings(args)
    host = args.host or settings.host
    port = args.port or settings.port
    # every process's log lines, this one's included: JSON or text (api/logs.py)
    logging_config = log_config(settings.log_format, args.log_level)
    logging.config.dictConfig(logging_config)
    as_json = wants_json(settings.log_format)
    if not args.no_migrate:
        asyncio.run(_upgrade(settings.database_url))
    os.environ["CUCCU_DATABASE_URL"] = settings.database_url
    # N processes: prometheus_client's multiprocess mode, each process's values in files of
    # a directory made for this run (unless given), summed by whichever answers /metrics
    metrics_dir = None
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        metrics_dir = tempfile.mkdtemp(prefix="cuccu-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    where = _redacted(settings.database_url)
    say(f"cuccu: serving on http://{host}:{port} ({where})", json=as_json)
    say(f"cuccu: API docs at http://{host}:{port}/schema", json=as_json)
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
            log_config=logging_config,
            access_log=False,  # each request's line is the service's own (api/observe.py)
            timeout_graceful_shutdown=5,
            workers=args.workers if args.workers > 1 else None,
        )
    finally:
        if viewer is not None:
            from viewer.launch import stop_viewer

            stop_viewer(viewer)
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


async def _simulate(args: argparse.Namespace) -> int:
    from api.service import MatchService, advance
    from api.store import EventStore, check_schema, create_engine
    from domain.games import by_name
    from domain.seats import SeatSpec

    game = by_name(args.game)
    options = _simulated_options(args)
    seats = [SeatSpec(f"bot{i}", "bot", args.level) for i in range(args.seats)]
    wins: collections.Counter[int] = collections.Counter()
    rounds = events = 0
    store: EventStore | None = None
    sealer: Sealer | None = None
    if args.store:
        settings = _settings(args)
        engine = create_engine(settings.database_url)
        await check_schema(engine)
        store = EventStore(engine)
        sealer = _sealer(settings, engine, create=True)  # signed as the service signs
    start = time.perf_counter()
    try:
        for i in range(args.matches):
            seed = None if args.seed is None else args.seed + i
            if store is not None:
                service = MatchService(store, sealer=sealer)
                created = await service.create(seats, seed=seed, game=game.name, options=options)
                state = created.state
            else:
                create = game.create_command(tuple(seats), (seed or 0) % len(seats), options)
                state, _ = game.apply(game.initial(), create)
                state, _ = advance(state, seed, game)
            standing = game.summary(state)
            wins.update(standing.winners)
            rounds += standing.rounds
            events += standing.version
            _progress(i + 1, args.matches)
    finally:
        if store is not None:
            await store.engine.dispose()
    elapsed = time.perf_counter() - start
    n = args.matches
    print(file=sys.stderr)
    given = ", ".join(f"{name} {value}" for name, value in options.items())
    bots = f"{args.seats} '{args.level}' bots"
    print(f"{n} matches of {bots} ({game.title}: {given}), {elapsed:.2f}s")
    print(f"rounds per match: {rounds / n:.2f}   events per match: {events / n:.1f}")
    for seat in range(args.seats):
        print(f"  seat {seat}: {wins[seat]:5d} wins ({100 * wins[seat] / n:5.1f}%)")
    return 0


def _progress(done: int, total: int, width: int = 40) -> None:
    filled = width * done // total
    bar = "#" * filled + "-" * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total}")
    sys.stderr.flush()


def _simulated_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options, ``--lives`` as its ``starting_lives`` when given."""
    from domain.games import by_name

    options = dict(by_name(args.game).options)
    if args.lives is not None:
        options["starting_lives"] = args.lives
    return options


def cmd_simulate(args: argparse.Namespace) -> int:
    from domain.games import by_name

    game = by_name(args.game)
    low, high = game.min_seats, game.max_seats
    if args.lives is not None and "starting_lives" not in game.options:
        print(f"simulate: {game.name} has no lives (its options: {', '.join(game.options)})",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.matches < 1 or not low <= args.seats <= high or (args.lives or 1) < 1:
        print(f"simulate: need --matches >= 1, {low} <= --seats <= {high}, --lives >= 1",
              file=sys.stderr)  # fmt: skip
        return 2
    return asyncio.run(_simulate(args))


def _sealer(settings: Settings, engine: AsyncEngine, *, create: bool) -> Sealer | None:
    """The service's sealer, found through the same settings as the service (``create``: make
    the embedded default's key on first use, as the service does)."""
    from api.keystore import key_store
    from api.store.seals import Sealer

    store = key_store(settings)
    signer = store.load(create=create) if store is not None else None
    if store is None or signer is None:
        return None
    return Sealer(engine, signer, store.ring())


async def _export_bytes(
    store: EventStore,
    match_id: str,
    settings: Settings,
    *,
    signing: bool,
    log_size: int | None = None,
) -> bytes | None:
    """The export of a match as the API serves it; None if there is no such match.

    ``signing`` (``cuccu export``, like the API) seals a match that ended before signatures
    existed; ``cuccu verify`` only reads, and signs nothing. ``log_size``: the inclusion proof
    relative to the log's tree of that size (a checkpoint the verifier trusts), not to now.
    """
    from api.export import sealed_export
    from api.transparency.keys import log_signer
    from api.transparency.store import ResultLog

    record = await store.get_match(match_id)
    if record is None:
        return None
    stored = await store.load(match_id)
    sealer = _sealer(settings, store.engine, create=signing)
    signer = log_signer(settings, create=signing) if sealer is not None else None
    result_log = ResultLog(store.engine, signer) if signer else None
    over = record.status == "over"
    return await sealed_export(
        match_id,
        stored,
        sealer,
        over=over,
        sign_legacy=signing,
        result_log=result_log,
        log_size=log_size,
    )


async def _export(args: argparse.Namespace) -> int:
    from api.store import EventStore, create_engine
    from api.store.migrate import check_schema

    settings = _settings(args)
    engine = create_engine(settings.database_url)
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
        exported = await _export_bytes(store, args.match_id, settings, signing=True)
        sys.stdout.buffer.write(exported or b"")
        sys.stdout.flush()
        return 0
    finally:
        await engine.dispose()


def cmd_export(args: argparse.Namespace) -> int:
    return asyncio.run(_export(args))


async def _load_export(
    match_id: str, args: argparse.Namespace, log_size: int | None = None
) -> bytes | None:
    from api.store import EventStore, create_engine
    from api.store.migrate import check_schema

    settings = _settings(args)
    engine = create_engine(settings.database_url)
    try:
        await check_schema(engine)
        store = EventStore(engine)
        return await _export_bytes(store, match_id, settings, signing=False, log_size=log_size)
    finally:
        await engine.dispose()


def _log_key(args: argparse.Namespace) -> NoteVerifier | None:
    """The log key ``verify`` and ``witness`` trust: ``--log-key`` (a verifier key, or a file
    holding one), else the service's own log key (same settings as the service)."""
    from pathlib import Path

    from api.transparency.keys import log_signer
    from api.transparency.note import NoteVerifier

    given = getattr(args, "log_key", None)
    if given:
        path = Path(given)
        return NoteVerifier.parse(path.read_text(encoding="utf-8") if path.is_file() else given)
    signer = log_signer(_settings(args), create=False)
    return signer.verifier if signer is not None else None


def _trusted_checkpoint(
    args: argparse.Namespace, verifier: NoteVerifier | None
) -> Checkpoint | None:
    """``--checkpoint FILE``: a signed checkpoint the verifier trusts (a witness's)."""
    from pathlib import Path

    from api.transparency.note import NoteError, open_checkpoint

    if not args.checkpoint:
        return None
    if verifier is None:
        raise NoteError("--checkpoint needs the log key (--log-key) to check its signature")
    return open_checkpoint(Path(args.checkpoint).read_text(encoding="utf-8"), verifier)


def _trusted_keys(args: argparse.Namespace) -> KeyRing:
    """The keys ``verify`` trusts: the service's key ring (same settings as the service) and
    every ``--trusted-key``. Never the keys inside the export being checked."""
    from api.keys import KeyRing, read_trusted_key
    from api.keystore import key_store

    store = key_store(_settings(args))
    ring = store.ring() if store is not None else KeyRing()
    for source in args.trusted_key:
        ring = ring.merged(read_trusted_key(source))
    return ring


def cmd_verify(args: argparse.Namespace) -> int:
    """Audit a match (by id, from the database) or an NDJSON export file, and check its
    signature against trusted keys; non-zero on any failure."""
    from pathlib import Path

    from api.keys import BadKey
    from api.signing import check_seal
    from api.transparency.note import NoteError
    from api.transparency.verify import check_inclusion
    from domain.audit import AuditInputError, audit, parse_export, render

    try:
        log_key = _log_key(args)
        trusted_checkpoint = _trusted_checkpoint(args, log_key)
    except (NoteError, OSError) as exc:
        print(f"verify: unreadable log key or checkpoint, {exc}", file=sys.stderr)
        return 2
    source = Path(args.target)
    if source.is_file():
        text = source.read_bytes()
    else:
        at = trusted_checkpoint.size if trusted_checkpoint is not None else None
        loaded = asyncio.run(_load_export(args.target, args, at))
        if loaded is None:
            print(f"verify: no file and no match {args.target!r}", file=sys.stderr)
            return 2
        text = loaded
    try:
        exported = parse_export(text)
        trusted = _trusted_keys(args)
    except AuditInputError as exc:
        print(f"verify: unreadable export, {exc}", file=sys.stderr)
        return 2
    except BadKey as exc:
        print(f"verify: unreadable key, {exc}", file=sys.stderr)
        return 2
    report = audit(exported.records)
    sealed = check_seal(report, exported.seal, exported.keys, trusted)
    print(render(report))
    if sealed.ok:
        print(f"PASS signature: {sealed.detail}")
    elif sealed.status == "unsigned" and args.allow_unsigned:
        print(f"UNSIGNED: {sealed.detail} (allowed by --allow-unsigned)")
    else:
        print(f"FAIL signature: {sealed.detail}")
    logged = check_inclusion(exported.seal, exported.log, log_key, trusted_checkpoint)
    unproven = logged.status in ("not-in-log", "untrusted")
    log_ok = logged.ok or (unproven and not args.require_log)
    if logged.ok:
        print(f"PASS log: {logged.detail}")
    elif log_ok and logged.status == "not-in-log":
        print(f"not in the log: {logged.detail} (a match sealed before the log, or not yet")
        print("  appended; --require-log makes this a failure)")
    elif log_ok:
        print(f"log not checked: {logged.detail}")
    else:
        print(f"FAIL log: {logged.detail}")
    if report.envelope == 1:
        print("note: legacy records (before schema revision 0002) hash the event only")
    passed = report.ok and (sealed.ok or (sealed.status == "unsigned" and args.allow_unsigned))
    passed = passed and log_ok
    print("verify passed" if passed else "verify FAILED")
    return 0 if passed else 1


def cmd_keys(args: argparse.Namespace) -> int:
    """Make the service's signing key, show its key ring, or rotate the active key."""
    import json

    from api.keys import BadKey
    from api.keystore import key_store
    from api.transparency.keys import log_key_store
    from api.transparency.note import NoteSigner

    store = key_store(_settings(args))
    if store is None:
        print("keys: signing is off for this database: set CUCCU_SIGNING_KEY", file=sys.stderr)
        return 2
    try:
        if args.keys_command == "init":
            # the one place meant to make a key (a deployment's one-shot step, before any API
            # process starts): an existing key, or one made meanwhile by another process, is kept
            signer, created = store.init()
            made = "made" if created else "already there, kept"
            print(f"key {signer.key_id} active ({store.key_path}: {made})")
            # and the transparency log's own key beside it (api/transparency/keys.py)
            settings = _settings(args)
            log_store = log_key_store(settings)
            assert log_store is not None  # beside the signing key, which exists
            log_key, log_created = log_store.init()
            made = "made" if log_created else "already there, kept"
            verifier = NoteSigner(settings.log_origin, log_key.private).verifier.text()
            print(f"log key {verifier} ({log_store.key_path}: {made})")
            return 0
        if args.keys_command == "rotate":
            old = store.load(create=False)
            new = store.rotate()
            retired = f"key {old.key_id} retired, " if old is not None else ""
            print(f"{retired}key {new.key_id} active ({store.key_path}); restart the service")
            return 0
        store.load(create=True)
        print(json.dumps(store.ring().document(), indent=2))
    except BadKey as exc:
        print(f"keys: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_witness(args: argparse.Namespace) -> int:
    """Visit a log: non-zero when it dropped, reordered or rewrote a leaf, or changed key."""
    from pathlib import Path

    from api.transparency.witness import WitnessError, visit

    try:
        print(visit(args.url, Path(args.state), pin=args.log_key))
    except WitnessError as exc:
        print(f"witness: FAIL {exc}", file=sys.stderr)
        return 1
    return 0


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
    from domain.games import DEFAULT_GAME, GAMES

    parser = argparse.ArgumentParser(
        prog="cuccu",
        description="The match service of the cuckoo family of card games "
        f"({', '.join(game.title for game in GAMES.values())})",
    )
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
        "caches, kept consistent by the store's version lock and LISTEN/NOTIFY; /metrics "
        "sums them, through $PROMETHEUS_MULTIPROC_DIR or a temporary directory)",
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
    sim.add_argument("--game", choices=tuple(GAMES), default=DEFAULT_GAME)
    sim.add_argument("--matches", "-n", type=int, default=100)
    sim.add_argument("--seats", type=int, default=4)
    sim.add_argument(
        "--lives", type=int, help="lives per seat, in a game with lives (default: the game's)"
    )
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
        "verify",
        help="audit a finished match of either game from its complete log: hash chain, "
        "shuffle or deck commitments, replay through the rules, the game's own checks, signature",
    )
    ver.add_argument("target", metavar="MATCH_ID|FILE.ndjson", help="a match id or an export")
    ver.add_argument(
        "--trusted-key",
        action="append",
        default=[],
        metavar="KEY",
        help="also trust this key: a key document or JWK file (as served at "
        "/.well-known/cuccu-keys.json) or a base64url Ed25519 public key; repeatable",
    )
    ver.add_argument(
        "--allow-unsigned",
        action="store_true",
        help="pass an unsigned log whose audit passes (logs from before signatures)",
    )
    ver.add_argument(
        "--log-key",
        metavar="KEY|FILE",
        help="the transparency log's verifier key (as served at /log/key) or a file holding "
        "it (default: the service's own log key, same settings as the service)",
    )
    ver.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="a signed checkpoint you trust (a witness's): the match must be in that tree",
    )
    ver.add_argument(
        "--require-log",
        action="store_true",
        help="fail a match that is not in the transparency log (default: report it only)",
    )
    ver.set_defaults(func=cmd_verify)

    wit = sub.add_parser(
        "witness",
        help="check a service's transparency log: each new checkpoint must be signed by the "
        "pinned log key and consistent with the last one seen (docs/API.md)",
    )
    wit.add_argument("url", help="the service's base URL (its /log/checkpoint is fetched)")
    wit.add_argument(
        "--state",
        required=True,
        metavar="DIR",
        help="where the witness keeps the pinned log key and the last checkpoint it saw",
    )
    wit.add_argument(
        "--log-key",
        metavar="KEY|FILE",
        help="the log key to pin on the first visit (default: trust what /log/key serves then)",
    )
    wit.set_defaults(func=cmd_witness)

    keys = sub.add_parser("keys", help="the service's signing keys (see docs/API.md)")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    keys_sub.add_parser(
        "init",
        help="make the signing key if there is none (idempotent: an existing key is kept); "
        "run it once before the API processes start",
    ).set_defaults(func=cmd_keys)
    keys_sub.add_parser("show", help="print the key ring (made on first use)").set_defaults(
        func=cmd_keys
    )
    keys_sub.add_parser(
        "rotate", help="retire the active key (kept for verifying) and make a new one"
    ).set_defaults(func=cmd_keys)

    oas = sub.add_parser(
        "openapi", help="print the OpenAPI document the API serves (docs/openapi.json)"
    )
    oas.set_defaults(func=cmd_openapi)

    from api.tournament import add_parser as add_tournament_parser

    add_tournament_parser(sub)  # cuccu tournament: seeded bot-only matches, in memory
    from api.ratings_cli import add_parser as add_ratings_parser

    add_ratings_parser(sub)  # cuccu ratings rebuild / catch-up
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from sqlalchemy.exc import DBAPIError

    from api.settings import SettingError
    from api.store.migrate import SchemaOutOfDate
    from api.store.records import StoreUnavailable

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
