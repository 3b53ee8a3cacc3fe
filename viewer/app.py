"""The Cuccù viewer: ``streamlit run viewer/app.py`` (the entrypoint and page router)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run` puts only viewer/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from viewer.typeface import font_face_css  # noqa: E402
from viewer.ui import PAGE_STYLE, T, api_selector, language_selector  # noqa: E402

# No icons in the navigation: Material icons are a font's ligatures, whose names ("list_alt")
# print over the labels until the font has loaded, and a ":material/…:" page icon is fetched
# from the network.
PAGES = (
    ("app_pages/matches.py", "nav.matches", "matches"),
    ("app_pages/replay.py", "nav.replay", "replay"),
    ("app_pages/audit.py", "nav.audit", "audit"),
    ("app_pages/charts.py", "nav.charts", "charts"),
    ("app_pages/play.py", "nav.play", "play"),
    ("app_pages/tables.py", "nav.tables", "tables"),
    ("app_pages/leaderboard.py", "nav.leaderboard", "leaderboard"),
    ("app_pages/rules.py", "nav.rules", "rules"),
)


def main() -> None:
    # players see no Deploy button or developer menu, however the viewer was started
    st.set_option("client.toolbarMode", "viewer")
    st.set_page_config(page_title="Cuccù", layout="wide")
    st.html(font_face_css() + PAGE_STYLE)  # Thai letters for a machine with no Thai font
    with st.sidebar:
        language_selector()
        api_selector()
    pages = [
        st.Page(path, title=T(key), url_path=url, default=i == 0)
        for i, (path, key, url) in enumerate(PAGES)
    ]
    page = st.navigation(pages)
    st.title(page.title)
    page.run()


main()
