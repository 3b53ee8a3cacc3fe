"""No client input produces a 500: arbitrary bodies, headers and paths (SQLite)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from api.app import create_app
from api.settings import Settings
from api.store import upgrade_database
from tests.api.helpers import JSON, TWO_HUMANS


@pytest.fixture(scope="module")
def sync_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    path: Path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    url = f"sqlite+aiosqlite:///{path}"

    asyncio.run(upgrade_database(url))
    app = create_app(Settings(database_url=url, max_body_bytes=4096))
    with TestClient(app=app) as client:
        yield client


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4)
    ),
    max_leaves=12,
)
seat_like = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=50) | st.integers(),
        "kind": st.sampled_from(["human", "bot", "x", ""]),
        "bot_level": st.sampled_from(["random", "basic", "expert", "nope"]) | st.none(),
    },
)
create_like = st.fixed_dictionaries(
    {},
    optional={
        "seats": st.lists(seat_like, max_size=22) | json_values,
        "starting_lives": st.integers(min_value=-5, max_value=2**70) | json_values,
        "seed": st.integers(min_value=-(2**70), max_value=2**70) | json_values,
        "first_dealer": st.integers(min_value=-3, max_value=30) | json_values,
    },
)
command_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(
            ["keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse",
             "next_round", "cheat"]
        ) | json_values,
        "expected_version": st.integers(min_value=-5, max_value=2**70) | json_values,
    },
)  # fmt: skip

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(body=create_like | json_values, raw=st.binary(max_size=64))
def test_create_never_500(sync_client: TestClient[Any], body: Any, raw: bytes) -> None:
    resp = sync_client.post("/matches", content=json.dumps(body), headers=JSON)
    assert resp.status_code < 500, resp.text
    resp = sync_client.post("/matches", content=raw, headers=JSON)
    assert resp.status_code < 500, resp.text


@FUZZ
@given(
    body=command_like | json_values,
    auth=st.sampled_from(["good", "none", "bad", "weird"]),
    key=st.none() | st.text(max_size=300),
    query=st.text(max_size=30),
)
def test_commands_and_reads_never_500(
    sync_client: TestClient[Any], body: Any, auth: str, key: str | None, query: str
) -> None:
    created = sync_client.post("/matches", json=TWO_HUMANS).json()
    mid = created["match_id"]
    token = created["seat_tokens"][0]["token"]
    headers = {
        "good": {"Authorization": f"Bearer {token}"},
        "none": {},
        "bad": {"Authorization": "Bearer " + "x" * 43},
        "weird": {"Authorization": "Bearer"},
    }[auth]
    if key is not None and key.isprintable() and key.isascii():
        headers["Idempotency-Key"] = key
    resp = sync_client.post(
        f"/matches/{mid}/commands", content=json.dumps(body), headers={**headers, **JSON}
    )
    assert resp.status_code < 500, resp.text
    q, p = quote(query, safe="=&"), quote(query, safe="")
    for path in (f"/matches?{q}", f"/matches/{mid}/events?{q}", f"/matches/{p}"):
        resp = sync_client.get(path, headers=headers)
        assert resp.status_code < 500, (path, resp.text)
