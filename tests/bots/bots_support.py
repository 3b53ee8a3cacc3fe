"""Shared helpers for the bot tests: play seeded matches and stop at decisions."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from msgspec.structs import replace

from domain.games.cuccu.bots import autoplay, choose
from domain.games.cuccu.commands import Choose, CreateMatch, StartRound
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import (
    DealerKept,
    Event,
    ExchangeRequested,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    PackExchanged,
)
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import view
from domain.seats import SeatSpec


def new_match(levels: Sequence[str], lives: int, dealer: int) -> MatchState:
    specs = tuple(SeatSpec(f"bot {i}", "bot", level) for i, level in enumerate(levels))
    state, _ = apply(initial_state(), CreateMatch(specs, lives, dealer))
    return state


def decisions(
    levels: Sequence[str], seed: int, lives: int = 3, dealer: int = 0
) -> Iterator[MatchState]:
    """Every state of a seeded match where a seat must decide; the bots named in ``levels``
    answer (a level may be "expert", but cheap levels keep tests fast)."""
    rng = random.Random(seed)

    def answer(state: MatchState, seat: int) -> str:
        return choose(levels[seat], view(state, seat), rng)

    for state, _ in autoplay(new_match(levels, lives, dealer), answer, rng):
        decision = pending(state)
        if decision is not None and decision.seat is not None:
            yield state


def replay_round(state: MatchState, pack: tuple[str, ...]) -> MatchState | None:
    """The current round replayed from its start on another ``pack`` with the same decisions,
    or None when those decisions are not all legal (or land elsewhere) on that deal."""
    rnd = state.round
    assert rnd is not None
    # The match as it stood when the round started: lives before its mid-round losses.
    lost = [0] * len(state.lives)
    for event in rnd.log:
        if isinstance(event, LifeLost):
            lost[event.seat] += 1
    start = replace(
        state,
        status="between_rounds",
        lives=tuple(n + k for n, k in zip(state.lives, lost, strict=True)),
        dealer=rnd.dealer,
        rounds_played=rnd.number - 1,
        round=None,
        version=state.version - len(rnd.log),
    )
    replayed, _ = apply(start, StartRound(pack, rnd.salt))
    for choice in _choices(rnd.log):
        decision = pending(replayed)
        if decision is None or decision.seat != choice.seat:
            return None
        if choice.choice not in decision.choices:
            return None
        replayed, _ = apply(replayed, choice)
    return replayed


def _choices(log: Sequence[Event]) -> list[Choose]:
    """The decisions a round's log records, in order."""
    out: list[Choose] = []
    for e in log:
        if isinstance(e, Kept):
            out.append(Choose(e.seat, "keep"))
        elif isinstance(e, ExchangeRequested):
            out.append(Choose(e.seat, "exchange"))
        elif isinstance(e, InnChoiceMade):
            out.append(Choose(e.seat, "inn_keep" if e.choice == "keep" else "inn_ask_pay"))
        elif isinstance(e, InnResponded):
            out.append(Choose(e.seat, "inn_accept" if e.response == "accept" else "inn_refuse"))
        elif isinstance(e, PackExchanged) and e.end == "bottom":
            out.append(Choose(e.seat, "exchange"))
        elif isinstance(e, DealerKept):
            out.append(Choose(e.seat, "keep"))
    return out
