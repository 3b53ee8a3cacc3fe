"""domain/ stays pure: the standard library and msgspec only; no chance or clock outside bots."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
ALLOWED_THIRD_PARTY = {"msgspec", "domain"}
CHANCE_AND_CLOCK = {"random", "secrets", "time", "datetime"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_domain_imports_only_the_standard_library_and_msgspec() -> None:
    for path in DOMAIN.rglob("*.py"):
        foreign = _imports(path) - ALLOWED_THIRD_PARTY - set(sys.stdlib_module_names)
        assert not foreign, f"{path.relative_to(DOMAIN)} imports {foreign}"


def test_no_randomness_or_clock_outside_bots() -> None:
    for path in DOMAIN.rglob("*.py"):
        if "bots" in path.relative_to(DOMAIN).parts:
            continue
        used = _imports(path) & CHANCE_AND_CLOCK
        assert not used, f"{path.relative_to(DOMAIN)} imports {used}"
        assert "datetime.now" not in path.read_text(encoding="utf-8")
