"""What every audit check reads and reports, shared by ``domain.audit`` and each game's checks.

Kept apart from ``domain.audit`` so that a game's own checks (``domain.games.<game>.audit``)
can be written against it without importing the registry that names them (a cycle).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.envelope import RECORD_ENVELOPE, BadRecord, parse_body


class AuditRecord(msgspec.Struct, frozen=True):
    """One stored event as exported: its version, the event, its record bytes and its hashes.

    ``body`` is the record exactly as hashed (``domain.envelope``); ``event`` is what the
    checks read (an event of the match's game), and must be the event ``body`` holds (the
    hash-chain check makes sure).
    """

    version: int
    event: Any
    prev_hash: str
    hash: str
    body: bytes
    envelope: int = RECORD_ENVELOPE
    #: envelope 1 only: what the record bytes do not cover (match_id, version, meta, time)
    context: dict[str, Any] | None = None
    type: str | None = None  # the ``type`` label of a line exported before revision 0002

    @property
    def match_id(self) -> str | None:
        """The match the record belongs to (hashed in envelope 2, a bare label in 1)."""
        if self.envelope == RECORD_ENVELOPE:
            try:
                return parse_body(self.body).match_id
            except BadRecord:
                return None
        label = (self.context or {}).get("match_id")
        return label if isinstance(label, str) else None


class CheckFailed(Exception):
    """A check's verdict on a log: ``version`` is the first event where it fails."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(detail)
        self.version = version
        self.detail = detail


#: a check's body: the number of items it looked at, or :class:`CheckFailed`
CheckBody = Callable[[Sequence[AuditRecord]], int]


@dataclass(frozen=True)
class GameCheck:
    """One check a game adds to the generic ones: its report name, its title, its body."""

    name: str
    title: str
    run: CheckBody


@dataclass(frozen=True)
class GameAudit:
    """What the audit needs of a game beyond the generic checks (``Game.audit``)."""

    #: the game's own checks, in report order (between ``hash_chain`` and ``complete``)
    checks: tuple[GameCheck, ...]
    #: the type of the event that closes a whole game (``complete`` wants the log to end on it)
    final_event: str
    #: how ``complete`` names what the log is and what an unfinished one lacks
    noun: str
    unfinished: str
    #: the rounds played and the winners, read off a log's events (for the report)
    summary: Callable[[Sequence[Any]], tuple[int, tuple[int, ...]]]
