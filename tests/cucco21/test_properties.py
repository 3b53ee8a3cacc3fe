"""Properties of Cucco 21 over whole bot-played games (hypothesis; 2–12 seats, powers on and off).

After every command: chips are conserved (seats + box), each of the 42 cards is in exactly one
place, folding the stored (encoded) events from scratch gives the same state, no view and no
redacted event shows a seat a card §9 hides from it, and a rejected command changes nothing.
Every game with ``max_sets`` ends; its winners hold the most chips.
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
from domain.games.cucco21.bots import autoplay, choose
from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import CHOICES, Choose, CreateGame, Shuffle, StartRound
from domain.games.cucco21.config import Config
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import (
    CardDealt,
    CardDrawn,
    DeckDiscarded,
    DeckOpened,
    DeckShuffled,
    Event,
    MadeOut,
    PowerDiscarded,
    RevealedDiscarded,
    RoundScored,
    RoundStarted,
    SeatBankrupted,
    TakenBack,
    Traded,
    decode_event,
    encode_event,
)  # fmt: skip
from domain.games.cucco21.evolve import evolve, fold
from domain.games.cucco21.fairness import commitment
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, initial_state
from domain.games.cucco21.views import redact, view
from domain.seats import SeatSpec

#: bot games drawn: a quick run's size by default, CI's 150 from .ci/run (README, "Testing")
GAMES = int(os.environ.get("CUCCO21_PROPERTY_GAMES", "40"))
CARD_IDS = frozenset(CARDS)
MAX_STEPS = 50_000


def _cards_in(obj: Any) -> set[str]:
    """Every card id anywhere inside a JSON-like value."""
    found: set[str] = set()
    stack = [msgspec.to_builtins(obj)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in CARD_IDS:
                found.add(item)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


class Knowledge:
    """What each seat may know of this round's cards, from the full log, by §9's table alone."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.public: set[str] = set()
        self.private: list[set[str]] = [set() for _ in range(seats)]

    def learn(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.public, self.private = set(), [set() for _ in range(self.seats)]
        elif isinstance(event, CardDealt | CardDrawn):  # a deal; a deck draw: the drawer
            assert event.card is not None
            self.private[event.seat].add(event.card)
        elif isinstance(event, Traded):  # both parties, nobody else
            assert event.asker_gets is not None and event.target_gets is not None
            for seat in (event.asker, event.target):
                self.private[seat] |= {event.asker_gets, event.target_gets}
        elif isinstance(event, DeckDiscarded | PowerDiscarded | TakenBack | MadeOut):
            self.public.add(event.card)  # every discarded card is public
        elif isinstance(event, SeatBankrupted) and event.card is not None:
            self.public.add(event.card)
        elif isinstance(event, RoundScored):
            self.public |= {r.card for r in event.revealed}
        elif isinstance(event, RevealedDiscarded):
            self.public |= set(event.cards)
        elif isinstance(event, DeckOpened):  # a used-up deck, or the game is over (C27)
            self.public |= set(event.order)

    def allowed(self, state: GameState, seat: int | None) -> set[str] | frozenset[str]:
        if state.status == "over":
            return CARD_IDS
        mine = self.private[seat] if seat is not None else set()
        return self.public | mine | set(state.discard)


def _check_state(state: GameState) -> None:
    n = len(state.seats)
    assert sum(state.chips) + state.box == n * state.starting_chips, (state.chips, state.box)
    assert min(state.chips) >= 0 and state.box >= 0
    assert all(state.chips[s] == 0 and not state.alive[s] for s in range(n) if state.bankrupt[s])
    held = [c for c in state.round.hands if c is not None] if state.round is not None else []
    places = Counter([*state.deck, *state.discard, *held])
    assert set(places) == CARD_IDS and all(k == 1 for k in places.values()), places
    step = pending(state)
    assert (step is None) == (state.status == "over")
    if step is not None and step.seat is not None:
        assert step.choices and state.round is not None and state.round.hands[step.seat]


def _check_views(state: GameState, knowledge: Knowledge, new_events: list[Event]) -> None:
    over = state.status == "over"
    for seat in [None, *range(len(state.seats))]:
        allowed = knowledge.allowed(state, seat)
        for event in new_events:
            shown = _cards_in(redact(event, seat, reveal_all=over))
            assert shown <= allowed, (seat, event, shown - allowed)
        seen = view(state, seat)
        shown = _cards_in(seen)
        assert shown <= allowed, (seat, shown - allowed)
        if seat is not None and state.round is not None:
            assert seen.hand == state.round.hands[seat]
        step = seen.pending
        if step is not None and step.seat is not None and step.seat != seat:
            assert step.kind == "turn" or step.choices == (), step  # which power: the seat's


def _try_illegal(state: GameState, rng: random.Random) -> None:
    """A command that must be rejected, leaving the state as it was and naming no card."""
    step = pending(state)
    before = msgspec.json.encode(state)
    n = len(state.seats)
    command: Any
    if step is None:
        command = Choose(rng.randrange(n), "keep")
    elif step.kind == "shuffle":
        pile = list(CARDS if state.deck_number == 0 else state.discard)
        command = rng.choice(
            [Shuffle(tuple(pile[1:]), "ab" * 16), Choose(rng.randrange(n), "keep"), StartRound()]
        )
    elif step.kind == "next_round":
        command = rng.choice([Choose(rng.randrange(n), "keep"), Shuffle(tuple(CARDS), "ab" * 16)])
    elif rng.random() < 0.4:
        assert step.seat is not None
        command = Choose((step.seat + rng.randrange(1, n)) % n, step.choices[0])  # type: ignore[arg-type]
    elif rng.random() < 0.7:
        assert step.seat is not None
        wrong = [c for c in CHOICES if c not in step.choices]
        command = Choose(step.seat, rng.choice(wrong))
    else:
        command = rng.choice([StartRound(), CreateGame(Config(state.seats))])
    try:
        apply(state, command)
    except DomainError as error:
        assert "#" not in error.message, error.message  # an error names no card
    else:
        raise AssertionError(f"{command} was accepted at {step}")
    assert msgspec.json.encode(state) == before


def play_checked(
    seed: int, seats: int, chips: int, powers: bool, max_sets: int | None, levels: list[str]
) -> GameState:
    rng = random.Random(seed)
    specs = tuple(SeatSpec(f"bot {i}", "bot", levels[i % len(levels)]) for i in range(seats))
    config = Config(specs, chips, powers, max_sets, rng.randrange(seats))
    created, events = apply(initial_state(), CreateGame(config))
    log: list[Event] = list(events)
    replayed = fold(decode_event(encode_event(e)) for e in events)
    knowledge = Knowledge(seats)

    def answer(state: GameState, seat: int) -> str:
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
        if steps % 5 == 0:
            _try_illegal(state, rng)
        assert steps < MAX_STEPS, "a game that does not end"
    assert state.status == "over"
    assert fold(log) == state
    assert state.winners == tuple(s for s in range(seats) if state.chips[s] == max(state.chips))
    assert max_sets is None or state.set_number <= max_sets
    _check_decks(log)
    return state


def _check_decks(log: list[Event]) -> None:
    """C27: every deck is committed when shuffled and opened once, after it was used up (the
    next deck exists) or at the game's end; the opening matches the commitment."""
    shuffled = {e.number: e for e in log if isinstance(e, DeckShuffled)}
    opened = [e for e in log if isinstance(e, DeckOpened)]
    assert sorted(e.number for e in opened) == sorted(shuffled)
    last = max(shuffled)
    for e in opened:
        deck = shuffled[e.number]
        assert deck.order == e.order and commitment(e.salt, e.order) == deck.commitment
        if e.number != last:  # opened only once the next deck was shuffled
            assert log.index(shuffled[e.number + 1]) < log.index(e)


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.integers(2, 12),
    chips=st.integers(1, 12),
    powers=st.booleans(),
    max_sets=st.one_of(st.none(), st.integers(1, 3)),
    levels=st.lists(st.sampled_from(["random", "basic", "expert"]), min_size=1, max_size=3),
)
def test_properties_hold_in_every_bot_game(
    seed: int, seats: int, chips: int, powers: bool, max_sets: int | None, levels: list[str]
) -> None:
    play_checked(seed, seats, chips, powers, max_sets, levels)


def test_a_long_game_without_a_cap_ends_in_a_bankruptcy() -> None:
    state = play_checked(7, 4, 15, True, None, ["basic"])
    assert any(state.bankrupt)
