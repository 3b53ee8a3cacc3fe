"""The tape every game's ``decide`` writes on, and the ``decide`` / ``apply`` pair built on it.

A command can set off a cascade of rule steps. Each step is written as an event emitted onto a
:class:`Tape`, which folds it into the state at once (with the game's own ``evolve``), so the
next step reads the state exactly as a replay will see it: ``decide`` keeps no second, shadow
model of the game. :class:`Decider` turns a game's ``evolve`` and its rule steps into the
``decide`` and ``apply`` that the rest of the service calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

S = TypeVar("S")  # a game's state
E = TypeVar("E")  # its event union
C = TypeVar("C")  # its command union
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


class _HasRound(Protocol[R_co]):
    """A game state played in rounds: ``round`` is the one being played, if any."""

    @property
    def round(self) -> R_co | None: ...


class _RoundTape(Protocol[R_co]):
    @property
    def state(self) -> _HasRound[R_co]: ...


class Tape(Generic[S, E]):
    """The events a command has produced so far, and the state after them."""

    __slots__ = ("_evolve", "events", "state")

    def __init__(self, state: S, evolve: Callable[[S, E], S]) -> None:
        self.state = state
        self.events: list[E] = []
        self._evolve = evolve

    def emit(self, event: E) -> None:
        """Record ``event`` and fold it into the state."""
        self.events.append(event)
        # The hot path of every command. Read into a local, not called as ``self._evolve(...)``:
        # CPython 3.11 specializes reading a slot but not calling a function held in one.
        evolve = self._evolve
        self.state = evolve(self.state, event)

    @property
    def round(self: _RoundTape[R]) -> R:
        """The round being played: only rule steps inside a round read it.

        Typed through the state (``_HasRound``): a tape of Cuccù's ``MatchState`` gives
        Cuccù's ``RoundState``, and mypy refuses it on a state that has no ``round``.
        """
        rnd = self.state.round
        assert rnd is not None
        return rnd


class Decider(Generic[S, C, E]):
    """A game's ``decide`` and ``apply``, from its ``evolve`` and ``play``: the rule steps
    that write one command's events onto a tape (raising ``DomainError`` to refuse it)."""

    __slots__ = ("_evolve", "_play")

    def __init__(self, evolve: Callable[[S, E], S], play: Callable[[Tape[S, E], C], None]) -> None:
        self._evolve = evolve
        self._play = play

    def decide(self, state: S, command: C) -> list[E]:
        """The events ``command`` produces. Raises DomainError; never changes ``state``."""
        return self.apply(state, command)[1]

    def apply(self, state: S, command: C) -> tuple[S, list[E]]:
        """``decide`` plus the state after its events, without folding them twice."""
        tape = Tape(state, self._evolve)
        self._play(tape, command)
        return tape.state, tape.events
