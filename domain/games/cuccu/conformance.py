"""Scenario runner for ``cuccu-scenario/1`` files (tests/scenarios/FORMAT.md).

The round is played through ``apply`` (decide + evolve); only the starting position is set
directly. ``domain.conformance`` compares what :func:`play` returns with a file's ``expected``.
"""

from __future__ import annotations

from typing import Any, Final

from msgspec.structs import replace

from domain.games.cuccu.commands import Choose, CreateMatch, StartRound
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import (
    CardRevealed,
    Event,
    LifeLost,
    LivesReset,
    MatchWon,
    RoundEnded,
    RoundScored,
    SeatEliminated,
)  # fmt: skip
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.transcript import transcript
from domain.seats import SeatSpec

FORMAT: Final = "cuccu-scenario/1"
_SALT: Final = "00" * 16  # scenarios fix the pack; the commitment's salt does not matter to them


def _position(scenario: dict[str, Any]) -> MatchState:
    """A match at the scenario's lives and dealer, between rounds.

    The lives are set directly, so they are checked here against what play can reach: a
    position the rules never produce would otherwise fail deep inside a round, unexplained.
    """
    n = scenario["seats"]
    seats = tuple(SeatSpec(name=f"seat {i}") for i in range(n))
    create = CreateMatch(seats, scenario["starting_lives"], first_dealer=scenario["dealer"])
    state, _ = apply(initial_state(), create)
    lives = tuple(scenario["lives_before"])
    if len(lives) != n or not all(0 <= x <= state.starting_lives for x in lives):
        raise AssertionError(f"lives_before must give 0 to starting_lives for each of {n} seats")
    if lives[state.dealer] == 0:
        raise AssertionError(f"the dealer, seat {state.dealer}, has no lives (RULES §1)")
    if sum(1 for x in lives if x > 0) < 2:
        raise AssertionError("fewer than two seats have lives: the match is over (RULES §6.4)")
    return replace(state, lives=lives)


def play(scenario: dict[str, Any]) -> dict[str, Any]:
    """Play the scenario's round; return what it produced in the ``expected`` format."""
    pack = tuple(scenario["pack_top_to_bottom"])
    state, events = apply(_position(scenario), StartRound(pack, _SALT))
    round_events: list[Event] = list(events)
    for index, decision in enumerate(scenario["decisions"]):
        prompt = pending(state)
        if state.status != "in_round" or prompt is None:
            raise AssertionError(f"decision {index} {decision} left over: the round has ended")
        if prompt.seat != decision["seat"]:
            raise AssertionError(
                f"decision {index}: the prompt is for seat {prompt.seat} ({prompt.kind}), "
                f"the scenario answers for seat {decision['seat']}"
            )
        state, events = apply(state, Choose(decision["seat"], decision["choice"]))
        round_events.extend(events)
    if state.status == "in_round":
        raise AssertionError(f"the decisions ran out while {pending(state)} is awaited")
    assert state.round is not None
    scored = next(e for e in round_events if isinstance(e, RoundScored))
    ended = next(e for e in round_events if isinstance(e, RoundEnded))
    winner = next((e.winner for e in round_events if isinstance(e, MatchWon)), None)
    return {
        "events": transcript(round_events),
        "final_cards": list(state.round.hands),
        "dead_seats": list(scored.dead),
        "life_losses": [_loss(e) for e in round_events if isinstance(e, LifeLost)],
        "eliminated": [e.seat for e in round_events if isinstance(e, SeatEliminated)],
        "lives_after": list(state.lives),
        "reset": any(isinstance(e, LivesReset) for e in round_events),
        "next_dealer": ended.next_dealer,
        "match_winner": winner,
        "public_reveals": [
            {"seat": e.seat, "card": e.card} for e in round_events if isinstance(e, CardRevealed)
        ],
    }


def _loss(event: LifeLost) -> dict[str, Any]:
    loss: dict[str, Any] = {"seat": event.seat, "reason": event.reason}
    if event.reason == "inn_pledge":
        loss["on_behalf_of"] = event.on_behalf_of
    return loss
