"""The ratings' arithmetic (api/ratings.py), without a database: who a finish rates, which way
ratings move, and that applying finishes depends only on their order."""

from __future__ import annotations

import datetime as dt
import random

from api.ratings import NEW_RATING, Finish, Rating, account_of, rate, replay

T0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


def finish(n: int, accounts: dict[int, str], ranks: tuple[int, ...], game: str = "cuccu") -> Finish:
    return Finish(f"m{n:04}", game, T0 + dt.timedelta(seconds=n), accounts, ranks)


def test_the_winner_gains_the_loser_drops_and_both_grow_surer() -> None:
    after = rate({}, finish(1, {0: "ann", 2: "bob"}, (0, 1, 2)))
    assert after["ann"].mu > NEW_RATING.mu > after["bob"].mu
    assert after["ann"].sigma < NEW_RATING.sigma and after["bob"].sigma < NEW_RATING.sigma
    assert after["ann"].matches == after["bob"].matches == 1
    # a tie moves neither mean
    tied = rate({}, finish(2, {0: "ann", 1: "bob"}, (1, 1, 0)))
    assert tied["ann"].mu == tied["bob"].mu == NEW_RATING.mu


def test_only_matches_between_two_accounts_or_more_are_rated() -> None:
    assert rate({}, finish(1, {0: "ann"}, (0, 1))) == {}
    twice = finish(2, {0: "ann", 1: "ann"}, (0, 1))
    assert not twice.rated and rate({}, twice) == {}
    assert finish(3, {0: "ann", 1: "bob"}, (0, 1)).rated


def test_replay_depends_on_the_finishes_order_only() -> None:
    rng = random.Random(7)
    players = ["ann", "bob", "cy", "di"]
    finishes = []
    for n in range(60):
        seats = rng.sample(players, rng.randint(2, 4))
        ranks = tuple(rng.randint(0, 3) for _ in seats)
        finishes.append(finish(n, dict(enumerate(seats)), ranks, rng.choice(["cuccu", "cucco21"])))
    table = replay(finishes)
    shuffled = finishes[:]
    rng.shuffle(shuffled)
    assert replay(shuffled) == table  # the same numbers, to the bit
    # in two halves, the second starting from the first's result: the same again
    assert replay(finishes[30:], replay(finishes[:30])) == table
    # and one by one, as the API applies them
    step: dict[str, dict[str, Rating]] = {}
    for f in finishes:
        step.setdefault(f.game, {}).update(rate(step.get(f.game, {}), f))
    assert step == table
    assert sum(r.matches for g in table.values() for r in g.values()) == sum(
        len(f.accounts) for f in finishes
    )


def test_the_account_of_a_claims_metadata() -> None:
    assert account_of({"actor": "seat:2", "command": {}, "account": "p1"}) == (2, "p1")
    assert account_of({"actor": "seat:2", "command": {}}) is None
    assert account_of({"actor": "bot:expert", "account": "p1"}) is None
    assert account_of(None) is None
