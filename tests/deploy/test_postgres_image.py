"""The local PostgreSQL image under testcontainers, and how the test suite picks its PostgreSQL.

The store and API tests run on whatever ``pg_server`` (tests/conftest.py) chose: these tests check
that the choice is the local image when the engine holds it, that the image behaves like the
official one for what testcontainers and compose.yaml rely on, and that an engine without the
image falls back instead of failing the run.
"""

from __future__ import annotations

import os

import psycopg
import pytest

from tests.conftest import PgServer, _postgres_candidates
from tests.containers import POSTGRES_IMAGE, need_engine, start_postgres

pytestmark = pytest.mark.containers


def test_entrypoint_honours_user_password_and_database() -> None:
    need_engine(POSTGRES_IMAGE)
    pg = start_postgres(POSTGRES_IMAGE, user="ann", password="s3cret-pw", db="games")
    try:
        assert pg.url.startswith("postgresql://ann:") and "@127.0.0.1:" in pg.url
        with psycopg.connect(pg.url, connect_timeout=5) as conn:
            row = conn.execute("SELECT current_user, current_database()").fetchone()
            assert row == ("ann", "games")
            superuser = conn.execute("SELECT rolsuper FROM pg_roles WHERE rolname = 'ann'")
            assert superuser.fetchone() == (True,)  # may CREATE DATABASE, as the tests need
        wrong = pg.url.replace(":s3cret-pw@", ":wrong@")
        assert wrong != pg.url
        with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
            psycopg.connect(wrong, connect_timeout=5)
    finally:
        pg.stop()


def test_an_engine_without_the_image_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    need_engine()
    monkeypatch.setattr("tests.conftest.POSTGRES_IMAGE", "cuccu/no-such-image:never-built")
    container, candidates, why_not = _postgres_candidates()
    assert container is None
    assert "cuccu/no-such-image:never-built unavailable" in why_not
    assert [source for source, _ in candidates][-1] == "local server"


def test_the_suite_uses_the_container_when_the_engine_has_the_image(pg_server: PgServer) -> None:
    need_engine(POSTGRES_IMAGE)
    if os.environ.get("CUCCU_TEST_DATABASE_URL") and pg_server.source != "testcontainers":
        pytest.skip("the engine came up after the session chose CUCCU_TEST_DATABASE_URL")
    assert pg_server.source == "testcontainers"
    assert pg_server.admin_url.host == "127.0.0.1"
    url = pg_server.create_database("image_check")
    try:
        with psycopg.connect(url.replace("+psycopg", ""), connect_timeout=5) as conn:
            version = conn.execute("SHOW server_version").fetchone()
            assert version is not None and version[0].startswith("15.")  # Debian bookworm's
    finally:
        pg_server.drop_database(url)
