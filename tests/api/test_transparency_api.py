"""Through the API, on both databases: finished matches are appended to the transparency log,
whose checkpoints, key and proofs are served and verify as docs/API.md says, each export
carries its proof, and bad requests are RFC 9457 problems."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

from api.transparency.leaf import leaf_bytes
from api.transparency.note import NoteVerifier, open_checkpoint
from domain import merkle
from tests.api.helpers import BOTS_ONLY, HUMAN_VS_BOTS, Client, assert_problem, create


async def logged_size(client: Client, at_least: int) -> str:
    """The checkpoint once the log holds ``at_least`` leaves (the appender runs just after
    the commit that seals a match)."""
    for _ in range(100):
        resp = await client.get("/log/checkpoint")
        assert resp.status_code == 200, resp.text
        assert resp.headers["content-type"].startswith("text/plain")
        if int(resp.text.split("\n")[1]) >= at_least:
            return resp.text
        await asyncio.sleep(0.05)
    raise AssertionError(f"the log never reached {at_least} leaves")


def unb64(items: list[str]) -> list[bytes]:
    return [base64.b64decode(h) for h in items]


def leaf_of_export(text: str) -> tuple[bytes, dict[str, Any]]:
    last = json.loads(text.splitlines()[-1])
    s = last["seal"]
    leaf = leaf_bytes(s["match_id"], s["version"], s["final_hash"], s["key_id"], s["signature"])
    return leaf, last


async def test_every_finished_match_is_logged_and_proven(client: Client) -> None:
    ids = [(await create(client, {**BOTS_ONLY, "seed": 40 + i}))["match_id"] for i in range(5)]
    signed = await logged_size(client, 5)
    verifier = NoteVerifier.parse((await client.get("/log/key")).text)
    checkpoint = open_checkpoint(signed, verifier)
    assert checkpoint.size == 5 and checkpoint.origin == verifier.name

    positions = set()
    for mid in ids:
        export = (await client.get(f"/matches/{mid}/export")).text
        leaf, last = leaf_of_export(export)
        proof = (await client.get("/log/proof/inclusion", params={"match": mid})).json()
        assert proof["leaf"].encode() == leaf
        assert base64.b64decode(proof["leaf_hash"]) == merkle.leaf_hash(leaf)
        assert proof["tree_size"] == 5 and proof["checkpoint"] == signed
        assert merkle.verify_inclusion(
            proof["index"], 5, merkle.leaf_hash(leaf), unb64(proof["inclusion"]), checkpoint.root
        )
        # the export carries the same proof, relative to the same checkpoint
        assert last["log"] == {k: proof[k] for k in ("checkpoint", "index", "inclusion")} | {
            "tree_size": 5
        }
        positions.add(proof["index"])
        # and at every earlier size that holds it
        for size in range(proof["index"] + 1, 6):
            at = (
                await client.get("/log/proof/inclusion", params={"match": mid, "size": size})
            ).json()
            root = open_checkpoint(at["checkpoint"], verifier).root
            assert merkle.verify_inclusion(
                at["index"], size, merkle.leaf_hash(leaf), unb64(at["inclusion"]), root
            )
    assert positions == set(range(5))

    roots = {}
    for size in range(1, 6):
        first = await client.get("/log/proof/inclusion", params={"match": ids[0], "size": size})
        roots[size] = open_checkpoint(first.json()["checkpoint"], verifier).root
    for m in range(0, 6):
        for n in range(max(m, 1), 6):
            body = (await client.get("/log/proof/consistency", params={"from": m, "to": n})).json()
            assert (body["from"], body["to"]) == (m, n)
            root1 = roots.get(m, merkle.EMPTY_ROOT)
            assert merkle.verify_consistency(m, n, unb64(body["consistency"]), root1, roots[n])


async def test_bad_log_requests_are_problems(client: Client) -> None:
    done = (await create(client, BOTS_ONLY))["match_id"]
    running = (await create(client, HUMAN_VS_BOTS))["match_id"]
    await logged_size(client, 1)
    get = client.get
    assert_problem(
        await get("/log/proof/inclusion", params={"match": "nope"}), 404, "match-not-found"
    )
    assert_problem(
        await get("/log/proof/inclusion", params={"match": running}), 409, "match-not-finished"
    )
    for size in (0, 2, 99):
        assert_problem(
            await get("/log/proof/inclusion", params={"match": done, "size": size}),
            422,
            "size-out-of-range",
        )
    assert_problem(
        await get("/log/proof/inclusion", params={"match": done, "size": -1}),
        422,
        "validation-error",
    )
    assert_problem(await get("/log/proof/inclusion"), 422, "validation-error")
    for params in ({"from": 2, "to": 1}, {"from": 0, "to": 5}, {"from": 3}):
        assert_problem(await get("/log/proof/consistency", params=params), 422, "size-out-of-range")
    assert_problem(
        await get("/log/proof/consistency", params={"from": "x"}), 422, "validation-error"
    )
