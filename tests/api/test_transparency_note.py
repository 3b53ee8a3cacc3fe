"""Signed notes and checkpoints against published values.

The key pair and the signed note are those of golang.org/x/mod's ``sumdb/note/note_test.go``
(``TestSign``, ``TestOpen``; the Go implementation C2SP's signed-note specification describes),
the checkpoint text is the example of C2SP's ``tlog-checkpoint``. Data only.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from api.transparency.note import (
    Checkpoint,
    NoteError,
    NoteSigner,
    NoteVerifier,
    open_checkpoint,
    open_note,
)

PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
)
PETER_SIG = (
    "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdng"
    "otpRZb6KE6RyyBwJnAM=\n"
)
ENOCH_SIG = (
    "\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWL"
    "ox33WWd1RvMc+QQ=\n"
)


def _peter() -> NoteSigner:
    name, _, encoded = PETER_SKEY.removeprefix("PRIVATE+KEY+").split("+", 2)
    seed = base64.b64decode(encoded)
    assert seed[0] == 1  # Ed25519
    return NoteSigner(name, Ed25519PrivateKey.from_private_bytes(seed[1:]))


def test_a_note_is_signed_byte_for_byte_as_the_go_implementation_signs_it() -> None:
    signer = _peter()
    assert signer.verifier.text() == PETER_VKEY
    assert signer.sign(TEXT) == TEXT + "\n" + PETER_SIG


def test_published_notes_open_with_their_verifier_keys() -> None:
    peter, enoch = NoteVerifier.parse(PETER_VKEY), NoteVerifier.parse(ENOCH_VKEY)
    both = TEXT + "\n" + PETER_SIG + ENOCH_SIG
    assert open_note(both, peter) == TEXT
    assert open_note(both, enoch) == TEXT


def test_a_note_signed_by_another_key_or_altered_is_refused() -> None:
    peter = NoteVerifier.parse(PETER_VKEY)
    with pytest.raises(NoteError, match="another key"):
        open_note(TEXT + "\n" + ENOCH_SIG, peter)
    with pytest.raises(NoteError, match="does not verify"):
        open_note(TEXT.replace("answer", "ANSWER") + "\n" + PETER_SIG, peter)
    for malformed in (TEXT, TEXT + "\n", TEXT + "\n" + PETER_SIG[:-1], TEXT + "\n" + "x\n"):
        with pytest.raises(NoteError):
            open_note(malformed, peter)


@pytest.mark.parametrize(
    "key",
    [
        PETER_VKEY.replace("c74f20a3", "c74f20a4"),  # a hash not of the key
        PETER_VKEY.replace("+ARpc", "+AhpC"),  # another algorithm byte
        "Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        PETER_VKEY[:-4],
    ],
)
def test_mangled_verifier_keys_are_refused(key: str) -> None:
    with pytest.raises(NoteError):
        NoteVerifier.parse(key)


def test_the_c2sp_example_checkpoint_reads() -> None:
    text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    checkpoint = Checkpoint.parse(text)
    assert (checkpoint.origin, checkpoint.size) == ("example.com/behind-the-sofa", 20852163)
    assert checkpoint.text() == text
    assert Checkpoint.parse(text + "an extension line\n").size == 20852163
    for bad in (
        "example.com/log\n012\n" + text.split("\n")[2] + "\n",
        "example.com/log\n-1\n" + text.split("\n")[2] + "\n",
        "example.com/log\n3\nAAAA\n",
        "example.com/log\n3\n",
    ):
        with pytest.raises(NoteError):
            Checkpoint.parse(bad)


def test_a_checkpoint_signed_and_opened() -> None:
    signer = NoteSigner("cuccu.test/log", Ed25519PrivateKey.generate())
    checkpoint = Checkpoint("cuccu.test/log", 5, bytes(range(32)))
    signed = signer.sign(checkpoint.text())
    assert open_checkpoint(signed, signer.verifier, "cuccu.test/log") == checkpoint
    with pytest.raises(NoteError, match="not 'elsewhere'"):
        open_checkpoint(signed, signer.verifier, "elsewhere")
    impostor = NoteSigner("cuccu.test/log", Ed25519PrivateKey.generate())
    with pytest.raises(NoteError, match="another key"):
        open_checkpoint(impostor.sign(checkpoint.text()), signer.verifier)


def test_the_example_checkpoint_of_docs_api_md_verifies() -> None:
    """docs/API.md, "Checkpoints and the log key", gives a real checkpoint to test with."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "API.md").read_text(encoding="utf-8")
    key = "cuccu.local/log+c01212c9+AQOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4"
    assert key in doc
    start = doc.index("    cuccu.local/log\n    1\n")
    block = doc[start : doc.index("\n\n", doc.index("\u2014 cuccu.local/log", start)) + 1]
    signed = "".join(line.removeprefix("    ") + "\n" for line in block.splitlines())
    checkpoint = open_checkpoint(signed, NoteVerifier.parse(key), "cuccu.local/log")
    # the root of the tree of one leaf, the empty string: the first of RFC 6962's vectors
    assert (checkpoint.size, checkpoint.root.hex()) == (
        1,
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    )
    signer = NoteSigner("cuccu.local/log", Ed25519PrivateKey.from_private_bytes(bytes(range(32))))
    assert signer.verifier.text() == key and signer.sign(checkpoint.text()) == signed
