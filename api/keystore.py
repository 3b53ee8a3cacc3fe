"""The service's key store: its active private key file and the key ring beside it.

The key is ``CUCCU_SIGNING_KEY``, else ``<database file>.signing-key.pem`` beside a SQLite
database (made on first use); the ring ``<key without .pem>.keys.json`` lists every public key
it ever had, active and retired (docs/API.md, "Signatures").
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy.engine import make_url

from api.keys import BadKey, KeyRing
from api.settings import Settings
from api.signing import Signer


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
