"""The viewer finds every hosted game's presentation through its registries."""

from __future__ import annotations

import pytest

from domain.audit import chain
from domain.games import GAMES
from viewer.games import PRESENTATIONS, game_of
from viewer.games.pages import PAGES
from viewer.games.seats import SEATS


def test_every_hosted_game_has_its_presentation_its_pages_and_its_seats() -> None:
    assert set(PRESENTATIONS) == set(GAMES) == set(PAGES) == set(SEATS)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_sample_of_each_game_is_replayed_to_its_end(name: str) -> None:
    records = chain(PRESENTATIONS[name].sample(3))
    assert game_of([records[0].event]) == name
    replay = PRESENTATIONS[name].replay(records)
    assert replay.full and replay.stuck_at is None and replay.last_step == len(records)
