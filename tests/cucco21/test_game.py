"""The game object (``game.GAME``), creation, open seats and the shuffle step."""

from __future__ import annotations

import random

import pytest

from domain.errors import DomainError
from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import Choose, ClaimSeat, CreateGame, Shuffle, StartRound
from domain.games.cucco21.config import Config
from domain.games.cucco21.events import DeckShuffled, SeatClaimed
from domain.games.cucco21.fairness import commitment, shuffled
from domain.games.cucco21.game import GAME
from domain.games.cucco21.pending import pending
from domain.games.cucco21.views import redact, view
from domain.seats import SeatSpec


def test_a_bad_configuration_is_refused_with_every_reason() -> None:
    seats = tuple(SeatSpec(f"s{i}") for i in range(13))
    with pytest.raises(DomainError) as error:
        GAME.apply(GAME.initial(), CreateGame(Config(seats, starting_chips=0, max_sets=0)))
    assert error.value.code == "invalid_config"
    for reason in ("2 to 12 seats", "starting chips", "max_sets"):
        assert reason in error.value.message


def test_the_first_deck_is_a_seatless_shuffle_committed_and_hidden() -> None:
    config = Config((SeatSpec("a"), SeatSpec("b", "bot", "basic")))
    state, _ = GAME.apply(GAME.initial(), CreateGame(config))
    step = pending(state)
    assert step is not None and step.kind == "shuffle" and step.seat is None and step.pile == 42
    with pytest.raises(DomainError, match="permutation"):
        GAME.apply(state, Shuffle(CARDS[1:], "00" * 16))
    with pytest.raises(DomainError, match="salt"):
        GAME.apply(state, Shuffle(CARDS, "00"))
    with pytest.raises(DomainError):
        GAME.apply(state, StartRound())
    command = shuffled(CARDS, random.Random(3))
    state, events = GAME.apply(state, command)
    (deck,) = events
    assert isinstance(deck, DeckShuffled) and deck.commitment == commitment(
        command.salt, deck.order or ()
    )
    hidden = redact(deck, 0)
    assert isinstance(hidden, DeckShuffled) and hidden.order is None and hidden.salt is None
    assert pending(state) is not None and view(state, None).deck_size == 42


def test_open_seats_are_claimed_before_the_first_round() -> None:
    config = Config((SeatSpec("a"), SeatSpec("?", "open"), SeatSpec("c", "bot", "expert")))
    state, _ = GAME.apply(GAME.initial(), CreateGame(config))
    state, _ = GAME.apply(state, shuffled(CARDS, random.Random(1)))
    step = pending(state)
    assert step is not None and step.kind == "claim_seat"
    with pytest.raises(DomainError) as error:
        GAME.apply(state, StartRound())
    assert error.value.code == "seats_open"
    with pytest.raises(DomainError) as error:
        GAME.apply(state, ClaimSeat(0, "x"))
    assert error.value.code == "seat_taken"
    state, events = GAME.apply(state, ClaimSeat(1, "Bea"))
    assert events == [SeatClaimed(1, "Bea")] and state.seats[1] == SeatSpec("Bea", "human")
    state, _ = GAME.apply(state, StartRound())
    step = pending(state)
    assert step is not None and step.kind == "turn"
    with pytest.raises(DomainError) as error:
        GAME.apply(state, ClaimSeat(1, "late"))
    assert error.value.code == "seat_taken"
    with pytest.raises(DomainError) as error:
        GAME.apply(state, Choose((step.seat or 0) + 1, "keep"))
    assert error.value.code == "not_your_turn"


def test_the_deck_audit_finds_a_changed_order_or_salt_and_an_unopened_deck() -> None:
    from msgspec.structs import replace

    from domain.games.cucco21.bots.tournament import play_game
    from domain.games.cucco21.events import DeckOpened
    from domain.games.cucco21.fairness import deck_problems

    events = play_game(["basic"] * 4, random.Random(5), max_sets=2, keep_events=True).events
    assert deck_problems(events) == []
    assert sum(isinstance(e, DeckShuffled) for e in events) >= 2  # a reshuffle happened
    first = next(i for i, e in enumerate(events) if isinstance(e, DeckShuffled))
    deck = events[first]
    assert isinstance(deck, DeckShuffled) and deck.order is not None
    swapped = (deck.order[1], deck.order[0], *deck.order[2:])
    changed = [*events[:first], replace(deck, order=swapped), *events[first + 1 :]]
    assert deck_problems(changed) == ["deck 1 was dealt from another order"]
    opening = next(i for i, e in enumerate(events) if isinstance(e, DeckOpened))
    opened = events[opening]
    assert isinstance(opened, DeckOpened)
    lied = [*events[:opening], replace(opened, order=swapped), *events[opening + 1 :]]
    assert deck_problems(lied) == ["deck 1 does not open to its commitment"]
    cut = [e for e in events if not (isinstance(e, DeckOpened) and e.number == 1)]
    assert deck_problems(cut) == ["deck 1 was never opened"]
    assert deck_problems(cut, finished=False) == []
