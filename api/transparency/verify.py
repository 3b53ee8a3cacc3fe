"""Checking that a signed result is in the log: what ``cuccu verify`` and the viewer do.

An export's seal line carries, once its result is logged, ``log``: the leaf's ``index``, the
``tree_size`` and signed ``checkpoint`` the proof is relative to, and the ``inclusion`` audit
path (base64 hashes). The leaf is rebuilt from the seal (api/transparency/leaf.py), so a
proof of another result, or of an altered seal, does not verify.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from api.transparency.leaf import leaf_bytes
from api.transparency.note import Checkpoint, NoteError, NoteVerifier, open_checkpoint
from domain import merkle
from domain.audit import SealClaim


@dataclass(frozen=True)
class LogCheck:
    ok: bool
    #: "logged", "not-in-log", "bad-proof", "bad-checkpoint", "untrusted"
    status: str
    detail: str
    index: int | None = None
    tree_size: int | None = None
    #: the checkpoint the inclusion was checked against (its signed note)
    checkpoint: str | None = None


def seal_leaf(seal: SealClaim) -> bytes:
    return leaf_bytes(seal.match_id, seal.version, seal.final_hash, seal.key_id, seal.signature)


def hashes_of(encoded: Sequence[Any]) -> list[bytes]:
    """Base64 hashes, as proofs carry them; ValueError if one is not a 32-byte hash."""
    out = []
    for h in encoded:
        try:
            raw = base64.b64decode(str(h), validate=True)
        except binascii.Error:
            raise ValueError(f"not base64: {str(h)[:60]!r}") from None
        if len(raw) != merkle.HASH_SIZE:
            raise ValueError("a proof's hashes are 32 bytes")
        out.append(raw)
    return out


def check_inclusion(
    seal: SealClaim | None,
    log: Mapping[str, Any] | None,
    verifier: NoteVerifier | None,
    trusted: Checkpoint | None = None,
) -> LogCheck:
    """Whether the export's proof shows its seal in a checkpoint signed by the log key
    ``verifier`` (and, given ``trusted``, in that very checkpoint)."""
    if seal is None or log is None:
        return LogCheck(False, "not-in-log", "the export carries no inclusion proof")
    if verifier is None:
        return LogCheck(
            False,
            "untrusted",
            "no log key to check the checkpoint with (give --log-key, or verify where the "
            "service's key store is)",
        )
    try:
        checkpoint = open_checkpoint(str(log["checkpoint"]), verifier)
        index, size = int(log["index"]), int(log["tree_size"])
        proof = hashes_of(log["inclusion"])
    except NoteError as error:
        return LogCheck(False, "bad-checkpoint", f"the export's checkpoint: {error}")
    except (KeyError, TypeError, ValueError) as error:
        return LogCheck(False, "bad-proof", f"unreadable inclusion proof ({error})")
    if checkpoint.size != size:
        return LogCheck(
            False,
            "bad-proof",
            f"the proof is for {size} leaves, its checkpoint for {checkpoint.size}",
        )
    leaf = merkle.leaf_hash(seal_leaf(seal))
    if not merkle.verify_inclusion(index, size, leaf, proof, checkpoint.root):
        return LogCheck(
            False,
            "bad-proof",
            f"the result is not leaf {index} of the log's tree of {size} (the proof fails)",
        )
    if trusted is not None and (trusted.size, trusted.root) != (size, checkpoint.root):
        return LogCheck(
            False,
            "bad-checkpoint",
            f"the proof is relative to the tree of {size}, not to the trusted checkpoint "
            f"(tree of {trusted.size}): ask the service for a proof at that size",
        )
    return LogCheck(
        True,
        "logged",
        f"leaf {index} of the log {checkpoint.origin}, in its signed checkpoint of {size} leaves",
        index,
        size,
        str(log["checkpoint"]),
    )
