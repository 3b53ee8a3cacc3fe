"""The service's key store: its active private key file and the key ring beside it.

The key is ``CUCCU_SIGNING_KEY``, else ``<database file>.signing-key.pem`` beside a SQLite
database (made on first use); the ring ``<key without .pem>.keys.json`` lists every public key
it ever had, active and retired (docs/API.md, "Signatures").

Several processes may find the key missing at once (API replicas sharing a volume, workers of
one server): a new key is written to a private temporary file and linked into place, which
fails if the key exists by then, so exactly one key is ever made and every process signs with
it. The ring is rewritten only to list the key, so concurrent writers write the same ring.
"""

from __future__ import annotations

import json
import os
import secrets
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
        if create:
            return self.init()[0]
        if not self.key_path.is_file():
            return None
        signer = self._read()
        self._list_in_ring(signer)
        return signer

    def init(self) -> tuple[Signer, bool]:
        """The active key, made if there is none yet: (the key, whether this call made it).

        An existing key is never replaced, even by a process racing this one to make it.
        """
        created = False
        if not self.key_path.is_file():
            created = self._create(Signer(Ed25519PrivateKey.generate()))
        signer = self._read()
        self._list_in_ring(signer)
        return signer, created

    def _read(self) -> Signer:
        try:
            private = serialization.load_pem_private_key(self.key_path.read_bytes(), None)
        except ValueError as error:
            raise BadKey(f"{self.key_path}: not a PEM private key ({error})") from None
        if not isinstance(private, Ed25519PrivateKey):
            raise BadKey(f"{self.key_path}: not an Ed25519 key")
        return Signer(private)

    def _list_in_ring(self, signer: Signer) -> None:
        ring = self.ring()
        if ring.get(signer.key_id) != signer.public:
            self._write_ring(ring.with_key(signer.public))

    def _create(self, signer: Signer) -> bool:
        """Put ``signer`` at the key path unless a key is there: whether it was put there."""
        tmp = _write_private_temp(self.key_path, _pem(signer))
        try:
            os.link(tmp, self.key_path)  # atomic, and refuses to replace an existing key
        except FileExistsError:
            return False
        except OSError:  # a file system without hard links: create exclusively in place
            return _write_new(self.key_path, _pem(signer))
        finally:
            tmp.unlink()
        return True

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
        _write_atomically(self.key_path, _pem(signer), 0o600)


def _pem(signer: Signer) -> str:
    pem = signer.private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return pem.decode("ascii")


def _write_private_temp(path: Path, text: str, mode: int = 0o600) -> Path:
    """``text`` in a new file beside ``path``, named so that no other process (nor container
    sharing the directory, where process ids repeat) writes the same one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    return tmp


def _write_new(path: Path, text: str, mode: int = 0o600) -> bool:
    """``text`` in ``path`` unless it exists: whether it was written. (A reader racing the
    write may see a short file; ``os.link`` of a finished file, preferred, never shows one.)"""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    return True


def _write_atomically(path: Path, text: str, mode: int) -> None:
    os.replace(_write_private_temp(path, text, mode), path)


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
