"""The match open in this browser session: its records, replay and audit report."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from api.keys import KeyRing
from api.signing import SealCheck, check_seal
from api.transparency.note import NoteVerifier
from api.transparency.verify import LogCheck, check_inclusion
from domain.audit import AuditRecord, AuditReport, audit, chain, parse_export
from domain.clock import is_game_event
from viewer.games import PRESENTATIONS, game_of
from viewer.games.steps import Steps

_KEY = "cuccu_open_match"


@dataclass
class OpenMatch:
    label: str
    match_id: str | None
    records: Sequence[AuditRecord]
    replay: Steps  # the game's own (``viewer.games``)
    report: AuditReport
    #: the registry name of the game its first event names
    game: str
    #: the service's signature checked against the keys of the API the viewer uses (None for
    #: a sample, which no service recorded)
    signature: SealCheck | None = None
    #: the id of the key the export's seal names (None without a seal)
    seal_key: str | None = None
    #: the result's place in the transparency log, checked against the log key of the API the
    #: viewer uses (None for a sample)
    logged: LogCheck | None = None


def build(label: str, records: Sequence[AuditRecord], match_id: str | None = None) -> OpenMatch:
    """A log of any game, replayed by that game's presentation and audited by the one audit."""
    game = game_of([r.event for r in records[:1]])
    # a clock's events (domain/clock.py) and the decks' entropy (domain/entropy.py) are no
    # game's: the replay steps through the game's own, the audit reads them all
    own = [r for r in records if is_game_event(r.event)]
    replay = PRESENTATIONS[game].replay(own)
    return OpenMatch(label, match_id, records, replay, audit(records), game)


def from_ndjson(
    label: str,
    data: bytes | str,
    match_id: str | None = None,
    trusted: KeyRing | None = None,
    log_key: NoteVerifier | None = None,
) -> OpenMatch:
    """An export, audited and its signature checked against ``trusted`` (never against the
    keys the export carries), its inclusion in the log against ``log_key``. Raises
    ``domain.audit.AuditInputError`` if it is unreadable."""
    exported = parse_export(data)
    opened = build(label, exported.records, match_id)
    opened.signature = check_seal(opened.report, exported.seal, exported.keys, trusted or KeyRing())
    opened.seal_key = exported.seal.key_id if exported.seal is not None else None
    if exported.seal is not None:
        opened.logged = check_inclusion(exported.seal, exported.log, log_key)
    return opened


def sample(seed: int, label: str, game: str) -> OpenMatch:
    """A seeded bot match of ``game``, played here (no API needed)."""
    return build(label, chain(PRESENTATIONS[game].sample(seed)))


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
