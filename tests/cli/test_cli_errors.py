"""The command line says what is wrong with a database instead of printing a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.cli import main


def test_verify_on_an_unmigrated_database_names_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    assert main(["--database-url", url, "verify", "some-match-id"]) == 2
    err = capsys.readouterr().err
    assert "cuccu db upgrade" in err and "Traceback" not in err


def test_export_from_an_unreachable_database_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:1/nothing"
    assert main(["--database-url", url, "export", "some-match-id"]) == 2
    err = capsys.readouterr().err
    assert "refused" in err and "Traceback" not in err
