"""The registry names every game, and a match's first event tells which game it is."""

from __future__ import annotations

import pytest

from domain.games import CUCCO21, CUCCU, DEFAULT_GAME, GAMES, Game, by_name, of_first_event
from domain.games.cucco21.commands import CreateGame
from domain.games.cucco21.config import Config
from domain.games.cuccu.commands import CreateMatch
from domain.seats import SeatSpec


def test_both_games_are_registered_by_name() -> None:
    assert set(GAMES) == {"cuccu", "cucco21"}
    assert by_name("cucco21") is CUCCO21
    assert DEFAULT_GAME == "cuccu"
    with pytest.raises(KeyError, match="known: cuccu, cucco21"):
        by_name("poker")


@pytest.mark.parametrize(
    ("game", "create"),
    [
        (CUCCU, CreateMatch((SeatSpec("a"), SeatSpec("b")), 3, 0)),
        (CUCCO21, CreateGame(Config((SeatSpec("a"), SeatSpec("b"))))),
    ],
)
def test_the_first_event_names_its_game(game: Game, create: object) -> None:
    state, events = game.apply(game.initial(), create)
    assert of_first_event(game.event_name(events[0])) is game
    assert game.fold(events) == state
    assert not game.is_over(state)


def test_an_unknown_first_event_is_refused() -> None:
    with pytest.raises(KeyError, match="no game opens"):
        of_first_event("card_dealt")
