"""Reads from a replica (``CUCCU_READ_DATABASE_URL``, MatchService._from_replica), on real
PostgreSQL databases: the "replica" is a second database copied from the primary before a match
ended, so it lags exactly as a standby that has not yet replayed the commit that ended it.

What never changes once a match is over (its export, its events, the list of finished
matches) is served by the replica when the replica has seen the match end, without asking the
primary; a match the replica has not seen end is read from the primary, and is never served
as unfinished (or missing) while the primary has it over."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY
from sqlalchemy.ext.asyncio import AsyncEngine

from api.service import MatchNotFinished, MatchService
from api.store import EventStore, MatchSummary, StoredEvent, create_engine, upgrade
from api.store.db import admin_connection
from tests.conftest import PgServer
from tests.store.test_store import new_match, opening


def replica_reads(served_by: str) -> float:
    return REGISTRY.get_sample_value("cuccu_replica_reads_total", {"served_by": served_by}) or 0.0


async def finish(store: EventStore, match_id: str) -> list[StoredEvent]:
    """Commit one more event that ends the match (the store reads no events: any will do)."""
    before = await store.load(match_id)
    await store.commit(
        match_id,
        expected_version=before[-1].version,
        prev_hash=before[-1].hash,
        events=opening()[1][-1:],
        summary=MatchSummary("over", [1, 0, 0], [0], 1, before[-1].version + 1),
    )
    return await store.load(match_id)


@dataclass
class Cluster:
    """A primary and a replica copied from it when ``ended`` was over and ``lagging`` not."""

    primary: AsyncEngine
    replica: AsyncEngine
    replica_url: str
    ended: str
    lagging: str
    #: statements sent to the primary through SQLAlchemy (reads go there)
    primary_statements: list[str]
    #: statements sent to the replica
    replica_statements: list[str]

    def service(self) -> MatchService:
        return MatchService(EventStore(self.primary, replica=EventStore(self.replica)))


@pytest.fixture
def primary_url(pg_server: PgServer) -> Iterator[str]:
    url = pg_server.create_database("primary")
    yield url
    pg_server.drop_database(url)


@pytest.fixture
async def cluster(pg_server: PgServer, primary_url: str) -> AsyncIterator[Cluster]:
    engine = create_engine(primary_url)
    await upgrade(engine)
    store = EventStore(engine)
    ended, _ = await new_match(store)
    await finish(store, ended)
    lagging, _ = await new_match(store)
    await store.close()
    await engine.dispose()  # a template database must have no connections

    replica_url = pg_server.url_for(f"{pg_server.prefix}_replica")
    primary_name = sa.make_url(primary_url).database
    with admin_connection(pg_server.admin_url) as conn:
        conn.execute(
            f'CREATE DATABASE "{sa.make_url(replica_url).database}" TEMPLATE "{primary_name}"'
        )
    pg_server.created.append(str(sa.make_url(replica_url).database))

    primary = create_engine(primary_url)
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    sa.event.listen(primary.sync_engine, "before_cursor_execute", seen)
    store = EventStore(primary)
    await finish(store, lagging)  # the primary moves on; the copy does not
    await store.close()
    replica = create_engine(replica_url)
    replica_statements: list[str] = []

    def seen_on_replica(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        replica_statements.append(statement)

    sa.event.listen(replica.sync_engine, "before_cursor_execute", seen_on_replica)
    statements.clear()
    yield Cluster(primary, replica, replica_url, ended, lagging, statements, replica_statements)
    await primary.dispose()
    await replica.dispose()
    pg_server.drop_database(replica_url)


async def test_a_match_the_replica_has_seen_end_is_exported_from_it(cluster: Cluster) -> None:
    service = cluster.service()
    alone = MatchService(EventStore(cluster.primary))
    expected = await alone.export(cluster.ended)
    hashes = [s.hash for s in await alone.store.load(cluster.ended)]
    cluster.primary_statements.clear()
    served = replica_reads("replica")

    assert await service.export(cluster.ended) == expected
    page = await service.events(cluster.ended, after=0, limit=1000)
    assert [s.hash for s in page.stored] == hashes
    assert page.record.status == "over"
    assert cluster.primary_statements == []  # the primary was not asked
    assert replica_reads("replica") == served + 2


async def test_a_match_the_replica_has_not_seen_end_is_served_over_by_the_primary(
    cluster: Cluster,
) -> None:
    # the replica really lags: there, the match goes on
    replica = EventStore(cluster.replica)
    lagging = await replica.get_match(cluster.lagging)
    assert lagging is not None and lagging.status != "over"
    primary_events = await EventStore(cluster.primary).load(cluster.lagging)
    assert len(await replica.load(cluster.lagging)) == len(primary_events) - 1

    service = cluster.service()
    fallen_back = replica_reads("primary")
    export = await service.export(cluster.lagging)  # not 409 match-not-finished
    assert export == await MatchService(EventStore(cluster.primary)).export(cluster.lagging)
    assert export.count(b"\n") == len(primary_events)
    page = await service.events(cluster.lagging, after=0, limit=1000)
    assert page.record.status == "over"
    assert [s.hash for s in page.stored] == [s.hash for s in primary_events]
    assert replica_reads("primary") == fallen_back + 2

    # the list of finished matches is the replica's: it lists only what it has seen finish
    listed = await service.list_matches(status="over", before=None, limit=20, open_seats=None)
    assert [r.id for r in listed] == [cluster.ended]
    for record in listed:
        on_primary = await EventStore(cluster.primary).get_match(record.id)
        assert on_primary is not None and on_primary.status == "over"


async def test_live_matches_are_read_from_the_primary_without_asking_the_replica(
    cluster: Cluster,
) -> None:
    service = cluster.service()
    live, _ = await new_match(service.store)  # type: ignore[arg-type]
    await service.state(live)  # this process now holds it, going on
    cluster.replica_statements.clear()
    page = await service.events(live, after=0, limit=1000)
    assert page.record.status != "over" and page.stored
    with pytest.raises(MatchNotFinished):
        await service.export(live)
    # a live stream reads the primary, even for a match the replica has seen end
    await service.events(cluster.ended, after=0, limit=1000, replica=False)
    assert cluster.replica_statements == []
    await service.store.close()  # type: ignore[attr-defined]


async def test_a_replica_that_fails_hands_its_reads_to_the_primary(
    pg_server: PgServer, cluster: Cluster
) -> None:
    service = cluster.service()
    expected = await MatchService(EventStore(cluster.primary)).export(cluster.ended)
    await cluster.replica.dispose()
    pg_server.drop_database(cluster.replica_url)  # the replica is gone
    unavailable = replica_reads("unavailable")

    assert await service.export(cluster.ended) == expected
    listed = await service.list_matches(status="over", before=None, limit=20, open_seats=None)
    assert {r.id for r in listed} == {cluster.ended, cluster.lagging}
    assert replica_reads("unavailable") == unavailable + 2
