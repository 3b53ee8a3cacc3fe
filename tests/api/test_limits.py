"""The per-token rate limit (429 + Retry-After) and the request body size limit (413)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.ratelimit import TokenBuckets
from api.settings import Settings
from api.store import upgrade_database
from tests.api.helpers import JSON, TWO_HUMANS, Client, assert_problem, bearer


async def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'limits.db'}"
    await upgrade_database(url)
    return url


@pytest.fixture
async def limited(tmp_path: Path) -> AsyncIterator[Client]:
    settings = Settings(
        database_url=await sqlite_url(tmp_path),
        max_body_bytes=2048,
        rate_limit_per_second=0.5,
        rate_limit_burst=3,
    )
    async with AsyncTestClient(app=create_app(settings)) as c:
        yield c


def test_token_bucket_refills_at_its_rate() -> None:
    now = [100.0]
    buckets = TokenBuckets(rate=2.0, burst=3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)  # one unit is back after 1/rate s
    assert buckets.take("b") == 0.0  # buckets are per key
    now[0] += 0.5
    assert buckets.take("a") == 0.0
    assert buckets.take("a") > 0
    now[0] += 60
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]  # never more than burst
    assert buckets.take("a") > 0


async def test_a_token_over_its_rate_gets_429_with_retry_after(limited: Client) -> None:
    created = (await limited.post("/matches", json=TWO_HUMANS)).json()
    mid = created["match_id"]
    t0, t1 = (bearer(t["token"]) for t in created["seat_tokens"])
    for _ in range(3):
        assert (await limited.get(f"/matches/{mid}", headers=t0)).status_code == 200
    resp = await limited.get(f"/matches/{mid}", headers=t0)
    body = assert_problem(resp, 429, "rate-limited")
    assert int(resp.headers["retry-after"]) >= 1
    assert "retry after" in body["detail"]
    # commands and event pages count against the same bucket
    resp = await limited.post(f"/matches/{mid}/commands", json={"type": "keep"}, headers=t0)
    assert_problem(resp, 429, "rate-limited")
    # the limit is per token: the other seat, spectators, /health and /ready go on
    assert (await limited.get(f"/matches/{mid}", headers=t1)).status_code == 200
    for _ in range(5):
        assert (await limited.get(f"/matches/{mid}")).status_code == 200
        assert (await limited.get("/health", headers=t0)).status_code == 200
        assert (await limited.get("/ready", headers=t0)).status_code == 200
    # a garbage token is throttled as well (token guessing costs time)
    junk = bearer("x" * 43)
    statuses = [(await limited.get(f"/matches/{mid}", headers=junk)).status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]


async def test_the_limit_is_configurable_and_can_be_turned_off(tmp_path: Path) -> None:
    env = {"CUCCU_RATE_LIMIT": "2.5", "CUCCU_RATE_BURST": "7", "CUCCU_MAX_BODY_BYTES": "999"}
    settings = Settings.from_env(env)
    assert (settings.rate_limit_per_second, settings.rate_limit_burst) == (2.5, 7)
    assert settings.max_body_bytes == 999
    off = Settings.from_env({"CUCCU_RATE_LIMIT": "0"})
    assert off.rate_limit_per_second == 0
    app = create_app(Settings(database_url=await sqlite_url(tmp_path), rate_limit_per_second=0))
    async with AsyncTestClient(app=app) as c:
        created = (await c.post("/matches", json=TWO_HUMANS)).json()
        t0 = bearer(created["seat_tokens"][0]["token"])
        for _ in range(30):
            assert (await c.get(f"/matches/{created['match_id']}", headers=t0)).status_code == 200


async def test_bodies_over_the_size_limit_get_413(limited: Client) -> None:
    created = (await limited.post("/matches", json=TWO_HUMANS)).json()
    url = f"/matches/{created['match_id']}/commands"
    t1 = bearer(created["seat_tokens"][1]["token"])  # a fresh bucket
    padded = json.dumps({"type": "keep", "pad": " " * 3000})
    assert_problem(
        await limited.post(url, content=padded, headers={**t1, **JSON}), 413, "body-too-large"
    )
    # just under the limit is read (and judged on its values)
    near = json.dumps({"seats": [{"name": "a"}, {"name": "b"}], "x": "y" * 1900})
    assert len(near) < 2048
    assert_problem(
        await limited.post("/matches", content=near, headers=JSON), 422, "validation-error"
    )


async def test_openapi_documents_both_limits(limited: Client) -> None:
    spec = (await limited.get("/schema/openapi.json")).json()
    assert "CUCCU_RATE_LIMIT" in spec["info"]["description"]
    assert "CUCCU_MAX_BODY_BYTES" in spec["info"]["description"]
    command = spec["paths"]["/matches/{match_id}/commands"]["post"]["responses"]
    assert "Retry-After" in command["429"]["description"]
    assert "CUCCU_MAX_BODY_BYTES" in command["413"]["description"]
    assert "429" not in spec["paths"]["/ready"]["get"]["responses"]
