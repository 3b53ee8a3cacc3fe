"""Scenario runner for every game's scenario files, chosen by each file's ``format`` field:
the game whose ``Game.scenario_format`` it names runs it (each format is described beside its
files, in ``tests/scenarios*/``).

``python -m domain.conformance DIR [DIR...]`` prints one line per failing scenario with its
first difference, then ``N passed, M failed``; it exits non-zero when any failed. Each game's
``play`` runs a file's round(s) through its Decider and returns what they produced in the
``expected`` format; this module compares.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from domain.errors import DomainError
from domain.games import DEFAULT_GAME, GAMES, NOT_YET_HOSTED, by_name


def _game_of(scenario: dict[str, Any]) -> Any:
    # Files written before a second game existed may lack ``format``: they are the first
    # game's, the registry's default (as a match that names no game is).
    name = scenario.get("format", by_name(DEFAULT_GAME).scenario_format)
    games = (*GAMES.values(), *NOT_YET_HOSTED)  # a game's rules are checked before it is hosted
    for game in games:
        if game.scenario_format == name:
            return game
    known = ", ".join(game.scenario_format for game in games)
    raise ValueError(f"unknown scenario format {name!r}; known: {known}")


def same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values of the same type. Python's ``==`` takes ``true`` for ``1`` and
    ``1.0`` for ``1``; a format may count them as different, and no file of the older
    formats relies on the confusion (all three folders pass either way)."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def first_difference(scenario: dict[str, Any]) -> str | None:
    """None if the scenario passes, else a one-line description of its first difference."""
    try:
        game = _game_of(scenario)
    except ValueError as error:
        return f"malformed scenario: {error}"
    if not isinstance(scenario.get("expected"), dict):
        return "malformed scenario: no 'expected' object"
    try:
        actual = game.play_scenario(scenario)
    except (AssertionError, DomainError) as error:
        return f"{type(error).__name__}: {error}"
    except (KeyError, TypeError, ValueError, AttributeError) as error:  # a field missing or wrong
        return f"malformed scenario: {type(error).__name__}: {error}"
    for field, want in scenario["expected"].items():
        if field not in actual:
            return f"malformed scenario: unknown expected field {field!r}"
        got = actual[field]
        if field == "events" and isinstance(want, list) and isinstance(got, list):
            for i, (w, g) in enumerate(zip(want, got, strict=False)):
                if not same_json(w, g):
                    return f"events[{i}]: expected {json.dumps(w)}, got {json.dumps(g)}"
            if len(want) != len(got):
                return f"events: expected {len(want)} entries, got {len(got)}"
        elif not same_json(got, want):
            return f"{field}: expected {json.dumps(want)}, got {json.dumps(got)}"
    return None


def scenario_files(directories: list[str]) -> list[Path]:
    return sorted(p for d in directories for p in Path(d).glob("*.json"))


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: python -m domain.conformance DIR [DIR...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in scenario_files(argv):
        difference = first_difference(json.loads(path.read_text(encoding="utf-8")))
        if difference is None:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {path.name}: {difference}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
