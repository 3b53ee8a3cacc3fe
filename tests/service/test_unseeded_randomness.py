"""The randomness of a match created without a seed: the OS's CSPRNG, drawn in batches."""

from __future__ import annotations

import collections

from hypothesis import given
from hypothesis import strategies as st

from api.turns import BufferedSystemRandom, rng_for


@given(st.integers(min_value=0, max_value=5000))
def test_getrandbits_gives_exactly_k_bits(k: int) -> None:
    rng = BufferedSystemRandom()
    for _ in range(3):  # across a refill of the 256-byte pool too, for large k
        assert 0 <= rng.getrandbits(k) < 2**k


def test_random_is_a_float_in_the_unit_interval() -> None:
    rng = BufferedSystemRandom()
    draws = [rng.random() for _ in range(2000)]
    assert all(0.0 <= x < 1.0 for x in draws)
    assert len(set(draws)) == len(draws)


def test_every_method_of_random_works_on_it() -> None:
    rng = BufferedSystemRandom()
    assert isinstance(rng.gauss(0.0, 1.0), float)  # reads a field Random's __init__ sets
    assert len(rng.randbytes(5)) == 5
    assert rng.choice("abc") in "abc"


def test_every_card_position_is_reachable_and_draws_are_spread() -> None:
    # 60,000 rolls of a die: each face within 6 standard deviations (~ 550) of 10,000 fails
    # with probability below 1e-8, and fails for sure if bits were lost or repeated.
    rng = rng_for(None, 0, "shuffle")
    counts = collections.Counter(rng.randrange(6) for _ in range(60_000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert all(abs(n - 10_000) < 550 for n in counts.values())
    first = collections.Counter()
    for _ in range(4000):
        deck = list(range(40))
        rng_for(None, 0, "shuffle").shuffle(deck)
        first[deck[0]] += 1
    assert len(first) == 40


def test_two_steps_never_share_draws() -> None:
    a, b = rng_for(None, 1, "bot"), rng_for(None, 1, "bot")
    assert [a.getrandbits(64) for _ in range(8)] != [b.getrandbits(64) for _ in range(8)]


def test_a_seeded_match_still_replays() -> None:
    assert rng_for(7, 3, "shuffle").random() == rng_for(7, 3, "shuffle").random()
