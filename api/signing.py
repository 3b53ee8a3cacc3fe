"""Signed match results: the service's Ed25519 signature over each finished match's final hash.

A hash chain proves that a log was not edited in place, not that it is the log the service
wrote: anyone can rewrite a whole log and recompute every hash. The *seal* anchors it. When a
match is over the service signs (docs/API.md, "Signatures")::

    canonical_json({"final_hash": H, "match_id": M, "purpose": "cuccu-match-result/1",
                    "version": N})

binding the match's id and final version to the hash of its last record, so a rewritten log
(another final hash) and a genuine log relabelled with another match's id (another match id:
in envelope 2 the id is inside every hashed record) both fail.

Keys (``api/keys.py``, ``api/keystore.py``): the active private key is a file found through the
settings, made on first use beside a SQLite database; beside it the *key ring* lists every
public key the service has signed with, active and retired. The ring is served at
``/.well-known/cuccu-keys.json``, copied into exports, and is what ``cuccu verify`` trusts.
Rotation (``cuccu keys rotate``) retires the active key (its public key stays in the ring, so
older seals keep verifying) and makes a new one.

The pure audit (``domain.audit``) reports the match id, final version and final hash; this
module checks a seal against them, since verification needs ``cryptography``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.keys import KeyRing, PublicKey, b64u, raw_public, unb64u
from domain.audit import AuditReport, SealClaim
from domain.envelope import canonical_json

PURPOSE: Final = "cuccu-match-result/1"
ALGORITHM: Final = "Ed25519"
WELL_KNOWN_PATH: Final = "/.well-known/cuccu-keys.json"


def signed_message(match_id: str, version: int, final_hash: str) -> bytes:
    """The bytes a seal signs: what a finished match is, in canonical JSON."""
    return canonical_json(
        {"final_hash": final_hash, "match_id": match_id, "purpose": PURPOSE, "version": version}
    )


@dataclass(frozen=True)
class Seal:
    """A signature over a finished match (stored in ``match_seals``, exported on a last line)."""

    match_id: str
    version: int
    final_hash: str
    key_id: str
    signature: str  # base64url, no padding

    def claim(self) -> dict[str, Any]:
        return {
            "algorithm": ALGORITHM,
            "final_hash": self.final_hash,
            "key_id": self.key_id,
            "match_id": self.match_id,
            "signature": self.signature,
            "version": self.version,
        }


#: what signs a match's final record: (match id, final version, final hash) -> its seal
SignFinal: TypeAlias = Callable[[str, int, str], Seal]


def seal_line(seal: Seal, ring: KeyRing, log: Mapping[str, Any] | None = None) -> bytes:
    """The export's last line: the seal and the public keys of the service (untrusted as
    such: a verifier trusts its own copy of the keys, not the export's), and once the result
    is in the transparency log its inclusion proof and checkpoint (``log``)."""
    line: dict[str, Any] = {"keys": ring.document()["keys"], "seal": seal.claim()}
    if log is not None:
        line["log"] = dict(log)
    return canonical_json(line) + b"\n"


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey

    @property
    def public(self) -> PublicKey:
        return PublicKey(raw_public(self.private.public_key()))

    @property
    def key_id(self) -> str:
        return self.public.key_id

    def sign(self, match_id: str, version: int, final_hash: str) -> Seal:
        signature = self.private.sign(signed_message(match_id, version, final_hash))
        return Seal(match_id, version, final_hash, self.key_id, b64u(signature))


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# --- checking a seal -----------------------------------------------------------------------


@dataclass(frozen=True)
class SealCheck:
    ok: bool
    #: "signed", "unsigned", "mismatch", "untrusted", "unknown-key", "bad-signature"
    status: str
    detail: str


def check_seal(
    report: AuditReport,
    seal: SealClaim | None,
    export_keys: Iterable[Mapping[str, Any]],
    trusted: KeyRing,
) -> SealCheck:
    """Whether ``seal`` is a trusted signature over the match the audit read."""
    if seal is None:
        return SealCheck(False, "unsigned", "the export carries no signature")
    read = (report.match_id, report.final_version, report.final_hash)
    if (seal.match_id, seal.version, seal.final_hash) != read:
        return SealCheck(
            False,
            "mismatch",
            f"the signature is over match {seal.match_id} at v{seal.version} with final hash "
            f"{seal.final_hash[:12]}…, but the log is match {report.match_id} ending at "
            f"v{report.final_version} with hash {(report.final_hash or '')[:12]}…",
        )
    if seal.algorithm != ALGORITHM:
        return SealCheck(False, "bad-signature", f"unknown algorithm {seal.algorithm!r}")
    key = trusted.get(seal.key_id)
    if key is None:
        shipped = any(k.get("kid") == seal.key_id for k in export_keys)
        if shipped:
            return SealCheck(
                False,
                "untrusted",
                f"signed with key {seal.key_id}, found only in the export itself: untrusted "
                "(give the service's keys with --trusted-key, or verify where its key store is)",
            )
        return SealCheck(False, "unknown-key", f"signed with unknown key {seal.key_id}")
    try:
        signature = unb64u(seal.signature)
    except ValueError:
        signature = b""
    message = signed_message(seal.match_id, seal.version, seal.final_hash)
    if not key.verifies(signature, message):
        return SealCheck(False, "bad-signature", f"the signature by key {key.key_id} is not valid")
    return SealCheck(True, "signed", f"signed by trusted key {key.key_id} ({key.status})")
