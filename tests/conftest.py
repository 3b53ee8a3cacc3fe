"""Shared fixtures: real databases only (SQLite in a temp dir, PostgreSQL on a real server).

PostgreSQL comes from, in this order:
1. testcontainers, when a Docker engine answers within 2 s and holds the local PostgreSQL image
   (``make images`` builds ``cuccu/postgres:local``; it is never pulled);
2. the URL in ``CUCCU_TEST_DATABASE_URL``;
3. the local server at ``postgresql://postgres@127.0.0.1:5432/postgres``.

The run's summary says which one it used, and why testcontainers was not. Each test run creates
its own databases on that server and drops them at the end. Where no server is reachable the
PostgreSQL tests are skipped, except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import URL, make_url

from api.store.db import admin_connection
from tests.containers import POSTGRES_IMAGE, PostgresInContainer, docker_answers, start_postgres
from tests.integration.server import Server

LOCAL_PG = "postgresql://postgres@127.0.0.1:5432/postgres"
HOW_TO = (
    "PostgreSQL tests need a server: start a Docker engine (testcontainers), or set "
    "CUCCU_TEST_DATABASE_URL=postgresql://user:pass@host:5432/postgres (a role that may "
    "CREATE DATABASE), or run a local server on 127.0.0.1:5432 for user postgres."
)


def _connect(url: URL) -> Any:
    return admin_connection(url, connect_timeout=3)  # fail fast when no server answers


@pytest.fixture(autouse=True)
def _main_module_kept() -> Iterator[None]:
    """Put back the ``__main__`` module a test replaced. Streamlit's AppTest runs a page as
    ``sys.modules["__main__"]`` and leaves it there; a bot pool started later in the same
    process (an xdist worker runs many files) then launches its workers with that page as
    their main script, and every expert table answers 500."""
    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main


@dataclass
class PgServer:
    """A reachable PostgreSQL server on which this run may create databases."""

    admin_url: URL
    source: str = "server"  # "testcontainers", "CUCCU_TEST_DATABASE_URL" or "local server"
    prefix: str = field(default_factory=lambda: f"cuccu_test_{uuid.uuid4().hex[:10]}")
    created: list[str] = field(default_factory=list)

    def create_database(self, suffix: str = "") -> str:
        name = f"{self.prefix}{('_' + suffix) if suffix else ''}"
        with _connect(self.admin_url) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.created.append(name)
        return self.url_for(name)

    def url_for(self, name: str) -> str:
        url = self.admin_url.set(drivername="postgresql+psycopg", database=name)
        return url.render_as_string(hide_password=False)

    def drop_database(self, url: str) -> None:
        name = make_url(url).database
        assert name is not None
        with _connect(self.admin_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        with contextlib.suppress(ValueError):
            self.created.remove(name)

    def discard(self, url: str) -> None:
        """A test's database, no longer needed. A throwaway container's go with it at the end of
        the run: dropping one there waited 60 s on a ProcSignalBarrier now and then (four
        PostgreSQL API tests in every CI run), and nothing is gained by it."""
        if self.source != "testcontainers":
            self.drop_database(url)


def _reachable(url: URL) -> bool:
    try:
        with _connect(url) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


#: which PostgreSQL this run used, for the summary line (pytest_terminal_summary)
PG_CHOICE: list[str] = []


def _postgres_candidates() -> tuple[PostgresInContainer | None, list[tuple[str, str]], str]:
    """The container (if one started), the (source, url) candidates in order, and why
    testcontainers was not used (empty when it was)."""
    container: PostgresInContainer | None = None
    candidates: list[tuple[str, str]] = []
    why_not = ""
    if not docker_answers():
        why_not = "no Docker engine answers"
    else:
        try:
            container = start_postgres(POSTGRES_IMAGE)
            candidates.append(("testcontainers", container.url))
        except Exception as exc:  # no image, or it would not start: fall back, never fail
            why_not = f"{POSTGRES_IMAGE} unavailable ({type(exc).__name__}: {exc})"[:300]
    env_url = os.environ.get("CUCCU_TEST_DATABASE_URL")
    if env_url:
        candidates.append(("CUCCU_TEST_DATABASE_URL", env_url))
    candidates.append(("local server", LOCAL_PG))
    return container, candidates, why_not


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    container, candidates, why_not = _postgres_candidates()
    server: PgServer | None = None
    for source, raw in candidates:
        url = make_url(raw)
        if _reachable(url):
            server = PgServer(admin_url=url, source=source)
            break
    if server is None:
        PG_CHOICE.append("none reachable")
        if container is not None:
            container.stop()
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but no PostgreSQL is reachable. " + HOW_TO)
        pytest.skip(HOW_TO)
    where = f"{server.admin_url.host}:{server.admin_url.port}"
    if server.source == "testcontainers":
        PG_CHOICE.append(f"testcontainers ({POSTGRES_IMAGE}) on {where}")
    else:
        PG_CHOICE.append(f"{server.source} on {where}; testcontainers not used: {why_not}")
    try:
        yield server
    finally:
        for name in list(server.created):
            with contextlib.suppress(Exception):
                server.discard(server.url_for(name))
        if container is not None:
            container.stop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for choice in dict.fromkeys(PG_CHOICE):  # each xdist worker reports its own: once each
        terminalreporter.write_line(f"PostgreSQL for the tests: {choice}")


# --- running in parallel (pytest-xdist; the Makefile's ``make test``) -----------------------


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The container tests run in the serial phase (``-m serial``), alone: a Compose stack
    takes most of the machine, and the HA stack's failover timings assume it has it."""
    for item in items:
        if item.get_closest_marker("containers") is not None:
            item.add_marker(pytest.mark.serial)


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the controller its summary line
        workeroutput["pg_choice"] = list(PG_CHOICE)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    PG_CHOICE.extend(getattr(node, "workeroutput", {}).get("pg_choice", []))


@pytest.fixture(scope="session")
def postgres_url(pg_server: PgServer) -> Iterator[str]:
    """An async SQLAlchemy URL (postgresql+psycopg) to a fresh, empty database for this run."""
    url = pg_server.create_database("run")
    yield url
    pg_server.discard(url)


@contextlib.contextmanager
def empty_database(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of ``kind`` ("sqlite" or "postgresql"), private to one test."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'cuccu.db'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = server.create_database(uuid.uuid4().hex[:8])
    try:
        yield url
    finally:
        server.discard(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind, private to one test (not yet migrated)."""
    with empty_database(request.param, request, tmp_path) as url:
        yield url


# --- the real ``cuccu`` server as a subprocess (tests/integration/server.py) ---------------------


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    """Servers a test starts itself: whatever it appends is stopped afterwards."""
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    """The API (no viewer) on each kind of database, quick keep-alives for stream tests."""
    s = Server(database_url, keepalive=0.3, viewer=False).start()
    try:
        yield s
    finally:
        s.stop()


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Server]:
    """The same on SQLite only."""
    s = Server(f"sqlite+aiosqlite:///{tmp_path / 'server.db'}", keepalive=0.3, viewer=False)
    s.start()
    try:
        yield s
    finally:
        s.stop()
