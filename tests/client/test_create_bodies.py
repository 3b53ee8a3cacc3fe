"""The client's typed creation bodies say what the server's schemas say (docs/openapi.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Required, get_origin, get_type_hints

import pytest

from api.client import CreateCucco21Match, CreateCuccuMatch

SCHEMAS = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "openapi.json").read_text(encoding="utf-8")
)["components"]["schemas"]


@pytest.mark.parametrize("body", [CreateCuccuMatch, CreateCucco21Match])
def test_each_games_body_has_the_schemas_fields_and_required_ones(body: type) -> None:
    schema = SCHEMAS[body.__name__]
    hints = get_type_hints(body, include_extras=True)  # the client's annotations are strings
    assert set(hints) == set(schema["properties"])
    assert {k for k, h in hints.items() if get_origin(h) is Required} == set(schema["required"])
