"""Rules: the project's own rules text of each game, in the language chosen in the sidebar."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from domain.games import DEFAULT_GAME, GAMES
from viewer.games import game_title
from viewer.ui import T, lang

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_text(code: str, game: str = DEFAULT_GAME) -> str:
    """Cuccù's rules: ``docs/rules/<lang>.md``; another game's: ``docs/rules/<game>/<lang>.md``."""
    folder = RULES_DIR if game == DEFAULT_GAME else RULES_DIR / game
    return (folder / f"{code}.md").read_text(encoding="utf-8")


def page() -> None:
    game = st.radio(T("load.game"), list(GAMES), format_func=game_title, horizontal=True,
                    key="rules_game")  # fmt: skip
    # one language setting for every page: the sidebar's (a second switch here disagreed with it)
    st.markdown(rules_text(lang(), str(game)))


page()
