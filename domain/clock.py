"""Time at the table: a match's clock, one layer over every game's Decider.

The domain reads no clock. The host stamps the commands it sends with its time
(:class:`Stamped`, milliseconds since the epoch), and the clock turns those stamps into
events of the match's own log: ``decision_opened`` carries the absolute deadline of the
decision people owe now, ``decision_made`` the reserve a seat has left after answering late
(or with an increment), ``decision_timed_out`` the safe answer the host played when the
deadline passed (each game's ``Game.safe_choice``), ``seat_abandoned`` /``seat_returned`` a
seat handed to a stand-in bot after too many timeouts in a row, and back. A state with a clock
is :class:`Clocked` (the game's own state and a :class:`ClockState`); a match without one never
sees any of this: :func:`clocked` wraps a :class:`~domain.games.game.Game` so that its states,
events, commands and audit pass through unchanged until a ``clock_started`` event.

Why one layer and not each game's events: the clock's rules are the same for every game (a
deadline, a reserve, a default answer, a stand-in), and a layer keeps them in one place with one
audit check. What it needs of a game is two answers: which decision people owe now and its safe
answer (``Game.safe_choice``), and ``version`` on the game's state (every clock event counts as
an event of the match, so stored versions, views and the optimistic lock keep agreeing).
Why events and not the records' ``recorded_at``: the audit re-executes the log from its events
alone, and a deadline is then data anyone can check (docs/ARCHITECTURE.md, "Clocks").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace as dc_replace
from typing import TYPE_CHECKING, Annotated, Any, Final, Union

import msgspec
from msgspec import Meta
from msgspec.structs import replace

from domain.audit_record import AuditRecord, CheckFailed, GameAudit, GameCheck
from domain.entropy import CODEC as ENTROPY_CODEC
from domain.entropy import is_entropy
from domain.errors import DomainError, ErrorKind
from domain.event_codec import EventCodec, event_type
from domain.seats import SeatSpec

if TYPE_CHECKING:  # the registry (domain.games) imports this module
    from domain.games.game import Game, SafeChoice

MS: Final = 1000
#: the "bot level" of an abandoned seat's stand-in: it plays the safe answer at once, as a
#: timeout would (any game's bots need a bot's seat; this needs only ``Game.safe_choice``)
STAND_IN_LEVEL: Final = "stand-in"
#: the command a seat's holder sends to take an abandoned seat back (every clocked game's)
RESUME: Final = "resume"

CLOCK_ERRORS: Final[dict[str, ErrorKind]] = {
    "no_clock": ErrorKind(409, "The match has no clock"),
    "not_due": ErrorKind(409, "No decision is due"),
    "not_abandoned": ErrorKind(409, "The seat is not abandoned"),
    "clock_exists": ErrorKind(500, "The match already has a clock"),
}


class ClockSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A match's time control, chosen at creation (docs/API.md, "Clocks")."""

    per_decision: Annotated[
        int, Meta(ge=5, le=86_400, description="Seconds each decision may take (5 to 86400)")
    ] = 60
    reserve: Annotated[
        int,
        Meta(
            ge=0,
            le=604_800,
            description="Seconds each seat may overrun by in the whole match (0 to 604800)",
        ),
    ] = 300
    increment: Annotated[
        int, Meta(ge=0, le=3_600, description="Seconds added to a seat's reserve per answer")
    ] = 0
    abandon_after: Annotated[
        int,
        Meta(
            ge=1,
            le=100,
            description="Timeouts in a row after which a bot plays the seat until it is back",
        ),
    ] = 3


# --- events: public, in the match's log like the game's own ---------------------------------


class ClockStarted(msgspec.Struct, frozen=True, tag="clock_started", tag_field="type"):
    schema_version = 1
    per_decision: int
    reserve: int
    increment: int
    abandon_after: int
    at: int


class DecisionOpened(msgspec.Struct, frozen=True, tag="decision_opened", tag_field="type"):
    """People owe a decision from ``at``: ``seat``'s (None: any seat's, as ``next_round``),
    due at ``deadline`` (``at`` + the time per decision + the seat's ``reserve``, ms)."""

    schema_version = 1
    seat: int | None
    at: int
    deadline: int
    reserve: int


class DecisionMade(msgspec.Struct, frozen=True, tag="decision_made", tag_field="type"):
    """``seat`` answered at ``at`` and has ``reserve`` ms left (written only on a change)."""

    schema_version = 1
    seat: int
    at: int
    reserve: int


class DecisionTimedOut(msgspec.Struct, frozen=True, tag="decision_timed_out", tag_field="type"):
    """The deadline passed: the host played ``choice``, the game's safe answer, for ``seat``."""

    schema_version = 1
    seat: int | None
    at: int
    deadline: int
    choice: str


class SeatAbandoned(msgspec.Struct, frozen=True, tag="seat_abandoned", tag_field="type"):
    """``timeouts`` in a row: a stand-in bot plays ``seat`` until its holder is back."""

    schema_version = 1
    seat: int
    timeouts: int


class SeatReturned(msgspec.Struct, frozen=True, tag="seat_returned", tag_field="type"):
    schema_version = 1
    seat: int
    at: int


ClockEvent = Union[  # noqa: UP007 (msgspec reads the union)
    ClockStarted, DecisionOpened, DecisionMade, DecisionTimedOut, SeatAbandoned, SeatReturned
]
CLOCK_CLASSES: Final[tuple[type[msgspec.Struct], ...]] = (
    ClockStarted, DecisionOpened, DecisionMade, DecisionTimedOut, SeatAbandoned, SeatReturned,
)  # fmt: skip
_CLOCK_SET: Final = frozenset(CLOCK_CLASSES)
CLOCK_CODEC: Final = EventCodec[Any](ClockEvent, CLOCK_CLASSES, "clock")
CLOCK_EVENT_TYPES: Final = frozenset(CLOCK_CODEC.classes)


def is_clock_event(event: Any) -> bool:
    return type(event) in _CLOCK_SET


#: the tags of the events a log may hold that are no game's own: the clock's and the decks'
#: entropy protocol's (domain/entropy.py), which every game is wrapped with
NOT_THE_GAMES: Final[frozenset[str]] = CLOCK_EVENT_TYPES | frozenset(ENTROPY_CODEC.classes)


def is_game_event(event: Any) -> bool:
    """Whether ``event`` is one of the game's own: a decoded event (by its class) or an event's
    tag (its ``type``, as a log page shows it). The clock's and the entropy's are not: a
    replay or a seat's catch-up folds only the game's own, the audit reads them all."""
    if isinstance(event, str):
        return event not in NOT_THE_GAMES
    return not (is_clock_event(event) or is_entropy(event))


# --- commands: what the host sends ------------------------------------------------------------


class StartClock(msgspec.Struct, frozen=True):
    settings: ClockSettings
    at: int


class Stamped(msgspec.Struct, frozen=True):
    """A game's command with the host's time; ``by``: the seat whose holder sent it."""

    command: Any
    at: int
    by: int | None = None


class Timeout(msgspec.Struct, frozen=True):
    """Play ``choice`` (the safe answer, as ``command``) for the decision due before ``at``.
    The host builds ``command`` (a seatless ``next_round`` needs its chance)."""

    seat: int | None
    choice: str
    command: Any
    at: int


class Resume(msgspec.Struct, frozen=True):
    seat: int


# --- state ------------------------------------------------------------------------------------


class Awaiting(msgspec.Struct, frozen=True):
    seat: int | None
    opened_at: int
    deadline: int


class ClockState(msgspec.Struct, frozen=True):
    settings: ClockSettings
    #: the time (ms) an unstamped command (a bot's, the host's deal) happens at: the last
    #: stamped command's, or on a replay the last clock event's
    now: int
    reserves: tuple[int, ...]
    timeouts: tuple[int, ...]
    abandoned: tuple[bool, ...]
    awaiting: Awaiting | None = None


class Clocked(msgspec.Struct, frozen=True):
    """A match with a clock: the game's state (which counts the clock's events in its
    ``version``) and the clock's."""

    game: Any
    clock: ClockState

    @property
    def version(self) -> int:
        return int(self.game.version)

    @property
    def status(self) -> str:
        return str(self.game.status)

    @property
    def seats(self) -> tuple[SeatSpec, ...]:
        return tuple(self.game.seats)


def inner(state: Any) -> Any:
    """The game's own state of a match, clocked or not."""
    return state.game if isinstance(state, Clocked) else state


def clock_of(state: Any) -> ClockState | None:
    return state.clock if isinstance(state, Clocked) else None


def _bump(game_state: Any) -> Any:
    return replace(game_state, version=game_state.version + 1)


def _set(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


def _evolve_clock(state: Any, event: Any) -> Any:
    """The state after one of the clock's events."""
    if isinstance(event, ClockStarted):
        n = len(state.seats)
        settings = ClockSettings(
            event.per_decision, event.reserve, event.increment, event.abandon_after
        )
        clock = ClockState(settings, event.at, (event.reserve * MS,) * n, (0,) * n, (False,) * n)
        return Clocked(_bump(inner(state)), clock)
    assert isinstance(state, Clocked), f"{event_type(event)} before clock_started"
    c = state.clock
    if isinstance(event, DecisionOpened):
        c = replace(c, now=event.at, awaiting=Awaiting(event.seat, event.at, event.deadline))
    elif isinstance(event, DecisionMade):
        c = replace(
            c,
            now=event.at,
            reserves=_set(c.reserves, event.seat, event.reserve),
            timeouts=_set(c.timeouts, event.seat, 0),
        )
    elif isinstance(event, DecisionTimedOut):
        c = replace(c, now=event.at, awaiting=None)
        if event.seat is not None:
            c = replace(
                c,
                reserves=_set(c.reserves, event.seat, 0),
                timeouts=_set(c.timeouts, event.seat, c.timeouts[event.seat] + 1),
            )
    elif isinstance(event, SeatAbandoned):
        c = replace(c, abandoned=_set(c.abandoned, event.seat, True))
    elif isinstance(event, SeatReturned):
        c = replace(
            c,
            now=event.at,
            abandoned=_set(c.abandoned, event.seat, False),
            timeouts=_set(c.timeouts, event.seat, 0),
        )
    return Clocked(_bump(state.game), c)


def _after_game_events(state: Any, game_state: Any, events: Sequence[Any]) -> Any:
    """A clocked state after some of the game's events: an answer closes the awaited decision.
    The decks' entropy (``domain.entropy``) answers nothing: a seat's contribution, sent with
    its command, must not reopen the decision and so skip the reserve that command settles."""
    if not isinstance(state, Clocked):
        return game_state
    answered = state.clock.awaiting is not None and not all(map(is_entropy, events))
    clock = replace(state.clock, awaiting=None) if answered else state.clock
    return Clocked(game_state, clock)


def settled_reserve(clock: ClockState, seat: int, at: int) -> int:
    """``seat``'s reserve after answering its awaited decision at ``at``: the time past the
    decision's own allowance comes out of it, then the increment goes in."""
    awaiting = clock.awaiting
    assert awaiting is not None
    over = max(0, at - awaiting.opened_at - clock.settings.per_decision * MS)
    return max(0, clock.reserves[seat] - over) + clock.settings.increment * MS


def owed_by(game: Game, game_state: Any) -> SafeChoice | None:
    """The game's decision owed now and its safe answer (any seat's kind)."""
    if game.safe_choice is None or game.is_over(game_state):
        return None
    return game.safe_choice(game_state)


def owed(game: Game, state: Clocked) -> SafeChoice | None:
    """The decision the clock runs for now: people's, not a stand-in's, the match not over."""
    if game.safe_choice is None or game.is_over(state.game):
        return None
    safe = game.safe_choice(state.game)
    if safe is None:
        return None
    if safe.seat is not None and (
        state.clock.abandoned[safe.seat] or state.game.seats[safe.seat].kind != "human"
    ):
        return None
    return safe


def opening(game: Game, state: Clocked, at: int) -> DecisionOpened | None:
    """The ``decision_opened`` owed after a command at ``at``, if any."""
    if state.clock.awaiting is not None:
        return None
    safe = owed(game, state)
    if safe is None:
        return None
    reserve = 0 if safe.seat is None else state.clock.reserves[safe.seat]
    deadline = at + state.clock.settings.per_decision * MS + reserve
    return DecisionOpened(safe.seat, at, deadline, reserve)


def due(state: Any) -> int | None:
    """The deadline (ms) of the decision the clock awaits, or None."""
    clock = clock_of(state)
    if clock is None or clock.awaiting is None:
        return None
    return clock.awaiting.deadline


def timeout_command(game: Game, state: Any, at: int, rng: Any) -> Timeout | None:
    """The host's timeout of the awaited decision, if it is due at ``at`` (``rng``: the chance
    a seatless ``next_round`` deals with)."""
    clock = clock_of(state)
    if clock is None or clock.awaiting is None or at < clock.awaiting.deadline:
        return None
    assert isinstance(state, Clocked)
    safe = owed(game, state)
    if safe is None or safe.seat != clock.awaiting.seat:
        return None
    seat = -1 if safe.seat is None else safe.seat
    return Timeout(
        safe.seat, safe.choice, game.player_command(state.game, seat, safe.choice, rng), at
    )


def stamp(state: Any, command: Any, at: int, by: int | None = None) -> Any:
    """``command`` stamped with the host's time when the match has a clock (else as it is)."""
    return Stamped(command, at, by) if isinstance(state, Clocked) else command


# --- the wrapped Decider ----------------------------------------------------------------------


class _Emitter:
    """The clock's own small tape: each event folds at once, as on ``domain.tape``."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.events: list[Any] = []

    def emit(self, event: Any) -> None:
        self.state = _evolve_clock(self.state, event)
        self.events.append(event)

    def play(self, game: Game, command: Any) -> None:
        game_state, events = game.apply(inner(self.state), command)
        if events:
            self.state = _after_game_events(self.state, game_state, events)
            self.events.extend(events)


def _apply(game: Game, state: Any, command: Any) -> tuple[Any, list[Any]]:
    if isinstance(command, StartClock):
        return _start(game, state, command)
    at: int | None = None
    by: int | None = None
    if isinstance(command, Stamped):
        command, at, by = command.command, command.at, command.by
    if not isinstance(state, Clocked):
        if isinstance(command, (Timeout, Resume)):
            raise DomainError("no_clock", "this match has no clock")
        return game.apply(state, command)
    tape = _Emitter(state)
    now = state.clock.now if at is None else at
    if isinstance(command, Timeout):
        now = command.at
        awaiting = state.clock.awaiting
        safe = owed(game, state)
        if awaiting is None or safe is None or awaiting.seat != command.seat:
            raise DomainError("not_due", "no decision of this seat is awaited")
        if command.at < awaiting.deadline:
            raise DomainError("not_due", "the decision is not due yet")
        if safe.choice != command.choice:
            raise DomainError("illegal_choice", f"a timeout plays {safe.choice!r}")
        tape.emit(DecisionTimedOut(command.seat, command.at, awaiting.deadline, command.choice))
        seat = command.seat
        abandon_after = state.clock.settings.abandon_after
        if seat is not None and tape.state.clock.timeouts[seat] >= abandon_after:
            tape.emit(SeatAbandoned(seat, tape.state.clock.timeouts[seat]))
        tape.play(game, command.command)
    elif isinstance(command, Resume):
        if not state.clock.abandoned[command.seat]:
            raise DomainError("not_abandoned", f"seat {command.seat} is not abandoned")
        tape.emit(SeatReturned(command.seat, now))
    else:
        if by is not None and state.clock.abandoned[by]:
            tape.emit(SeatReturned(by, now))
        awaiting = state.clock.awaiting
        if by is not None and awaiting is not None and awaiting.seat == by:
            reserve = settled_reserve(state.clock, by, now)
            if reserve != state.clock.reserves[by] or state.clock.timeouts[by]:
                tape.emit(DecisionMade(by, now, reserve))
        tape.play(game, command)
    if (opened := opening(game, tape.state, now)) is not None:
        tape.emit(opened)
    final = tape.state
    if at is not None and final.clock.now != at:
        # the bots' and the host's unstamped steps that follow in the same transaction happen
        # at this time; a replay sets ``now`` from the last clock event only, which is the same
        # for every event the clock writes (each carries its own time) and differs only in
        # this hint, read by nothing but the next unstamped command's opening
        final = Clocked(final.game, replace(final.clock, now=at))
    return final, tape.events


def _start(game: Game, state: Any, command: StartClock) -> tuple[Any, list[Any]]:
    if isinstance(state, Clocked):
        raise DomainError("clock_exists", "this match already has a clock")
    if state.version == 0:
        raise DomainError("match_not_started", "a clock starts on a created match")
    if game.safe_choice is None:
        raise DomainError("invalid_config", f"{game.title} has no clock")
    s = command.settings
    tape = _Emitter(state)
    tape.emit(ClockStarted(s.per_decision, s.reserve, s.increment, s.abandon_after, command.at))
    assert isinstance(tape.state, Clocked)
    if (opened := opening(game, tape.state, command.at)) is not None:
        tape.emit(opened)
    return tape.state, tape.events


def _fold(game: Game, events: Iterable[Any], state: Any = None) -> Any:
    """Fold a log: runs of the game's events go to the game's own ``fold`` in one call."""
    s = game.initial() if state is None else state
    run: list[Any] = []
    for event in events:
        if type(event) in _CLOCK_SET:
            if run:
                s = _after_game_events(s, game.fold(run, inner(s)), run)
                run = []
            s = _evolve_clock(s, event)
        else:
            run.append(event)
    if run:
        s = _after_game_events(s, game.fold(run, inner(s)), run)
    return s


def _fast_evolve(game: Game) -> Callable[[Any, Any], Any]:
    """``evolve`` that costs an unclocked match two type tests (the hot path of every fold)."""
    evolve_game = game.evolve

    def evolve(state: Any, event: Any) -> Any:
        if type(event) in _CLOCK_SET or type(state) is Clocked:
            return _evolve(game, state, event)
        return evolve_game(state, event)

    return evolve


def _fast_fold(game: Game) -> Callable[..., Any]:
    fold_game = game.fold

    def fold(events: Iterable[Any], state: Any = None) -> Any:
        if type(state) is not Clocked:
            events = events if isinstance(events, (list, tuple)) else list(events)
            if _CLOCK_SET.isdisjoint(map(type, events)):  # one pass in C
                return fold_game(events, state)
        return _fold(game, events, state)

    return fold


def _evolve(game: Game, state: Any, event: Any) -> Any:
    if type(event) in _CLOCK_SET:
        return _evolve_clock(state, event)
    return _after_game_events(state, game.evolve(inner(state), event), (event,))


def _automatic_turn(game: Game, state: Any) -> str | int | None:
    if not isinstance(state, Clocked):
        return game.automatic_turn(state)
    turn = game.automatic_turn(state.game)
    if turn is not None or game.safe_choice is None or game.is_over(state.game):
        return turn
    safe = game.safe_choice(state.game)
    if safe is not None and safe.seat is not None and state.clock.abandoned[safe.seat]:
        return safe.seat
    return None


def _abandoned(state: Any, seat: int) -> bool:
    return isinstance(state, Clocked) and state.clock.abandoned[seat]


def _bot_level(game: Game, state: Any, seat: int) -> str:
    return STAND_IN_LEVEL if _abandoned(state, seat) else game.bot_level(inner(state), seat)


def _bot_command(game: Game, state: Any, seat: int, rng: Any) -> Any:
    if _abandoned(state, seat):
        safe = owed_by(game, state.game)
        assert safe is not None and safe.seat == seat, f"seat {seat} owes no decision"
        return game.player_command(state.game, seat, safe.choice, rng)
    return game.bot_command(inner(state), seat, rng)


def _player_command(game: Game, state: Any, seat: int, choice: str, rng: Any) -> Any:
    if choice == RESUME:
        return Resume(seat)
    return game.player_command(inner(state), seat, choice, rng)


def _command_meta(game: Game, command: Any) -> dict[str, Any]:
    if isinstance(command, Stamped):
        return _command_meta(game, command.command)
    if isinstance(command, StartClock):
        return {"type": "start_clock"}
    if isinstance(command, Timeout):
        return {"type": "timeout", "seat": command.seat}
    if isinstance(command, Resume):
        return {"type": RESUME, "seat": command.seat}
    return game.command_meta(command)


def _redact(game: Game, event: Any, *args: Any, **kw: Any) -> Any:
    if type(event) in _CLOCK_SET:
        return event
    return game.redact(event, *args, **kw)


def _read_event(game: Game, type_: str, schema: int, data: bytes) -> Any:
    if type_ in CLOCK_EVENT_TYPES:
        return CLOCK_CODEC.from_json(type_, schema, data)
    return game.read_event(type_, schema, data)


# --- the audit: the game's checks see its own events; the clock's check re-executes them -----


def _game_records(records: Sequence[AuditRecord]) -> list[AuditRecord]:
    return [r for r in records if type(r.event) not in _CLOCK_SET]


def _without_clock(check: GameCheck) -> GameCheck:
    run = check.run
    return GameCheck(check.name, check.title, lambda records: run(_game_records(records)))


def _clock_check(game: Game) -> Callable[[Sequence[AuditRecord]], int]:
    def run(records: Sequence[AuditRecord]) -> int:
        """Folds the log and, at each clock event, asks the clock what it would have written."""
        if not any(type(r.event) in _CLOCK_SET for r in records):
            return 0  # a match without a clock: nothing to re-execute
        state: Any = game.initial()
        checked = 0
        pending: list[Any] = []  # the game's events a timeout must have produced, still unseen
        for record in records:
            event, v = record.event, record.version
            if type(event) not in _CLOCK_SET:
                if pending:
                    if pending[0] != event:
                        raise CheckFailed(v, f"v{v} is not what the timed-out answer plays")
                    pending.pop(0)
                state = _evolve(game, state, event)
                continue
            if pending and not isinstance(event, SeatAbandoned):
                raise CheckFailed(v, f"v{v}: the timed-out answer's events stop early")
            checked += 1
            _check_clock_event(game, state, event, v)
            if isinstance(event, DecisionTimedOut) and event.seat is not None:
                pending = _timeout_events(game, state, event)
            state = _evolve_clock(state, event)
        return checked

    return run


def _timeout_events(game: Game, state: Clocked, event: DecisionTimedOut) -> list[Any]:
    assert event.seat is not None
    command = game.player_command(state.game, event.seat, event.choice, None)
    return game.apply(state.game, command)[1]


def _check_clock_event(game: Game, state: Any, event: Any, v: int) -> None:
    if isinstance(event, ClockStarted):
        if isinstance(state, Clocked) or state.version == 0:
            raise CheckFailed(v, f"v{v} starts a clock that cannot start here")
        return
    if not isinstance(state, Clocked):
        raise CheckFailed(v, f"v{v} is a clock event before clock_started")
    clock = state.clock
    if isinstance(event, DecisionOpened):
        if opening(game, state, event.at) != event:
            raise CheckFailed(v, f"v{v} opens a decision the clock does not owe, or misdated")
    elif isinstance(event, DecisionMade):
        if clock.awaiting is None or clock.awaiting.seat != event.seat:
            raise CheckFailed(v, f"v{v}: seat {event.seat} answered no awaited decision")
        if settled_reserve(clock, event.seat, event.at) != event.reserve:
            raise CheckFailed(v, f"v{v}: seat {event.seat}'s reserve is miscounted")
    elif isinstance(event, DecisionTimedOut):
        safe = owed(game, state)
        awaiting = clock.awaiting
        if awaiting is None or safe is None or awaiting.seat != event.seat:
            raise CheckFailed(v, f"v{v} times out a decision nobody awaited")
        if event.deadline != awaiting.deadline or event.at < awaiting.deadline:
            raise CheckFailed(v, f"v{v} times a decision out before its deadline")
        if event.choice != safe.choice:
            raise CheckFailed(v, f"v{v} plays {event.choice!r}, not the safe {safe.choice!r}")
    elif isinstance(event, SeatAbandoned):
        if clock.abandoned[event.seat] or clock.timeouts[event.seat] < clock.settings.abandon_after:
            raise CheckFailed(v, f"v{v} abandons seat {event.seat} too early")
    elif isinstance(event, SeatReturned) and not clock.abandoned[event.seat]:
        raise CheckFailed(v, f"v{v} returns seat {event.seat}, which was not abandoned")


def clocked(game: Game) -> Game:
    """``game`` with a clock a match may start (``StartClock``); matches without one see the
    game unchanged (the same states and events, one type test per event folded)."""
    audit = game.audit
    return dc_replace(
        game,
        event_type=Union[game.event_type, ClockEvent],  # noqa: UP007
        apply=lambda s, c: _apply(game, s, c),
        evolve=_fast_evolve(game),
        fold=_fast_fold(game),
        view=lambda s, *a, **kw: game.view(inner(s), *a, **kw),
        redact=lambda e, *a, **kw: _redact(game, e, *a, **kw),
        is_over=lambda s: game.is_over(inner(s)),
        read_event=lambda t, schema, data: _read_event(game, t, schema, data),
        audit=GameAudit(
            checks=(
                *(_without_clock(check) for check in audit.checks),
                GameCheck(
                    "clock",
                    "clock deadlines and timeouts",
                    _clock_check(game),
                ),
            ),
            final_event=audit.final_event,
            noun=audit.noun,
            unfinished=audit.unfinished,
            summary=lambda events: audit.summary([e for e in events if not is_clock_event(e)]),
        ),
        errors={**game.errors, **CLOCK_ERRORS},
        automatic_turn=lambda s: _automatic_turn(game, s),
        host_command=lambda s, rng: game.host_command(inner(s), rng),
        player_command=lambda s, seat, choice, rng: _player_command(game, s, seat, choice, rng),
        choices=(*game.choices, RESUME),
        bot_level=lambda s, seat: _bot_level(game, s, seat),
        bot_command=lambda s, seat, rng: _bot_command(game, s, seat, rng),
        slow_bots=lambda s: game.slow_bots(inner(s)),
        command_meta=lambda c: _command_meta(game, c),
        summary=lambda s: game.summary(inner(s)),
        final_ranks=lambda s: game.final_ranks(inner(s)),
        safe_choice=(None if game.safe_choice is None else lambda s: game.safe_choice(inner(s))),  # type: ignore[misc]
    )
