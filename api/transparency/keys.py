"""The log's key: an Ed25519 key of its own, kept like the match-signing key.

The log signs checkpoints with a key that signs nothing else, so that rotating the signing
key (``cuccu keys rotate``) never changes the key witnesses have pinned. Its file is beside
the signing key (``…/signing-key.pem`` → ``…/log-key.pem``, ``<db>.signing-key.pem`` →
``<db>.log-key.pem``, any other ``K.pem`` → ``K.log-key.pem``), made on first use or by
``cuccu keys init``, never replaced. It has no rotation: a new log key is a new log.
"""

from __future__ import annotations

from pathlib import Path

from api.keystore import KeyStore, key_path
from api.settings import Settings
from api.signing import Signer
from api.transparency.note import NoteSigner


def log_key_path(settings: Settings) -> Path | None:
    """Where the log key is: beside the signing key; None when signing is off."""
    signing = key_path(settings)
    if signing is None:
        return None
    stem = signing.name.removesuffix(".pem")
    if stem.endswith("signing-key"):
        name = stem.removesuffix("signing-key") + "log-key.pem"
    else:
        name = stem + ".log-key.pem"
    return signing.with_name(name)


class LogKeyStore(KeyStore):
    """The log key's file, with no key ring: the log has one key for its whole life."""

    def _list_in_ring(self, signer: Signer) -> None:
        pass


def log_key_store(settings: Settings) -> KeyStore | None:
    path = log_key_path(settings)
    return LogKeyStore(path) if path is not None else None


def log_signer(settings: Settings, *, create: bool = True) -> NoteSigner | None:
    """The log's signer, named by the log's origin (made if missing and ``create``)."""
    store = log_key_store(settings)
    signer = store.load(create=create) if store is not None else None
    if signer is None:
        return None
    return NoteSigner(settings.log_origin, signer.private)
