"""Signed match results: a seal binds a match's id, final version and final hash to the service's
key, so a log rewritten with recomputed hashes, a genuine log relabelled as another match, and a
log signed by a key the verifier does not trust all fail ``cuccu verify``; rotation keeps old
seals verifying."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from msgspec.structs import replace

from api.cli import main
from api.keys import KeyRing
from api.keystore import KeyStore
from api.signing import Signer, check_seal, seal_line
from domain.audit import audit, chain, parse_export, to_ndjson
from domain.games.cuccu.events import Event, MatchCreated
from viewer.games.cuccu import bot_match

MATCH_A = "aaaaaaaa-0000-4000-8000-000000000001"
MATCH_B = "bbbbbbbb-0000-4000-8000-000000000002"


def sealed_export(events: list[Event], match_id: str, signer: Signer, ring: KeyRing) -> str:
    records = chain(events, match_id=match_id)
    last = records[-1]
    return to_ndjson(records) + seal_line(
        signer.sign(match_id, last.version, last.hash), ring
    ).decode("utf-8")


@pytest.fixture
def keys(tmp_path: Path) -> KeyStore:
    return KeyStore(tmp_path / "service" / "signing-key.pem")


def verify(tmp_path: Path, text: str, *args: str) -> int:
    path = tmp_path / "match.ndjson"
    path.write_text(text)
    return main(["verify", str(path), *args])


def trusted_file(tmp_path: Path, keys: KeyStore) -> str:
    """The service's key document as a verifier saves it from /.well-known/cuccu-keys.json."""
    path = tmp_path / "cuccu-keys.json"
    path.write_text(json.dumps(keys.ring().document()))
    return str(path)


def renamed(events: list[Event], name: str) -> list[Event]:
    """The forger's edit: a seat renamed, which no rule of the game can notice."""
    created = events[0]
    assert isinstance(created, MatchCreated)
    seats = (replace(created.seats[0], name=name), *created.seats[1:])
    return [replace(created, seats=seats), *events[1:]]


def test_a_signed_export_verifies_with_the_service_keys(
    tmp_path: Path, keys: KeyStore, capsys: pytest.CaptureFixture[str]
) -> None:
    signer = keys.load()
    assert signer is not None
    text = sealed_export(bot_match(4), MATCH_A, signer, keys.ring())
    assert verify(tmp_path, text, "--trusted-key", trusted_file(tmp_path, keys)) == 0
    out = capsys.readouterr().out
    assert f"PASS signature: signed by trusted key {signer.key_id} (active)" in out
    assert out.rstrip().endswith("verify passed")


def test_a_log_rewritten_with_recomputed_hashes_fails(
    tmp_path: Path, keys: KeyStore, capsys: pytest.CaptureFixture[str]
) -> None:
    signer = keys.load()
    assert signer is not None
    genuine = sealed_export(bot_match(4), MATCH_A, signer, keys.ring())
    seal = genuine.splitlines()[-1]
    # every hash recomputed after the edit: the chain and the rules are satisfied
    forged_records = chain(renamed(bot_match(4), "mallory"), match_id=MATCH_A)
    assert audit(forged_records).ok
    forged = to_ndjson(forged_records) + seal + "\n"
    assert verify(tmp_path, forged, "--trusted-key", trusted_file(tmp_path, keys)) == 1
    out = capsys.readouterr().out
    assert "audit passed" in out  # the rules alone cannot tell
    assert "FAIL signature: the signature is over match" in out
    assert out.rstrip().endswith("verify FAILED")


def test_a_genuine_log_relabelled_as_another_match_fails(
    tmp_path: Path, keys: KeyStore, capsys: pytest.CaptureFixture[str]
) -> None:
    signer = keys.load()
    assert signer is not None
    ring = keys.ring()
    seal_b = sealed_export(bot_match(5), MATCH_B, signer, ring).splitlines()[-1]
    # match A's genuine events, relabelled (and rehashed) as match B, with B's genuine seal
    relabelled = to_ndjson(chain(bot_match(4), match_id=MATCH_B)) + seal_b + "\n"
    assert verify(tmp_path, relabelled, "--trusted-key", trusted_file(tmp_path, keys)) == 1
    assert "FAIL signature: the signature is over match" in capsys.readouterr().out
    # relabelled without rehashing: the records' own hashes fail
    genuine_a = sealed_export(bot_match(4), MATCH_A, signer, ring)
    swapped = genuine_a.replace(MATCH_A, MATCH_B)
    assert verify(tmp_path, swapped, "--trusted-key", trusted_file(tmp_path, keys)) == 1
    out = capsys.readouterr().out
    assert "FAIL hash chain at v1" in out


def test_a_key_found_only_in_the_export_is_untrusted(
    tmp_path: Path, keys: KeyStore, capsys: pytest.CaptureFixture[str]
) -> None:
    service = keys.load()
    assert service is not None
    forger_keys = KeyStore(tmp_path / "forger" / "key.pem")
    forger = forger_keys.load()
    assert forger is not None
    forged = sealed_export(renamed(bot_match(4), "mallory"), MATCH_A, forger, forger_keys.ring())
    assert verify(tmp_path, forged, "--trusted-key", trusted_file(tmp_path, keys)) == 1
    out = capsys.readouterr().out
    assert f"signed with key {forger.key_id}, found only in the export itself: untrusted" in out
    # and with no trusted key at all, the same
    assert verify(tmp_path, forged) == 1


def test_an_unsigned_log_fails_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = to_ndjson(chain(bot_match(4)))
    assert verify(tmp_path, text) == 1
    assert "FAIL signature: the export carries no signature" in capsys.readouterr().out
    assert verify(tmp_path, text, "--allow-unsigned") == 0
    assert "UNSIGNED" in capsys.readouterr().out


def test_a_forged_signature_fails(tmp_path: Path, keys: KeyStore) -> None:
    signer = keys.load()
    assert signer is not None
    lines = sealed_export(bot_match(4), MATCH_A, signer, keys.ring()).splitlines()
    seal = json.loads(lines[-1])
    seal["seal"]["signature"] = seal["seal"]["signature"][::-1]
    exported = parse_export("\n".join([*lines[:-1], json.dumps(seal)]))
    report = audit(exported.records)
    checked = check_seal(report, exported.seal, exported.keys, keys.ring())
    assert (checked.ok, checked.status) == (False, "bad-signature")


def test_rotation_keeps_old_seals_verifying(
    tmp_path: Path,
    keys: KeyStore,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the key store is found through the service's own setting: no --trusted-key needed
    monkeypatch.setenv("CUCCU_SIGNING_KEY", str(keys.key_path))
    first = keys.load()
    assert first is not None
    old = sealed_export(bot_match(4), MATCH_A, first, keys.ring())
    assert main(["keys", "rotate"]) == 0
    assert f"key {first.key_id} retired" in capsys.readouterr().out
    second = keys.load()
    assert second is not None and second.key_id != first.key_id
    new = sealed_export(bot_match(5), MATCH_B, second, keys.ring())
    statuses = {k["kid"]: k["status"] for k in keys.ring().document()["keys"]}
    assert statuses == {first.key_id: "retired", second.key_id: "active"}
    assert verify(tmp_path, old) == 0
    assert f"signed by trusted key {first.key_id} (retired)" in capsys.readouterr().out
    assert verify(tmp_path, new) == 0
    assert f"signed by trusted key {second.key_id} (active)" in capsys.readouterr().out
