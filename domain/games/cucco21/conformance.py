"""Scenario runner for ``cucco21-scenario/1`` files (tests/scenarios-cucco21/README.md).

``python -m domain.conformance DIR...`` sends each file of this format here. The position is
checked against the README's legal positions and set directly; the round is then played through
``apply`` (decide + evolve), answering every prompt from ``decisions`` and every shuffle step
from ``reshuffles``; an asked target whose only choice is ``accept`` (a prompt the format does
not have, docs/ARCHITECTURE.md) accepts.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

from msgspec.structs import replace

from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import Choose, CreateGame, Shuffle, StartRound
from domain.games.cucco21.config import ROUND_CARDS, Config
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import Event, GameEnded, SetEnded
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, Seals, initial_state
from domain.games.cucco21.transcript import transcript
from domain.seats import SeatSpec

FORMAT: Final = "cucco21-scenario/1"
_SALT: Final = "00" * 16  # scenarios fix every deck; the commitments' salt does not matter


class IllegalPosition(AssertionError):
    """The file's starting position breaks one of the README's "legal positions"."""


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise IllegalPosition(f"illegal position: {message}")


def _seat_list(scenario: dict[str, Any], field: str, n: int) -> list[int]:
    seats = scenario[field]
    _check(isinstance(seats, list), f"{field} must be a list")
    _check(seats == sorted(set(seats)), f"{field} must be sorted, without repeats")
    _check(all(isinstance(s, int) and 0 <= s < n for s in seats), f"{field}: seats 0 to {n - 1}")
    return list(seats)


def position(scenario: dict[str, Any]) -> GameState:
    """The game at the scenario's starting position, between rounds, or IllegalPosition."""
    n, k0, powers = scenario["seats"], scenario["starting_chips"], scenario["powers"]
    _check(isinstance(n, int) and 2 <= n <= 12, "seats must be 2 to 12")
    _check(isinstance(k0, int) and 1 <= k0 <= 100, "starting_chips must be 1 to 100")
    _check(isinstance(powers, bool), "powers must be true or false")
    chips, box = scenario["chips_before"], scenario["box_before"]
    _check(len(chips) == n and all(isinstance(c, int) and c >= 0 for c in chips), "chips_before")
    _check(isinstance(box, int) and box >= 0, "box_before must be a whole number >= 0")
    _check(sum(chips) + box == n * k0, "chips are not conserved (seats + box != seats × K0)")
    alive = _seat_list(scenario, "alive_before", n)
    bankrupt = _seat_list(scenario, "bankrupt_before", n)
    _check(not set(alive) & set(bankrupt), "a seat is both alive and bankrupt")
    _check(all(chips[s] == 0 for s in bankrupt), "a bankrupt seat has chips")
    _check(len(alive) >= 2, "fewer than two seats are alive")
    card, dealer = scenario["round_card"], scenario["dealer"]
    _check(card in ROUND_CARDS, f"round_card must be one of {', '.join(ROUND_CARDS)}")
    _check(dealer in alive, "the dealer must be alive")
    not_bankrupt = [s for s in range(n) if s not in bankrupt]
    if card == "1":
        _check(not bankrupt and alive == list(range(n)), "round 1 begins a set: all alive")
    elif card in ("2", "3"):
        _check(alive == not_bankrupt, "before sudden death the alive seats are the non-bankrupt")
    set_number, max_sets = scenario["set_number"], scenario["max_sets"]
    _check(isinstance(set_number, int) and set_number >= 1, "set_number must be >= 1")
    _check(max_sets is None or (isinstance(max_sets, int) and max_sets >= set_number), "max_sets")
    order = [s for s in ((dealer + i) % n for i in range(1, n + 1)) if s in alive]
    _check(scenario["turn_order"] == order, f"turn_order must be {order}")
    deck, discard = scenario["deck_top_to_bottom"], scenario["discard_before"]
    _check(Counter([*deck, *discard]) == Counter(CARDS), "deck + discard must hold the 42 cards")

    seats = tuple(SeatSpec(f"seat {i}") for i in range(n))
    config = Config(seats, k0, powers, max_sets, dealer)
    state, _ = apply(initial_state(), CreateGame(config))
    return replace(
        state,
        status="between_rounds",
        chips=tuple(chips),
        box=box,
        alive=tuple(s in alive for s in range(n)),
        bankrupt=tuple(s in bankrupt for s in range(n)),
        set_number=set_number,
        round_card=card,
        dealer=dealer,
        deck_cards=tuple(deck),
        deck_top=0,
        discard=tuple(discard),
        deck_number=1,
        seals=Seals((tuple(deck),), (_SALT,), ()),
    )


def play(scenario: dict[str, Any]) -> dict[str, Any]:
    """Play the scenario's round; return what it produced in the ``expected`` format."""
    state, events = apply(position(scenario), StartRound())
    log: list[Event] = list(events)
    decisions = list(scenario["decisions"])
    reshuffles = list(scenario["reshuffles"])
    while state.status == "in_round":
        step = pending(state)
        assert step is not None
        if step.kind == "shuffle":
            if not reshuffles:
                raise AssertionError("a reshuffle found no entry left in reshuffles")
            state, events = apply(state, Shuffle(tuple(reshuffles.pop(0)), _SALT))
        elif step.choices == ("decline",):
            # Likewise every party to a trade is prompted for a Ceremony claim; the format
            # prompts only a seat that may claim (README, "Prompts"): a seat that cannot
            # declines, and its decline, which the format has no prompt for, is left out.
            state, events = apply(state, Choose(step.seat or 0, "decline"))
            events = events[1:]  # its own ``declined``; what follows it (a score) stays
        elif step.choices == ("accept",):
            # The service prompts every asked target, so that no prompt reveals a power card;
            # the scenario format prompts only a target that holds one (README, "Prompts"), and
            # a target without one can only accept: answered here, as the format's rule would.
            state, events = apply(state, Choose(step.seat or 0, "accept"))
        else:
            if not decisions:
                raise AssertionError(f"no decision left for the prompt {step.kind} to {step.seat}")
            decision = decisions.pop(0)
            if decision["seat"] != step.seat or decision["choice"] not in step.choices:
                raise AssertionError(
                    f"the prompt is {step.kind} to seat {step.seat} ({'/'.join(step.choices)}),"
                    f" the next decision is {json.dumps(decision)}"
                )
            state, events = apply(state, Choose(decision["seat"], decision["choice"]))
        log.extend(events)
    if decisions:
        raise AssertionError(f"{len(decisions)} decision(s) left over: {json.dumps(decisions)}")
    if reshuffles:
        raise AssertionError(f"{len(reshuffles)} reshuffle entries left over")
    set_end = next((e for e in log if isinstance(e, SetEnded)), None)
    game_end = next((e for e in log if isinstance(e, GameEnded)), None)
    over = game_end is not None
    n = len(state.seats)
    return {
        "events": transcript(log),
        "chips_after": list(state.chips),
        "box_after": state.box,
        "alive_after": [s for s in range(n) if state.alive[s]],
        "bankrupt_after": [s for s in range(n) if state.bankrupt[s]],
        "deck_after": list(state.deck),
        "discard_after": list(state.discard),
        "round_card_after": None if over else state.round_card,
        "next_dealer": None if over else state.dealer,
        "set_over": set_end is not None,
        "set_undecided": set_end is not None and set_end.undecided,
        "set_survivor": set_end.survivor if set_end is not None else None,
        "game_over": over,
        "game_winners": list(game_end.winners) if game_end is not None else [],
    }
