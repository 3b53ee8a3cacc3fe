"""Scenario runner for ``chase-scenario/1`` files (tests/scenarios-chase/README.md).

``python -m domain.conformance DIR...`` sends each file of this format here. The position is
checked against the README's "Legal positions" (a file that breaks one fails with
:class:`IllegalPosition`) and set directly; the round is then played through ``apply``
(decide + evolve), answering every prompt from ``decisions``.
"""

from __future__ import annotations

import json
from typing import Any, Final

from msgspec.structs import replace

from domain.games.chase.cards import CARD_SET
from domain.games.chase.commands import Choice, Choose, CreateMatch, StartRound
from domain.games.chase.config import MAX_LIVES, MAX_SEATS, MIN_LIVES, MIN_SEATS, Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    Event,
    LifeLost,
    MatchWon,
    RoundEnded,
    RoundWipedOut,
    SeatEliminated,
)  # fmt: skip
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState, initial_state, turn_order
from domain.games.chase.transcript import transcript
from domain.seats import SeatSpec

FORMAT: Final = "chase-scenario/1"
_SALT: Final = "00" * 16  # scenarios fix the pack; the commitment's salt does not matter to them
#: the README's "Expected state after the round": a file's ``expected`` has exactly these keys
EXPECTED_FIELDS: Final = frozenset(
    {
        "events", "final_cards", "life_losses", "eliminated", "void", "lives_after",
        "next_dealer", "match_winner", "stock_after", "discard_after", "public_reveals",
    }
)  # fmt: skip
_OPTION_KEYS: Final = frozenset({"announce_low", "king_cut_loses"})
_DECISION_KEYS: Final = frozenset({"seat", "choice"})


class IllegalPosition(AssertionError):
    """The file breaks one of the README's "Legal positions"."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalPosition(f"illegal position: {message}")


def _is_int(x: Any) -> bool:
    """A JSON integer: ``true`` is not 1, and ``1.0`` is not 1 (README, "Inputs")."""
    return type(x) is int


def position(scenario: dict[str, Any]) -> MatchState:
    """The match at the scenario's starting position, between rounds, or IllegalPosition."""
    n, l0 = scenario["seats"], scenario["starting_lives"]
    _check(_is_int(n) and MIN_SEATS <= n <= MAX_SEATS, f"seats must be {MIN_SEATS} to {MAX_SEATS}")
    _check(
        _is_int(l0) and MIN_LIVES <= l0 <= MAX_LIVES,
        f"starting_lives must be {MIN_LIVES} to {MAX_LIVES}",
    )
    lives = scenario["lives_before"]
    _check(
        isinstance(lives, list)
        and len(lives) == n
        and all(_is_int(x) and 0 <= x <= l0 for x in lives),
        f"lives_before must give 0 to starting_lives for each of the {n} seats",
    )
    _check(sum(1 for x in lives if x > 0) >= 2, "fewer than two seats have lives")
    dealer = scenario["dealer"]
    _check(_is_int(dealer) and 0 <= dealer < n and lives[dealer] > 0, "the dealer needs lives")
    options = scenario["options"]
    _check(
        isinstance(options, dict)
        and set(options) == _OPTION_KEYS
        and all(type(options[k]) is bool for k in _OPTION_KEYS),
        "options must have exactly announce_low and king_cut_loses, both booleans",
    )
    order = list(turn_order(dealer, tuple(lives)))
    _check(scenario["turn_order"] == order, f"turn_order must be {order}")
    _check(all(_is_int(s) for s in scenario["turn_order"]), "turn_order must be integers")
    pack = scenario["pack_top_to_bottom"]
    _check(
        isinstance(pack, list)
        and len(pack) == len(CARD_SET)
        and all(isinstance(c, str) for c in pack)
        and set(pack) == CARD_SET,
        "pack_top_to_bottom must hold each of the 52 cards exactly once",
    )
    decisions = scenario["decisions"]
    _check(
        isinstance(decisions, list)
        and all(isinstance(d, dict) and set(d) == _DECISION_KEYS for d in decisions),
        "decisions must be objects with exactly the keys seat and choice",
    )
    _check(
        all(_is_int(d["seat"]) and isinstance(d["choice"], str) for d in decisions),
        "a decision's seat is an integer and its choice a string",
    )
    expected = scenario["expected"]
    _check(isinstance(expected, dict), "expected must be an object")
    missing, unknown = EXPECTED_FIELDS - set(expected), set(expected) - EXPECTED_FIELDS
    _check(
        not missing and not unknown,
        f"expected lacks {sorted(missing)} / has unknown {sorted(unknown)}",
    )

    seats = tuple(SeatSpec(f"seat {i}") for i in range(n))
    config = Config(seats, l0, dealer, Options(options["announce_low"], options["king_cut_loses"]))
    state, _ = apply(initial_state(), CreateMatch(config))
    return replace(state, lives=tuple(lives))


def play(scenario: dict[str, Any]) -> dict[str, Any]:
    """Play the scenario's round; return what it produced in the ``expected`` format."""
    state = position(scenario)
    state, events = apply(state, StartRound(tuple(scenario["pack_top_to_bottom"]), _SALT))
    log: list[Event] = list(events)
    decisions = list(scenario["decisions"])
    while state.status == "in_round":
        step = pending(state)
        assert step is not None, "a round in progress always waits for a prompt"
        if not decisions:
            raise AssertionError(f"no decision left for the prompt {step.kind} to seat {step.seat}")
        decision = decisions.pop(0)
        if decision["seat"] != step.seat or decision["choice"] not in step.choices:
            raise AssertionError(
                f"the prompt is {step.kind} to seat {step.seat} ({'/'.join(step.choices)}),"
                f" the next decision is {json.dumps(decision)}"
            )
        choice: Choice = decision["choice"]
        state, events = apply(state, Choose(decision["seat"], choice))
        log.extend(events)
    if decisions:
        raise AssertionError(f"{len(decisions)} decision(s) left over: {json.dumps(decisions)}")
    rnd = state.round
    assert rnd is not None
    ended = next(e for e in log if isinstance(e, RoundEnded))
    winner = next((e.winner for e in log if isinstance(e, MatchWon)), None)
    n = len(state.seats)
    return {
        "events": transcript(log),
        "final_cards": [rnd.hands[s] if s in rnd.participants else None for s in range(n)],
        "life_losses": sorted(e.seat for e in log if isinstance(e, LifeLost)),
        "eliminated": sorted(e.seat for e in log if isinstance(e, SeatEliminated)),
        "void": any(isinstance(e, RoundWipedOut) for e in log),
        "lives_after": list(state.lives),
        "next_dealer": ended.next_dealer,
        "match_winner": winner,
        "stock_after": list(rnd.stock),
        "discard_after": list(rnd.discard),
        "public_reveals": list(rnd.public_reveals),
    }
