"""The "which match" panel shared by Replay, Audit and Charts: API, upload or sample.

Every way of opening a match is a widget callback, so it runs before the page is drawn: the
page then shows the match it opened and never a "no match is open" above it.
"""

from __future__ import annotations

import streamlit as st

from api.keys import BadKey, KeyRing
from api.transparency.note import NoteError, NoteVerifier
from domain.audit import AuditInputError
from domain.games import DEFAULT_GAME, GAMES
from viewer import remote, session
from viewer.games import game_title
from viewer.ui import N, T, api_url

_MESSAGE = "load_message"  # (kind, text) left by a callback for the page to show


def _say(kind: str, text: str) -> None:
    st.session_state[_MESSAGE] = (kind, text)


def show_message() -> None:
    """The warning or error a loading callback left, once."""
    message = st.session_state.pop(_MESSAGE, None)
    if message is not None:
        kind, text = message
        (st.warning if kind == "warning" else st.error)(text)


def open_from_api(match_id: str) -> bool:
    """Load a finished match's export from the API; False (with a message) if that fails."""
    try:
        data = remote.export(api_url(), match_id)
        opened = session.from_ndjson(match_id[:8], data, match_id, trusted_keys(), log_key())
        session.open_match(opened)
    except remote.ApiUnavailable as error:
        _say("warning", T("api.down", url=api_url(), error=error))
        return False
    except remote.ApiError as error:
        _say("error", T("api.error", error=error))
        return False
    except AuditInputError as error:
        _say("error", T("load.bad_file", error=error))
        return False
    st.query_params["match"] = match_id  # a link to this page reopens the match
    return True


def trusted_keys() -> KeyRing:
    """The signing keys of the API this viewer uses (none if it does not answer)."""
    try:
        return KeyRing.from_document(remote.signing_keys(api_url()))
    except (remote.ApiUnavailable, remote.ApiError, BadKey):
        return KeyRing()


def log_key() -> NoteVerifier | None:
    """The transparency log key of the API this viewer uses (None if it has none)."""
    try:
        return NoteVerifier.parse(remote.log_key(api_url()))
    except (remote.ApiUnavailable, remote.ApiError, NoteError):
        return None


def _uploaded() -> None:
    upload = st.session_state.get("upload")
    if upload is None:
        return
    try:
        opened = session.from_ndjson(
            upload.name, upload.getvalue(), trusted=trusted_keys(), log_key=log_key()
        )
        session.open_match(opened)
        st.query_params.pop("match", None)
    except AuditInputError as error:
        _say("error", T("load.bad_file", error=error))


def _api_id_sent() -> None:
    match_id = str(st.session_state.get("load_id", "")).strip()
    if match_id:
        open_from_api(match_id)


def _sample_asked() -> None:
    seed = int(st.session_state.get("sample_seed", 1))
    game = str(st.session_state.get("sample_game", DEFAULT_GAME))
    session.open_match(session.sample(seed, T("sample.label", seed=seed), game))
    st.query_params.pop("match", None)


def _openers() -> None:
    st.file_uploader(T("load.upload"), type=["ndjson", "jsonl", "json", "txt"], key="upload",
                     on_change=_uploaded)  # fmt: skip
    # a form sends the typed id with the click: one click loads, and Enter does too
    with st.form("load_api_form", border=False):
        left, right = st.columns([3, 1], vertical_alignment="bottom")
        left.text_input(T("load.match_id"), key="load_id")
        right.form_submit_button(T("load.from_api"), key="load_api", on_click=_api_id_sent)
    game, seed, button = st.columns([2, 2, 1], vertical_alignment="bottom")
    game.selectbox(T("load.game"), list(GAMES), format_func=game_title, key="sample_game")
    seed.number_input(T("load.seed"), min_value=0, value=1, step=1, key="sample_seed")
    button.button(T("load.sample"), key="load_sample", on_click=_sample_asked)


def match_panel() -> session.OpenMatch | None:
    """Show what is open and ways to open another; return the open match, if any.

    A ``?match=<id>`` query parameter opens that finished match from the API.
    """
    match = session.current()
    linked = st.query_params.get("match")
    if linked and (match is None or match.match_id != linked) and open_from_api(linked):
        match = session.current()
    show_message()
    if match is None:
        st.info(T("load.none"))
        _openers()
        return None
    with st.expander(T("load.change")):
        _openers()
    events = N("count.events", len(match.records))
    rounds = N("count.rounds", len(match.replay.round_start))
    loaded = T("load.loaded", label=match.label, events=events, rounds=rounds)
    st.caption(f"{game_title(match.game)} · {loaded}")
    if not match.replay.full:
        st.warning(T("load.partial"))
    return match
