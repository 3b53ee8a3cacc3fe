"""The gettext catalogs: complete in four languages, plural forms right, .mo files current."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from viewer.i18n import LANGS, LOCALES, tr, trn

VIEWER = Path(__file__).resolve().parents[2] / "viewer"


def _po(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "viewer.po"


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with _po(lang).open("rb") as f:
        return read_po(f, locale=lang)


def _fields(text: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_compiled_catalog_is_the_one_its_po_file_gives(lang: str) -> None:
    """`make locales` was run after the last edit of the .po file (the .mo is committed)."""
    compiled = io.BytesIO()
    write_mo(compiled, _catalog(lang))
    committed = (LOCALES / lang / "LC_MESSAGES" / "viewer.mo").read_bytes()
    assert committed == compiled.getvalue(), f"run `make locales`: {lang}'s viewer.mo is stale"


@pytest.mark.parametrize("lang", ["fr", "pt", "th"])
def test_every_entry_is_translated_with_the_same_placeholders(lang: str) -> None:
    english = {m.id: m for m in _catalog("en") if m.id}
    other = {m.id: m for m in _catalog(lang) if m.id}
    assert set(other) == set(english)
    for key, message in other.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(f.strip() for f in forms), (lang, key)
        theirs = english[key].string
        first = theirs[-1] if isinstance(theirs, tuple) else theirs
        assert {_fields(f) for f in forms} <= {_fields(first), _fields(first) - {"n"}}, key


def test_every_key_the_code_names_is_in_the_catalog() -> None:
    """Babel extracts T("...") and N("...", n) calls; a typo in a key would show as the key."""
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog("en") if m.id}
    keywords = {"T": None, "N": (1,)}
    found = {
        msg if isinstance(msg, str) else msg[0]
        for _, _, msg, _, _ in extract_from_dir(str(VIEWER), keywords=keywords)
    }
    assert found and found <= known, sorted(found - known)


@pytest.mark.parametrize(
    ("lang", "one", "two", "zero"),
    [("en", "1 life", "2 lives", "0 lives"), ("fr", "1 vie", "2 vies", "0 vie"),
     ("pt", "1 vida", "2 vidas", "0 vida"), ("th", "1 ชีวิต", "2 ชีวิต", "0 ชีวิต")],
)  # fmt: skip
def test_plural_forms_follow_each_language(lang: str, one: str, two: str, zero: str) -> None:
    assert [trn(lang, "count.lives", n) for n in (1, 2, 0)] == [one, two, zero]  # type: ignore[arg-type]


def test_a_check_count_agrees_with_its_number() -> None:
    assert trn("en", "audit.failed", 1, total=6) == "1 of 6 checks fails."
    assert trn("en", "audit.failed", 3, total=6) == "3 of 6 checks fail."
    assert trn("fr", "audit.failed", 1, total=6) == "1 contrôle sur 6 échoue."


def test_an_unknown_key_reads_as_itself() -> None:
    assert tr("fr", "no.such.key") == "no.such.key"
