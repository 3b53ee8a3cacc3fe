"""Bot-only Cucco 21 games, played in memory: the pure loop behind ``cuccu tournament --game
cucco21`` and ``bench/simulate.py --game cucco21``.

A game is won by the seats with the most chips at its end (C26; ties share the win), so games
between bots are given ``max_sets`` to end in bounded time (C4).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from domain.games.cucco21.bots import NEEDS_LOG, autoplay, choose
from domain.games.cucco21.commands import CreateGame
from domain.games.cucco21.config import BOT_LEVELS, Config
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import Event, GameEnded, RoundStarted
from domain.games.cucco21.state import GameState, initial_state
from domain.games.cucco21.views import GameView, view
from domain.seats import SeatSpec

Oracle = Callable[[GameState, GameView, random.Random], str]
"""A policy handed the whole game state beside its seat's view: it may see hidden cards, so it
is never seated in the product. Benchmarks use it to bracket what fair play can reach
(bench/cucco21_ceiling.py)."""


@dataclass
class GameRecord:
    """One game, as a tournament needs it."""

    levels: tuple[str, ...]  # policy of each seat
    winners: tuple[int, ...]
    chips_won: list[int]  # per seat: chips at the end minus the starting chips
    rounds: int
    decision_times: list[list[float]]  # per seat: seconds per decision
    events: list[Event]


def play_game(
    levels: Sequence[str],
    rng: random.Random,
    *,
    starting_chips: int = 15,
    powers: bool = True,
    max_sets: int | None = 3,
    keep_events: bool = False,
    oracles: Mapping[str, Oracle] | None = None,
) -> GameRecord:
    """Play a bot-only game to its end. ``rng`` shuffles every deck, picks the first dealer and
    seeds one generator per seat, so one bot's draws never shift another's.

    A level named in ``oracles`` is played by that oracle. It, and a policy that a game's
    config does not accept (``expert_v1``, kept for measurement), sits on a seat of kind
    ``human`` named after it: the pure loop answers every seat alike."""
    oracles = oracles or {}
    n = len(levels)
    specs = tuple(
        SeatSpec(f"{level} {i}", "bot", level)
        if level in BOT_LEVELS and level not in oracles
        else SeatSpec(f"{level} {i}", "human")
        for i, level in enumerate(levels)
    )
    config = Config(specs, starting_chips, powers, max_sets, rng.randrange(n))
    state, events = apply(initial_state(), CreateGame(config))
    bots = [random.Random(rng.getrandbits(64)) for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    log: list[Event] = list(events) if keep_events else []

    def answer(current: GameState, seat: int) -> str:
        level = levels[seat]
        started = time.perf_counter()
        oracle = oracles.get(level)
        seen = view(current, seat, with_log=level in NEEDS_LOG or oracle is not None)
        if oracle is None:
            choice = choose(level, seen, bots[seat])
        else:
            choice = oracle(current, seen, bots[seat])
        times[seat].append(time.perf_counter() - started)
        return choice

    winners: tuple[int, ...] = ()
    rounds = 0
    final = state
    for after, events in autoplay(state, answer, rng):
        final = after
        if keep_events:
            log.extend(events)
        for event in events:
            if isinstance(event, RoundStarted):
                rounds += 1
            elif isinstance(event, GameEnded):
                winners = event.winners
    chips_won = [c - starting_chips for c in final.chips]
    return GameRecord(tuple(levels), winners, chips_won, rounds, times, log)
