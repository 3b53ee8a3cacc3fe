"""The Rules page's texts: every game has them in every language, and the translations say the
same thing as the English text (the same sections, emphasis and numbers)."""

from __future__ import annotations

import re

import pytest

from domain.games import CHASE, GAMES, NOT_YET_HOSTED, Game
from viewer.i18n import LANGS
from viewer.rules import rules_text

#: every game the viewer hosts, and those about to be hosted: their rules ship first
ALL_GAMES: tuple[Game, ...] = (*GAMES.values(), *NOT_YET_HOSTED)
#: the first line of a rules text names the game, then says "how to play" in its language
HOW_TO_PLAY = {"en": "how to play", "fr": "comment jouer", "pt": "como jogar", "th": "วิธีเล่น"}


def _shape(text: str) -> tuple[int, int, int]:
    """How many headings, bold spans and code spans a text has: what a translation keeps."""
    headings = sum(1 for line in text.splitlines() if line.startswith("#"))
    return headings, text.count("**"), text.count("`")


@pytest.mark.parametrize("game", ALL_GAMES, ids=lambda game: game.name)
@pytest.mark.parametrize("lang", list(LANGS))
def test_every_game_has_its_rules_in_every_language(game: Game, lang: str) -> None:
    text = rules_text(game.name, lang)
    first = text.splitlines()[0]
    assert first.startswith(f"# {game.title}") and first.endswith(HOW_TO_PLAY[lang]), first
    english = rules_text(game.name, "en")
    assert _shape(text) == _shape(english)
    # every number of the English text is in the translation (seats, lives, card values, ...)
    assert set(re.findall(r"\d+", english)) <= set(re.findall(r"\d+", text))
    for bound in (game.min_seats, game.max_seats):
        assert str(bound) in re.findall(r"\d+", text), bound


#: the King, the only card with a power in Ranter-Go-Round (CHASE.md §3), in each language
KING = {"en": "King", "fr": "Roi", "pt": "Rei", "th": "คิง"}


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_chase_rules_name_its_options_pack_and_king(lang: str) -> None:
    text = rules_text(CHASE.name, lang)
    # every option a match is created with besides its lives is explained under its own name
    for option in CHASE.options:
        if option != "starting_lives":
            assert f"`{option}`" in text, option
    numbers = re.findall(r"\d+", text)
    assert "52" in numbers and "13" in numbers  # the pack, and the King's value
    assert text.count(KING[lang]) >= 10
    assert "cuccu verify" in text
