"""The viewer opens a clocked match's log (its Replay steps through the game's own events,
its Audit reads them all, the clock check included), for every hosted game."""

from __future__ import annotations

import pytest

from domain.audit import chain
from domain.clock import ClockSettings, DecisionOpened, is_clock_event, is_game_event
from domain.entropy import is_entropy
from domain.event_codec import event_type
from domain.games import GAMES, Game
from domain.seats import SeatSpec
from tests.domain.test_clock import Table
from viewer.play_clock import game_events
from viewer.session import build

SETTINGS = ClockSettings(per_decision=5, reserve=0, increment=0, abandon_after=2)


@pytest.mark.parametrize("game", list(GAMES.values()), ids=lambda g: g.name)
def test_a_clocked_log_replays_to_its_end_and_audits(game: Game) -> None:
    table = Table(game, (SeatSpec("Ann"), SeatSpec("Bo", "bot", "basic")), SETTINGS)
    at = 0
    while not game.is_over(table.state):
        at = max(at, table.awaiting().deadline)
        table.time_out(at)
    opened = build("clocked", chain(table.events))
    assert opened.report.ok
    assert "clock" in [check.name for check in opened.report.checks]
    replay = opened.replay
    assert replay.stuck_at is None and replay.full
    assert len(replay.events) == len(
        [e for e in table.events if not (is_clock_event(e) or is_entropy(e))]
    )


@pytest.mark.parametrize("game", list(GAMES.values()), ids=lambda g: g.name)
def test_the_replay_and_a_seats_catch_up_leave_out_the_same_events(game: Game) -> None:
    """One predicate (``domain.clock.is_game_event``) says which events are the game's own,
    whether the viewer holds the decoded event (an opened log) or its tag (an API page)."""
    table = Table(game, (SeatSpec("Ann"), SeatSpec("Bo", "bot", "basic")), SETTINGS)
    at = 0
    while not game.is_over(table.state):
        at = max(at, table.awaiting().deadline)
        table.time_out(at)
    pages = [{"version": v, "event": {"type": event_type(e)}} for v, e in enumerate(table.events)]
    caught_up = [out["version"] for out in game_events(pages)]  # type: ignore[arg-type]
    replayed = [v for v, e in enumerate(table.events) if is_game_event(e)]
    assert caught_up == replayed
    left_out = {type(e) for e in table.events if not is_game_event(e)}
    assert any(issubclass(c, DecisionOpened) for c in left_out), "the clock's are left out"
    assert all(is_clock_event(e) or is_entropy(e) for e in table.events if not is_game_event(e))
    assert len(replayed) == len(build("clocked", chain(table.events)).replay.events)
