"""Schema migrations (Alembic) driven from the service and the CLI."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations
from api.store.db import create_engine

UPGRADE_COMMAND = "cuccu db upgrade"


class SchemaOutOfDate(RuntimeError):
    """The database schema is not at the revision this code needs."""

    def __init__(self, current: str | None, head: str | None) -> None:
        self.current = current
        self.head = head
        super().__init__(
            f"database schema is at revision {current or 'none (empty database)'}, "
            f"this version of cuccu needs {head}: run `{UPGRADE_COMMAND}` "
            "(with the same CUCCU_DATABASE_URL) to migrate it"
        )


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(migrations.__file__).parent))
    return cfg


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def _current(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(_current)


def _run(conn: Connection, action: str, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    if action == "upgrade":
        command.upgrade(cfg, revision)
    else:
        command.downgrade(cfg, revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    async with engine.begin() as conn:
        await conn.run_sync(_run, "upgrade", revision)


async def upgrade_database(url: str) -> str | None:
    """Migrate the database at ``url`` to the latest revision; return the revision it is at."""
    engine = create_engine(url)
    try:
        await upgrade(engine)
        return await current_revision(engine)
    finally:
        await engine.dispose()


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(_run, "downgrade", revision)


async def check_schema(engine: AsyncEngine) -> None:
    """Raise :class:`SchemaOutOfDate` unless the schema is at the head revision."""
    current = await current_revision(engine)
    head = head_revision()
    if current != head:
        raise SchemaOutOfDate(current, head)
