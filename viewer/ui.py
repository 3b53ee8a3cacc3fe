"""Small helpers shared by the pages: the chosen language and the API address."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, cast

import streamlit as st

from viewer.i18n import LANGS, Lang, tr, trn

DEFAULT_API_URL = "http://127.0.0.1:8000"
LANG_KEY = "lang"  # the chosen language: plain session state, which every page keeps
LANG_WIDGET = "lang_select"  # the sidebar's selector, whose own state Streamlit may drop
API_KEY = "api_url"  # the API's address, kept the same way as the language
API_WIDGET = "api_url_input"
#: the key of a container whose words are about keys to press ("press 1, 2, 3…")
KEYS_HINT = "keys_hint"
#: the page's own style: on a touch screen with no mouse (a phone, a tablet) there are no keys to
#: press, so the hints about them are hidden: that container, the key on each choice's button,
#: and Replay's list of keys. A container whose key starts with ``hidden_`` is never shown: it
#: holds what a page notes for itself and its tests (Tables' count of its questions for news)
PAGE_STYLE = (
    "<style>[class*='st-key-hidden_'] { display: none; }"
    " @media (hover: none) and (pointer: coarse) {"
    f" .st-key-{KEYS_HINT}, [class*='st-key-do_'] button code, .ct-keys {{ display: none; }}"
    " }</style>"
)


def lang() -> Lang:
    chosen = st.session_state.get(LANG_KEY, "en")
    return cast(Lang, chosen) if chosen in LANGS else "en"


def _language_chosen() -> None:
    st.session_state[LANG_KEY] = st.session_state[LANG_WIDGET]


def language_selector() -> None:
    """The one language setting, in the sidebar of every page.

    Streamlit forgets a widget's state when a run does not draw it (a page switch can), so the
    choice lives under its own key and the selector is set from it on every run. It is also
    kept in the address (``?lang=xx``), which a new session (a reload, a shared link) reads.
    """
    linked = st.query_params.get(LANG_KEY)
    if LANG_KEY not in st.session_state and linked in LANGS:  # a link opened in this language
        st.session_state[LANG_KEY] = linked
    st.session_state[LANG_WIDGET] = lang()
    st.selectbox(T("side.language"), list(LANGS), format_func=LANGS.__getitem__,
                 key=LANG_WIDGET, on_change=_language_chosen)  # fmt: skip
    st.query_params[LANG_KEY] = lang()  # in the address: a reload or a shared link keeps it


def _api_chosen() -> None:
    st.session_state[API_KEY] = str(st.session_state[API_WIDGET]).strip()


def api_selector() -> None:
    """The API address field in the sidebar, kept across pages like the language."""
    st.session_state[API_WIDGET] = api_url()
    st.text_input(T("side.api"), key=API_WIDGET, on_change=_api_chosen)


def T(key: str, **values: object) -> str:  # noqa: N802 - reads like gettext's _()
    """``key`` in the language chosen in the sidebar."""
    return tr(lang(), key, **values)


def N(key: str, n: int, **values: object) -> str:  # noqa: N802 - reads like gettext's ngettext
    """The plural entry ``key`` for the count ``n``, in the chosen language."""
    return trn(lang(), key, n, **values)


def default_api_url() -> str:
    """The API's base URL: the ``CUCCU_API_URL`` setting, else the local default."""
    return (os.environ.get("CUCCU_API_URL") or DEFAULT_API_URL).rstrip("/")


def api_url() -> str:
    chosen = st.session_state.get(API_KEY)
    return str(chosen).rstrip("/") if chosen else default_api_url()


def select(container: Any, label: str, options: Sequence[str], *, key: str,
           format_func: Callable[[str], str]) -> str:  # fmt: skip
    """A select box whose words follow the language, its choice kept under ``key``.

    Streamlit keeps a select box's shown words from the run that drew it: after a language
    switch it would still read "All" in Thai. The widget's own key therefore names the language
    (a switch draws a new one), and the choice carries over from ``key``.
    """
    options = list(options)
    widget = f"{key}.{lang()}"
    if widget not in st.session_state:
        held = st.session_state.get(key)
        st.session_state[widget] = held if held in options else options[0]
    chosen = str(container.selectbox(label, options, key=widget, format_func=format_func))
    st.session_state[key] = chosen
    return chosen


def picked(key: str) -> str:
    """What the ``select`` under ``key`` holds now (in a form's callback, the sent value)."""
    return str(st.session_state.get(f"{key}.{lang()}", st.session_state.get(key, "")))


def name_input(key: str) -> None:
    """The player's name field: the default name follows the language until one is typed."""
    defaults = {tr(other, "play.default_name") for other in LANGS}
    if st.session_state.get(key, "") in defaults | {""}:
        st.session_state[key] = T("play.default_name")
    st.text_input(T("play.name"), max_chars=40, key=key)
