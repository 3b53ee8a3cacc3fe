"""Cuccù's presentation (``PRESENTATION``): its replay (``viewer.games.cuccu_replay``), in-process
bot matches, and the coach.

The bot matches are the domain driven by a seeded ``random.Random``, no API needed: the
viewer's sample match, the audit property tests and the replay benchmark. The shuffle and salt
come from the seeded generator, as the service does for a seeded match.

The coach is the expert bot's own search (``domain.games.cuccu.bots.expert``): rebuild full
packs that agree with everything the seat has seen (and only that), weigh each by how well it
explains the other seats' earlier choices, apply each answer and play the round out with the
expert's own play-out (every later decision taken by the ``basic`` model). Where the expert
scores a rollout by its standing in the match, the coach counts whether the seat lost a life in
it, a figure a new player can read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import cast

from domain.games.cuccu.bots import autoplay, choose
from domain.games.cuccu.bots.expert import (
    account,
    likelihood,
    play_out_steps,
    rebuild,
    sample_packs,
    template_state,
)
from domain.games.cuccu.commands import Choice, Choose, ClaimSeat, CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event, LifeLost
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import MatchView, view
from domain.seats import SeatSpec
from viewer.games import Advice, Presentation
from viewer.games.cuccu_replay import Replay


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


#: the decisions the coach weighs (a round's start has no card to weigh yet)
COACHED = ("turn", "dealer_turn", "inn_choice", "inn_response")


def _loses(events: Sequence[Event], seat: int) -> bool:
    return any(isinstance(e, LifeLost) and e.seat == seat for e in events)


def advise(view: MatchView, samples: int, seed: int) -> Advice | None:
    """The chance of losing a life this round after each choice open to ``view.viewer``."""
    decision = view.pending
    me = view.viewer
    if decision is None or me is None or decision.seat != me or decision.kind not in COACHED:
        return None
    if view.hand is None:
        return None
    acc = account(view)
    template = template_state(view, acc)
    rng = random.Random(seed)
    packs = sample_packs(acc, len(view.participants), rng)
    lost = dict.fromkeys(decision.choices, 0.0)
    total = 0.0
    for _ in range(samples):
        pack = next(packs)
        weight = likelihood(acc, pack)
        state = rebuild(template, acc, pack)
        rollout_seed = rng.random()  # the same later play for every answer: a fair comparison
        total += weight
        for choice in decision.choices:
            after, events = apply(state, Choose(me, cast(Choice, choice)))
            later = play_out_steps(after, random.Random(rollout_seed))
            if _loses(events, me) or any(_loses(step, me) for _, step in later):
                lost[choice] += weight
    return Advice({c: lost[c] / total for c in decision.choices}, samples)


PRESENTATION = Presentation(replay=Replay, sample=sample, advise=advise)
