"""The coach: for each answer open to a seat, the chance that the seat loses a life this round.

It is the expert bot's own search (``domain.games.cuccu.bots.expert``): rebuild full packs that
agree with everything the seat has seen (and only that), weigh each by how well it explains the
other seats' earlier choices, apply each answer and play the round out with every later decision
taken by the ``basic`` model. Where the expert scores a rollout by its standing in the match,
the coach counts whether the seat lost a life in it, a figure a new player can read.

For Cucco 21 it is that game's expert search (``domain.games.cucco21.bots.expert.search``):
worlds consistent with what the seat saw and with the other seats' public decisions, each answer
played out to the end of the round; the figure is the chance that the seat is out this round
(or bankrupt) after each answer.

Pure domain, run in the viewer's process: it reads only the seat's view (``MatchView``, or
Cucco 21's ``GameView``), which is what the API gave that seat, so it can know nothing the
player could not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import cast

from domain.games.cucco21.bots.expert import search as cucco21_search
from domain.games.cucco21.views import GameView
from domain.games.cuccu.bots.basic import basic_decision
from domain.games.cuccu.bots.expert import (
    account,
    likelihood,
    rebuild,
    sample_packs,
    template_state,
)
from domain.games.cuccu.commands import Choice, Choose
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import Event, LifeLost
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState
from domain.games.cuccu.views import MatchView

SAMPLES = 120  # deals per estimate: about ±4 points at a 50% risk, fast enough for a click
COACHED = ("turn", "dealer_turn", "inn_choice", "inn_response")
CUCCO21_COACHED = ("turn", "asked", "ceremony")


@dataclass(frozen=True)
class Advice:
    risks: dict[str, float]  # choice -> chance of losing a life this round, 0..1
    samples: int


def _loses(events: tuple[Event, ...] | list[Event], seat: int) -> bool:
    return any(isinstance(e, LifeLost) and e.seat == seat for e in events)


def _play_out(state: MatchState, seat: int, rng: random.Random) -> bool:
    """Finish the round with every seat following ``basic``; whether ``seat`` lost a life."""
    lost = False
    while state.status == "in_round":
        decision = pending(state)
        rnd = state.round
        assert decision is not None and decision.seat is not None and rnd is not None
        card = rnd.hands[decision.seat]
        assert card is not None
        live = sum(1 for p in rnd.participants if state.lives[p] > 0)
        choice = basic_decision(decision.kind, card, state.lives[decision.seat], live, rng)
        state, events = apply(state, Choose(decision.seat, cast(Choice, choice)))
        lost = lost or _loses(events, seat)
    return lost


def advise_cucco21(view: GameView, samples: int = SAMPLES, seed: int = 0) -> Advice | None:
    """Cucco 21: the chance of being out this round after each choice open to ``view.viewer``,
    from the expert's own search on the seat's view; None when it has nothing to decide."""
    decision = view.pending
    me = view.viewer
    if decision is None or me is None or decision.seat != me:
        return None
    if decision.kind not in CUCCO21_COACHED or view.hand is None:
        return None
    estimate = cucco21_search(view, random.Random(seed), samples=samples, stop_early=False)
    return Advice(dict(zip(estimate.choices, estimate.out, strict=True)), estimate.samples)


def advise(view: MatchView | GameView, samples: int = SAMPLES, seed: int = 0) -> Advice | None:
    """The risk of each choice now open to ``view.viewer``; None when it has nothing to decide
    (or the decision starts a round, where no card is known yet)."""
    if isinstance(view, GameView):
        return advise_cucco21(view, samples, seed)
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
            if _loses(events, me) or _play_out(after, me, random.Random(rollout_seed)):
                lost[choice] += weight
    return Advice({c: lost[c] / total for c in decision.choices}, samples)
