"""``cuccu witness URL --state DIR``: a witness of the service's transparency log.

The state directory holds the log key the witness pinned (``log-key``, a note verifier key:
given with ``--log-key``, else what ``/log/key`` served on the first visit) and the last
checkpoint it accepted (``checkpoint``, the signed note as served). Each visit:

1. fetches ``/log/checkpoint`` and opens it with the pinned key: a checkpoint signed by any
   other key, or of another origin, is refused;
2. compares it with the remembered one: a smaller tree means leaves were dropped; the same
   size with another root means leaves were rewritten; a larger tree must come with a valid
   consistency proof (``/log/proof/consistency?from=OLD&to=NEW``, RFC 9162 §2.1.4.2), which
   no log can give after dropping, reordering or rewriting any leaf it had;
3. remembers the new checkpoint (only when it passed).

Anyone can run one: it needs nothing of the service but its URL, and what it remembers is
exactly what it checks the next time (docs/API.md, "Transparency log").
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import httpx

from api.transparency.note import Checkpoint, NoteError, NoteVerifier, open_checkpoint
from api.transparency.verify import hashes_of
from domain import merkle


class WitnessError(Exception):
    """The log failed the witness's check (or could not be checked): the message says how."""


def _get(client: httpx.Client, path: str, **params: int) -> httpx.Response:
    try:
        response = client.get(path, params=params or None)
    except httpx.HTTPError as exc:
        raise WitnessError(f"the service did not answer {path} ({exc})") from None
    if response.status_code != 200:
        raise WitnessError(f"{path} answered {response.status_code}: {response.text[:300]}")
    return response


def _pinned_key(client: httpx.Client, state: Path, pin: str | None) -> NoteVerifier:
    key_file = state / "log-key"
    given: NoteVerifier | None = None
    if pin:
        path = Path(pin)
        given = NoteVerifier.parse(path.read_text(encoding="utf-8") if path.is_file() else pin)
    if key_file.is_file():
        pinned = NoteVerifier.parse(key_file.read_text(encoding="utf-8"))
        if given is not None and given != pinned:
            raise WitnessError(
                f"--log-key {given.text()} is not the key this state pinned ({pinned.text()})"
            )
        return pinned
    verifier = given or NoteVerifier.parse(_get(client, "/log/key").text)
    _write(key_file, verifier.text() + "\n")
    return verifier


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def visit(url: str, state: Path, *, pin: str | None = None, timeout: float = 30.0) -> str:
    """One visit: what was checked, or :class:`WitnessError` saying what the log did."""
    state.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=url.rstrip("/"), timeout=timeout) as client:
        try:
            verifier = _pinned_key(client, state, pin)
        except (NoteError, OSError) as exc:
            raise WitnessError(f"unusable log key: {exc}") from None
        signed = _get(client, "/log/checkpoint").text
        try:
            new = open_checkpoint(signed, verifier)
        except NoteError as exc:
            raise WitnessError(f"checkpoint refused: {exc}") from None
        seen = state / "checkpoint"
        if not seen.is_file():
            _write(seen, signed)
            return (
                f"first visit: pinned key {verifier.text()}; log {new.origin} has {new.size} leaves"
            )
        old = open_checkpoint(seen.read_text(encoding="utf-8"), verifier)
        _check(client, old, new)
    _write(seen, signed)
    grown = new.size - old.size
    return (
        f"log {new.origin}: {new.size} leaves, consistent with the {old.size} seen before "
        f"({grown} appended)"
    )


def _check(client: httpx.Client, old: Checkpoint, new: Checkpoint) -> None:
    if new.origin != old.origin:
        raise WitnessError(f"the log is now {new.origin!r}, was {old.origin!r}")
    if new.size < old.size:
        raise WitnessError(
            f"the log shrank from {old.size} to {new.size} leaves: it dropped logged results"
        )
    if new.size == old.size:
        if new.root != old.root:
            raise WitnessError(
                f"the tree of {new.size} leaves has another root than before: the log "
                "rewrote or reordered logged results"
            )
        return
    answer = _get(client, "/log/proof/consistency", **{"from": old.size, "to": new.size})
    try:
        body = answer.json()
        proof = hashes_of(body["consistency"])
    except (ValueError, KeyError, TypeError) as exc:
        raise WitnessError(f"unreadable consistency proof ({exc})") from None
    if not merkle.verify_consistency(old.size, new.size, proof, old.root, new.root):
        raise WitnessError(
            f"the tree of {new.size} leaves is not consistent with the tree of {old.size} "
            "seen before: the log dropped, reordered or rewrote logged results"
        )
