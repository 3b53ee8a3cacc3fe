"""Rules: the project's own rules text in English, French, Portuguese and Thai."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from viewer.i18n import LANGS
from viewer.ui import T, lang

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


def rules_text(code: str) -> str:
    return (RULES_DIR / f"{code}.md").read_text(encoding="utf-8")


def page() -> None:
    codes = list(LANGS)
    chosen = st.segmented_control(T("rules.read_in"), codes, format_func=LANGS.__getitem__,
                                  default=lang(), key="rules_lang")  # fmt: skip
    st.markdown(rules_text(str(chosen or lang())))


page()
