"""docs/API.md keeps up with the server: every path, problem type, event type and command."""

from __future__ import annotations

import json
import re
from typing import get_args

from api.app import API_VERSION
from api.models import CommandType
from api.problems import PROBLEM_TYPES
from domain.games.cuccu.events import EVENT_TYPES
from tests.integration.server import ROOT

GUIDE = (ROOT / "docs" / "API.md").read_text(encoding="utf-8")
OPENAPI = json.loads((ROOT / "docs" / "openapi.json").read_text(encoding="utf-8"))


def test_every_path_of_the_openapi_document_is_in_the_guide() -> None:
    for path, operations in OPENAPI["paths"].items():
        documented = path.replace("{match_id}", "{id}")
        for method in operations:
            assert f"`{method.upper()} {documented}" in GUIDE, (method, path)


def test_every_problem_event_and_command_is_in_the_guide() -> None:
    for slug, (status, _title) in PROBLEM_TYPES.items():
        assert re.search(rf"\| {status} \| `{slug}` \|", GUIDE), slug
    for event in EVENT_TYPES:
        tag = event.__struct_config__.tag
        assert f"| `{tag}` |" in GUIDE, tag
    for command in get_args(CommandType):
        assert f"""-d '{{"type": "{command}\"""" in GUIDE, command
    assert f"now **{API_VERSION}**" in GUIDE
    assert OPENAPI["info"]["version"] == API_VERSION


def test_play_sh_uses_only_documented_endpoints() -> None:
    script = (ROOT / "examples" / "play.sh").read_text(encoding="utf-8")
    used = set(re.findall(r'request (GET|POST) "?(/[^" ]*)', script))
    assert len(used) == 5, used
    for method, path in used:
        documented = re.sub(r"\$MATCH", "{id}", path).replace("/seats/0/", "/seats/{seat}/")
        assert f"`{method} {documented}" in GUIDE, (method, path)
