"""The warning of a cut synchronous-replication wait (api/store/events.py): PostgreSQL sends it
as a notice on a statement that succeeds, so the store must read it from psycopg's notice
callback, while the notice is still valid, on both of its PostgreSQL write paths. The wait
itself needs a standby: tests/deploy/test_ha.py cuts real ones."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from api.store import EventStore, NewMatch, StoreUnavailable, create_engine, upgrade
from api.store.statement import _notice_recorder
from domain.envelope import GENESIS_HASH
from tests.store.test_store import SEATS, opening, summary_of

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


@pytest.fixture
async def warned_store(postgres_url: str) -> AsyncIterator[EventStore]:
    """A store on PostgreSQL where every write to ``matches`` draws the warning of a cut
    synchronous wait, as a commit on a primary whose standby did not confirm it does (a
    trigger stands in for the standby: only the notice tells the two commits apart)."""
    engine = create_engine(postgres_url)
    await upgrade(engine)
    async with engine.begin() as conn:
        await conn.execute(
            sa.text(
                "CREATE FUNCTION cut_wait() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"RAISE WARNING '{CUT}'; RETURN NEW; END $$"
            )
        )
        await conn.execute(
            sa.text(
                "CREATE TRIGGER cut_wait AFTER INSERT OR UPDATE ON matches "
                "FOR EACH ROW EXECUTE FUNCTION cut_wait()"
            )
        )
    store = EventStore(engine)
    yield store
    await store.close()
    async with engine.begin() as conn:
        await conn.execute(sa.text("DROP TRIGGER cut_wait ON matches"))
        await conn.execute(sa.text("DROP FUNCTION cut_wait()"))
    await engine.dispose()


# seat tokens send a PostgreSQL append down the SQLAlchemy path (claims, as do appends of more
# than MAX_STATEMENT_EVENTS events); without them it is the one statement
@pytest.mark.parametrize("claim", [False, True], ids=["one-statement", "transaction"])
async def test_a_commit_whose_synchronous_wait_was_cut_is_not_acknowledged(
    warned_store: EventStore, claim: bool
) -> None:
    store = warned_store
    match_id = str(uuid.uuid4())
    state, events = opening()
    with pytest.raises(StoreUnavailable, match="synchronous standby"):
        await store.commit(
            match_id,
            expected_version=0,
            prev_hash=GENESIS_HASH,
            events=events,
            summary=summary_of(state),
            new_match=NewMatch(
                id=match_id,
                seats=[{"name": s.name, "kind": s.kind} for s in SEATS],
                seed=None,
                game="cuccu",
                options={"starting_lives": 2},
            ),
            seat_tokens={1: "cd" * 32} if claim else None,
        )
    # done locally all the same: what a retry with the same Idempotency-Key finds
    assert len(await store.load(match_id)) == len(events)
