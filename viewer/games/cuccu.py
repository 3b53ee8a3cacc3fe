"""Cuccù's presentation (``PRESENTATION``): its replay (``viewer.replay_model``) and in-process
bot matches, the domain driven by a seeded ``random.Random``, no API needed.

Used for the viewer's sample match, the audit property tests and the replay benchmark. The
shuffle and salt come from the seeded generator, as the service does for a seeded match.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.games.cuccu.bots import autoplay, choose
from domain.games.cuccu.commands import ClaimSeat, CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import view
from domain.seats import SeatSpec
from viewer.games import Presentation
from viewer.replay_model import Replay


def bot_match(
    seed: int,
    seats: int = 4,
    lives: int = 3,
    levels: Sequence[str] = ("basic", "random"),
    max_rounds: int = 500,
    open_seats: Sequence[int] = (),
) -> list[Event]:
    """Every event of a whole match between bots; seat ``s`` plays ``levels[s % len(levels)]``.

    Seats in ``open_seats`` are created open, claimed by a "human" named ``Player s`` and then
    played by the same policy as a bot of their level.
    """
    rng = random.Random(seed)
    levels_of = [levels[s % len(levels)] for s in range(seats)]
    specs = tuple(
        SeatSpec(name=f"Seat {s}", kind="open")
        if s in open_seats
        else SeatSpec(name=f"Bot {s}", kind="bot", bot_level=levels_of[s])
        for s in range(seats)
    )
    state, events = apply(initial_state(), CreateMatch(specs, lives, rng.randrange(seats)))
    log = list(events)
    for s in open_seats:
        state, events = apply(state, ClaimSeat(s, f"Player {s}"))
        log.extend(events)

    def answer(state: MatchState, seat: int) -> str:
        return choose(levels_of[seat], view(state, seat), rng)

    for _, events in autoplay(state, answer, rng, max_rounds):
        log.extend(events)
    return log


def long_match(rounds: int, seats: int = 4, lives: int = 3, start_seed: int = 0) -> list[Event]:
    """The first seeded bot match (from ``start_seed``) that lasts exactly ``rounds`` rounds."""
    from domain.games.cuccu.events import RoundEnded

    seed = start_seed
    while True:
        events = bot_match(seed, seats, lives)
        if sum(isinstance(e, RoundEnded) for e in events) == rounds:
            return events
        seed += 1


def sample(seed: int) -> list[Event]:
    """The loader's sample: basic and random bots, four seats."""
    return bot_match(seed, levels=("basic", "random"))


PRESENTATION = Presentation(replay=Replay, sample=sample)
