"""Invariants of the rules over many random bot-played matches (hypothesis).

At every step: each of the 40 cards is in exactly one place; lives stay in [0, L0]; folding
the stored (encoded) events from scratch gives the incremental state; no view or redacted
event shows a seat a card RULES §7 keeps from it; every pending decision has a choice; a
rejected command changes nothing. At the end: exactly one winner.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import DomainError
from domain.games.cuccu.bots import autoplay, choose
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.commands import Choose, CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import (
    CardDealt,
    CardRevealed,
    CardsExchanged,
    Event,
    ExchangeReversed,
    PackExchanged,
    RoundEnded,
    RoundScored,
    RoundStarted,
    decode_event,
    encode_event,
)  # fmt: skip
from domain.games.cuccu.evolve import evolve, fold
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import redact, view
from domain.seats import SeatSpec

#: bot matches drawn: a quick run's size by default, CI's 2,000 from .ci/run (README, "Testing")
MATCHES = int(os.environ.get("CUCCU_PROPERTY_MATCHES", "300"))
CARD_IDS = frozenset(CARDS)


def _cards_in(obj: Any) -> set[str]:
    """Every card id anywhere inside a JSON-like value."""
    found: set[str] = set()
    stack = [msgspec.to_builtins(obj)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_IDS:
                found.add(item)
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


class Knowledge:
    """What each seat may know this round, computed from the full log independently of views."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.public: set[str] = set()
        self.private: list[set[str]] = [set() for _ in range(seats)]
        self.everything = False

    def learn(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.public, self.private = set(), [set() for _ in range(self.seats)]
            self.everything = False
        elif isinstance(event, CardDealt):
            assert event.card is not None
            self.private[event.seat].add(event.card)
        elif isinstance(event, CardsExchanged | ExchangeReversed):
            both = {event.requester_gets, event.target_gets} - {None}
            self.private[event.requester] |= both  # type: ignore[arg-type]
            self.private[event.target] |= both  # type: ignore[arg-type]
        elif isinstance(event, PackExchanged):
            self.private[event.seat] |= {event.gave, event.got} - {None}  # type: ignore[arg-type]
        elif isinstance(event, CardRevealed):
            self.public.add(event.card)
        elif isinstance(event, RoundScored):
            self.public |= set(event.cards)
        elif isinstance(event, RoundEnded):
            self.everything = True  # the commitment is opened: the round is public history

    def allowed(self, seat: int | None) -> set[str] | frozenset[str]:
        if self.everything:
            return CARD_IDS
        return self.public | (self.private[seat] if seat is not None else set())


def _check_state(state: MatchState) -> None:
    assert all(0 <= lives <= state.starting_lives for lives in state.lives), state.lives
    rnd = state.round
    if rnd is None:
        return
    held = [c for c in rnd.hands if c is not None]
    places = Counter([*held, *rnd.pack[rnd.top : rnd.bottom + 1], *rnd.discard])
    assert set(places) == CARD_IDS and all(n == 1 for n in places.values()), places
    decision = pending(state)
    if decision is not None:
        assert decision.choices, "a pending decision without choices"


def _check_views(state: MatchState, knowledge: Knowledge, new_events: list[Event]) -> None:
    over = state.status == "over"
    for seat in [None, *range(len(state.seats))]:
        allowed = CARD_IDS if over else knowledge.allowed(seat)
        for event in new_events:
            shown = _cards_in(redact(event, seat, reveal_all=over))
            assert shown <= allowed, (seat, event, shown - allowed)
        seen = view(state, seat)
        shown = _cards_in(seen)
        assert shown <= allowed, (seat, shown - allowed)
        if seat is not None and state.round is not None:
            assert seen.hand == state.round.hands[seat]


def _try_illegal(state: MatchState, rng: random.Random) -> None:
    """Some command that must be rejected, and must leave the state as it was."""
    decision = pending(state)
    before = msgspec.json.encode(state)
    n = len(state.seats)
    if decision is None or decision.seat is None:
        command: Any = Choose(rng.randrange(n), "keep")
    elif rng.random() < 0.5:
        command = Choose((decision.seat + rng.randrange(1, n)) % n, decision.choices[0])
    else:
        wrong = [c for c in ("keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept",
                             "inn_refuse") if c not in decision.choices]  # fmt: skip
        command = Choose(decision.seat, rng.choice(wrong))  # type: ignore[arg-type]
    try:
        apply(state, command)
    except DomainError as error:
        assert error.code in {"not_your_turn", "illegal_choice", "match_over"}, error.code
    else:
        raise AssertionError(f"{command} was accepted in {decision}")
    assert msgspec.json.encode(state) == before


def play_checked(seed: int, seats: int, lives: int, levels: list[str]) -> MatchState:
    rng = random.Random(seed)
    specs = tuple(SeatSpec(f"bot {i}", "bot", levels[i % len(levels)]) for i in range(seats))
    created, events = apply(initial_state(), CreateMatch(specs, lives, rng.randrange(seats)))
    log: list[Event] = list(events)
    replayed = fold([decode_event(encode_event(e)) for e in events])
    knowledge = Knowledge(seats)

    def answer(state: MatchState, seat: int) -> str:
        return choose(state.seats[seat].bot_level or "random", view(state, seat), rng)

    state = created
    for steps, (state, events) in enumerate(autoplay(created, answer, rng)):
        log.extend(events)
        for event in events:
            knowledge.learn(event)
            replayed = evolve(replayed, decode_event(encode_event(event)))
        assert replayed == state
        _check_state(state)
        _check_views(state, knowledge, events)
        if steps % 7 == 0:
            _try_illegal(state, rng)
        assert steps < 20_000, "a match that does not end"
    assert fold(log) == state
    winners = [s for s, n in enumerate(state.lives) if n > 0]
    assert winners == [state.winner]
    assert pending(state) is None
    return state


@settings(max_examples=MATCHES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 8),
    lives=st.integers(1, 4),
    levels=st.lists(st.sampled_from(["random", "basic"]), min_size=1, max_size=3),
)
def test_invariants_hold_in_every_bot_match(
    seed: int, seats: int, lives: int, levels: list[str]
) -> None:
    play_checked(seed, seats, lives, levels)
