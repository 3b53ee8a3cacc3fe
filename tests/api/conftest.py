"""An in-process API client on a migrated database of each kind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.settings import Settings
from api.store import upgrade_database


@pytest.fixture
async def migrated_url(database_url: str) -> str:
    await upgrade_database(database_url)
    return database_url


@pytest.fixture
async def client(migrated_url: str, tmp_path: Path) -> AsyncIterator[AsyncTestClient[Any]]:
    app = create_app(
        Settings(
            database_url=migrated_url,
            max_body_bytes=4096,
            sse_keepalive_seconds=0.2,
            signing_key=str(tmp_path / "signing-key.pem"),  # signed on either database
        )
    )
    async with AsyncTestClient(app=app) as c:
        yield c
