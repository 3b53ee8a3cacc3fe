"""Shuffle commitments and the per-match hash chain (see docs/ARCHITECTURE.md)."""

from __future__ import annotations

import hashlib
from typing import Final

from domain.events import Event, encode_event

GENESIS_HASH: Final = "0" * 64


def commitment(salt: str, pack: tuple[str, ...]) -> str:
    """sha256(salt bytes ‖ card ids joined by ","), hex. Published before the first card."""
    return hashlib.sha256(bytes.fromhex(salt) + ",".join(pack).encode("ascii")).hexdigest()


def event_hash(prev_hash: str, event: Event) -> str:
    """sha256(prev_hash as ASCII hex ‖ canonical JSON of the event), hex."""
    return hashlib.sha256(prev_hash.encode("ascii") + encode_event(event)).hexdigest()
