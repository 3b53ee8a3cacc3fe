"""Rules: the project's own rules text, in the language chosen in the sidebar."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from viewer.ui import lang

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_text(code: str) -> str:
    return (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")


def page() -> None:
    # one language setting for every page: the sidebar's (a second switch here disagreed with it)
    st.markdown(rules_text(lang()))


page()
