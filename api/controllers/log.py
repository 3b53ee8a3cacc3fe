"""The transparency log: signed checkpoints, its key, and proofs (api/transparency)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller, Response, get
from litestar.datastructures import State
from litestar.params import QueryParameter
from msgspec import Meta

from api.controllers.matches import service_in
from api.problems import ProblemError, responses
from api.transparency.store import LogUnavailable, ResultLog, b64

TEXT = "text/plain; charset=utf-8"

#: how soon a finished match's result is usually in the log (the appender runs after the
#: commit that seals it)
LOG_RETRY_AFTER = 1


class InclusionProof(msgspec.Struct):
    """A result's place in the log and the proof of it at one tree size."""

    match_id: str
    index: Annotated[int, Meta(description="The result's leaf index in the log (from 0)")]
    tree_size: Annotated[int, Meta(description="The size of the tree the proof is for")]
    leaf: Annotated[str, Meta(description="The leaf: canonical JSON of the signed result")]
    leaf_hash: Annotated[str, Meta(description="SHA-256(0x00 ‖ leaf), base64")]
    inclusion: Annotated[
        list[str], Meta(description="The audit path (RFC 9162 §2.1.3), base64 hashes")
    ]
    checkpoint: Annotated[
        str, Meta(description="The signed checkpoint of tree_size, a C2SP signed note")
    ]


class ConsistencyProof(msgspec.Struct):
    """That the tree of ``from`` leaves is a prefix of the tree of ``to`` leaves."""

    from_: Annotated[int, Meta(description="The older tree size")] = msgspec.field(name="from")
    to: Annotated[int, Meta(description="The newer tree size")]
    consistency: Annotated[
        list[str], Meta(description="The consistency proof (RFC 9162 §2.1.4), base64 hashes")
    ]


def log_in(state: State) -> ResultLog:
    result_log: ResultLog | None = state.get("result_log")
    if result_log is None:
        raise ProblemError(
            404, "not-found", "this service keeps no transparency log: signing is off"
        )
    return result_log


def _refused(error: LogUnavailable) -> ProblemError:
    if error.reason == "not-yet-logged":
        return ProblemError(409, "not-in-log", error.detail, retry_after=LOG_RETRY_AFTER)
    return ProblemError(422, error.reason, error.detail)


SIZE_DOC = "A tree size the log has reached (default: its size now)"


class LogController(Controller):
    path = "/log"
    tags = ["transparency log"]

    @get(
        "/checkpoint",
        summary="The log's latest checkpoint",
        description=(
            "The tree head as a C2SP `tlog-checkpoint`: origin, tree size, base64 root hash, "
            "then a blank line and the log key's signature line (C2SP `signed-note`, Ed25519). "
            'See docs/API.md, "Transparency log".'
        ),
        media_type=TEXT,
        responses=responses(404, 503, limited=False),
        cache_control=None,
    )
    async def checkpoint(self, state: State) -> Response[str]:
        return Response(await log_in(state).checkpoint(), media_type=TEXT)

    @get(
        "/key",
        summary="The log's verifier key",
        description=(
            "The public key checkpoints are signed with, as a note verifier key: "
            "`<name>+<key hash, 8 hex>+<base64(0x01 ‖ Ed25519 public key)>`. Pin it once; "
            "it never changes for this log."
        ),
        media_type=TEXT,
        responses=responses(404, limited=False),
    )
    async def key(self, state: State) -> Response[str]:
        return Response(log_in(state).signer.verifier.text() + "\n", media_type=TEXT)

    @get(
        "/proof/inclusion",
        summary="A finished match's inclusion proof",
        description=(
            "Where the match's signed result is in the log, with its audit path to the root "
            "of the tree of `size` leaves and that tree's signed checkpoint. 409 `not-in-log` "
            "while the result is not yet appended (`Retry-After`), or for a match that ended "
            "unsigned; 422 `size-out-of-range` for a size the log has not reached or that "
            "does not hold the match."
        ),
        responses=responses(404, 409, 422, 503, limited=False),
    )
    async def inclusion(
        self,
        state: State,
        match: Annotated[str, QueryParameter(description="The match id", max_length=64)],
        size: Annotated[int | None, QueryParameter(description=SIZE_DOC, ge=0)] = None,
    ) -> InclusionProof:
        result_log = log_in(state)
        record = await service_in(state).record(match)  # 404 for an unknown match
        if record.status != "over":
            raise ProblemError(409, "match-not-finished", f"match {match} is not over")
        try:
            proof = await result_log.inclusion(match, size)
        except LogUnavailable as error:
            raise _refused(error) from None
        return InclusionProof(
            match_id=match,
            index=proof.entry.position,
            tree_size=proof.tree_size,
            leaf=proof.entry.leaf.decode("utf-8"),
            leaf_hash=b64(proof.entry.leaf_hash),
            inclusion=[b64(h) for h in proof.proof],
            checkpoint=proof.checkpoint,
        )

    @get(
        "/proof/consistency",
        summary="A consistency proof between two tree sizes",
        description=(
            "That the log's tree of `from` leaves is a prefix of its tree of `to` leaves "
            "(default: its size now). What a witness checks between the checkpoint it "
            "remembers and a new one. 422 `size-out-of-range` unless 0 <= from <= to <= size."
        ),
        responses=responses(404, 422, 503, limited=False),
    )
    async def consistency(
        self,
        state: State,
        from_: Annotated[int, QueryParameter(name="from", description="The older size", ge=0)],
        to: Annotated[int | None, QueryParameter(description=SIZE_DOC, ge=0)] = None,
    ) -> ConsistencyProof:
        try:
            size2, proof = await log_in(state).consistency(from_, to)
        except LogUnavailable as error:
            raise _refused(error) from None
        return ConsistencyProof(from_=from_, to=size2, consistency=[b64(h) for h in proof])
