"""The service's public signing keys, at a well-known path (see api/signing.py)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from litestar import Controller, get
from litestar.datastructures import State
from msgspec import Meta

from api.signing import WELL_KNOWN_PATH


class SigningKey(msgspec.Struct):
    """An Ed25519 public key as a JSON Web Key (RFC 8037)."""

    kid: Annotated[str, Meta(description="Key id: first 16 hex digits of sha256(raw key)")]
    kty: Literal["OKP"]
    crv: Literal["Ed25519"]
    x: Annotated[str, Meta(description="The 32 raw bytes of the public key, base64url")]
    use: Literal["sig"]
    status: Annotated[
        Literal["active", "retired"],
        Meta(description="active: signs new results; retired: only older results"),
    ]


class SigningKeys(msgspec.Struct):
    keys: list[SigningKey]


class KeysController(Controller):
    path = "/"
    tags = ["signatures"]

    @get(
        WELL_KNOWN_PATH,
        summary="Public signing keys",
        description=(
            "Every Ed25519 public key this service has signed finished matches with, the "
            "active one and retired ones (older results keep verifying after a rotation). "
            'Empty when signing is off. See docs/API.md, "Signatures".'
        ),
        cache_control=None,
    )
    async def signing_keys(self, state: State) -> SigningKeys:
        sealer = state.get("sealer")
        if sealer is None:
            return SigningKeys(keys=[])
        return msgspec.convert(sealer.ring.document(), SigningKeys)
