"""The expert's card accounting: what its seat knows about where this round's cards are."""

from __future__ import annotations

import random

import pytest
from bots_support import decisions, new_match
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.games.cuccu.bots.expert import (
    DEALER_SHARE,
    SURPRISE,
    PastTurn,
    account,
    likelihood,
    rebuild,
    sample_packs,
    standing,
    template_state,
    unseen_cards,
)
from domain.games.cuccu.cards import CARDS, is_special
from domain.games.cuccu.commands import Choose, StartRound
from domain.games.cuccu.decide import apply
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState
from domain.games.cuccu.views import view

SALT = "00" * 16


def pack_with(placed: dict[int, str]) -> tuple[str, ...]:
    """A pack with ``placed`` cards at their positions (0 = top) and the rest in canonical
    order. Seat ``k`` of the turn order is dealt position ``39 - k``."""
    rest = iter(c for c in CARDS if c not in placed.values())
    return tuple(placed.get(p) or next(rest) for p in range(len(CARDS)))


def play(state: MatchState, *choices: tuple[int, str]) -> MatchState:
    for seat, choice in choices:
        state, _ = apply(state, Choose(seat, choice))  # type: ignore[arg-type]
    return state


@pytest.fixture
def cat_round() -> MatchState:
    """Seats 0-3, dealer 3. Seat 0 (a 2) swaps with seat 1 (a 7); seat 1 passes the 2 on to
    seat 2, whose cat scratches seat 1 and sends the 2 back to seat 0. Seat 2 now decides."""
    pack = pack_with({39: "2#1", 38: "7#1", 37: "cat#1", 36: "5#1", 35: "9#2", 0: "1#1"})
    state, _ = apply(new_match(["basic"] * 4, 3, dealer=3), StartRound(pack, SALT))
    return play(state, (0, "exchange"), (1, "exchange"))


def test_a_seat_knows_its_own_card_and_the_revealed_cat(cat_round: MatchState) -> None:
    acc = account(view(cat_round, 2))
    assert acc.known == {37: "cat#1"}
    assert acc.plain == frozenset({38})  # seat 1 was targeted and swapped: no special
    assert acc.holding == {0: 39, 1: 38, 2: 37}  # the cat sent every card home
    assert (acc.top, acc.bottom) == (0, 36)
    # Seat 1 chose while holding seat 0's card (position 39), with 3 lives, 4 players.
    assert acc.past_turns == (PastTurn(0, 39, True, 3, 4), PastTurn(1, 39, True, 3, 4))


def test_a_party_to_an_exchange_knows_both_cards(cat_round: MatchState) -> None:
    assert account(view(cat_round, 0)).known == {39: "2#1", 38: "7#1", 37: "cat#1"}
    assert account(view(cat_round, 1)).known == {38: "7#1", 39: "2#1", 37: "cat#1"}
    # A seat outside the exchanges learns only what was revealed, and its own card.
    assert account(view(cat_round, 3)).known == {37: "cat#1"}  # seat 3 is not dealt yet


def test_the_dealer_sees_the_turns_before_it(cat_round: MatchState) -> None:
    state = play(cat_round, (2, "keep"))
    decision = pending(state)
    assert decision is not None and decision.kind == "dealer_turn"
    acc = account(view(state, 3))
    assert acc.known == {37: "cat#1", 36: "5#1"}
    assert acc.past_turns[-1] == PastTurn(2, 37, False, 3, 4)
    assert len(unseen_cards(acc)) == 38


def test_pack_draws_are_known_to_the_drawer_only() -> None:
    """The dealer's horse sends seat 2 to the top of the pack: it sees what it gave and got."""
    pack = pack_with({39: "8#1", 38: "9#1", 37: "zero#1", 36: "horse#1", 35: "3#2", 0: "lion#1"})
    state, _ = apply(new_match(["basic"] * 4, 3, dealer=3), StartRound(pack, SALT))
    state = play(state, (0, "keep"), (1, "keep"), (2, "exchange"))
    drawer = account(view(state, 2))
    assert drawer.known == {37: "zero#1", 36: "horse#1", 0: "lion#1"}
    assert drawer.holding[2] == 0 and drawer.top == 1
    dealer = account(view(state, 3))
    assert dealer.known == {36: "horse#1"}
    assert dealer.holding[2] == 0
    state = play(state, (3, "exchange"))  # the dealer's own draw comes from the bottom
    assert state.status == "between_rounds"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 7), lives=st.integers(1, 3))
def test_accounting_agrees_with_the_true_deal(seed: int, seats: int, lives: int) -> None:
    """Whatever happened, the seat's knowledge is true, and the state rebuilt from the true
    pack is the true state: the accounting follows every card to where it really is."""
    for state in decisions(["random"] * seats, seed, lives, dealer=seed % seats):
        rnd = state.round
        assert rnd is not None
        for seat in rnd.participants:
            acc = account(view(state, seat))
            assert all(rnd.pack[p] == card for p, card in acc.known.items())
            assert not any(is_special(rnd.pack[p]) for p in acc.plain)
            assert len(unseen_cards(acc)) + len(acc.known) == len(CARDS)
        decision = pending(state)
        assert decision is not None and decision.seat is not None
        seen = view(state, decision.seat)
        acc = account(seen)
        rebuilt = rebuild(template_state(seen, acc), acc, list(rnd.pack))
        assert rebuilt.lives == state.lives and rebuilt.dealer == state.dealer
        assert rebuilt.round is not None
        for name in ("hands", "top", "bottom", "step", "current", "requester", "target",
                     "chain", "pledges", "dead", "participants", "dealer", "revealed"):  # fmt: skip
            assert getattr(rebuilt.round, name) == getattr(rnd, name), name
        assert set(rebuilt.round.skipped) == set(rnd.skipped)
        assert pending(rebuilt) == decision


def test_sampled_packs_agree_with_what_the_seat_knows(cat_round: MatchState) -> None:
    acc = account(view(cat_round, 2))
    packs = sample_packs(acc, 4, random.Random(4))
    seen_at_38 = set()
    for _ in range(300):
        pack = next(packs)
        assert sorted(pack) == sorted(CARDS)  # a whole pack, each card once
        assert pack[37] == "cat#1"
        assert not is_special(pack[38])  # seat 1's dealt card was exchanged: plain
        seen_at_38.add(pack[38])
    assert len(seen_at_38) > 15  # yet any plain card may be there
    first, second = sample_packs(acc, 4, random.Random(9)), sample_packs(acc, 4, random.Random(9))
    assert [next(first) for _ in range(3)] == [next(second) for _ in range(3)]


def test_earlier_choices_weigh_the_deals() -> None:
    """A seat that kept probably holds a high card: deals giving it a low one count less."""
    pack = pack_with({39: "10#1", 38: "3#1", 37: "4#1", 36: "6#1"})
    state, _ = apply(new_match(["basic"] * 4, 3, dealer=3), StartRound(pack, SALT))
    state = play(state, (0, "keep"))
    acc = account(view(state, 1))
    assert acc.past_turns == (PastTurn(0, 39, False, 3, 4),)
    assert likelihood(acc, list(pack)) == pytest.approx(1 - SURPRISE)  # kept a 10: as expected
    low = list(pack)
    where = low.index("lion#1")
    low[39], low[where] = low[where], low[39]
    assert likelihood(acc, low) == pytest.approx(SURPRISE)  # kept a lion: a surprise


def test_standing_is_the_chance_to_be_last_seat_standing() -> None:
    assert standing((2, 0, 0, 0), 0, dealer=1) == 1.0
    assert standing((0, 3, 1, 0), 0, dealer=1) == 0.0
    # Two seats of one life each: the dealer loses the next round less often (DEALER_SHARE).
    assert standing((1, 1, 0, 0), 0, dealer=0) == pytest.approx(1 / (1 + DEALER_SHARE))
    assert standing((1, 1, 0, 0), 1, dealer=0) == pytest.approx(DEALER_SHARE / (1 + DEALER_SHARE))
    # Every life counts, and so does every opponent's loss.
    full = standing((3, 3, 3, 3), 0, dealer=1)
    assert full > standing((2, 3, 3, 3), 0, dealer=1) > standing((1, 3, 3, 3), 0, dealer=1) > 0
    assert standing((3, 2, 3, 3), 0, dealer=1) > full
    assert standing((1, 1, 0, 0), 0, dealer=1) > standing((1, 2, 0, 0), 0, dealer=1)
    # Equal lives: about parity, a little better for whoever deals next.
    assert full == pytest.approx(0.25, abs=0.01)
    assert standing((3, 3, 3, 3), 0, dealer=0) > full
    for lives in [(3, 2, 1, 3), (1, 1, 2, 0), (2, 3, 0, 1, 2)]:
        for dealer in (d for d in range(len(lives)) if lives[d] > 0):
            total = sum(standing(lives, s, dealer) for s in range(len(lives)))
            assert total == pytest.approx(1.0)


def test_standing_falls_back_to_the_share_of_lives_at_a_big_table() -> None:
    lives = (3,) * 10  # 3**10 * 10 positions: too many to enumerate for every decision
    assert standing(lives, 4, dealer=0) == pytest.approx(0.1)
