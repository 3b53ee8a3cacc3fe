"""docs/API.md "Hashes", "Exports" and "Signatures" are enough to check an export independently:
this test does it with the standard library's ``json`` and ``hashlib`` (and ``cryptography`` for
the signature) only, following the documents, never calling the code that wrote the export.
It also covers the fields an independent client found unhashed before (meta, time, match id)."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from msgspec.structs import replace

from api.keystore import KeyStore
from api.signing import seal_line
from domain.audit import AuditInputError, audit, chain, parse_export, to_ndjson
from domain.games.cuccu.events import Event, MatchCreated
from viewer.games.cuccu import bot_match

MATCH = "0f0e0d0c-0b0a-4908-8706-050403020100"
#: a seat name with every kind of character the canonical JSON rules name
ODD_NAME = 'Zoë "the\\cat" /\n\t\b\f\r\x01\x1f\x7f\x85\u2028\u2029😀'


def canonical(value: object) -> bytes:
    """Canonical JSON as docs/API.md defines it, written from the document."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def odd_match() -> list[Event]:
    events = bot_match(9)
    created = events[0]
    assert isinstance(created, MatchCreated)
    seats = (replace(created.seats[0], name=ODD_NAME), *created.seats[1:])
    return [replace(created, seats=seats), *events[1:]]


@pytest.fixture
def export(tmp_path: Path) -> tuple[str, dict[str, object]]:
    keys = KeyStore(tmp_path / "key.pem")
    signer = keys.load()
    assert signer is not None
    metas = [{"actor": "bot:basic", "command": {"type": "choose", "seat": 1, "choice": "keep"}}]
    records = chain(
        odd_match(),
        match_id=MATCH,
        metas=metas * 200,
        recorded_at="2026-12-01T09:00:00.000001Z",
    )
    last = records[-1]
    text = to_ndjson(records) + seal_line(
        signer.sign(MATCH, last.version, last.hash), keys.ring()
    ).decode("utf-8")
    return text, keys.ring().document()


def test_an_export_checks_out_with_the_standard_library_alone(
    export: tuple[str, dict[str, object]],
) -> None:
    text, trusted = export
    *lines, seal_text = text.encode("utf-8").rstrip(b"\n").split(b"\n")
    prev = "0" * 64
    for version, raw in enumerate(lines, start=1):
        line = json.loads(raw)
        prefix = b'{"hash":"' + line["hash"].encode() + b'","prev_hash":"'
        prefix += line["prev_hash"].encode() + b'","record":'
        assert raw.startswith(prefix) and raw.endswith(b"}")
        record_bytes = raw[len(prefix) : -1]
        assert record_bytes == canonical(line["record"])  # the record is canonical JSON
        assert line["prev_hash"] == prev
        assert hashlib.sha256(prev.encode("ascii") + record_bytes).hexdigest() == line["hash"]
        record = line["record"]
        assert (record["envelope"], record["match_id"], record["version"]) == (2, MATCH, version)
        prev = line["hash"]
    assert json.loads(lines[0])["record"]["data"]["seats"][0]["name"] == ODD_NAME

    seal = json.loads(seal_text)["seal"]
    message = canonical(
        {
            "final_hash": seal["final_hash"],
            "match_id": seal["match_id"],
            "purpose": "cuccu-match-result/1",
            "version": seal["version"],
        }
    )
    assert (seal["final_hash"], seal["version"], seal["match_id"]) == (prev, len(lines), MATCH)
    [key] = [k for k in trusted["keys"] if k["kid"] == seal["key_id"]]  # type: ignore[attr-defined]
    raw_key = base64.urlsafe_b64decode(key["x"] + "=" * (-len(key["x"]) % 4))
    assert hashlib.sha256(raw_key).hexdigest()[:16] == key["kid"]
    signature = base64.urlsafe_b64decode(seal["signature"] + "==")
    Ed25519PublicKey.from_public_bytes(raw_key).verify(signature, message)  # raises if bad


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("meta", "actor"), "seat:0"),
        (("meta", "command", "choice"), "exchange"),
        (("recorded_at",), "2026-12-01T09:00:00.000002Z"),
        (("match_id",), "ffffffff-0b0a-4908-8706-050403020100"),
        (("version",), 6),
        (("type",), "kept"),
    ],
)
def test_editing_any_recorded_field_fails_the_chain(
    export: tuple[str, dict[str, object]], where: tuple[str, ...], value: object
) -> None:
    text, _ = export
    lines = text.split("\n")  # not splitlines(): U+2028 in a name is not a line break
    line = json.loads(lines[4])
    target = line["record"]
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    lines[4] = canonical(line).decode("utf-8")  # a careful forger keeps the line canonical
    report = audit(parse_export("\n".join(lines)).records)
    assert report.check("hash_chain").version == 5, report.check("hash_chain")


def test_a_record_of_an_unknown_schema_version_is_refused_as_unreadable(
    export: tuple[str, dict[str, object]],
) -> None:
    text, _ = export
    lines = text.split("\n")
    line = json.loads(lines[4])
    line["record"]["schema"] = 2  # written by newer code than this
    lines[4] = canonical(line).decode("utf-8")
    with pytest.raises(AuditInputError, match="line 5: .*schema version 2"):
        parse_export("\n".join(lines))
