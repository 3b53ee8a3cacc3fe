"""Ed25519 public keys as JSON Web Keys, and key rings: the keys a service signs with, or the
keys a verifier trusts (see api/signing.py)."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

KeyStatus = Literal["active", "retired"]


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(public: Ed25519PublicKey) -> bytes:
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
            "x": b64u(self.raw),
        }

    @classmethod
    def from_jwk(cls, obj: Any) -> PublicKey:
        if not isinstance(obj, dict) or obj.get("kty") != "OKP" or obj.get("crv") != "Ed25519":
            raise BadKey("not an Ed25519 JSON Web Key (kty OKP, crv Ed25519)")
        try:
            raw = unb64u(str(obj["x"]))
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
        raw = unb64u(source)
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise BadKey(f"{source!r} is neither a key file nor a base64url Ed25519 public key")
    return KeyRing((PublicKey(raw),))
