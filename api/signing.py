"""Signed match results: the service's Ed25519 signature over each finished match's final hash.

A hash chain proves that a log was not edited in place, not that it is the log the service
wrote: anyone can rewrite a whole log and recompute every hash. The *seal* anchors it. When a
match is over the service signs (docs/API.md, "Signatures")::

    canonical_json({"final_hash": H, "match_id": M, "purpose": "cuccu-match-result/1",
                    "version": N})

binding the match's id and final version to the hash of its last record, so a rewritten log
(another final hash) and a genuine log relabelled with another match's id (another match id:
in envelope 2 the id is inside every hashed record) both fail.

Keys. The active private key is a PEM (PKCS#8) file: ``CUCCU_SIGNING_KEY``, else beside the
SQLite database file (``<database>.signing-key.pem``); it is generated on first use. Beside it,
``<key>.keys.json`` (the *key ring*) lists every public key the service has signed with,
active and retired: it is served at ``/.well-known/cuccu-keys.json``, copied into exports, and
is what ``cuccu verify`` trusts. Rotation (``cuccu keys rotate``) retires the active key (its
public key stays in the ring, so older seals keep verifying) and makes a new one.

The pure audit (``domain.audit``) reports the match id, final version and final hash; this
module checks a seal against them, since verification needs ``cryptography``.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from sqlalchemy.engine import make_url

from api.settings import Settings
from domain.audit import AuditReport, SealClaim
from domain.envelope import canonical_json

PURPOSE: Final = "cuccu-match-result/1"
ALGORITHM: Final = "Ed25519"
WELL_KNOWN_PATH: Final = "/.well-known/cuccu-keys.json"

KeyStatus = Literal["active", "retired"]


def signed_message(match_id: str, version: int, final_hash: str) -> bytes:
    """The bytes a seal signs: what a finished match is, in canonical JSON."""
    return canonical_json(
        {"final_hash": final_hash, "match_id": match_id, "purpose": PURPOSE, "version": version}
    )


def _b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id_of(raw_public: bytes) -> str:
    """A key's id: the first 16 hex digits of the sha256 of its 32 raw bytes."""
    return hashlib.sha256(raw_public).hexdigest()[:16]


class BadKey(ValueError):
    """A key document or key file this module cannot read."""


@dataclass(frozen=True)
class PublicKey:
    raw: bytes
    status: KeyStatus = "active"

    @property
    def key_id(self) -> str:
        return key_id_of(self.raw)

    def jwk(self) -> dict[str, str]:
        """The key as a JSON Web Key (RFC 8037: ``kty`` OKP, ``crv`` Ed25519)."""
        return {
            "crv": "Ed25519",
            "kid": self.key_id,
            "kty": "OKP",
            "status": self.status,
            "use": "sig",
            "x": _b64u(self.raw),
        }

    @classmethod
    def from_jwk(cls, obj: Any) -> PublicKey:
        if not isinstance(obj, dict) or obj.get("kty") != "OKP" or obj.get("crv") != "Ed25519":
            raise BadKey("not an Ed25519 JSON Web Key (kty OKP, crv Ed25519)")
        try:
            raw = _unb64u(str(obj["x"]))
        except (KeyError, ValueError) as error:
            raise BadKey(f"the key's 'x' is not base64url: {error}") from None
        if len(raw) != 32:
            raise BadKey("an Ed25519 public key is 32 bytes")
        key = cls(raw, "retired" if obj.get("status") == "retired" else "active")
        if "kid" in obj and obj["kid"] != key.key_id:
            raise BadKey(f"key id {obj['kid']!r} is not the id of its key ({key.key_id})")
        return key

    def verifies(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class KeyRing:
    """Public keys by id: the service's own (active and retired), or keys a verifier trusts."""

    keys: tuple[PublicKey, ...] = ()

    def get(self, key_id: str) -> PublicKey | None:
        return next((k for k in self.keys if k.key_id == key_id), None)

    def document(self) -> dict[str, list[dict[str, str]]]:
        """The JSON served at ``/.well-known/cuccu-keys.json`` and copied into exports."""
        return {"keys": [k.jwk() for k in self.keys]}

    def with_key(self, key: PublicKey) -> KeyRing:
        """The ring with ``key`` added (or its status updated); the others keep their order."""
        if self.get(key.key_id) is None:
            return KeyRing((*self.keys, key))
        return KeyRing(tuple(key if k.key_id == key.key_id else k for k in self.keys))

    def merged(self, other: KeyRing) -> KeyRing:
        ring = self
        for key in other.keys:
            if ring.get(key.key_id) is None:
                ring = ring.with_key(key)
        return ring

    @classmethod
    def from_document(cls, obj: Any) -> KeyRing:
        """A ring from a key document (``{"keys": [JWK, ...]}``) or a single JWK."""
        if isinstance(obj, dict) and "keys" in obj:
            entries = obj["keys"]
            if not isinstance(entries, list):
                raise BadKey("'keys' must be a list")
        else:
            entries = [obj]
        return cls(tuple(PublicKey.from_jwk(e) for e in entries))


def read_trusted_key(source: str) -> KeyRing:
    """A key given to ``cuccu verify --trusted-key``: a file holding a key document or a JWK,
    or the base64url of the 32 raw bytes of a public key."""
    path = Path(source)
    if path.is_file():
        try:
            return KeyRing.from_document(json.loads(path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as error:
            raise BadKey(f"{source}: not JSON ({error})") from None
    try:
        raw = _unb64u(source)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise BadKey(f"{source!r} is neither a key file nor a base64url Ed25519 public key")
    return KeyRing((PublicKey(raw),))


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


def seal_line(seal: Seal, ring: KeyRing) -> bytes:
    """The export's last line: the seal and the public keys of the service (untrusted as
    such: a verifier trusts its own copy of the keys, not the export's)."""
    return canonical_json({"keys": ring.document()["keys"], "seal": seal.claim()}) + b"\n"


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey

    @property
    def public(self) -> PublicKey:
        return PublicKey(_raw(self.private.public_key()))

    @property
    def key_id(self) -> str:
        return self.public.key_id

    def sign(self, match_id: str, version: int, final_hash: str) -> Seal:
        signature = self.private.sign(signed_message(match_id, version, final_hash))
        return Seal(match_id, version, final_hash, self.key_id, _b64u(signature))


class KeyStore:
    """The private key file and the key ring beside it."""

    def __init__(self, key_path: Path) -> None:
        self.key_path = key_path
        self.ring_path = key_path.with_name(key_path.name.removesuffix(".pem") + ".keys.json")

    def ring(self) -> KeyRing:
        if not self.ring_path.is_file():
            return KeyRing()
        try:
            return KeyRing.from_document(json.loads(self.ring_path.read_text(encoding="utf-8")))
        except json.JSONDecodeError as error:
            raise BadKey(f"{self.ring_path}: not JSON ({error})") from None

    def _write_ring(self, ring: KeyRing) -> None:
        _write_atomically(self.ring_path, json.dumps(ring.document(), indent=2) + "\n", 0o644)

    def load(self, *, create: bool = True) -> Signer | None:
        """The active key (generated if missing and ``create``); the ring is kept listing it."""
        if not self.key_path.is_file():
            if not create:
                return None
            signer = Signer(Ed25519PrivateKey.generate())
            self._save(signer)
        else:
            try:
                private = serialization.load_pem_private_key(self.key_path.read_bytes(), None)
            except ValueError as error:
                raise BadKey(f"{self.key_path}: not a PEM private key ({error})") from None
            if not isinstance(private, Ed25519PrivateKey):
                raise BadKey(f"{self.key_path}: not an Ed25519 key")
            signer = Signer(private)
        ring = self.ring()
        if ring.get(signer.key_id) != signer.public:
            self._write_ring(ring.with_key(signer.public))
        return signer

    def rotate(self) -> Signer:
        """Retire the active key (kept in the ring) and make a new active one."""
        old = self.load(create=False)
        ring = self.ring()
        if old is not None:
            ring = ring.with_key(replace(old.public, status="retired"))
        signer = Signer(Ed25519PrivateKey.generate())
        self._write_ring(ring.with_key(signer.public))
        self._save(signer)
        return signer

    def _save(self, signer: Signer) -> None:
        pem = signer.private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _write_atomically(self.key_path, pem.decode("ascii"), 0o600)


def _write_atomically(path: Path, text: str, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(tmp, path)


def key_path(settings: Settings) -> Path | None:
    """Where the service's signing key is: ``CUCCU_SIGNING_KEY``, else beside a SQLite file.

    None for other databases without the setting (and in-memory SQLite): signing is then off.
    """
    if settings.signing_key:
        return Path(settings.signing_key)
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(url.database + ".signing-key.pem")
    return None


def key_store(settings: Settings) -> KeyStore | None:
    path = key_path(settings)
    return KeyStore(path) if path is not None else None


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
        signature = _unb64u(seal.signature)
    except ValueError:
        signature = b""
    message = signed_message(seal.match_id, seal.version, seal.final_hash)
    if not key.verifies(signature, message):
        return SealCheck(False, "bad-signature", f"the signature by key {key.key_id} is not valid")
    return SealCheck(True, "signed", f"signed by trusted key {key.key_id} ({key.status})")
