"""The turns nobody sends: the host's deals and shuffles and the bots' decisions, with their
randomness.

Pure computation over a folded state (no I/O), kept apart from the service so that a worker
process runs it while importing only this module and ``domain``: the service hands expert
tables to a process pool (api.bots_pool) so that their searches never hold the event loop.
What is automatic, and how each step is built, is each game's to say (``domain.games``);
chance is drawn here.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any

from domain.entropy import CommitSecret, Contribute
from domain.games import Game, by_name
from domain.games.game import HOST


class BufferedSystemRandom(random.SystemRandom):
    """The operating system's CSPRNG, read 256 bytes at a time.

    ``random.SystemRandom`` makes one ``os.urandom`` system call per draw: a shuffle of 40
    cards made about 40 of them, and they were 3-4 % of the API process's CPU under load.
    The bytes are the same kind (the OS's CSPRNG), only fetched in fewer calls; each step
    gets a fresh generator, so nothing drawn is kept between steps.
    """

    def __init__(self) -> None:
        super().__init__()  # Random's own fields (gauss() reads one); SystemRandom has no seed
        self._pool = b""
        self._at = 0

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        n = (k + 7) // 8
        if self._at + n > len(self._pool):
            self._pool = os.urandom(max(256, n))
            self._at = 0
        chunk = self._pool[self._at : self._at + n]
        self._at += n
        return int.from_bytes(chunk) >> (n * 8 - k)

    def random(self) -> float:
        return (self.getrandbits(56) >> 3) * 2.0**-53  # as SystemRandom: 53 random bits


def rng_for(seed: int | None, version: int, purpose: str) -> random.Random:
    """The randomness for one step: a CSPRNG, or a generator derived from the match seed."""
    if seed is None:
        return BufferedSystemRandom()
    return random.Random(f"cuccu:{seed}:{version}:{purpose}")


@dataclass
class Step:
    """A command applied, with the events it produced and who issued it."""

    command: Any
    actor: str
    events: list[Any]
    #: the game's name (a step crosses back from a worker process by pickling)
    game: str
    #: the player account that took a seat with this step (a claim as an account,
    #: api/players.py): stored in the claim's metadata, where ratings read it back
    account: str | None = None


def _meta(step: Step) -> dict[str, Any]:
    """The stored metadata of a step's events: the actor and what the game lets the command
    show (never a card or a salt)."""
    meta = {"actor": step.actor, "command": by_name(step.game).command_meta(step.command)}
    if step.account is not None:
        meta["account"] = step.account
    return meta


def advance(state: Any, seed: int | None, game: Game | str) -> tuple[Any, list[Step]]:
    """Let the host and the bots act until a person must decide or the match is over
    (who acts is the game's ``automatic_turn``)."""
    if isinstance(game, str):  # from a worker process: the name crosses, not the functions
        game = by_name(game)
    steps: list[Step] = []
    while (turn := game.automatic_turn(state)) is not None:
        if turn == HOST:
            # "shuffle" names the host's purpose in every game (the first game's name for it):
            # seeded matches of it replay as before
            command = game.host_command(state, rng_for(seed, state.version, "shuffle"))
            actor = "service"
        else:
            assert isinstance(turn, int)
            level = game.bot_level(state, turn)
            command = game.bot_command(state, turn, rng_for(seed, state.version, "bot"))
            actor = f"bot:{level}"
        state, events = game.apply(state, command)
        steps.append(Step(command, actor, events, game.name))
    return state, steps


def contributed(
    state: Any, seat: int, entropy: str | None, game: Game, actor: str | None = None
) -> tuple[Any, list[Step]]:
    """A human seat's randomness for the next deck (docs/API.md "Fairness"), taken before the
    command it came with: the state after it, and its step (none when there was nothing to
    take, or no deck waiting for it). ``actor``: who sent it, when not the seat itself (the
    creator, for the seats whose tokens it is handed)."""
    if entropy is None:
        return state, []
    after, events = game.apply(state, Contribute(seat, entropy))
    step = Step(Contribute(seat, entropy), actor or f"seat:{seat}", events, game.name)
    return after, [step] if events else []


def committed(
    state: Any, seed: int | None, game: Game, secret: str | None = None
) -> tuple[Any, list[Step]]:
    """The service's commitment to the next deck's secret, when one is due now (the first
    step :func:`advance` would take, with the same randomness): so that contributions can
    follow it before the deal that ``advance`` would make in the same breath. ``secret``: the
    one committed to before (a pre-commitment, api/precommitments.py) instead of a new one."""
    if game.automatic_turn(state) != HOST:
        return state, []
    command = game.host_command(state, rng_for(seed, state.version, "shuffle"))
    if not isinstance(command, CommitSecret):
        return state, []  # a deal or a bot's turn: not a commitment
    if secret is not None:
        command = CommitSecret(secret)
    after, events = game.apply(state, command)
    return after, [Step(command, "service", events, game.name)]
