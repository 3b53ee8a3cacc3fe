"""The match open in this browser session: its records, replay and audit report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from domain.audit import AuditRecord, AuditReport, audit, chain, parse_ndjson
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


def build(label: str, records: Sequence[AuditRecord], match_id: str | None = None) -> OpenMatch:
    return OpenMatch(label, match_id, records, Replay(records), audit(records))


def from_ndjson(label: str, data: bytes | str, match_id: str | None = None) -> OpenMatch:
    """Raises ``domain.audit.AuditInputError`` for an unreadable export."""
    return build(label, parse_ndjson(data), match_id)


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
