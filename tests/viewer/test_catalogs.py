"""The gettext catalogs: complete in four languages, plural forms right, .mo files current."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from domain.games import GAMES, NOT_YET_HOSTED
from domain.games.cucco21.events import Asked, Traded
from viewer.games import cucco21
from viewer.i18n import LANGS, LOCALES, tr, trn
from viewer.rules import rules_text

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


@pytest.mark.parametrize("lang", list(LANGS))
def test_cucco21_arrows_use_the_log_s_verb(lang: str) -> None:
    """Issue 20, problem 10: the arrow said "asks to exchange" while the log said "asks … to
    trade"; each word of an arrow's label is in the log's sentence for the same event."""
    names = ["Ann", "Bob"]
    for event in (Asked(seat=0, target=1), Traded(asker=0, target=1, asker_gets=None,
                                                     target_gets=None)):  # fmt: skip
        (arrow,), _ = cucco21.action(event, lang)
        sentence = cucco21.caption(event, names, lang)
        for word in arrow.label.split():
            assert word in sentence, (arrow.label, sentence)


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_dealer_has_one_name_in_the_ui_and_in_every_game_s_rules(lang: str) -> None:
    """Issue 20, problem 10: the Portuguese UI said "dealer" and its rules "carteador"."""
    word = tr(lang, "seat.dealer").lower()
    for game in (*GAMES, *(game.name for game in NOT_YET_HOSTED)):
        assert word in rules_text(game, lang).lower(), game
    if lang != "en":  # the English word is not left in another language's texts
        texts = [message.string for message in _catalog(lang) if message.id]
        for text in texts:
            assert "dealer" not in re.sub(r"\{dealer\}", "", str(text)).lower(), text
        for game in (*GAMES, *(game.name for game in NOT_YET_HOSTED)):
            assert "dealer" not in rules_text(game, lang).lower(), game
