"""The Cuccù viewer: ``streamlit run viewer/app.py`` (the entrypoint and page router)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run` puts only viewer/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from viewer.typeface import font_face_css  # noqa: E402
from viewer.ui import T, api_selector, language_selector  # noqa: E402

PAGES = (
    ("app_pages/matches.py", "nav.matches", ":material/list_alt:", "matches"),
    ("app_pages/replay.py", "nav.replay", ":material/movie:", "replay"),
    ("app_pages/audit.py", "nav.audit", ":material/verified_user:", "audit"),
    ("app_pages/charts.py", "nav.charts", ":material/monitoring:", "charts"),
    ("app_pages/play.py", "nav.play", ":material/playing_cards:", "play"),
    ("app_pages/leaderboard.py", "nav.leaderboard", ":material/leaderboard:", "leaderboard"),
    ("app_pages/rules.py", "nav.rules", ":material/menu_book:", "rules"),
)


def main() -> None:
    st.set_page_config(page_title="Cuccù", page_icon=":material/playing_cards:", layout="wide")
    st.html(font_face_css())  # Thai letters for a machine with no Thai font
    with st.sidebar:
        language_selector()
        api_selector()
    pages = [
        st.Page(path, title=T(key), icon=icon, url_path=url, default=i == 0)
        for i, (path, key, icon, url) in enumerate(PAGES)
    ]
    page = st.navigation(pages)
    st.title(page.title)  # the icon is a font glyph: the title stays text
    page.run()


main()
