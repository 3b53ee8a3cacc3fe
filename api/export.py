"""The one export format of a match: its stored records verbatim, then its seal.

Each line is built by ``domain.envelope.export_line`` around the record bytes as stored (and
hashed); nothing is decoded and encoded again, so what a verifier hashes is what was hashed.
A finished match's export ends with a seal line: the service's signature over the final hash
and the service's public keys (docs/API.md, "Exports"), and once the result is in the
transparency log, its inclusion proof and the checkpoint it is relative to.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from api.signing import seal_line
from api.store.records import StoredEvent, record_time
from api.store.seals import Sealer
from api.transparency.store import LogUnavailable, ResultLog
from domain.envelope import LEGACY_ENVELOPE, export_line


def _legacy_context(s: StoredEvent) -> dict[str, Any]:
    """What an envelope-1 record does not cover, exported beside it (unhashed)."""
    return {
        "match_id": s.match_id,
        "meta": s.meta,
        "recorded_at": record_time(s.recorded_at),
        "version": s.version,
    }


def export_lines(stored: Sequence[StoredEvent]) -> bytes:
    """The record lines of ``stored``, in order."""
    return b"".join(
        export_line(
            s.body.encode("utf-8"),
            s.prev_hash,
            s.hash,
            _legacy_context(s) if s.envelope == LEGACY_ENVELOPE else None,
        )
        for s in stored
    )


async def sealed_export(
    match_id: str,
    stored: Sequence[StoredEvent],
    sealer: Sealer | None,
    *,
    over: bool,
    sign_legacy: bool = True,
    result_log: ResultLog | None = None,
    log_size: int | None = None,
) -> bytes:
    """The export of a match: its records, and for a finished match with a seal its seal line
    (see ``Sealer.seal_of`` for the matches that ended before signatures). Without a sealer
    (signing off) there is no seal line. With ``result_log``, the seal line carries the
    result's inclusion proof at ``log_size`` (default: the log's size now)."""
    lines = export_lines(stored)
    if sealer is None or not over:
        return lines
    seal = await sealer.seal_of(match_id, stored, sign_legacy=sign_legacy)
    if seal is None:
        return lines
    log = None
    if result_log is not None:
        log = await _inclusion(result_log, match_id, log_size, append=sign_legacy)
    return lines + seal_line(seal, sealer.ring, log)


async def _inclusion(
    result_log: ResultLog, match_id: str, size: int | None, *, append: bool
) -> dict[str, Any] | None:
    """The result's inclusion proof for its seal line; None if it is not in the log. A result
    sealed but not appended yet (the appender runs just after the sealing commit) is appended
    now when ``append`` (a reader such as ``cuccu verify`` writes nothing)."""
    try:
        return (await result_log.inclusion(match_id, size)).document()
    except LogUnavailable as error:
        if not append or error.reason != "not-yet-logged":
            return None
    await result_log.append_pending()
    with contextlib.suppress(LogUnavailable):
        return (await result_log.inclusion(match_id, size)).document()
    return None
