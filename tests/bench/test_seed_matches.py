"""bench/seed_matches.py writes the same rows as the API stores for a bots-only match."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from sqlalchemy.engine import make_url

from api.store.db import admin_connection
from tests.conftest import PgServer
from tests.integration.checks import audited
from tests.integration.server import Server

ROOT = Path(__file__).resolve().parents[2]


def load_seeder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "seed_matches", ROOT / "bench" / "seed_matches.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["seed_matches"] = module
    spec.loader.exec_module(module)
    return module


def rows(url: str, match_id: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    name = make_url(url).database
    with admin_connection(make_url(url), name) as conn:
        match = conn.execute(
            "SELECT status, seats, starting_lives, lives, winner, rounds, version, seed, game, "
            "options, standing, winners FROM matches WHERE id = %s",
            (match_id,),
        ).fetchone()
        # not the hashes: they cover the match id and time, which differ (the chain of the
        # seeded match is checked by audited() below)
        events = conn.execute(
            "SELECT version, type, data, meta, envelope FROM events "
            "WHERE match_id = %s ORDER BY version",
            (match_id,),
        ).fetchall()
    keys = (
        "status", "seats", "starting_lives", "lives", "winner", "rounds", "version", "seed",
        "game", "options", "standing", "winners",
    )  # fmt: skip
    return dict(zip(keys, match, strict=True)), events


def test_seeded_matches_equal_what_the_api_stores(pg_server: PgServer) -> None:
    seeder = load_seeder()
    url = pg_server.create_database("seed")
    try:
        admin = pg_server.admin_url.render_as_string(hide_password=False)
        name = make_url(url).database
        seeder.ensure_database(pg_server.admin_url, name)
        assert seeder.seed_chunk((admin, name, 0, 3, 41))[0] == 3
        server = Server(url).start()
        try:
            for index in range(3):
                body = {"seats": seeder.SEATS, "starting_lives": seeder.LIVES, "seed": 41 + index}
                created = httpx.post(f"{server.base}/matches", json=body, timeout=30).json()
                via_api = rows(url, created["match_id"])
                seeded_id = seeder.play(index, 41)[0].split("\t")[0]
                seeded = rows(url, seeded_id)
                assert seeded == via_api
                audited(url, seeded_id)  # chain, re-execution, conservation, lives, complete
                # and the API serves the seeded match like its own
                mine = httpx.get(f"{server.base}/matches/{seeded_id}", timeout=30).json()
                theirs = httpx.get(f"{server.base}/matches/{created['match_id']}").json()
                assert json.dumps(mine["view"]) == json.dumps(theirs["view"])
        finally:
            server.stop()
    finally:
        pg_server.drop_database(url)
