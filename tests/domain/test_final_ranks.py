"""Each game's final ranking (``Game.final_ranks``): what ratings place the seats by."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from domain.games import GAMES
from domain.games.game import Standing, ranks_by_standing


def standing(scores: tuple[int, ...], winners: tuple[int, ...]) -> Standing:
    return Standing("over", scores, winners, 1, 1, ())


def test_winners_first_then_by_score_with_ties_sharing_a_place() -> None:
    assert ranks_by_standing(standing((0, 3, 0, 1), (1,))) == (2, 0, 2, 1)
    assert ranks_by_standing(standing((5, 5, 2), (0, 1))) == (0, 0, 2)
    # a winner ranks first even with fewer points than a loser (the game says who won)
    assert ranks_by_standing(standing((1, 4), (0,))) == (0, 1)
    assert ranks_by_standing(standing((0, 0), ())) == (0, 0)


@given(st.lists(st.integers(0, 30), min_size=2, max_size=12), st.data())
def test_places_are_a_competition_ranking(scores: list[int], data: st.DataObject) -> None:
    winners = tuple(sorted(data.draw(st.sets(st.integers(0, len(scores) - 1), max_size=2))))
    ranks = ranks_by_standing(standing(tuple(scores), winners))
    assert min(ranks) == 0
    for a, ra in enumerate(ranks):
        ahead = sum(
            (b in winners, scores[b]) > (a in winners, scores[a]) for b in range(len(scores))
        )
        assert ra == ahead


def test_every_hosted_game_ranks_its_finished_matches() -> None:
    """A bot-only match of each game played to its end: the winners are placed first."""
    from api.turns import advance

    for game in GAMES.values():
        from domain.seats import SeatSpec

        seats = tuple(SeatSpec(f"b{i}", "bot", "random") for i in range(3))
        command = game.create_command(seats, 0, dict(game.options) | _short(game.name))
        state, _ = game.apply(game.initial(), command)
        state, _ = advance(state, random.Random(5).randrange(2**31), game)
        assert game.is_over(state)
        ranks = game.final_ranks(state)
        summary = game.summary(state)
        assert len(ranks) == 3
        assert all(ranks[w] == 0 for w in summary.winners)
        assert ranks == ranks_by_standing(summary)


def _short(game: str) -> dict[str, object]:
    short = {"cucco21": {"starting_chips": 2, "max_sets": 1}}
    return short.get(game, {"starting_lives": 1})
