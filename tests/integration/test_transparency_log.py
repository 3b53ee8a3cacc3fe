"""The transparency log against real servers: ``cuccu witness`` catches a log that replaced,
removed or swapped a logged result, and a checkpoint signed by another key; ``cuccu verify``
checks an export's inclusion against the log key; two server processes appending to one
PostgreSQL database sign checkpoints every one of which is consistent with every other.

The witness and the verifier here play the third party of docs/API.md ("Transparency log"):
they use only what the service serves and the spec's algorithms (domain/merkle.py, itself
checked against published vectors in tests/domain/test_merkle.py).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.store import create_engine
from api.store import tables as t
from api.transparency.note import NoteVerifier, open_checkpoint
from domain import merkle
from tests.api.helpers import BOTS_ONLY
from tests.conftest import PgServer
from tests.integration.server import ROOT, Server

Leaf = tuple[str, str, str]  # match id, leaf text, leaf hash (hex)


def cuccu(
    *args: str, database_url: str, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CUCCU_DATABASE_URL": database_url, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "api.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def play(base: str, n: int, seed: int = 0) -> list[str]:
    """``n`` bot-only matches, each over within its creation (and so sealed)."""
    ids = []
    for i in range(n):
        resp = httpx.post(f"{base}/matches", json={**BOTS_ONLY, "seed": seed + i}, timeout=30)
        assert resp.status_code == 201, resp.text
        ids.append(resp.json()["match_id"])
    return ids


def log_size(base: str) -> int:
    return int(httpx.get(f"{base}/log/checkpoint", timeout=10).text.split("\n")[1])


def wait_size(base: str, size: int) -> None:
    deadline = time.monotonic() + 20
    while log_size(base) < size:
        assert time.monotonic() < deadline, f"the log never reached {size} leaves"
        time.sleep(0.05)


@pytest.fixture
def signed_server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    key = tmp_path / "keys" / "signing-key.pem"
    s = Server(database_url, viewer=False, env={"CUCCU_SIGNING_KEY": str(key)}).start()
    try:
        yield s
    finally:
        s.stop()


def witness(base: str, state: Path, database_url: str) -> tuple[int, str]:
    done = cuccu("witness", base, "--state", str(state), database_url=database_url)
    return done.returncode, done.stdout + done.stderr


async def rewrite_log(database_url: str, change: Callable[[list[Leaf]], list[Leaf]]) -> None:
    """What a dishonest operator with the database can do: rewrite the leaves and recompute a
    tree that matches them, so that the service signs checkpoints of the rewritten log."""
    engine = create_engine(database_url)
    leaves, tree = t.log_leaves, t.log_tree
    try:
        async with engine.begin() as conn:
            rows = (await conn.execute(sa.select(leaves).order_by(leaves.c.position))).all()
            new = change([(r.match_id, r.leaf, r.leaf_hash) for r in rows])
            stamp = rows[0].logged_at
            await conn.execute(sa.delete(leaves))
            await conn.execute(
                sa.insert(leaves),
                [
                    {"position": i, "match_id": m, "leaf": leaf, "leaf_hash": h, "logged_at": stamp}
                    for i, (m, leaf, h) in enumerate(new)
                ],
            )
            hashes = [bytes.fromhex(h) for _, _, h in new]
            frontier = merkle.frontier_of(hashes)
            await conn.execute(
                sa.update(tree).values(
                    size=len(new),
                    root_hash=merkle.root(hashes).hex(),
                    frontier=[h.hex() for h in frontier],
                )
            )
    finally:
        await engine.dispose()


def replace_second(rows: list[Leaf]) -> list[Leaf]:
    match_id, leaf, _ = rows[1]
    forged = json.loads(leaf)
    forged["final_hash"] = "0" * 64  # another ending of the match, re-signed
    text = json.dumps(forged, sort_keys=True, separators=(",", ":"))
    return [rows[0], (match_id, text, merkle.leaf_hash(text.encode()).hex()), *rows[2:]]


def remove_second(rows: list[Leaf]) -> list[Leaf]:
    return [rows[0], *rows[2:]]


def swap_first_two(rows: list[Leaf]) -> list[Leaf]:
    return [rows[1], rows[0], *rows[2:]]


@pytest.mark.parametrize("tamper", [replace_second, remove_second, swap_first_two])
async def test_the_witness_catches_a_log_that_rewrote_its_history(
    signed_server: Server, database_url: str, tmp_path: Path, tamper: Callable[..., Any]
) -> None:
    base = signed_server.base
    state = tmp_path / "witness"
    play(base, 3)
    wait_size(base, 3)
    code, out = witness(base, state, database_url)
    assert code == 0 and "first visit" in out, out
    play(base, 1, seed=10)
    wait_size(base, 4)
    code, out = witness(base, state, database_url)
    assert code == 0 and "consistent with the 3 seen before" in out, out

    await rewrite_log(database_url, tamper)
    code, out = witness(base, state, database_url)  # at once: same size or smaller
    assert code == 1, out
    assert "FAIL" in out and ("dropped" in out or "rewrote" in out), out
    play(base, 2, seed=20)  # and after the log grew on top of the rewrite
    wait_size(base, 5)
    code, out = witness(base, state, database_url)
    assert code == 1 and "not consistent" in out, out


async def test_the_witness_refuses_a_checkpoint_signed_by_another_key(
    database_url: str, tmp_path: Path
) -> None:
    key = tmp_path / "keys" / "signing-key.pem"
    env = {"CUCCU_SIGNING_KEY": str(key)}
    state = tmp_path / "witness"
    first = Server(database_url, viewer=False, env=env).start()
    try:
        play(first.base, 2)
        wait_size(first.base, 2)
        code, out = witness(first.base, state, database_url)
        assert code == 0, out
    finally:
        first.stop()
    # the operator swaps the log key (to sign a rewritten history, say) and restarts
    (key.parent / "log-key.pem").write_bytes(
        Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    second = Server(database_url, viewer=False, env=env).start()
    try:
        code, out = witness(second.base, state, database_url)
        assert code == 1, out
        assert "checkpoint refused: signed by another key" in out, out
    finally:
        second.stop()


async def test_verify_checks_an_exports_inclusion_with_the_log_key(
    signed_server: Server, database_url: str, tmp_path: Path
) -> None:
    base = signed_server.base
    [mid, _] = play(base, 2)
    wait_size(base, 2)
    log_key = tmp_path / "log.key"
    log_key.write_text(httpx.get(f"{base}/log/key").text)
    keys = tmp_path / "keys.json"
    keys.write_text(httpx.get(f"{base}/.well-known/cuccu-keys.json").text)
    export = httpx.get(f"{base}/matches/{mid}/export").text
    plain = ["--trusted-key", str(keys), "--log-key", str(log_key)]

    def verify(text: str, *more: str) -> tuple[int, str]:
        path = tmp_path / "match.ndjson"
        path.write_text(text)
        done = cuccu("verify", str(path), *plain, *more, database_url=database_url)
        return done.returncode, done.stdout + done.stderr

    code, out = verify(export, "--require-log")
    assert code == 0 and "PASS log: leaf " in out, out

    *records, last = export.splitlines()
    seal_line = json.loads(last)
    # an old export (before the log), or one whose proof was dropped: reported, not failed
    del seal_line["log"]
    old = "\n".join([*records, json.dumps(seal_line)]) + "\n"
    code, out = verify(old)
    assert code == 0 and "not in the log" in out, out
    code, out = verify(old, "--require-log")
    assert code == 1 and "verify FAILED" in out, out

    # a proof of another leaf, or a checkpoint from another key, fails
    seal_line = json.loads(last)
    seal_line["log"]["index"] ^= 1
    code, out = verify("\n".join([*records, json.dumps(seal_line)]) + "\n")
    assert code == 1 and "FAIL log:" in out, out
    other = NoteVerifier("cuccu.local/log", bytes(32)).text()
    code, out = verify(export, "--log-key", other)
    assert code == 1 and "signed by another key" in out, out

    # verify by id, against a checkpoint the verifier trusts (a witness's)
    checkpoint = tmp_path / "checkpoint"
    checkpoint.write_text(httpx.get(f"{base}/log/checkpoint").text)
    play(base, 1, seed=5)
    wait_size(base, 3)
    done = cuccu(
        "verify", mid, "--checkpoint", str(checkpoint), "--require-log",
        database_url=database_url,
        env_extra={"CUCCU_SIGNING_KEY": signed_server.env["CUCCU_SIGNING_KEY"]},
    )  # fmt: skip
    assert done.returncode == 0 and "signed checkpoint of 2 leaves" in done.stdout, done.stdout


def test_two_servers_on_one_postgresql_sign_consistent_checkpoints(
    pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.create_database("tlog_two")
    env = {"CUCCU_SIGNING_KEY": str(tmp_path / "keys" / "signing-key.pem")}
    cuccu("keys", "init", database_url=url, env_extra=env)
    servers = [Server(url, viewer=False, env=env).start() for _ in range(2)]
    seen: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            for s in servers:
                seen.append(httpx.get(f"{s.base}/log/checkpoint", timeout=10).text)

    watcher = threading.Thread(target=watch)
    try:
        watcher.start()
        players = [
            threading.Thread(target=play, args=(s.base, 6, 100 * i))
            for i, s in enumerate(servers)
            for _ in range(2)
        ]
        for p in players:
            p.start()
        for p in players:
            p.join()
        for s in servers:
            wait_size(s.base, 24)
        stop.set()
        watcher.join()
        [key] = {httpx.get(f"{s.base}/log/key").text for s in servers}
        verifier = NoteVerifier.parse(key)
        trees = sorted({(c.size, c.root) for c in (open_checkpoint(n, verifier) for n in seen)})
        final = open_checkpoint(httpx.get(f"{servers[0].base}/log/checkpoint").text, verifier)
        assert final.size == 24
        assert len({size for size, _ in trees}) == len(trees)  # one root per size
        for size, root in trees:
            body = httpx.get(
                f"{servers[1].base}/log/proof/consistency", params={"from": size, "to": 24}
            ).json()
            proof = [base64.b64decode(h) for h in body["consistency"]]
            assert merkle.verify_consistency(size, 24, proof, root, final.root), size
    finally:
        stop.set()
        for s in servers:
            s.stop()
        pg_server.drop_database(url)


def test_a_result_sealed_by_a_process_killed_before_its_append_is_logged_after_restart(
    database_url: str, tmp_path: Path
) -> None:
    """SIGKILL right after the commit that seals a match (before this process's appender
    ran): the result is sealed and unlogged; the restarted service appends it, once."""
    env = {"CUCCU_SIGNING_KEY": str(tmp_path / "keys" / "signing-key.pem")}
    crashing = Server(
        database_url, viewer=False, env={**env, "CUCCU_CRASH_AT": "after-final-commit"}
    ).start()
    try:
        with pytest.raises(httpx.HTTPError):
            httpx.post(f"{crashing.base}/matches", json=BOTS_ONLY, timeout=30)
        assert crashing.proc is not None and crashing.proc.wait(timeout=30) != 0
    finally:
        crashing.stop()
    restarted = Server(database_url, viewer=False, env=env).start()
    try:
        wait_size(restarted.base, 1)
        [mid] = [m["match_id"] for m in httpx.get(f"{restarted.base}/matches").json()["matches"]]
        proof = httpx.get(f"{restarted.base}/log/proof/inclusion", params={"match": mid}).json()
        assert (proof["index"], proof["tree_size"]) == (0, 1)
        time.sleep(2.5)  # the appender's periodic pass runs again: nothing appended twice
        assert log_size(restarted.base) == 1
    finally:
        restarted.stop()


def test_the_typed_client_reads_the_log(signed_server: Server) -> None:
    from api.client import Client, NotFound, ValidationFailed

    base = signed_server.base
    ids = play(base, 3)
    wait_size(base, 3)
    with Client(base) as client:
        verifier = NoteVerifier.parse(client.log_key())
        checkpoint = open_checkpoint(client.log_checkpoint(), verifier)
        assert checkpoint.size == 3
        for mid in ids:
            proof = client.inclusion_proof(mid)
            leaf = base64.b64decode(proof["leaf_hash"])
            path = [base64.b64decode(h) for h in proof["inclusion"]]
            assert merkle.verify_inclusion(proof["index"], 3, leaf, path, checkpoint.root)
        first = client.inclusion_proof(ids[0], size=1)
        old = open_checkpoint(first["checkpoint"], verifier)
        body = client.consistency_proof(1, 3)
        path = [base64.b64decode(h) for h in body["consistency"]]
        assert merkle.verify_consistency(1, 3, path, old.root, checkpoint.root)
        with pytest.raises(NotFound):
            client.inclusion_proof("no-such-match")
        with pytest.raises(ValidationFailed):
            client.consistency_proof(2, 1)
