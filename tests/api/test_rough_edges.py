"""What a new user trips over first (issue 11): each now answered plainly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.app import create_app
from api.settings import SettingError, Settings
from tests.api.helpers import HUMAN_VS_BOTS, TWO_HUMANS, Client, assert_problem, bearer, create


async def test_a_body_not_sent_as_json_is_415_and_not_played(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    mid, token = created["match_id"], created["seat_tokens"][0]["token"]
    # curl -d 'type=keep' sends a form; -d '{"type":"keep"}' without -H sends a form type too
    for headers, body in (
        ({"Content-Type": "application/x-www-form-urlencoded"}, b'{"type": "keep"}'),
        ({"Content-Type": "text/plain"}, b'{"type": "keep"}'),
        ({}, b'{"type": "keep"}'),
    ):
        resp = await client.post(
            f"/matches/{mid}/commands", content=body, headers={**bearer(token), **headers}
        )
        assert_problem(resp, 415, "unsupported-media-type")
    form = await client.post("/matches", data={"seats": "two"})
    assert_problem(form, 415, "unsupported-media-type")
    view = (await client.get(f"/matches/{mid}")).json()
    assert view["version"] == created["version"]  # nothing was played
    ok = await client.post(
        f"/matches/{mid}/commands",
        content=b'{"type": "keep"}',
        headers={**bearer(token), "Content-Type": "application/json; charset=utf-8"},
    )
    assert ok.status_code == 200, ok.text


async def test_the_creation_answer_holds_each_seats_own_view(client: Client) -> None:
    created = await create(client, {**HUMAN_VS_BOTS, "seats": [
        {"name": "  Ann  "}, *HUMAN_VS_BOTS["seats"][1:]
    ]})  # fmt: skip
    (mine,) = created["seat_tokens"]
    assert mine["view"]["viewer"] == 0
    assert mine["view"]["hand"] is not None  # my card, without a second request
    assert created["view"]["hand"] is None  # the spectator's view has none
    assert mine["view"]["seats"][0]["name"] == "Ann"  # names are stored trimmed
    again = await client.get(f"/matches/{created['match_id']}", headers=bearer(mine["token"]))
    assert again.json()["view"] == mine["view"]


async def test_an_unknown_command_type_lists_the_valid_ones(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    resp = await client.post(
        f"/matches/{created['match_id']}/commands",
        json={"type": "fold"},
        headers=bearer(created["seat_tokens"][0]["token"]),
    )
    detail = assert_problem(resp, 422, "validation-error")["detail"]
    for choice in ("keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "next_round"):
        assert choice in detail, detail


async def test_last_event_id_must_be_a_version(client: Client) -> None:
    created = await create(client, TWO_HUMANS)
    url = f"/matches/{created['match_id']}/stream"
    for bad in ("-1", "-0x1", "abc", str(2**31)):
        resp = await client.get(url, headers={"Last-Event-ID": bad})
        assert_problem(resp, 422, "validation-error")


async def test_the_schema_documents_the_bounds_the_server_enforces(client: Client) -> None:
    schema = (await client.get("/schema/openapi.json")).json()["components"]["schemas"]
    assert schema["CommandIn"]["properties"]["expected_version"]["minimum"] == 0
    for body in ("CreateCuccuMatch", "CreateCucco21Match"):
        assert schema[body]["properties"]["first_dealer"]["minimum"] == 0
    created = await create(client, TWO_HUMANS)
    resp = await client.post(
        f"/matches/{created['match_id']}/commands",
        json={"type": "keep", "expected_version": -1},
        headers=bearer(created["seat_tokens"][0]["token"]),
    )
    assert_problem(resp, 422, "validation-error")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("CUCCU_PORT", "80a"),
        ("CUCCU_MAX_BODY_BYTES", "16k"),
        ("CUCCU_RATE_LIMIT", "fast"),
        ("CUCCU_BOT_WORKERS", "-1"),
        ("CUCCU_SSE_KEEPALIVE", "1,5"),
        ("CUCCU_CRASH_AT", "after-the-end"),
        ("CUCCU_DB_POOL_SIZE", "0"),
        ("CUCCU_DB_MAX_OVERFLOW", "-2"),
        ("CUCCU_DB_POOL_TIMEOUT", "0"),
        ("CUCCU_DB_WRITERS", "ten"),
        ("CUCCU_DB_WRITER_WAIT", "0"),
        ("CUCCU_DB_CONNECT_TIMEOUT", "0.5"),
    ],
)
def test_a_malformed_setting_is_named_at_start_up(name: str, value: str) -> None:
    with pytest.raises(SettingError) as refused:
        Settings.from_env({name: value})
    assert name in str(refused.value) and value in str(refused.value)
    with pytest.raises(SettingError):
        create_app(Settings.from_env({name: value}))
    assert Settings.from_env({name: ""}) == Settings()  # empty means the default


def test_the_pools_and_the_read_replica_come_from_the_settings() -> None:
    primary = "postgresql://cuccu@primary:5432/cuccu"
    settings = Settings.from_env(
        {
            "CUCCU_DATABASE_URL": primary,
            "CUCCU_READ_DATABASE_URL": "postgres://cuccu@standbys:5433/cuccu",
            "CUCCU_DB_POOL_SIZE": "4",
            "CUCCU_DB_MAX_OVERFLOW": "0",
            "CUCCU_DB_POOL_TIMEOUT": "2.5",
            "CUCCU_DB_WRITERS": "3",
            "CUCCU_DB_WRITER_WAIT": "0.25",
            "CUCCU_DB_CONNECT_TIMEOUT": "2",
        }
    )
    assert settings.read_database_url == "postgresql+psycopg://cuccu@standbys:5433/cuccu"
    assert (settings.db_pool_size, settings.db_max_overflow, settings.db_pool_timeout) == (
        4,
        0,
        2.5,
    )
    assert (settings.db_writers, settings.db_writer_wait, settings.db_connect_timeout) == (
        3,
        0.25,
        2,
    )
    # a SQLite file has no replica, and a replica of SQLite is no PostgreSQL standby
    for primary_url, read_url in (("", "postgresql://x/y"), (primary, "sqlite:///copy.db")):
        with pytest.raises(SettingError, match="CUCCU_READ_DATABASE_URL"):
            Settings.from_env(
                {"CUCCU_DATABASE_URL": primary_url, "CUCCU_READ_DATABASE_URL": read_url}
            )


def test_cuccu_run_stops_with_the_name_of_a_malformed_setting(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "CUCCU_RATE_BURST": "lots",
        "CUCCU_DATABASE_URL": f"sqlite:///{tmp_path}/x.db",
    }
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "run", "--no-viewer", "--no-migrate"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "CUCCU_RATE_BURST='lots' is not an integer" in done.stderr
    assert "Traceback" not in done.stderr
