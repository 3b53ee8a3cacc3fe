"""The entropy protocol in every game of the registry, Ranter-Go-Round included (docs/API.md
"Fairness"): the secret of a deck shows in no seat's events before its reveal, every deck of a
table with a person is committed to first, and the deck depends on every contribution."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import msgspec
import pytest

from api.turns import advance
from domain import entropy
from domain.audit import audit_events
from domain.games import GAMES, NOT_YET_HOSTED
from domain.games.game import Game
from domain.seats import SeatSpec

ALL = {game.name: game for game in (*GAMES.values(), *NOT_YET_HOSTED)}


def _play(game: Game, seed: int, contribute: bool = True) -> list[Any]:
    """A match of a person (seat 0, claimed) and two bots; the person contributes before each
    of its commands when ``contribute``."""
    seats = (
        SeatSpec("open", "open"),
        SeatSpec("Bo", "bot", "random"),
        SeatSpec("Cy", "bot", "random"),
    )
    state, events = game.apply(game.initial(), game.create_command(seats, 0, game.options))
    state, steps = advance(state, seed, game)
    events += [e for step in steps for e in step.events]
    state, more = game.apply(state, game.claim_command(0, "Ann"))
    events += more
    answers = random.Random(seed)
    for _ in range(5000):
        if contribute:
            state, more = game.apply(state, entropy.Contribute(0, os.urandom(16).hex()))
            events += more
        state, steps = advance(state, seed, game)
        events += [e for step in steps for e in step.events]
        if game.is_over(state):
            return events
        pending = game.view(state, 0).pending
        choice = "next_round" if pending.seat is None else answers.choice(pending.choices)
        state, more = game.apply(state, game.player_command(state, 0, choice, random.Random()))
        events += more
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("name", sorted(ALL))
def test_no_seat_sees_a_secret_before_its_reveal(name: str) -> None:
    game = ALL[name]
    events = _play(game, 5)
    secrets = {e.deck: e.secret for e in events if isinstance(e, entropy.EntropyCommitted)}
    revealed: set[int] = set()
    for event in events:
        if isinstance(event, entropy.EntropyRevealed):
            assert secrets[event.deck] == event.secret
            revealed.add(event.deck)
            continue
        hidden = [s for deck, s in secrets.items() if deck not in revealed]
        for seat in (None, 0, 1, 2):
            shown = json.dumps(msgspec.to_builtins(game.redact(event, seat)))
            assert not any(secret in shown for secret in hidden), (name, event)
    assert revealed, name


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_deck_of_a_table_with_a_person_is_committed_and_mixed(name: str) -> None:
    game = ALL[name]
    events = _play(game, 6)
    assert game.decks is not None
    decks = entropy.sources(game.decks, events)
    assert decks and all(d.source == "mixed" for d in decks), decks
    # seat 0 contributed to every deck it had a command before (the first at least); once it
    # is out of the game the host deals on with its committed secret alone
    assert decks[0].contributors == (0,)
    assert all(d.contributors in ((0,), ()) for d in decks), decks
    if name in GAMES:  # the audit knows hosted games only by their first event
        report = audit_events(events)
        assert report.ok and report.check("entropy").checked == len(decks)


@pytest.mark.parametrize("name", sorted(ALL))
def test_a_seat_that_contributes_nothing_gets_the_committed_secret_alone(name: str) -> None:
    game = ALL[name]
    assert game.decks is not None
    decks = entropy.sources(game.decks, _play(game, 7, contribute=False))
    assert decks and all(d.source == "mixed" and not d.contributors for d in decks)


def test_each_contribution_changes_the_deck() -> None:
    cards = [f"{rank}#{copy}" for rank in range(1, 11) for copy in (1, 2, 3, 4)]
    secret = "11" * 32
    seeds = [
        entropy.seed(secret, []),
        entropy.seed(secret, [(0, "22" * 16)]),
        entropy.seed(secret, [(0, "22" * 16), (1, "33" * 16)]),
        entropy.seed(secret, [(1, "22" * 16)]),  # the seat is part of the input
    ]
    decks = {entropy.derived_order(s, cards) for s in seeds}
    assert len(decks) == len(seeds)
    assert all(sorted(d) == sorted(cards) for d in decks)
    # the input's order does not matter: the cards are sorted first
    assert entropy.derived_order(seeds[1], cards) == entropy.derived_order(seeds[1], cards[::-1])


def _order_read_byte_by_byte(seed_bytes: bytes, cards: list[str]) -> tuple[str, ...]:
    """docs/API.md "Fairness" as written: the ``order`` stream read a byte at a time."""
    deck = sorted(cards)
    source = entropy.stream(seed_bytes, b"order")
    for i in range(len(deck) - 1, 0, -1):
        j = entropy._below(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def test_the_order_is_the_documented_algorithms_for_any_seed_and_deck_size() -> None:
    # decks up to 120 cards: a draw is redrawn (bias) and blocks change within a shuffle
    rng = random.Random(21)
    for size in (1, 2, 3, 7, 40, 52, 120):
        cards = [f"c{n:03d}" for n in range(size)]
        for _ in range(40):
            seed_bytes = rng.randbytes(32)
            expected = _order_read_byte_by_byte(seed_bytes, cards)
            assert entropy.derived_order(seed_bytes, cards) == expected


def test_the_salt_is_the_salt_streams_first_bytes() -> None:
    """The salt, made from whole blocks, is the ``salt`` stream's first bytes read one by
    one (docs/API.md "Fairness"), for sizes within a block, on its edges and beyond."""
    rng = random.Random(25)
    for size in (0, 1, 16, 31, 32, 33, 64, 100):
        for _ in range(20):
            seed_bytes = rng.randbytes(32)
            source = entropy.stream(seed_bytes, b"salt")
            expected = bytes(next(source) for _ in range(size)).hex()
            assert entropy.derived_salt(seed_bytes, size) == expected
