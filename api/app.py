"""The Litestar application factory."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import msgspec
from litestar import Litestar, Request
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import RedocRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Components, Schema, SecurityScheme, Tag
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

from api.bodies import body_check, members
from api.bots_pool import BotPool
from api.clocks import ClockSweeper
from api.controllers.commitments import CommitmentsController
from api.controllers.health import HealthController
from api.controllers.keys import KeysController
from api.controllers.log import LogController
from api.controllers.matches import MatchController
from api.controllers.players import LeaderboardController, PlayersController
from api.controllers.queue import QueueController
from api.faults import arm as arm_crash_points
from api.keystore import key_store
from api.metrics import multiprocess
from api.observe import PROMETHEUS, MetricsController, watch_requests
from api.players import PlayerService
from api.precommitments import Precommitments
from api.problems import EXCEPTION_HANDLERS, ProblemError
from api.queue import QueueService
from api.ratelimit import rate_limit_middleware
from api.runtime import tune_gc
from api.service import MatchService
from api.settings import Settings
from api.store import (
    EventStore,
    Notifier,
    PgListener,
    SchemaOutOfDate,
    check_schema,
    create_engine,
)
from api.store.db import engine_options, libpq_conninfo
from api.tracing import name_span_by_route, tracer_provider_from_env, tracing_plugin

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
from api.store.clocks import ClockStore
from api.store.players import PlayerStore
from api.store.precommitments import PrecommitmentStore
from api.store.queue import QueueStore
from api.store.seals import Sealer
from api.transparency.keys import log_signer
from api.transparency.store import ResultLog
from domain.games import GAMES

log = logging.getLogger("cuccu")

#: the API's version (semantic versioning; see "Versioning" in docs/API.md)
API_VERSION = "0.11.0"

#: the games this service hosts, as the API's description names them (from the registry)
HOSTED_GAMES = ", ".join(f"{game.title} (`{game.name}`)" for game in GAMES.values())

DESCRIPTION = (
    f"Play the cuckoo family of card games over HTTP: {HOSTED_GAMES}. "
    + """\
Create a match (`POST /matches`) with human, bot and open seats; each
human seat gets a secret token, sent as `Authorization: Bearer <token>`, and an open seat gets
its token when someone claims it (`POST /matches/{id}/seats/{seat}/claim`; the lobby is
`GET /matches?open_seats=true`). Read your view (`GET /matches/{id}`), answer the pending
decision (`POST /matches/{id}/commands`), follow the match live (`GET /matches/{id}/stream`),
and export the complete log of a finished match, hash-chained and signed by the service (its
public keys: `GET /.well-known/cuccu-keys.json`). Every signed result is appended to a public
append-only log (`GET /log/checkpoint`, RFC 9162 proofs under `/log/proof/`).

Player accounts are optional: `POST /players` answers with an API key (shown once) that claims
open seats as the account (`Authorization: Bearer <key>` on the claim); finished matches between
accounts are rated per game (OpenSkill), `GET /leaderboard?game=…`.

Every error is an RFC 9457 `application/problem+json` document with a stable `type`.

Limits: a request body larger than `CUCCU_MAX_BODY_BYTES` (default 16384 bytes) is refused
with 413. Each seat token may send `CUCCU_RATE_LIMIT` requests per second (default 100, in
bursts of up to `CUCCU_RATE_BURST`, default 200) to each API process; beyond that the answer
is 429 with a `Retry-After` header (seconds). `/health`, `/ready` and `/schema` are not limited.
The guide, with curl examples and the compatibility policy, is `docs/API.md` in the repository.
"""
)


def _provide_store(state: State) -> EventStore:
    store: EventStore = state.store
    return store


def start_signing(settings: Settings, engine: AsyncEngine) -> Sealer | None:
    """The sealer of finished matches, with the key from the settings (made if missing)."""
    store = key_store(settings)
    if store is None:
        log.warning("signing is off: set CUCCU_SIGNING_KEY to sign finished matches (docs/API.md)")
        return None
    signer = store.load(create=True)
    assert signer is not None
    log.info("signing finished matches with key %s (%s)", signer.key_id, store.key_path)
    return Sealer(engine, signer, store.ring())


def start_log(settings: Settings, engine: AsyncEngine) -> ResultLog | None:
    """The transparency log of signed results, with its own key beside the signing key."""
    signer = log_signer(settings, create=True)
    if signer is None:
        return None
    key = f"{signer.name}+{signer.verifier.key_hash.hex()}"
    log.info("transparency log %s, checkpoints signed by key %s", signer.name, key)
    return ResultLog(engine, signer)


async def stop_tasks(*tasks: asyncio.Task[Any], timeout: float = 10.0) -> None:
    """Cancel background tasks and wait until they have ended, ``timeout`` seconds at most
    (a task still running then is logged by name and left)."""
    for task in tasks:
        task.cancel()
    _, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        log.error("background task %s did not stop within %.0f s", task.get_name(), timeout)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())


def create_app(
    settings: Settings | None = None, tracer_provider: TracerProvider | None = None
) -> Litestar:
    """The application. Without ``tracer_provider``, requests are traced only if the
    ``OTEL_*`` variables ask for it (api/tracing.py)."""
    settings = settings or Settings.from_env()
    own_provider = tracer_provider is None
    if tracer_provider is None:
        tracer_provider = tracer_provider_from_env(os.environ)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        tune_gc()
        arm_crash_points(settings.crash_at)
        engine = create_engine(settings.database_url, **engine_options(settings))
        try:
            await check_schema(engine)
        except SchemaOutOfDate as exc:
            log.error("refusing to start: %s", exc)
            await engine.dispose()
            raise
        except (DBAPIError, OSError) as exc:
            log.warning("database not reachable at start-up (%s); /ready reports 503", exc)
        notifier = Notifier()
        replica_engine = (
            create_engine(settings.read_database_url, **engine_options(settings))
            if settings.read_database_url
            else None
        )
        store = EventStore(
            engine,
            notifier,
            replica=EventStore(replica_engine) if replica_engine is not None else None,
            writers=settings.db_writers,
            writer_wait=settings.db_writer_wait,
            connect_timeout=settings.db_connect_timeout,
        )
        listener: PgListener | None = None
        if store.is_postgres:
            # listens only while this process has live-stream subscribers (api/store/notify.py)
            listener = PgListener(libpq_conninfo(settings.database_url), notifier, lazy=True)
        bots = BotPool(settings.bot_workers)
        app.state.store = store
        app.state.sealer = sealer = start_signing(settings, engine)
        result_log = start_log(settings, engine) if sealer is not None else None
        app.state.result_log = result_log
        app.state.precommitments = precommitments = Precommitments(PrecommitmentStore(engine))
        app.state.service = service = MatchService(
            store,
            bots=bots,
            sealer=sealer,
            result_log=result_log,
            precommitments=precommitments,
        )
        app.state.players = players = PlayerService(PlayerStore(engine, store.load), service)
        service.on_finished = players.match_finished
        await players.catch_up()  # any finish a crash left unrated
        app.state.queue = queue = QueueService(QueueStore(engine), players, service)
        sweeper = asyncio.create_task(queue.run_sweeper(), name="cuccu-queue-sweeper")
        # due clocks of any match, whichever process set them (api/clocks.py)
        clock_sweeper = ClockSweeper(ClockStore(engine), service)
        service.on_deadline = clock_sweeper.note  # this process's deadlines wake it
        clocks = asyncio.create_task(clock_sweeper.run(), name="cuccu-clock-sweeper")
        # appends each process's sealed results, and any left behind (api/transparency/store.py)
        appender = asyncio.create_task(result_log.run_appender()) if result_log else None
        try:
            yield
        finally:
            # awaited before the engine is disposed: a task cancelled mid-query and left
            # running past ``dispose`` waits for ever for its connection (aiosqlite), and the
            # event loop's close then waits for it (a test client's exit hung 900 s in CI)
            await stop_tasks(sweeper, clocks)
            if result_log is not None and appender is not None:
                await result_log.stop(appender)
            bots.close()
            if listener is not None:
                await listener.stop()
            await store.close()
            await engine.dispose()
            if replica_engine is not None:
                await replica_engine.dispose()
            if own_provider and tracer_provider is not None:
                tracer_provider.shutdown()  # the last spans exported
            if multiprocess():  # this process's live gauges stop counting (api.metrics)
                from prometheus_client import multiprocess as mp

                mp.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]

    app = Litestar(
        route_handlers=[
            HealthController,
            MatchController,
            CommitmentsController,
            KeysController,
            LogController,
            MetricsController,
            PlayersController,
            LeaderboardController,
            QueueController,
        ],  # fmt: skip
        lifespan=[lifespan],
        dependencies={
            "store": Provide(_provide_store, sync_to_thread=False),
            "settings": Provide(lambda: settings, sync_to_thread=False, use_cache=True),
        },
        exception_handlers=EXCEPTION_HANDLERS,
        before_request=strict_json_body,
        # per route, outermost first: the metrics see the rate limit's refusals too
        middleware=[
            *([name_span_by_route] if tracer_provider is not None else []),
            PROMETHEUS.middleware,
            rate_limit_middleware(settings.rate_limit_per_second, settings.rate_limit_burst),
        ],
        # tracing, when asked for: the plugin's middleware wraps the whole application
        plugins=[tracing_plugin(tracer_provider)] if tracer_provider is not None else [],
        request_max_body_size=settings.max_body_bytes,
        # logging is configured beside the application (api/logs.py, by `cuccu run`), not by
        # Litestar: its default would add a second root handler in its own format
        logging_config=None,
        openapi_config=OpenAPIConfig(
            title="Cuccù match service",
            version=API_VERSION,
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[
                ScalarRenderPlugin(),
                SwaggerRenderPlugin(path="/swagger"),
                RedocRenderPlugin(path="/redoc"),
            ],
            components=Components(
                security_schemes={
                    "seatToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="The secret token of one seat, from `POST /matches`",
                    ),
                    "playerKey": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A player account's API key (`cuccu_key_…`), from "
                        "`POST /players`",
                    ),
                }
            ),
            tags=[
                Tag(name="matches", description="Create, view and play matches"),
                Tag(name="health", description="Liveness and readiness"),
                Tag(name="signatures", description="Keys that verify signed match results"),
                Tag(
                    name="transparency log",
                    description="The append-only log of signed results: checkpoints, proofs",
                ),
                Tag(name="players", description="Player accounts, their keys and ratings"),
            ],
        ),
        debug=False,
    )
    _closed_request_bodies(app)
    # request ids and log lines around everything, unrouted requests included (api/observe.py)
    app.asgi_handler = watch_requests(app.asgi_handler)
    return app


async def strict_json_body(request: Request[Any, Any, Any]) -> None:
    """Check a JSON body strictly (``api.bodies``) before the handler's lax conversion.

    A body with a value of the wrong JSON type is refused here with 422 (Litestar would pass
    ``"3"`` as the integer 3), and a body sent as anything but JSON (curl's default form
    encoding) with 415. Malformed JSON is left to Litestar (400), and an oversized body is
    refused while it is read (413).
    """
    if request.method != "POST":
        return
    check = body_check(request.route_handler)
    if check is None:
        return
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise ProblemError(
            415,
            "unsupported-media-type",
            f"the request body must be JSON, sent with `Content-Type: application/json` "
            f"(not {media_type or 'no Content-Type'})",
        )
    body = await request.body()
    try:
        check(body)
    except msgspec.DecodeError:
        return  # Litestar answers 400 for it


def _closed_request_bodies(app: Litestar) -> None:
    """Mark request bodies that refuse unknown fields with ``additionalProperties: false``,
    and write integer bounds as the server enforces them (the schema generation loses a
    lower bound of 0)."""
    import msgspec.inspect as mi

    from api import models
    from api.controllers import players, queue

    schemas = app.openapi_schema.components.schemas or {}
    # the module's own structs, and those it builds from the registry (the creation bodies)
    built = {struct.__name__: struct for struct in models.CREATE_TYPES.values()}
    for name, obj in {**vars(models), **built, **vars(players), **vars(queue)}.items():
        if not (isinstance(obj, type) and issubclass(obj, msgspec.Struct) and name in schemas):
            continue
        schema = schemas[name]
        if obj.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        # Litestar drops a lower bound of 0 (`ge=0` reads as "no bound") and writes some
        # integer bounds as floats (20.0): document each integer field's bounds exactly as the
        # server enforces them, e.g. `expected_version`'s minimum of 0
        info = mi.type_info(obj)
        assert isinstance(info, mi.StructType)
        for field in info.fields:
            prop = (schema.properties or {}).get(field.encode_name)
            for kind in members(field.type):
                if isinstance(kind, mi.IntType) and isinstance(prop, Schema):
                    if kind.ge is not None:
                        prop.minimum = kind.ge
                    if kind.le is not None:
                        prop.maximum = kind.le
