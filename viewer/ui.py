"""Small helpers shared by the pages: the chosen language and the API address."""

from __future__ import annotations

import os
from typing import cast

import streamlit as st

from viewer.i18n import LANGS, Lang, tr

DEFAULT_API_URL = "http://127.0.0.1:8000"


def lang() -> Lang:
    chosen = st.session_state.get("lang", "en")
    return cast(Lang, chosen) if chosen in LANGS else "en"


def T(key: str, **values: object) -> str:  # noqa: N802 - reads like gettext's _()
    """``key`` in the language chosen in the sidebar."""
    return tr(lang(), key, **values)


def default_api_url() -> str:
    """The API's base URL: the ``CUCCU_API_URL`` setting, else the local default."""
    return (os.environ.get("CUCCU_API_URL") or DEFAULT_API_URL).rstrip("/")


def api_url() -> str:
    chosen = st.session_state.get("api_url")
    return str(chosen).rstrip("/") if chosen else default_api_url()
