"""``POST /commitments``: the service's commitment to a first deck's secret, made before the
creator sends its entropy (api/precommitments.py, docs/API.md "Fairness")."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

import msgspec
from litestar import Controller, Response, post
from litestar.datastructures import State
from msgspec import Meta

from api.precommitments import Precommitments
from api.problems import responses


class CommitmentOut(msgspec.Struct):
    """A pre-commitment: hand its ``id`` to ``POST /matches`` with your ``entropy``, and keep
    its ``commitment`` to compare with the match's first ``entropy_committed`` event."""

    id: Annotated[str, Meta(description="Send it as the creation's `precommitment`")]
    commitment: Annotated[
        str,
        Meta(
            description="Hex SHA-256 of the service's 32-byte secret for the first deck: the "
            "`commitment` of the match's first `entropy_committed` event (deck 1)"
        ),
    ]
    expires_at: Annotated[
        dt.datetime, Meta(description="Unused by then, it is refused (422 unknown-precommitment)")
    ]


def precommitments_in(state: State) -> Precommitments:
    precommitments: Precommitments = state.precommitments
    return precommitments


class CommitmentsController(Controller):
    path = "/commitments"
    tags = ["matches"]

    @post(
        "/",
        summary="Pre-commit to a first deck's secret",
        description=(
            "The service draws a fresh secret for the first deck of a match not yet created and "
            "answers its commitment (hex SHA-256), never the secret. Send the `id` as the "
            "`precommitment` of `POST /matches`, with your `entropy`: the match's first deck is "
            "then mixed from this secret and your entropy, and its first `entropy_committed` "
            "event carries this very commitment, so the service could not choose its secret "
            'after seeing your entropy (docs/API.md "Fairness"). Single-use; it expires after '
            "10 minutes. No body."
        ),
        status_code=201,
        responses=responses(503),
    )
    async def create(self, state: State) -> Response[CommitmentOut]:
        made = await precommitments_in(state).issue()
        body = CommitmentOut(id=made.id, commitment=made.commitment, expires_at=made.expires_at)
        return Response(body, status_code=201)
