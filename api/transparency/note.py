"""C2SP ``signed-note`` and ``tlog-checkpoint``: the log's signed tree heads, as text.

A signed note is a UTF-8 text of one or more lines, each ended by ``\\n``, then a blank line,
then one signature line per signer::

    — <key name> <base64(key hash ‖ signature)>

(an em dash U+2014 and a space first). For an Ed25519 key the signature is over the text
(with its final newline) and the *key hash* is the first four bytes of
``SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key)``, 0x01 naming the algorithm. The
verifier key, how a key is handed to someone who will check notes, is
``<name>+<key hash, 8 hex digits>+<base64(0x01 ‖ public key)>``.

A checkpoint is a signed note whose text is the origin (the log's name), the tree size in
decimal and the base64 root hash, one a line, and optional extension lines; this log writes
none. Base64 is standard (RFC 4648 §4), with padding. Checked against golang.org/x/mod's
published note and key (tests/api/test_transparency_note.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519: Final = b"\x01"
SIGNATURE_PREFIX: Final = "\u2014 "  # "— "
HASH_SIZE: Final = 32


class NoteError(ValueError):
    """A note, checkpoint or verifier key that does not read, or does not verify."""


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _unb64(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise NoteError(f"not standard base64: {text[:60]!r}") from None


def check_name(name: str) -> str:
    """A key name: non-empty, no whitespace, no ``+`` (the verifier key's separator)."""
    if not name or "+" in name or any(c.isspace() for c in name) or not name.isprintable():
        raise NoteError(f"not a key name (non-empty, no space or '+'): {name!r}")
    return name


def key_hash(name: str, public: bytes) -> bytes:
    """The first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key)."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519 + public).digest()[:4]


@dataclass(frozen=True)
class NoteVerifier:
    """Who a note must be signed by: a key name and its Ed25519 public key."""

    name: str
    public: bytes

    @property
    def key_hash(self) -> bytes:
        return key_hash(self.name, self.public)

    def text(self) -> str:
        """The verifier key: ``<name>+<hash hex>+<base64(0x01 ‖ key)>``."""
        return f"{self.name}+{self.key_hash.hex()}+{_b64(ED25519 + self.public)}"

    @classmethod
    def parse(cls, text: str) -> NoteVerifier:
        parts = text.strip().split("+", 2)
        if len(parts) != 3:
            raise NoteError("a verifier key is <name>+<8 hex digits>+<base64 key>")
        name, hash_hex, encoded = parts
        check_name(name)
        key = _unb64(encoded)
        if len(key) != 1 + 32 or key[:1] != ED25519:
            raise NoteError("the verifier key is not an Ed25519 key (0x01 and 32 bytes)")
        verifier = cls(name, key[1:])
        if hash_hex != verifier.key_hash.hex():
            raise NoteError(f"the verifier key's hash {hash_hex!r} is not that of its key")
        return verifier

    def verifies(self, signature: bytes, message: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class NoteSigner:
    name: str
    private: Ed25519PrivateKey

    @property
    def verifier(self) -> NoteVerifier:
        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return NoteVerifier(check_name(self.name), raw)

    def sign(self, text: str) -> str:
        """The signed note of ``text`` (lines ended by ``\\n``, no blank line)."""
        _check_text(text)
        signature = self.private.sign(text.encode("utf-8"))
        line = f"{SIGNATURE_PREFIX}{self.name} {_b64(self.verifier.key_hash + signature)}\n"
        return f"{text}\n{line}"


def _check_text(text: str) -> None:
    if not text.endswith("\n") or "\n\n" in text or text.startswith("\n"):
        raise NoteError("a note's text is non-empty lines, each ended by a newline")
    if any(c != "\n" and not c.isprintable() and c != "\t" for c in text):
        raise NoteError("a note's text holds no control characters but newlines")


@dataclass(frozen=True)
class NoteSignature:
    name: str
    key_hash: bytes
    signature: bytes


def split_note(signed: str) -> tuple[str, list[NoteSignature]]:
    """The text of a signed note and its signature lines (none verified yet)."""
    cut = signed.rfind("\n\n")
    if cut < 0 or not signed.endswith("\n"):
        raise NoteError("not a signed note: no blank line before signature lines")
    text, block = signed[: cut + 1], signed[cut + 2 :]
    _check_text(text)
    signatures = []
    for line in block.split("\n")[:-1]:
        if not line.startswith(SIGNATURE_PREFIX):
            raise NoteError(f"not a signature line: {line[:60]!r}")
        name, space, encoded = line[len(SIGNATURE_PREFIX) :].partition(" ")
        if not space:
            raise NoteError(f"not a signature line: {line[:60]!r}")
        raw = _unb64(encoded)
        if len(raw) < 5:
            raise NoteError("a signature is a 4-byte key hash and the signature")
        signatures.append(NoteSignature(check_name(name), raw[:4], raw[4:]))
    if not signatures:
        raise NoteError("the note carries no signature")
    return text, signatures


def open_note(signed: str, verifier: NoteVerifier) -> str:
    """The text of ``signed`` if ``verifier``'s key signed it; else :class:`NoteError` says
    why (signed by another key, or a signature that does not verify)."""
    text, signatures = split_note(signed)
    mine = [s for s in signatures if s.name == verifier.name and s.key_hash == verifier.key_hash]
    if not mine:
        others = ", ".join(f"{s.name}+{s.key_hash.hex()}" for s in signatures)
        raise NoteError(
            f"signed by another key ({others}), not by the trusted "
            f"{verifier.name}+{verifier.key_hash.hex()}"
        )
    if not all(verifier.verifies(s.signature, text.encode("utf-8")) for s in mine):
        raise NoteError(f"the signature by {verifier.name} does not verify")
    return text


@dataclass(frozen=True)
class Checkpoint:
    """A tree head: the log's origin, its size and its root (RFC 9162 MTH)."""

    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{_b64(self.root)}\n"

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "":
            raise NoteError("a checkpoint is at least three lines: origin, size, root hash")
        origin, size, encoded = lines[0], lines[1], lines[2]
        if not origin:
            raise NoteError("the checkpoint's origin is empty")
        if not size.isascii() or not size.isdigit() or (size != "0" and size.startswith("0")):
            raise NoteError(f"the checkpoint's size is not a decimal number: {size!r}")
        root = _unb64(encoded)
        if len(root) != HASH_SIZE:
            raise NoteError("the checkpoint's root hash is not 32 bytes")
        return cls(origin, int(size), root)


def open_checkpoint(signed: str, verifier: NoteVerifier, origin: str | None = None) -> Checkpoint:
    """The checkpoint of a signed note ``verifier`` signed (and of ``origin`` if given)."""
    checkpoint = Checkpoint.parse(open_note(signed, verifier))
    if origin is not None and checkpoint.origin != origin:
        raise NoteError(f"the checkpoint is of log {checkpoint.origin!r}, not {origin!r}")
    return checkpoint
