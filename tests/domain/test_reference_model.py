"""Differential tests: the independent reference round (``reference_round.py``) against the
hand-checked scenario files, and the rules engine (``domain``) against the reference on
hypothesis-generated rounds."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from domain.conformance import first_difference
from tests.domain.reference_round import (
    CANONICAL_PACK,
    Chooser,
    dealt_cards,
    participants_in_turn_order,
    play_reference_round,
    rank,
    replay_chooser,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
#: hypothesis rounds compared: a quick run's size by default, CI's 8,000 from .ci/run
#: (README, "Testing")
ROUNDS = int(os.environ.get("CUCCU_REFERENCE_ROUNDS", "1000"))
SCENARIO_FILES = sorted(SCENARIOS.glob("*.json"))


def test_the_scenario_folder_is_there() -> None:
    assert len(SCENARIO_FILES) == 32


def _replayed(scenario: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]], int]:
    """The reference's result for a scenario file's round and decisions, the decisions it
    took, and how many of the file's decisions it consumed."""
    chooser, used = replay_chooser(scenario["decisions"])
    expected, decisions = play_reference_round(
        scenario["seats"],
        scenario["starting_lives"],
        scenario["lives_before"],
        scenario["dealer"],
        scenario["pack_top_to_bottom"],
        chooser,
    )
    return expected, decisions, used[0]


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[p.stem for p in SCENARIO_FILES])
def test_the_reference_reproduces_every_scenario(path: Path) -> None:
    scenario: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    expected, decisions, used = _replayed(scenario)
    assert used == len(scenario["decisions"]), "not every decision was consumed"
    assert decisions == scenario["decisions"]
    for key, value in scenario["expected"].items():
        assert expected[key] == value, f"{path.stem}: {key} differs"
    assert set(expected) == set(scenario["expected"])
    order = participants_in_turn_order(
        scenario["seats"], scenario["lives_before"], scenario["dealer"]
    )
    assert order == scenario["turn_order"]
    dealt = dealt_cards(
        scenario["seats"],
        scenario["lives_before"],
        scenario["dealer"],
        scenario["pack_top_to_bottom"],
    )
    assert dealt == scenario["dealt"]


def test_the_engine_check_can_fail() -> None:
    """The differential assertion is not vacuous: a one-life change to a reference result is
    reported by the engine's conformance check."""
    scenario: dict[str, Any] = json.loads((SCENARIOS / "S22.json").read_text(encoding="utf-8"))
    expected, _, _ = _replayed(scenario)
    assert first_difference({**scenario, "expected": expected}) is None
    expected["lives_after"][1] += 1
    assert first_difference({**scenario, "expected": expected}) is not None


def test_the_canonical_pack_has_forty_distinct_cards() -> None:
    assert len(set(CANONICAL_PACK)) == 40
    assert CANONICAL_PACK[:3] == ("lion#1", "lion#2", "mask#1")
    assert CANONICAL_PACK[-2:] == ("fool#1", "fool#2")


# -- the differential property test ------------------------------------------------------------

SPECIAL_RANKS = frozenset({"inn", "cat", "horse", "hunter", "cuckoo", "fool", "zero"})
SPECIAL_CARDS = tuple(card for card in CANONICAL_PACK if rank(card) in SPECIAL_RANKS)
RICH_POOL = (*SPECIAL_CARDS, "5#1", "5#2", "9#1", "9#2")
TAVERN_POOL = ("zero#1", "zero#2", "inn#1", "inn#2", "cat#1", "horse#1", "fool#1", "5#1", "9#1")


@dataclass(frozen=True)
class Position:
    seats: int
    starting_lives: int
    lives_before: list[int]
    dealer: int
    pack: list[str]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A legal start of round: N in 2..20 (mostly 2..8), the dealer alive, at least two seats
    alive (one live seat means the match has already ended, §6.4 / D21), lives in 0..L0."""
    seats = draw(st.integers(9, 20)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(2, 8))
    starting_lives = draw(st.sampled_from([3, 2, 1]))
    dealer = draw(st.integers(0, seats - 1))
    other = (dealer + draw(st.integers(1, seats - 1))) % seats
    mode = ["two left", "some out", "some out", "everyone", "everyone"][draw(st.integers(0, 4))]
    lives_before: list[int] = []
    for seat in range(seats):
        if seat in (dealer, other):
            lives_before.append(draw(st.integers(1, starting_lives)))
        elif mode == "two left":
            lives_before.append(0)
        elif mode == "everyone":
            lives_before.append(draw(st.integers(1, starting_lives)))
        else:
            lives_before.append(draw(st.integers(0, starting_lives)))
    in_play = sum(lives > 0 for lives in lives_before)
    pack = list(draw(st.permutations(CANONICAL_PACK)))
    # Uniform packs rarely deal chains of specials, so three of four packs are biased.
    bias = draw(st.sampled_from(["rich", "tavern", "sprinkled", "uniform"]))
    if bias == "sprinkled":
        # Move some specials into the dealt window (the bottom in_play cards) or just above
        # it (the dealer's bottom draw).
        specials = draw(st.lists(st.sampled_from(SPECIAL_CARDS), unique=True, max_size=8))
        for card in specials:
            pack.remove(card)
            from_bottom = draw(st.integers(0, in_play))
            pack.insert(len(pack) - from_bottom, card)
    else:
        # Deal from a shuffled pool of specials, zeros, fools and two mid numerals only: cat
        # reversals of long chains and double horses become common; the tavern pool makes a
        # zero meet an inn (pledges) and fools meet zeros at scoring.
        pool = list(draw(st.permutations(RICH_POOL if bias == "rich" else TAVERN_POOL)))
        window = pool[: in_play + 1]
        pack = [card for card in pack if card not in window] + window[::-1]
    return Position(seats, starting_lives, lives_before, dealer, pack)


def scenario_for(
    position: Position, decisions: list[dict[str, Any]], expected: dict[str, Any]
) -> dict[str, Any]:
    """A ``cuccu-scenario/1`` dict whose ``expected`` block is the reference's result."""
    return {
        "format": "cuccu-scenario/1",
        "id": "generated",
        "name": "a generated round, expected from the reference model",
        "depends_on": [],
        "seats": position.seats,
        "starting_lives": position.starting_lives,
        "dealer": position.dealer,
        "lives_before": list(position.lives_before),
        "turn_order": participants_in_turn_order(
            position.seats, position.lives_before, position.dealer
        ),
        "dealt": dealt_cards(position.seats, position.lives_before, position.dealer, position.pack),
        "pack_cards": {},
        "pack_top_to_bottom": list(position.pack),
        "decisions": decisions,
        "expected": expected,
    }


def note_features(expected: dict[str, Any]) -> None:
    """Hypothesis statistics (``--hypothesis-show-statistics``): which rules a round hit."""
    kinds = [e["t"] for e in expected["events"]]
    for kind in sorted(set(kinds)):
        event(f"event {kind}")
    if kinds.count("reverse") >= 2:
        event("reversal of a chain of 2+")
    if kinds.count("horse_skip") == 2:
        event("two horses skipped")
    if any(e["t"] == "life_loss" and e["reason"] == "inn_pledge" for e in expected["events"]):
        event("pledge paid")
    if expected["dead_seats"]:
        event("dead card at scoring")


@settings(max_examples=ROUNDS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), data=st.data())
def test_the_engine_agrees_with_the_reference(position: Position, data: st.DataObject) -> None:
    def chooser(seat: int, kind: str, allowed: tuple[str, ...]) -> str:
        # Exchanging and asking to pay are 3 times as likely as keeping: that grows chains.
        # The innkeeper answers 50/50. Shrinking still goes towards the first choice.
        top = 1 if kind == "inn_response" else 3
        index = data.draw(st.integers(0, top), label=f"{kind} of seat {seat}")
        return allowed[min(index, 1)]

    note_features(engine_agrees(position, chooser))


def engine_agrees(position: Position, chooser: Chooser) -> dict[str, Any]:
    """Play the round with the reference, check the engine gives the same, return the result."""
    expected, decisions = play_reference_round(
        position.seats,
        position.starting_lives,
        position.lives_before,
        position.dealer,
        position.pack,
        chooser,
    )
    scenario = scenario_for(position, decisions, expected)
    difference = first_difference(scenario)
    assert difference is None, f"{difference}\n{json.dumps(scenario)}"
    return expected


# -- a seeded high-volume sweep ----------------------------------------------------------------

SWEEP_ROUNDS = 30_000
SWEEP_POOLS = (
    RICH_POOL,
    TAVERN_POOL,
    SPECIAL_CARDS,
    tuple(dict.fromkeys(CANONICAL_PACK[:8] + SPECIAL_CARDS)),
)


def random_round(rng: random.Random) -> tuple[Position, Chooser]:
    """One legal round drawn with ``rng`` (cheaper than hypothesis, so many more of them):
    biased packs as in ``positions``, and per-round appetites for exchanging and for inns."""
    seats = rng.randint(9, 20) if rng.random() < 0.15 else rng.randint(2, 8)
    starting_lives = rng.choice([1, 2, 3, 3, 4])
    dealer = rng.randrange(seats)
    other = (dealer + rng.randint(1, seats - 1)) % seats
    p_out = rng.choice([0.0, 0.2, 0.5, 1.0])
    lives_before = [
        rng.randint(1, starting_lives) if seat in (dealer, other) or rng.random() >= p_out else 0
        for seat in range(seats)
    ]
    in_play = sum(lives > 0 for lives in lives_before)
    pack = list(CANONICAL_PACK)
    rng.shuffle(pack)
    if rng.random() < 0.6:
        pool = list(rng.choice(SWEEP_POOLS))
        rng.shuffle(pool)
        window = pool[: in_play + 1]
        pack = [card for card in pack if card not in window] + window[::-1]
    second_choice = {
        "turn": rng.choice([0.5, 0.75, 0.9, 1.0]),
        "dealer_turn": 0.5,
        "inn_choice": rng.random(),
        "inn_response": rng.random(),
    }

    def chooser(seat: int, kind: str, allowed: tuple[str, ...]) -> str:
        return allowed[1] if rng.random() < second_choice[kind] else allowed[0]

    return Position(seats, starting_lives, lives_before, dealer, pack), chooser


def test_a_seeded_sweep_agrees_and_reaches_the_rare_rules() -> None:
    rng = random.Random(20240611)
    reached: Counter[str] = Counter()
    for _ in range(SWEEP_ROUNDS):
        expected = engine_agrees(*random_round(rng))
        kinds = [e["t"] for e in expected["events"]]
        reached["reversal of 2+"] += kinds.count("reverse") >= 2
        reached["two horses"] += kinds.count("horse_skip") == 2
        reached["horse at the dealer"] += any(
            e["t"] == "pack_exchange" and e["end"] == "top" for e in expected["events"]
        )
        reached["pledge paid"] += any(
            e["t"] == "life_loss" and e["reason"] == "inn_pledge" for e in expected["events"]
        )
        reached["dead card"] += bool(expected["dead_seats"])
        reached["reset"] += expected["reset"]
        reached["match end"] += expected["match_winner"] is not None
    # The sweep is only worth its time if it keeps reaching the rare rules.
    assert min(reached.values()) >= 20, reached
    assert len(reached) == 7
