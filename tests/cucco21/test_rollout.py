"""The expert's fast rollouts play the rules as the domain does (``bots/rollout.py``)."""

from __future__ import annotations

import random
from typing import cast

import pytest

from domain.games.cucco21.bots import POLICIES, tournament
from domain.games.cucco21.bots.expert import (
    account,
    expert_choice,
    play_out,
    rebuild,
    table_of,
    turn_rule,
    world_hands,
    worlds,
)
from domain.games.cucco21.bots.rollout import RoundEnd, play_round
from domain.games.cucco21.commands import Choice, Choose
from domain.games.cucco21.decide import apply
from domain.games.cucco21.views import GameView


class _Checker:
    """An expert that, before each decision, plays sampled worlds both ways and compares."""

    def __init__(self) -> None:
        self.compared = 0
        self.kinds: set[str] = set()
        self.ends: set[tuple[bool, bool, bool]] = set()  # (game over, someone bankrupt, set over)

    def __call__(self, seen: GameView, rng: random.Random) -> str:
        step = seen.pending
        me = seen.viewer
        assert step is not None and me is not None
        if len(step.choices) > 1:
            acc = account(seen)
            table, turns = table_of(seen, acc), turn_rule(seen)
            source = worlds(seen, acc, rng)
            for _ in range(4):
                world = next(source)
                if world.weight <= 0.0:
                    continue
                state = rebuild(seen, acc, world)
                hands, clowns = world_hands(seen, acc, world)
                seed = rng.getrandbits(32)
                for choice in step.choices:
                    after, _ = apply(state, Choose(me, cast(Choice, choice)))
                    slow = RoundEnd.of(play_out(after, me, seed))
                    fast = play_round(
                        table, hands, world.deck, clowns, turns, seed, me, step.kind, choice
                    )
                    assert fast == slow, (step.kind, choice)
                    self.compared += 1
                    self.kinds.add(step.kind)
                    self.ends.add((slow.over, any(slow.bankrupt), slow.round_card == "1"))
        return expert_choice(seen, rng)


# Few chips make bankruptcies (during the turns and at scoring) and short games likely.
@pytest.mark.parametrize(
    ("seats", "chips", "powers", "max_sets", "games", "prompts"),
    [
        (4, 15, True, 3, 4, {"turn", "asked", "ceremony"}),
        (3, 4, True, None, 4, {"turn"}),
        (5, 6, True, 2, 3, {"turn", "asked", "ceremony"}),
        (4, 8, False, 2, 2, {"turn"}),
    ],
)
def test_fast_rollouts_end_the_round_as_the_domain_does(
    monkeypatch: pytest.MonkeyPatch,
    seats: int,
    chips: int,
    powers: bool,
    max_sets: int | None,
    games: int,
    prompts: set[str],
) -> None:
    checker = _Checker()
    monkeypatch.setitem(POLICIES, "expert", checker)
    for game in range(games):
        levels = ["expert"] + ["basic"] * (seats - 1)
        rng = random.Random(f"rollout-check:{seats}:{game}")
        tournament.play_game(levels, rng, starting_chips=chips, powers=powers, max_sets=max_sets)
    assert checker.compared > 100
    assert checker.kinds == prompts
    # rounds that went on, ended a set, ended the game, and saw a bankruptcy were all compared
    assert (False, False, False) in checker.ends and (False, False, True) in checker.ends
    assert any(over for over, _, _ in checker.ends)
    assert any(bankrupt for _, bankrupt, _ in checker.ends)
