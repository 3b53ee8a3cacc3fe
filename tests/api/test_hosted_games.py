"""Every hosted game has what the API needs of it beyond the seam: its refusals reach the
caller as their own problem types (never a 500), and it has its tournament."""

from __future__ import annotations

import pytest

from api.games import TOURNAMENTS
from api.problems import DOMAIN_ERRORS, PROBLEM_TYPES, problem_slug
from domain.errors import DomainError
from domain.games import GAMES, Game


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda game: game.name)
def test_each_code_a_request_can_cause_has_its_status_and_problem_type(game: Game) -> None:
    for code, kind in game.errors.items():
        if kind.status == 500:  # a command the service built wrongly
            assert code not in DOMAIN_ERRORS
            continue
        status, slug = DOMAIN_ERRORS[code]
        assert status == kind.status and PROBLEM_TYPES[slug] == (kind.status, kind.title)
        assert problem_slug(DomainError(code, "refused")) == slug


def test_every_hosted_game_has_its_tournament() -> None:
    # ``cuccu tournament --game`` offers the registry's games: each needs its report
    assert set(TOURNAMENTS) == set(GAMES)
