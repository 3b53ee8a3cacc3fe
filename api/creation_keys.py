"""The secrets of an idempotent ``POST /matches``: how a retry gets the same seat tokens back.

A match's seat tokens are stored only as SHA-256 hashes, so the answer to a creation cannot be
rebuilt from the match. A creation sent with an ``Idempotency-Key`` therefore keeps, in its
``creation_keys`` row, the tokens it issued **encrypted under a key derived from the
Idempotency-Key** (AES-256-GCM, bound to the match id and the request's fingerprint), and the
Idempotency-Key itself only as a keyed hash (the row's lookup key):

- whoever sends the same Idempotency-Key again (the creator retrying) can open them;
- the database alone cannot: it holds neither the Idempotency-Key nor a token in clear;
- nothing here is ever logged.

Both derivations are one HMAC-SHA-256 each (no slow KDF: a creation must stay cheap), so the
tokens at rest are exactly as secret as the Idempotency-Key: use a random one (a UUID v4, as the
viewer and the Python client do), never a guessable one.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from collections.abc import Mapping

import msgspec
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

#: the labels that separate the two derivations from each other (and from any other use)
_LOOKUP = b"cuccu-creation-key-lookup/1"
_SEAL = b"cuccu-creation-key-tokens/1"
_NONCE_BYTES = 12


def lookup_hash(idempotency_key: str) -> str:
    """The stored stand-in for an Idempotency-Key of ``POST /matches`` (64 hex digits)."""
    return hmac.new(_LOOKUP, idempotency_key.encode("utf-8"), hashlib.sha256).hexdigest()


def _cipher(idempotency_key: str) -> AESGCM:
    return AESGCM(hmac.new(_SEAL, idempotency_key.encode("utf-8"), hashlib.sha256).digest())


def _bound_to(match_id: str, fingerprint: str) -> bytes:
    return f"{match_id}\n{fingerprint}".encode()


def seal_tokens(
    idempotency_key: str, match_id: str, fingerprint: str, tokens: Mapping[int, str]
) -> str:
    """The seat tokens (seat -> token), encrypted for whoever holds ``idempotency_key``."""
    nonce = os.urandom(_NONCE_BYTES)
    plain = msgspec.json.encode(dict(tokens))
    sealed = _cipher(idempotency_key).encrypt(nonce, plain, _bound_to(match_id, fingerprint))
    return base64.urlsafe_b64encode(nonce + sealed).decode("ascii")


class SealBroken(Exception):
    """The stored tokens do not open with this key, match and fingerprint (never expected:
    the row was found by this key's hash and checked against this fingerprint)."""


def open_tokens(
    idempotency_key: str, match_id: str, fingerprint: str, sealed: str
) -> dict[int, str]:
    """The seat tokens :func:`seal_tokens` sealed."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode("ascii"))
        plain = _cipher(idempotency_key).decrypt(
            raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _bound_to(match_id, fingerprint)
        )
        return msgspec.json.decode(plain, type=dict[int, str])
    except (InvalidTag, ValueError, msgspec.DecodeError):
        raise SealBroken(f"the stored seat tokens of match {match_id} do not open") from None
