"""docs/openapi.json is exactly what the server serves (regenerate: see REGENERATE)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from litestar.testing import AsyncTestClient

from api.cli import openapi_json

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "openapi.json"
REGENERATE = ".venv/bin/cuccu openapi > docs/openapi.json"


async def test_committed_openapi_equals_the_served_document(
    client: AsyncTestClient[Any],
) -> None:
    served = (await client.get("/schema/openapi.json")).json()
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert served == committed, f"docs/openapi.json is out of date: run `{REGENERATE}`"


def test_the_cli_prints_the_committed_bytes() -> None:
    assert openapi_json() == COMMITTED.read_text(encoding="utf-8"), (
        f"docs/openapi.json is out of date: run `{REGENERATE}`"
    )
    out = subprocess.run(
        [sys.executable, "-m", "api.cli", "openapi"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    ).stdout  # fmt: skip
    assert json.loads(out) == json.loads(COMMITTED.read_text(encoding="utf-8"))


def test_the_document_describes_open_seats_and_every_problem_type() -> None:
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    claim = spec["paths"]["/matches/{match_id}/seats/{seat}/claim"]["post"]
    assert {"201", "404", "409", "422"} <= set(claim["responses"])
    assert claim["requestBody"]["content"]["application/json"]["schema"]["examples"]
    listing = spec["paths"]["/matches"]["get"]
    assert "open_seats" in {p["name"] for p in listing["parameters"]}
    seat_kinds = spec["components"]["schemas"]["SeatIn"]["properties"]["kind"]
    assert "open" in json.dumps(seat_kinds)
    text = json.dumps(spec)
    for slug in ("seat-taken", "seats-open", "seat-not-found"):
        assert f"urn:cuccu:problem:{slug}" in text
