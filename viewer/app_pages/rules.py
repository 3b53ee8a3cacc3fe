"""Rules: the project's own rules text of each game, in the language chosen in the sidebar."""

from __future__ import annotations

import streamlit as st

from domain.games import GAMES
from viewer.games import game_title
from viewer.rules import rules_text
from viewer.ui import T, lang


def page() -> None:
    game = st.radio(T("load.game"), list(GAMES), format_func=game_title, horizontal=True,
                    key="rules_game")  # fmt: skip
    # one language setting for every page: the sidebar's (a second switch here disagreed with it)
    st.markdown(rules_text(str(game), lang()))


page()
