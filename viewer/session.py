"""The match open in this browser session: its records, replay and audit report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from api.keys import KeyRing
from api.signing import SealCheck, check_seal
from domain.audit import AuditRecord, AuditReport, audit, chain, parse_export
from viewer.replay_model import Replay
from viewer.simulate import bot_match

_KEY = "cuccu_open_match"


@dataclass
class OpenMatch:
    label: str
    match_id: str | None
    records: Sequence[AuditRecord]
    replay: Replay
    report: AuditReport
    #: the service's signature checked against the keys of the API the viewer uses (None for
    #: a sample, which no service recorded)
    signature: SealCheck | None = None


def build(label: str, records: Sequence[AuditRecord], match_id: str | None = None) -> OpenMatch:
    return OpenMatch(label, match_id, records, Replay(records), audit(records))


def from_ndjson(
    label: str, data: bytes | str, match_id: str | None = None, trusted: KeyRing | None = None
) -> OpenMatch:
    """An export, audited and its signature checked against ``trusted`` (never against the
    keys the export carries). Raises ``domain.audit.AuditInputError`` if it is unreadable."""
    exported = parse_export(data)
    opened = build(label, exported.records, match_id)
    opened.signature = check_seal(opened.report, exported.seal, exported.keys, trusted or KeyRing())
    return opened


def sample(seed: int, label: str) -> OpenMatch:
    return build(label, chain(bot_match(seed, levels=("basic", "random"))))


def current() -> OpenMatch | None:
    found = st.session_state.get(_KEY)
    return found if isinstance(found, OpenMatch) else None


def step() -> int:
    return int(st.session_state.get("step", 0))


def go(to: int) -> None:
    """Move the replay to step ``to`` (clamped), e.g. from a button's callback."""
    match = current()
    last = match.replay.last_step if match is not None else 0
    st.session_state["step"] = max(0, min(int(to), last))


def open_match(match: OpenMatch) -> None:
    st.session_state[_KEY] = match
    st.session_state["step"] = 0
