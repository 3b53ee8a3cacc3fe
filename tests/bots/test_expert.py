"""The expert bot: legal, fair (blind to hidden cards), deterministic, and better than basic."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from bots_support import decisions, new_match, replay_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from api.games.cuccu import run_tournament
from domain.games.cuccu.bots import POLICIES, choose
from domain.games.cuccu.bots.expert import expert_choice
from domain.games.cuccu.cards import is_special, rank
from domain.games.cuccu.commands import BOT_LEVELS
from domain.games.cuccu.events import (
    CardDealt,
    CardRevealed,
    CardsExchanged,
    ExchangeReversed,
    PackExchanged,
)
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState
from domain.games.cuccu.views import MatchView, view


def test_expert_is_a_bot_level() -> None:
    assert "expert" in BOT_LEVELS
    assert POLICIES["expert"] is expert_choice


def _decide(state: MatchState, seed: int = 0) -> tuple[MatchView, str]:
    decision = pending(state)
    assert decision is not None and decision.seat is not None
    seen = view(state, decision.seat)
    return seen, expert_choice(seen, random.Random(seed))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 6),
    lives=st.integers(1, 3),
    others=st.sampled_from(["random", "basic"]),
)
def test_the_expert_only_takes_legal_actions(
    seed: int, seats: int, lives: int, others: str
) -> None:
    """A whole match with an expert seat: every answer it gives is applied by the domain, so
    an illegal one would raise; the other seats' prompts are put to it as well."""
    levels = ["expert"] + [others] * (seats - 1)
    for i, state in enumerate(decisions(levels, seed, lives, dealer=seed % seats)):
        if i % 7 == 0:
            seen, choice = _decide(state, seed)
            assert seen.pending is not None and choice in seen.pending.choices


def test_the_expert_answers_every_kind_of_prompt() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(40):
        for state in decisions(["basic"] * 4, seed):
            decision = pending(state)
            assert decision is not None
            if kinds[decision.kind] >= 3:
                continue
            seen, choice = _decide(state, seed)
            assert choice in decision.choices
            kinds[decision.kind] += 1
    assert set(kinds) == {"turn", "dealer_turn", "inn_choice", "inn_response"}


def test_the_expert_is_deterministic_for_a_seed() -> None:
    states = [s for i, s in enumerate(decisions(["basic"] * 4, 3)) if i % 5 == 0][:12]
    for state in states:
        assert _decide(state, 11) == _decide(state, 11)
    between = view(new_match(["expert"] * 3, 3, dealer=0), 0)  # no round dealt yet
    assert between.pending is not None and between.pending.kind == "next_round"
    assert expert_choice(between, random.Random(0)) == "next_round"
    assert choose("expert", between, random.Random(0)) == "next_round"


def _seen_cards(seen: MatchView) -> set[str]:
    """Every card the seat's view shows: its own, its exchanges, its draws, the reveals."""
    cards: set[str | None] = {seen.hand}
    for e in seen.round_events:
        if isinstance(e, CardDealt):
            cards.add(e.card)
        elif isinstance(e, CardsExchanged | ExchangeReversed):
            cards |= {e.requester_gets, e.target_gets}
        elif isinstance(e, PackExchanged):
            cards |= {e.gave, e.got}
        elif isinstance(e, CardRevealed):
            cards.add(e.card)
    return {c for c in cards if c is not None}


def _scrambled(state: MatchState, seat: int, rng: random.Random) -> MatchState | None:
    """The same round, replayed with the same decisions on a deal where every card the seat
    has not seen is moved (specials among specials, plain among plain, so that the public
    story stays the same), or None if that story changed."""
    rnd = state.round
    assert rnd is not None
    seen = _seen_cards(view(state, seat))
    pack = list(rnd.pack)
    for wanted in (True, False):
        spots = [i for i, c in enumerate(pack) if c not in seen and is_special(c) == wanted]
        cards = [pack[i] for i in spots]
        rng.shuffle(cards)
        for i, card in zip(spots, cards, strict=True):
            pack[i] = card
    other = replay_round(state, tuple(pack))
    if other is None:
        return None
    mine, theirs = view(state, seat), view(other, seat)
    # The views may differ only in the round's (public, one-way) shuffle commitment.
    if replace(mine, round_events=mine.round_events[1:]) != replace(
        theirs, round_events=theirs.round_events[1:]
    ):
        return None
    return other


def test_the_expert_never_reads_a_hidden_card() -> None:
    """Hand it the same public view over a different hidden deal: same seed, same decision."""
    rng = random.Random(2024)
    compared = hidden_changed = 0
    for seed in range(12):
        for i, state in enumerate(decisions(["basic"] * 4, seed)):
            if i % 3:
                continue
            decision = pending(state)
            assert decision is not None and decision.seat is not None
            other = _scrambled(state, decision.seat, rng)
            if other is None:
                continue
            assert other.round is not None and state.round is not None
            hidden_changed += other.round.hands != state.round.hands
            assert _decide(other, seed)[1] == _decide(state, seed)[1]
            compared += 1
    assert compared >= 60 and hidden_changed >= 20


def _first(kind: str, hand_rank: str) -> MatchState:
    for seed in range(400):
        for state in decisions(["basic"] * 4, seed):
            decision = pending(state)
            assert decision is not None and decision.seat is not None
            hand = state.round.hands[decision.seat] if state.round else None
            if decision.kind == kind and hand and rank(hand) == hand_rank:
                return state
    raise AssertionError(f"no {kind} with a {hand_rank} in 400 matches")


@pytest.mark.parametrize(
    ("kind", "hand", "expected"),
    [
        ("turn", "cuckoo", "keep"),  # the cuckoo never loses: never give it away
        ("dealer_turn", "cuckoo", "keep"),
        ("dealer_turn", "lion", "exchange"),  # the lowest card: anything is better
        ("turn", "lion", "exchange"),
        # A bluff: with no zero the pledge can never be called, yet asking costs nothing, and an
        # innkeeper who refuses must hand over the inn (XI), above every plain card.
        ("inn_choice", "5", "inn_ask_pay"),
        ("inn_choice", "zero", "inn_ask_pay"),  # the pledge covers exactly this card
        # The innkeeper: refusing swaps the inn for a card its holder wanted rid of.
        ("inn_response", "inn", "inn_accept"),
    ],
)
def test_the_obvious_choices(kind: str, hand: str, expected: str) -> None:
    assert _decide(_first(kind, hand))[1] == expected


def test_the_expert_beats_basic_in_a_short_tournament() -> None:
    """Small and seeded, so the bound is loose: better than parity, and fewer lives lost."""
    seats = ["expert", "basic", "basic", "basic"]
    result = run_tournament(seats, 48, seed=5, jobs=1, progress=False)
    expert, basic = result.policies["expert"], result.policies["basic"]
    assert expert.win_rate > result.parity > basic.win_rate
    assert sum(expert.losses.values()) / expert.rounds < sum(basic.losses.values()) / basic.rounds
