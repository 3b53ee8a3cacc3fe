"""No prompt reveals a card (issue 25, item 4; docs/ARCHITECTURE.md, "Prompts reveal nothing
hidden").

Two worlds that differ only in one hidden card: in the first a seat is dealt a plain card, in
the second a power card (Lovers, Cat, House or Horse) that sits at the bottom of the first
world's deck, and the plain card at the bottom of the second's. Both are played with the same
answers (every asked target accepts, so the power never acts). Until the rules make one of the
two cards public (a discard, an out, a draw, the scoring reveal), every command must show the
table the same thing in both worlds: the same redacted events, and the same prompt (who must
decide, of which kind) to every seat and to spectators. Before the fix a target without a power
was never prompted, so an ``asked`` prompt told the table it held one.

The plain card is of value 5 or more and not a Ceremony or a Clown: otherwise the two worlds
differ by a public outcome of the rules (a Clown's out) or by whether a Ceremony's giver may
claim (its choices differ, its prompt does not: tests/domain/test_prompts_are_public.py).
"""

from __future__ import annotations

import random
from typing import Any, cast

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.cucco21.cards import CARDS, CAT, CEREMONY, CLOWN, HORSE, HOUSE, LOVERS, value
from domain.games.cucco21.commands import Choice, Choose, Shuffle, StartRound
from domain.games.cucco21.conformance import position
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import Event, RoundScored
from domain.games.cucco21.state import GameState
from domain.games.cucco21.views import redact, view
from tests.cucco21.test_properties import _cards_in
from tests.cucco21.test_reference_model import random_position

POWERS = (LOVERS, CAT, HOUSE, HORSE)
SALT = "ab" * 16


def _plain(card: str) -> bool:
    v = value(card)
    return v >= 5 and v not in (*POWERS, CEREMONY, CLOWN)


def _worlds(seed: int) -> tuple[dict[str, Any], dict[str, Any], str, str] | None:
    """A position, the same with two cards swapped, and the two cards (the dealt one first)."""
    rng = random.Random(seed)
    scenario = random_position(rng)
    cards = list(CARDS)
    rng.shuffle(cards)
    scenario |= {"powers": True, "deck_top_to_bottom": cards, "discard_before": []}
    dealt, _ = apply(position(scenario), StartRound())
    rnd = dealt.round
    if rnd is None or dealt.status != "in_round":
        return None  # the ante ended the set
    # a holder with a predecessor in turn order, so that it can be asked
    targets = [s for s in rnd.turn_order[1:] if rnd.hands[s] is not None]
    rng.shuffle(targets)
    for target in targets:
        mine = rnd.hands[target]
        assert mine is not None
        wanted = (lambda c: value(c) in POWERS) if _plain(mine) else _plain
        if not (_plain(mine) or value(mine) in POWERS):
            continue
        other = next((c for c in reversed(cards) if wanted(c)), None)
        if other is None or cards.index(other) < len(cards) - 8:
            continue  # only a card the round will not reach
        swapped = [other if c == mine else mine if c == other else c for c in cards]
        return scenario, scenario | {"deck_top_to_bottom": swapped}, mine, other
    return None


def _public(state: GameState, events: list[Event]) -> tuple[bytes, list[bytes]]:
    """What the command showed the table: its events as a spectator sees them, and the prompt
    as every viewer sees it (the seat's own choices are its own business)."""
    shown = msgspec.json.encode([redact(e, None) for e in events])
    prompts = [msgspec.json.encode(view(state, None, with_log=False).pending)]
    for seat in range(len(state.seats)):
        step = view(state, seat, with_log=False).pending
        prompts.append(msgspec.json.encode(None if step is None else (step.seat, step.kind)))
    return shown, prompts


def _answer(state: GameState, rng: random.Random, bias: float) -> Choose | Shuffle:
    step = view(state, None, with_log=False).pending
    assert step is not None
    if step.kind == "shuffle":
        order = list(state.discard)
        rng.shuffle(order)
        return Shuffle(tuple(order), SALT)
    assert step.seat is not None
    if step.kind == "turn":
        choice = "trade" if rng.random() < bias else "keep"
    elif step.kind == "asked":
        choice = "accept"  # legal whatever the target holds: the power never acts
    else:
        own = view(state, step.seat, with_log=False).pending  # claim only for who may
        assert own is not None
        choice = rng.choice(own.choices)
    return Choose(step.seat, cast(Choice, choice))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**64 - 1), bias=st.floats(0.3, 1.0))
def test_the_prompts_are_the_same_in_worlds_that_differ_in_a_hidden_card(
    seed: int, bias: float
) -> None:
    worlds = _worlds(seed)
    if worlds is None:
        return
    first, second, mine, other = worlds
    rng = random.Random(seed)
    a, _ = apply(position(first), StartRound())
    b, _ = apply(position(second), StartRound())
    assert _public(a, [])[1] == _public(b, [])[1]
    while a.status == "in_round":
        command = _answer(a, rng, bias)
        a, shown_a = apply(a, command)
        b, shown_b = apply(b, command)
        named = _cards_in([redact(e, None) for e in (*shown_a, *shown_b)])
        if mine in named or other in named or any(type(e) is RoundScored for e in shown_a):
            break  # the rules make one of the two cards public now (or score the round)
        assert _public(a, shown_a) == _public(b, shown_b), (seed, command)


def test_a_target_without_a_power_is_prompted_to_accept() -> None:
    """The case the issue names: the same request, a plain card or a Lovers behind it."""
    prompts = []
    for card in ("15#1", "6#1"):
        cards = [c for c in CARDS if c not in ("20#1", card, "17#1", "9#1")]
        scenario = random_position(random.Random(3))
        n = 4
        scenario |= {
            "seats": n,
            "powers": True,
            "starting_chips": 5,
            "chips_before": [5] * n,
            "box_before": 0,
            "alive_before": list(range(n)),
            "bankrupt_before": [],
            "round_card": "2",
            "dealer": 0,
            "set_number": 1,
            "max_sets": None,
            "turn_order": [1, 2, 3, 0],
            "deck_top_to_bottom": ["20#1", card, "17#1", "9#1", *cards],
            "discard_before": [],
        }
        state, _ = apply(position(scenario), StartRound())
        state, events = apply(state, Choose(1, "trade"))
        assert [type(e).__name__ for e in events] == ["Asked"]
        prompts.append(_public(state, events))
        own = view(state, 2).pending
        assert own is not None and own.kind == "asked"
        assert own.choices == (("accept",) if card == "15#1" else ("refuse", "accept"))
    assert prompts[0] == prompts[1]


def test_the_sweep_reaches_asked_prompts_in_both_worlds() -> None:
    """The hypothesis property compares worlds where a swapped card is asked for, often."""
    reached = 0
    for seed in range(60):
        worlds = _worlds(seed)
        if worlds is None:
            continue
        first, second, _, _ = worlds
        a, _ = apply(position(first), StartRound())
        b, _ = apply(position(second), StartRound())
        first_turn = view(a, None).pending
        assert first_turn is not None and first_turn.seat is not None
        a, _ = apply(a, Choose(first_turn.seat, "trade"))
        b, _ = apply(b, Choose(first_turn.seat, "trade"))
        step = view(a, None).pending
        if step is not None and step.kind == "asked":
            assert view(b, None).pending == step
            reached += 1
    assert reached >= 20, reached
