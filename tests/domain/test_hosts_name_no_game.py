"""The hosts name no game (issue 23): outside each game's package and the per-game ``games/``
folders of the API and the viewer, no code imports a game's own modules, takes a game from the
registry by its constant, or writes a game's registry name or title in a string. What hosts
know of a game they read from the registry (``domain.games``), so a new game is its package,
its registry line and its ``games/`` modules.

Read from the code's syntax, not its text: comments and docstrings may name a game by way of
example. The one exception is the product's own name, which is the first game's too (the
``cuccu`` command and logger, the service's title), listed below with where it is used.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from domain.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
#: the registry itself names every game: that is its job
REGISTRY = Path("domain/games/__init__.py")
#: the product's name where it is the product's (not a game's): a logger, the command's name,
#: the telemetry service name, the app's and the viewer's titles
PRODUCT_NAME: frozenset[tuple[str, str]] = frozenset({
    ("api/app.py", "cuccu"),  # the logger
    ("api/app.py", "Cuccù match service"),  # the OpenAPI title
    ("api/cli.py", "cuccu"),  # the command's name
    ("api/logs.py", "cuccu"),  # the logger and its handler
    ("api/observe.py", "cuccu"),  # the metrics' app name
    ("api/tournament.py", "cuccu"),  # the command's name
    ("api/tracing.py", "cuccu"),  # the telemetry service name
    ("api/transparency/store.py", "cuccu"),  # the logger
    ("viewer/app.py", "Cuccù"),  # the browser tab's title
})  # fmt: skip


def _hosts() -> Iterator[Path]:
    for top in ("api", "viewer", "domain"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT)
            folders = relative.parts[1:-1]
            if top in ("api", "viewer") and "games" in folders:
                continue  # a game's own presentation or report
            if top == "domain" and folders[:1] == ("games",) and len(folders) > 1:
                continue  # a game's package
            if relative != REGISTRY:
                yield relative


def _docstrings(tree: ast.Module) -> set[int]:
    owners = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, owners)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }


def _namings(path: Path, source: str) -> list[str]:
    """Each place the module at ``path`` (its ``source``) names a game, as ``line: what``."""
    return [f"{line}: {what}" for line, what in sorted(_found(path, source))]


def _found(path: Path, source: str) -> Iterator[tuple[int, str]]:
    names = set(GAMES)
    titles = {game.title for game in GAMES.values()}
    own_modules = tuple(
        f"{host}.games.{name}" for host in ("domain", "api", "viewer") for name in names
    )
    tree = ast.parse(source)
    docstrings = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if id(node) in docstrings or (str(path), text) in PRODUCT_NAME:
                continue
            if text in names or any(title in text for title in titles):
                yield node.lineno, f"the string {text[:60]!r}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(own_modules):
                yield node.lineno, f"imports {node.module}"
            if node.module == "domain.games":
                for alias in node.names:
                    if alias.name.lower() in names:
                        yield node.lineno, f"imports the registry's {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(own_modules):
                    yield node.lineno, f"imports {alias.name}"


def test_no_host_names_a_game() -> None:
    found = {str(path): _namings(path, (ROOT / path).read_text("utf-8")) for path in _hosts()}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_scan_sees_a_game_named_in_a_host() -> None:
    # the scan itself: each way of naming a game is caught, a comment and a docstring are not
    source = (
        '"""A docstring may say Cuccù."""\n'
        "from domain.games import CUCCO21\n"
        "from domain.games.chase import game\n"
        "import viewer.games.cuccu\n"
        "# a comment may say Cucco 21\n"
        "SCORE = {'cuccu': 'lives'}\n"
        "TITLE = 'Ranter-Go-Round'\n"
        "LOGGER = 'cuccu'\n"
    )
    assert _namings(Path("viewer/probe.py"), source) == [
        "2: imports the registry's CUCCO21",
        "3: imports domain.games.chase",
        "4: imports viewer.games.cuccu",
        "6: the string 'cuccu'",
        "7: the string 'Ranter-Go-Round'",
        "8: the string 'cuccu'",
    ]
    assert _namings(Path("api/app.py"), "LOGGER = 'cuccu'\n") == []  # the product's name
