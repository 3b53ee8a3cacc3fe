"""The turns nobody sends: the service's deals and the bots' decisions, with their randomness.

Pure computation over a folded state (no I/O), kept apart from the service so that a worker
process runs it while importing only this module and ``domain``: the service hands expert
tables to a process pool (api.bots_pool) so that their searches never hold the event loop.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from typing import Any

import msgspec

from domain import (
    DEAL,
    Choose,
    Command,
    Event,
    MatchState,
    StartRound,
    apply,
    automatic_turn,
    shuffled_round,
    view,
)
from domain.bots import choose as bot_choose
from domain.turns import bot_level


def rng_for(seed: int | None, version: int, purpose: str) -> random.Random:
    """The randomness for one step: a CSPRNG, or a generator derived from the match seed."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"cuccu:{seed}:{version}:{purpose}")


def shuffle(rng: random.Random) -> StartRound:
    return shuffled_round(rng, salt_bytes=32)


@dataclass
class Step:
    """A command applied, with the events it produced and who issued it."""

    command: Command
    actor: str
    events: list[Event]


def _meta(step: Step) -> dict[str, Any]:
    # A round's pack and salt live in its round_started event (hidden until round_ended);
    # metadata names the command only, so it can never carry a card.
    command = step.command
    if isinstance(command, StartRound):
        return {"actor": step.actor, "command": {"type": "start_round"}}
    return {"actor": step.actor, "command": msgspec.to_builtins(command)}


def advance(state: MatchState, seed: int | None) -> tuple[MatchState, list[Step]]:
    """Let the service and the bots act until a person must decide or the match is over
    (who acts is ``domain.automatic_turn``'s rule)."""
    steps: list[Step] = []
    while (turn := automatic_turn(state)) is not None:
        command: Command
        if turn == DEAL:
            command = shuffle(rng_for(seed, state.version, "shuffle"))
            actor = "service"
        else:
            assert isinstance(turn, int)
            level = bot_level(state, turn)
            choice = bot_choose(level, view(state, turn), rng_for(seed, state.version, "bot"))
            command = Choose(seat=turn, choice=choice)  # type: ignore[arg-type]
            actor = f"bot:{level}"
        state, events = apply(state, command)
        steps.append(Step(command, actor, events))
    return state, steps
