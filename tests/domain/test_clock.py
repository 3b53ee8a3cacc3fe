"""The clock layer (domain/clock.py) over every game: deadlines as data, timeouts that play
the safe answer, a stand-in for an abandoned seat, a log the audit re-executes."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain import clock
from domain.audit import audit_events, chain
from domain.audit_record import CheckFailed
from domain.clock import (
    MS,
    Clocked,
    ClockSettings,
    DecisionOpened,
    DecisionTimedOut,
    SeatAbandoned,
    SeatReturned,
    StartClock,
    timeout_command,
)
from domain.errors import DomainError
from domain.event_codec import event_data, event_type
from domain.games import CHASE, CUCCO21, CUCCU, Game
from domain.games import GAMES as HOSTED
from domain.games.game import HOST
from domain.seats import SeatSpec

GAMES = [CUCCU, CUCCO21, CHASE]
SETTINGS = ClockSettings(per_decision=10, reserve=5, increment=0, abandon_after=2)
T0 = 1_700_000_000_000


class Table:
    """A match driven as the service drives one, without a database."""

    def __init__(self, game: Game, seats: tuple[SeatSpec, ...], settings: ClockSettings) -> None:
        self.game = game
        self.rng = random.Random(7)
        options = dict(game.options)
        if "max_sets" in options:
            options["max_sets"] = 1
        command = game.create_command(seats, 0, options)
        self.state, self.events = game.apply(game.initial(), command)
        self.run(StartClock(settings, T0))
        self.advance()

    def run(self, command: Any) -> list[Any]:
        self.state, new = self.game.apply(self.state, command)
        self.events.extend(new)
        return new

    def advance(self) -> None:
        while (turn := self.game.automatic_turn(self.state)) is not None:
            if turn == HOST:
                self.run(self.game.host_command(self.state, self.rng))
            else:
                assert isinstance(turn, int)
                self.run(self.game.bot_command(self.state, turn, self.rng))

    def awaiting(self) -> clock.Awaiting:
        assert isinstance(self.state, Clocked)
        awaiting = self.state.clock.awaiting
        assert awaiting is not None
        return awaiting

    def time_out(self, at: int) -> list[Any]:
        command = timeout_command(self.game, self.state, at, self.rng)
        assert command is not None
        new = self.run(command)
        self.advance()
        return new


HUMANS = (SeatSpec("Ann"), SeatSpec("Bo"), SeatSpec("Cy", "bot", "basic"))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_deadline_is_data_and_a_timeout_plays_the_safe_answer(game: Game) -> None:
    table = Table(game, HUMANS, SETTINGS)
    opened = [e for e in table.events if isinstance(e, DecisionOpened)]
    assert opened, "the first decision of a person is clocked"
    first = table.awaiting()
    assert first.deadline == T0 + 10 * MS + 5 * MS  # per decision + the whole reserve
    # not due a millisecond early: nothing to time out, and a forged one is refused
    assert timeout_command(game, table.state, first.deadline - 1, table.rng) is None
    due = timeout_command(game, table.state, first.deadline, table.rng)
    assert due is not None
    early = msgspec.structs.replace(due, at=first.deadline - 1)
    with pytest.raises(DomainError) as refused:
        game.apply(table.state, early)
    assert refused.value.code == "not_due"
    version = table.state.version
    new = table.time_out(first.deadline)
    timed_out = new[0]
    assert isinstance(timed_out, DecisionTimedOut)
    assert timed_out.seat == first.seat
    assert timed_out.choice in game.choices
    assert not clock.is_clock_event(new[1]), "the game's own events of the safe answer follow"
    assert table.state.version == version + len(new) + (table.state.version - version - len(new))
    # the timed-out seat spent its reserve; the match goes on
    assert isinstance(table.state, Clocked)
    if first.seat is not None:
        assert table.state.clock.reserves[first.seat] == 0
        assert table.state.clock.timeouts[first.seat] == 1
    assert not game.is_over(table.state)
    assert table.game.fold(table.events) == table.state, "a replay rebuilds the same clock"
    for version_, event in enumerate(table.events, start=1):
        del version_
        assert game.read_event(event_type(event), 1, msgspec.json.encode(event_data(event)))


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_an_abandoned_seat_is_played_by_a_bot_until_it_resumes(game: Game) -> None:
    table = Table(game, (SeatSpec("Ann"), SeatSpec("Bo", "bot", "basic")), SETTINGS)
    at = T0
    abandoned: list[SeatAbandoned] = []
    for _ in range(20):
        if game.is_over(table.state):
            break
        awaiting = table.awaiting()
        at = max(at, awaiting.deadline)
        new = table.time_out(at)
        abandoned += [e for e in new if isinstance(e, SeatAbandoned)]
        if abandoned:
            break
    assert abandoned == [SeatAbandoned(0, SETTINGS.abandon_after)]
    assert isinstance(table.state, Clocked)
    # only bots are left: the stand-in plays Ann's seat (or the table waits for next_round)
    assert table.state.clock.abandoned[0]
    before = len(table.events)
    table.advance()
    assert all(not isinstance(e, DecisionOpened) or e.seat is None for e in table.events[before:])
    # Ann is back: her seat is hers again, and her next decision is clocked
    new = table.run(clock.Stamped(game.player_command(table.state, 0, "resume", None), at + 1, 0))
    assert new[0] == SeatReturned(0, at + 1)
    assert not table.state.clock.abandoned[0]
    with pytest.raises(DomainError) as again:
        game.apply(table.state, clock.Resume(0))
    assert again.value.code == "not_abandoned"
    assert table.game.fold(table.events) == table.state


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_reserve_and_increment_are_counted_from_the_stamps(game: Game) -> None:
    settings = ClockSettings(per_decision=10, reserve=30, increment=2, abandon_after=3)
    table = Table(game, HUMANS[:2], settings)
    awaiting = table.awaiting()
    seat = awaiting.seat
    assert seat is not None
    choice = game.safe_choice(table.state)  # type: ignore[misc]
    command = game.player_command(table.state, seat, choice.choice, table.rng)
    # answered 15 s after opening: 5 s over the allowance come out of the reserve, +2 s
    new = table.run(clock.Stamped(command, awaiting.opened_at + 15 * MS, seat))
    assert new[0] == clock.DecisionMade(seat, awaiting.opened_at + 15 * MS, 27 * MS)
    assert table.state.clock.reserves[seat] == 27 * MS


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_clocked_match_audits_and_a_moved_deadline_fails(game: Game) -> None:
    table = Table(game, HUMANS, SETTINGS)
    at = T0
    for _ in range(400):
        if game.is_over(table.state):
            break
        at = max(at, table.awaiting().deadline)
        table.time_out(at)
    assert game.is_over(table.state), "timeouts alone bring the match to its end"
    # every check of the game's audit (Ranter-Go-Round's too, before the registry hosts it)
    records = chain(table.events)
    counted = {check.name: check.run(records) for check in game.audit.checks}
    assert counted["clock"] > 0
    if game.name in HOSTED:
        assert audit_events(table.events).ok
    # an earlier timeout than the deadline allowed: the clock check names it
    i = next(i for i, e in enumerate(table.events) if isinstance(e, DecisionTimedOut))
    forged = list(table.events)
    forged[i] = msgspec.structs.replace(forged[i], at=forged[i].deadline - 1)
    (clock_check,) = [check for check in game.audit.checks if check.name == "clock"]
    with pytest.raises(CheckFailed) as failed:
        clock_check.run(chain(forged))
    assert failed.value.version == i + 1
    # a timeout that played another answer than the safe one fails too
    j = next(
        j for j, e in enumerate(table.events)
        if isinstance(e, DecisionTimedOut) and e.seat is not None
    )  # fmt: skip
    other = list(table.events)
    other[j] = msgspec.structs.replace(other[j], choice="exchange")
    with pytest.raises(CheckFailed):
        clock_check.run(chain(other))


def test_a_match_without_a_clock_is_the_game_unchanged() -> None:
    table_game = CUCCU
    command = table_game.create_command(HUMANS, 0, table_game.options)
    state, events = table_game.apply(table_game.initial(), command)
    assert not isinstance(state, Clocked)
    with pytest.raises(DomainError) as refused:
        table_game.apply(state, clock.Resume(0))
    assert refused.value.code == "no_clock"


def same_but_now(a: Any, b: Any) -> bool:
    """Equal states, but for the ``now`` hint (a replay reads it off the last clock event)."""
    assert isinstance(a, Clocked) and isinstance(b, Clocked)
    return a.game == b.game and msgspec.structs.replace(a.clock, now=0) == msgspec.structs.replace(
        b.clock, now=0
    )


def test_a_decision_reached_by_the_hosts_deal_is_dated_by_the_command_before_it() -> None:
    """A clocked match waits for an open seat for ten hours: the round dealt when it is claimed
    (the host's unstamped step) opens a decision dated by the claim, not by the creation."""
    game = CUCCU
    seats = (SeatSpec("Ann"), SeatSpec("open", "open"))
    state, events = game.apply(game.initial(), game.create_command(seats, 1, game.options))
    state, more = game.apply(state, StartClock(SETTINGS, T0))
    events += more
    assert not any(isinstance(e, DecisionOpened) for e in more), "nobody owes a decision yet"
    later = T0 + 10 * 3600 * MS
    state, more = game.apply(state, clock.Stamped(game.claim_command(1, "Bo"), later, 1))
    events += more
    while game.automatic_turn(state) is not None:  # the host deals round 1, unstamped
        state, more = game.apply(state, game.host_command(state, random.Random(1)))
        events += more
    opened = [e for e in events if isinstance(e, DecisionOpened)]
    assert [e.at for e in opened] == [later]
    assert same_but_now(game.fold(events), state)
