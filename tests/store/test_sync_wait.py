"""The warning of a cut synchronous-replication wait (api/store/events.py): PostgreSQL sends it
as a notice on a statement that succeeds, so the store must read it from psycopg's notice
callback, while the notice is still valid. The wait itself needs a standby:
tests/deploy/test_ha.py cuts real ones."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from api.store.statement import _notice_recorder

CUT = "canceling wait for synchronous replication due to user request"


@pytest.mark.parametrize(("warning", "seen"), [(CUT, [True]), ("something else", [False])])
async def test_the_notice_of_a_cut_synchronous_wait_is_recognised(
    postgres_url: str, warning: str, seen: list[bool]
) -> None:
    conninfo = make_url(postgres_url).set(drivername="postgresql").render_as_string(False)
    cut: list[bool] = []
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as pg:
        pg.add_notice_handler(_notice_recorder(cut))
        await pg.execute(f"DO $$ BEGIN RAISE WARNING '{warning}'; END $$")
    assert cut == seen
