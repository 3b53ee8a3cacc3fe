"""The viewer's own words in English, French, Portuguese and Thai, from gettext catalogs.

The catalogs are ``viewer/locales/<lang>/LC_MESSAGES/viewer.po`` (edited by hand or with
Babel's tools) compiled to ``viewer.mo`` beside them by ``make locales`` (``pybabel compile``).
The ``.mo`` files are committed, so every way of installing the viewer (pip, the container
image, ``streamlit run``) finds them without a build step; a test fails when one is older than
its ``.po``.

Message ids are stable keys (``"nav.replay"``), not English sentences, so a reworded English
text does not orphan its translations; English is a catalog like the others. Plural forms come
from each catalog's ``Plural-Forms`` header (Thai has one form, French and Portuguese count 0 as
singular), through ``ngettext``.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Final, Literal

Lang = Literal["en", "fr", "pt", "th"]
LANGS: Final[dict[Lang, str]] = {"en": "English", "fr": "Français", "pt": "Português", "th": "ไทย"}
LOCALES: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "viewer"
PLURAL_SUFFIX: Final = ".plural"  # msgid_plural of a key: what gettext answers when untranslated


@cache
def catalog(lang: Lang) -> gettext.NullTranslations:
    """The compiled catalog of ``lang``, falling back to English for a missing entry."""
    english = gettext.translation(DOMAIN, LOCALES, languages=["en"])
    if lang == "en":
        return english
    found = gettext.translation(DOMAIN, LOCALES, languages=[lang])
    found.add_fallback(english)
    return found


def tr(lang: Lang, key: str, **values: object) -> str:
    """The text of ``key`` in ``lang``, with ``values`` filled in (the key itself if unknown)."""
    text = catalog(lang).gettext(key)
    return text.format(**values) if values else text


def trn(lang: Lang, key: str, n: int, **values: object) -> str:
    """The plural entry ``key`` for the count ``n`` (``{n}`` in the text), in ``lang``."""
    text = catalog(lang).ngettext(key, key + PLURAL_SUFFIX, n)
    return text.format(n=n, **values)
