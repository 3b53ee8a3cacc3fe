"""The players' rules of each game in each of the viewer's languages: ``<game>/<lang>.md`` here.

They are package data (``pyproject.toml``), read through :mod:`importlib.resources`, so the
Rules page finds them wherever the package is installed, not only in a checkout; this folder is
their only copy.
"""

from __future__ import annotations

from importlib.resources import files


def rules_text(game: str, lang: str) -> str:
    """The rules of ``game`` (a name in ``domain.games.GAMES``) in ``lang`` (one of ``LANGS``)."""
    return files(__name__).joinpath(game, f"{lang}.md").read_text(encoding="utf-8")
