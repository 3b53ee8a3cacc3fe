"""Numbers for the Charts page, from a match's events (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from domain.games.cuccu.events import (
    CardsExchanged,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    Kept,
    LifeLost,
    LivesReset,
    MatchCreated,
    RoundEnded,
    RoundStarted,
    SeatEliminated,
)

REASONS = ("hunter", "cat", "scoring", "inn_pledge")
TALLIES = ("requests", "swaps", "refused", "keeps", "dealt")


@dataclass(frozen=True)
class LivesCurve:
    rounds: list[int]  # 0 (the start), then every finished round
    lives: list[list[int]]  # lives[i][seat] after rounds[i]
    resets: list[int]  # rounds that ended with every seat at zero, all lives given back
    eliminated: list[tuple[int, int]]  # (seat, round) a seat ran out of lives (none reset)


def lives_curve(events: Sequence[Event]) -> LivesCurve:
    lives: list[int] = []
    rounds: list[int] = []
    table: list[list[int]] = []
    resets: list[int] = []
    out: list[tuple[int, int]] = []
    current = 0
    for event in events:
        if isinstance(event, MatchCreated):
            lives = [event.starting_lives] * len(event.seats)
            rounds, table = [0], [list(lives)]
        elif isinstance(event, RoundStarted):
            current = event.round
        elif isinstance(event, LifeLost):
            lives[event.seat] = event.lives_after
        elif isinstance(event, SeatEliminated):
            out.append((event.seat, current))
        elif isinstance(event, LivesReset):
            lives = [event.lives] * len(lives)
            resets.append(current)
            out = [(seat, rnd) for seat, rnd in out if rnd != current]  # everyone came back
        elif isinstance(event, RoundEnded):
            rounds.append(event.round)
            table.append(list(lives))
    return LivesCurve(rounds, table, resets, out)


def tallies(events: Sequence[Event], seats: int) -> list[Counter[str]]:
    """Per seat: exchanges asked, cards swapped, refusals met, keeps, rounds dealt, losses."""
    out: list[Counter[str]] = [Counter() for _ in range(seats)]
    for event in events:
        if isinstance(event, ExchangeRequested):
            out[event.seat]["requests"] += 1
        elif isinstance(event, CardsExchanged):
            out[event.requester]["swaps"] += 1
            out[event.target]["swaps"] += 1
        elif isinstance(event, ExchangeRefused):
            out[event.requester]["refused"] += 1
        elif isinstance(event, Kept | DealerKept):
            out[event.seat]["keeps"] += 1
        elif isinstance(event, RoundStarted):
            out[event.dealer]["dealt"] += 1
        elif isinstance(event, LifeLost):
            out[event.seat][f"lost:{event.reason}"] += 1
    return out
