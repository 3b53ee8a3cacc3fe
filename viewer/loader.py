"""The "which match" panel shared by Replay, Audit and Charts: API, upload or sample."""

from __future__ import annotations

import streamlit as st

from api.keys import BadKey, KeyRing
from domain.audit import AuditInputError
from viewer import session
from viewer.api_client import ApiError, ApiUnavailable, Client
from viewer.ui import T, api_url


def open_from_api(match_id: str) -> bool:
    """Load a finished match's export from the API; False (with a message) if that fails."""
    try:
        data = Client(api_url()).export(match_id)
        session.open_match(session.from_ndjson(match_id[:8], data, match_id, trusted_keys()))
        st.query_params["match"] = match_id  # a link to this page reopens the match
    except ApiUnavailable as error:
        st.warning(T("api.down", url=api_url(), error=error))
        return False
    except ApiError as error:
        st.error(T("api.error", error=error))
        return False
    except AuditInputError as error:
        st.error(T("load.bad_file", error=error))
        return False
    return True


def trusted_keys() -> KeyRing:
    """The signing keys of the API this viewer uses (none if it does not answer)."""
    try:
        return KeyRing.from_document(Client(api_url(), timeout=3.0).signing_keys())
    except (ApiUnavailable, ApiError, BadKey):
        return KeyRing()


def _from_upload() -> None:
    upload = st.file_uploader(T("load.upload"), type=["ndjson", "jsonl", "json", "txt"],
                              key="upload")  # fmt: skip
    if upload is None or st.session_state.get("upload_seen") == upload.file_id:
        return
    st.session_state["upload_seen"] = upload.file_id
    try:
        opened = session.from_ndjson(upload.name, upload.getvalue(), trusted=trusted_keys())
        session.open_match(opened)
        st.query_params.pop("match", None)
    except AuditInputError as error:
        st.error(T("load.bad_file", error=error))


def _from_api() -> None:
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    match_id = left.text_input(T("load.match_id"), key="load_id").strip()
    if right.button(T("load.from_api"), key="load_api", disabled=not match_id):
        open_from_api(match_id)


def _sample() -> None:
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    seed = int(left.number_input(T("load.seed"), min_value=0, value=1, step=1, key="sample_seed"))
    if right.button(T("load.sample"), key="load_sample"):
        session.open_match(session.sample(seed, T("sample.label", seed=seed)))
        st.query_params.pop("match", None)


def match_panel() -> session.OpenMatch | None:
    """Show what is open and ways to open another; return the open match, if any.

    A ``?match=<id>`` query parameter opens that finished match from the API.
    """
    match = session.current()
    linked = st.query_params.get("match")
    if linked and (match is None or match.match_id != linked) and open_from_api(linked):
        match = session.current()
    if match is None:
        st.info(T("load.none"))
        _from_upload()
        _from_api()
        _sample()
        match = session.current()
    else:
        with st.expander(T("load.change")):
            _from_upload()
            _from_api()
            _sample()
        match = session.current()
    if match is not None:
        st.caption(T("load.loaded", label=match.label, events=len(match.records),
                     rounds=match.report.rounds))  # fmt: skip
        if not match.replay.full:
            st.warning(T("load.partial"))
    return match
