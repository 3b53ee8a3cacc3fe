"""The registry names every game, and a match's first event tells which game it is."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

import domain.games
from domain.errors import DomainError
from domain.games import (
    CHASE,
    CUCCO21,
    DEFAULT_GAME,
    GAMES,
    NOT_YET_HOSTED,
    Game,
    by_name,
    of_first_event,
)
from domain.games.game import HostedState
from domain.seats import SeatSpec


def test_every_game_is_registered_by_name() -> None:
    assert set(GAMES) == {"cuccu", "cucco21", "chase"}
    assert by_name("cucco21") is CUCCO21 and by_name("chase") is CHASE
    assert DEFAULT_GAME == "cuccu"
    with pytest.raises(KeyError, match="known: cuccu, cucco21, chase"):
        by_name("poker")


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_the_first_event_names_its_game(game: Game) -> None:
    create = game.create_command((SeatSpec("a"), SeatSpec("b")), 0, game.options)
    state, events = game.apply(game.initial(), create)
    assert of_first_event(msgspec.to_builtins(events[0])["type"]) is game
    assert game.fold(events) == state
    assert not game.is_over(state)


def test_an_unknown_first_event_is_refused() -> None:
    with pytest.raises(KeyError, match="no game opens"):
        of_first_event("card_dealt")


EVERY_GAME = [*GAMES.values(), *NOT_YET_HOSTED]


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda game: game.name)
def test_a_game_declares_every_error_code_its_package_raises(game: Game) -> None:
    # A code a host has no status for would be answered as the host's own fault (500).
    package = Path(domain.games.__file__).parent / game.name
    raised = {
        code
        for source in package.rglob("*.py")
        for code in re.findall(r'DomainError\(\s*"([a-z_]+)"', source.read_text())
    }
    assert raised and raised <= set(game.errors)


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda game: game.name)
def test_a_game_opens_with_its_default_options_within_its_seat_bounds_only(game: Game) -> None:
    def create(n: int) -> HostedState:
        seats = tuple(SeatSpec(f"s{i}") for i in range(n))
        state, _ = game.apply(game.initial(), game.create_command(seats, 0, game.options))
        return state

    for n in (game.min_seats, game.max_seats):
        assert len(create(n).seats) == n
    for n in (game.min_seats - 1, game.max_seats + 1):
        with pytest.raises(DomainError, match=f"{game.min_seats} to {game.max_seats} seats"):
            create(n)


@pytest.mark.parametrize("game", EVERY_GAME, ids=lambda game: game.name)
def test_options_are_named_with_their_defaults(game: Game) -> None:
    assert game.options == msgspec.to_builtins(game.options_type())
    assert game.title and game.score.field and game.score.unit
