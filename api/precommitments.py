"""``POST /commitments``: the service commits to a match's first-deck secret before the creator
sends the entropy it is mixed with (docs/API.md "Fairness").

Without it, a creation's ``entropy`` reaches the service before the service has committed to
anything, and a dishonest service could draw secrets until the deck suits it. With it, the
creator holds the commitment before it sends its entropy; the match's first
``entropy_committed`` event must carry the same commitment, and the export reveals the secret
that opens it. The secret is stored (any replica's creation may use it, once) and is never in an
answer, an error or a log line: the match's own events reveal it when the deck is opened.
"""

from __future__ import annotations

import datetime as dt
import os
import uuid
from dataclasses import dataclass

from api.service import PrecommitmentNotFound, PrecommitmentUsed
from api.store.precommitments import PrecommitmentStore
from domain.entropy import SECRET_BYTES, secret_commitment

#: how long a pre-commitment may wait for its creation: long enough for a person to fill in a
#: table's settings, short enough that few unused secrets are kept
LIFETIME = dt.timedelta(minutes=10)


@dataclass(frozen=True)
class Precommitment:
    """What ``POST /commitments`` answers: never the secret."""

    id: str
    commitment: str
    expires_at: dt.datetime


class Precommitments:
    def __init__(self, store: PrecommitmentStore) -> None:
        self.store = store

    async def issue(self) -> Precommitment:
        """A fresh secret from the OS's CSPRNG, stored, and the commitment to it."""
        secret = os.urandom(SECRET_BYTES).hex()
        now = dt.datetime.now(dt.UTC)
        made = Precommitment(str(uuid.uuid4()), secret_commitment(secret), now + LIFETIME)
        await self.store.add(made.id, secret, now, made.expires_at)
        return made

    async def take(self, id_: str, match_id: str) -> str:
        """The secret of ``id_`` for ``match_id``'s first deck: PrecommitmentNotFound when it is
        unknown or expired, PrecommitmentUsed when another creation used it."""
        found = await self.store.take(id_, match_id, dt.datetime.now(dt.UTC))
        if found == "unknown":
            raise PrecommitmentNotFound("there is no pre-commitment with this id")
        if found == "expired":
            raise PrecommitmentNotFound(
                "this pre-commitment has expired: ask POST /commitments for another"
            )
        if found == "used":
            raise PrecommitmentUsed("this pre-commitment was used by another match")
        return found
