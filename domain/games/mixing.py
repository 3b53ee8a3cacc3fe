"""Every game's decks mixed with its players' entropy (``domain.entropy``), added around a
:class:`~domain.games.game.Game` without the game's rules knowing it.

:func:`with_entropy` returns the game with the protocol's events in its union, its
commands in ``apply``, the ledger (the state's ``entropy`` field) kept by ``evolve``, the
secret hidden by ``redact``, the host's commitment before each deck (``automatic_turn`` and
``host_command``), deals drawn from the mix instead of the host's randomness, and the audit's
``entropy`` check. The game's own checks and scenario runner never see the protocol's events.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from domain import entropy
from domain.audit_record import AuditRecord, GameAudit, GameCheck
from domain.errors import DomainError
from domain.games.game import HOST, Game


def _has_people(state: Any) -> bool:
    """A person sits at the table, or may yet (an open seat): its decks are mixed."""
    return any(seat.kind != "bot" for seat in state.seats)


def commitment_due(game: Game, state: Any) -> bool:
    """The host must commit to the next deck's secret now: a table with people, a match going
    on, and no commitment waiting for its deal."""
    return (
        state.version > 0
        and state.entropy.pending is None
        and not game.is_over(state)
        and _has_people(state)
    )


def deck_source(state: Any, rng: Any) -> Any:
    """What a deal draws from: the waiting mix when there is one, else the host's ``rng``."""
    pending = state.entropy.pending
    return rng if pending is None else entropy.DerivedDeck(pending)


def with_entropy(game: Game, hooks: entropy.DeckHooks) -> Game:
    """``game`` with its decks mixed (see the module docstring)."""

    def evolve(state: Any, event: Any) -> Any:
        if entropy.is_entropy(event):
            ledger = entropy.evolve(state.entropy, event)
            return replace(state, entropy=ledger, version=state.version + 1)
        after = game.evolve(state, event)
        ledger, _ = entropy.track(state.entropy, event, hooks)
        return after if ledger is state.entropy else replace(after, entropy=ledger)

    def fold(events: Sequence[Any], state: Any = None) -> Any:
        state = game.initial() if state is None else state
        for event in events:
            state = evolve(state, event)
        return state

    def apply(state: Any, command: Any) -> tuple[Any, list[Any]]:
        if isinstance(command, entropy.CommitSecret | entropy.Contribute):
            if isinstance(command, entropy.Contribute) and not (
                0 <= command.seat < len(state.seats) and state.seats[command.seat].kind == "human"
            ):
                raise DomainError("illegal_choice", "only a person's seat contributes entropy")
            if game.is_over(state):
                return state, []  # no deck is coming: the match's last event stays its last
            made = entropy.decide(state.entropy, command)
            return fold(made, state), list(made)
        after, events = game.apply(state, command)
        ledger, out = state.entropy, []
        for event in events:
            out.append(event)
            ledger, reveal = entropy.track(ledger, event, hooks)
            if reveal is not None:
                out.append(reveal)
                ledger = entropy.evolve(ledger, reveal)
        extra = len(out) - len(events)
        if ledger is state.entropy and not extra:
            return after, events
        return replace(after, entropy=ledger, version=after.version + extra), out

    def redact(event: Any, seat: int | None, *, reveal_all: bool = False) -> Any:
        if isinstance(event, entropy.EntropyCommitted):
            return event if reveal_all else replace(event, secret=None)
        if entropy.is_entropy(event):
            return event
        return game.redact(event, seat, reveal_all=reveal_all)

    def read_event(type_: str, schema: int, data: bytes) -> Any:
        if type_ in entropy.CODEC.classes:
            return entropy.CODEC.from_json(type_, schema, data)
        return game.read_event(type_, schema, data)

    def automatic_turn(state: Any) -> str | int | None:
        if commitment_due(game, state):
            return HOST
        turn = game.automatic_turn(state)
        if turn == HOST and any(seat.kind == "open" for seat in state.seats):
            return None  # no deal before every person is seated: each can contribute to it
        return turn

    def host_command(state: Any, rng: Any) -> Any:
        if commitment_due(game, state):
            return entropy.CommitSecret(rng.randbytes(entropy.SECRET_BYTES).hex())
        return game.host_command(state, deck_source(state, rng))

    def player_command(state: Any, seat: int, choice: str, rng: Any) -> Any:
        return game.player_command(state, seat, choice, deck_source(state, rng))

    def command_meta(command: Any) -> dict[str, Any]:
        # never the secret; a contribution is public in its own event
        if isinstance(command, entropy.CommitSecret | entropy.Contribute):
            return {"type": type(command).__struct_config__.tag}
        return game.command_meta(command)

    def own(check: GameCheck) -> GameCheck:
        def run(records: Sequence[AuditRecord]) -> int:
            return check.run(entropy.without_entropy(records))

        return GameCheck(check.name, check.title, run)

    def summary(events: Sequence[Any]) -> tuple[int, tuple[int, ...]]:
        return game.audit.summary([e for e in events if not entropy.is_entropy(e)])

    def check_entropy(records: Sequence[AuditRecord]) -> int:
        return entropy.check(hooks, records)

    audit = GameAudit(
        checks=(
            *(own(check) for check in game.audit.checks),
            GameCheck("entropy", "shuffle entropy", check_entropy),
        ),
        final_event=game.audit.final_event,
        noun=game.audit.noun,
        unfinished=game.audit.unfinished,
        summary=summary,
    )
    event_union: Any = typing.Union[(*typing.get_args(game.event_type), *entropy.EVENT_TYPES)]  # noqa: UP007
    return dataclasses.replace(
        game,
        event_type=event_union,
        apply=apply,
        evolve=evolve,
        fold=fold,
        redact=redact,
        read_event=read_event,
        automatic_turn=automatic_turn,
        host_command=host_command,
        player_command=player_command,
        command_meta=command_meta,
        audit=audit,
        decks=hooks,
    )
