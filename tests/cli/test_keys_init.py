"""``cuccu keys init``: the one-shot step of a deployment that makes the signing key once.

It makes the key where the settings say (private to its owner, listed in the key ring), keeps
an existing key untouched on every later run, refuses to run where signing is off, never
replaces a file that is not a key, and keeps a key another process made meanwhile.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api import keystore
from api.cli import main
from api.keystore import KeyStore


@pytest.fixture
def key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "keys" / "signing-key.pem"  # its directory does not exist yet
    monkeypatch.setenv("CUCCU_SIGNING_KEY", str(path))
    return path


def ring_of(key_file: Path) -> list[dict[str, str]]:
    ring = key_file.with_name("signing-key.keys.json")
    keys: list[dict[str, str]] = json.loads(ring.read_text())["keys"]
    return keys


def test_init_makes_a_private_key_listed_in_the_ring(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "init"]) == 0
    out = capsys.readouterr().out
    [key] = ring_of(key_file)
    assert key["status"] == "active"
    signing, logging = out.strip().split("\n")
    assert signing == f"key {key['kid']} active ({key_file}: made)"
    # the transparency log's own key beside it, named as a note verifier key
    log_file = key_file.with_name("log-key.pem")
    assert logging.startswith("log key cuccu.local/log+")
    assert logging.endswith(f" ({log_file}: made)")
    assert key_file.stat().st_mode & 0o777 == 0o600  # the private key is its owner's only
    assert log_file.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in key_file.parent.iterdir()) == [
        "log-key.pem",
        "signing-key.keys.json",
        "signing-key.pem",
    ]  # no temporary file left behind


def test_init_again_keeps_the_key_and_the_service_signs_with_it(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "init"]) == 0
    made = key_file.read_bytes()
    [key] = ring_of(key_file)
    capsys.readouterr()
    assert main(["keys", "init"]) == 0  # a second deployment run: nothing changes
    assert capsys.readouterr().out.strip().split("\n")[0] == (
        f"key {key['kid']} active ({key_file}: already there, kept)"
    )
    assert key_file.read_bytes() == made and ring_of(key_file) == [key]
    assert main(["keys", "show"]) == 0  # what the API serves: the same single key
    assert json.loads(capsys.readouterr().out)["keys"] == [key]


def test_init_keeps_a_rotated_key_and_the_retired_one(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["keys", "init"]) == 0
    assert main(["keys", "rotate"]) == 0
    ring = ring_of(key_file)
    assert [k["status"] for k in ring] == ["retired", "active"]
    capsys.readouterr()
    assert main(["keys", "init"]) == 0
    assert f"key {ring[1]['kid']} active" in capsys.readouterr().out
    assert ring_of(key_file) == ring


def test_init_refuses_where_signing_is_off(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CUCCU_SIGNING_KEY", raising=False)
    url = "postgresql+psycopg://cuccu@127.0.0.1:1/cuccu"  # never connected to
    assert main(["--database-url", url, "keys", "init"]) == 2
    assert "signing is off for this database: set CUCCU_SIGNING_KEY" in capsys.readouterr().err


def test_init_never_replaces_a_file_that_is_not_a_key(
    key_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key_file.parent.mkdir()
    key_file.write_text("not a key\n")
    assert main(["keys", "init"]) == 2
    err = capsys.readouterr().err
    assert str(key_file) in err and "not a PEM private key" in err and "Traceback" not in err
    assert key_file.read_text() == "not a key\n"


def test_a_key_made_by_another_process_meanwhile_is_kept(
    key_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes find no key; the other one puts its key in place first. This one must
    sign with that key, not replace it with its own (the API replicas of a compose stack, or
    the workers of one server, would otherwise sign with keys the ring may not keep)."""
    real = Ed25519PrivateKey
    rival: list[tuple[str, bool]] = []

    class RivalFirst:
        """Generating this process's key lets the rival process finish first."""

        @staticmethod
        def generate() -> Ed25519PrivateKey:
            monkeypatch.setattr(keystore, "Ed25519PrivateKey", real)
            signer, created = KeyStore(key_file).init()
            rival.append((signer.key_id, created))
            return real.generate()

    monkeypatch.setattr(keystore, "Ed25519PrivateKey", RivalFirst)
    signer, created = KeyStore(key_file).init()
    [(rival_key, rival_created)] = rival
    assert rival_created and not created
    assert signer.key_id == rival_key
    assert [k["kid"] for k in ring_of(key_file)] == [rival_key]
    assert sorted(p.name for p in key_file.parent.iterdir()) == [
        "signing-key.keys.json",
        "signing-key.pem",
    ]


def test_init_on_a_file_system_without_hard_links(
    key_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_links(source: object, target: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(keystore.os, "link", no_links)
    assert main(["keys", "init"]) == 0
    assert "made)" in capsys.readouterr().out
    made = key_file.read_bytes()
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert main(["keys", "init"]) == 0
    assert "already there, kept" in capsys.readouterr().out
    assert key_file.read_bytes() == made
    assert len(ring_of(key_file)) == 1
