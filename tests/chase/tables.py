"""Small helpers to set up a Chase the Ace table for the tests: a match at given lives and
dealer, a pack whose top cards the test names, and a round played from a list of choices."""

from __future__ import annotations

from collections.abc import Sequence

from msgspec.structs import replace

from domain.games.chase.cards import CARDS
from domain.games.chase.commands import Choice, Choose, CreateMatch, StartRound
from domain.games.chase.config import Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import Event
from domain.games.chase.state import MatchState, initial_state
from domain.games.chase.transcript import transcript
from domain.seats import SeatSpec

SALT = "ab" * 16


def pack(*top: str) -> tuple[str, ...]:
    """The 52 cards: ``top`` first (index 0 = top), then the rest in canonical order."""
    assert len(set(top)) == len(top)
    return (*top, *(card for card in CARDS if card not in top))


def table(
    n: int = 4,
    *,
    dealer: int = 0,
    lives: Sequence[int] | None = None,
    starting_lives: int = 3,
    announce_low: bool = False,
    king_cut_loses: bool = False,
) -> MatchState:
    """A match of ``n`` seats between rounds, at ``lives`` (default: everyone at the start)."""
    seats = tuple(SeatSpec(f"seat {i}") for i in range(n))
    config = Config(seats, starting_lives, dealer, Options(announce_low, king_cut_loses))
    state, _ = apply(initial_state(), CreateMatch(config))
    if lives is not None:
        state = replace(state, lives=tuple(lives))
    return state


def play(
    state: MatchState, top: Sequence[str], choices: Sequence[tuple[int, Choice]]
) -> tuple[MatchState, list[Event]]:
    """Deal a round from ``pack(*top)`` and answer its prompts with ``choices``."""
    state, events = apply(state, StartRound(pack(*top), SALT))
    log = list(events)
    for seat, choice in choices:
        state, events = apply(state, Choose(seat, choice))
        log.extend(events)
    return state, log


def story(events: Sequence[Event]) -> list[tuple[object, ...]]:
    """The transcript without the deal, each entry as a tuple of its values: short asserts."""
    return [tuple(e.values()) for e in transcript(events) if e["t"] != "deal"]
