"""The leaf the log holds for one signed result (docs/API.md, "Transparency log").

The canonical JSON (docs/API.md, "Canonical JSON") of::

    {"final_hash": <hex>, "key_id": <the seal's key id>, "match_id": <id>,
     "purpose": "cuccu-log-leaf/1", "signature": <the seal's signature, base64url>,
     "version": <final version>}

so a leaf names the match, where its log ends and the service's signature over that: a
verifier rebuilds it from an export's seal alone.
"""

from __future__ import annotations

from typing import Final

from domain.envelope import canonical_json

PURPOSE: Final = "cuccu-log-leaf/1"


def leaf_bytes(match_id: str, version: int, final_hash: str, key_id: str, signature: str) -> bytes:
    return canonical_json(
        {
            "final_hash": final_hash,
            "key_id": key_id,
            "match_id": match_id,
            "purpose": PURPOSE,
            "signature": signature,
            "version": version,
        }
    )
