"""A seat's steps shown one at a time (``PlayMatch``): what is drawn as steps are taken, skipped,
and when news brings another person's move in the middle of them (``hurry``)."""

from __future__ import annotations

from typing import Any

from viewer.games.play_host import PlayMatch, Seen


def _match(events: int) -> PlayMatch[Any, str]:
    match: PlayMatch[Any, str] = PlayMatch("http://127.0.0.1:1", "m", "t", 0, view=None)
    match.seen = [Seen(v, f"e{v}") for v in range(1, events + 1)]
    return match


def _news(match: PlayMatch[Any, str], moves: int) -> int:
    """``moves`` more events, as the Tables page's news brings them; the count before them."""
    before = len(match.seen)
    match.seen += [Seen(before + i, f"e{before + i}") for i in range(1, moves + 1)]
    return before


def test_an_actions_steps_are_drawn_one_at_a_time_from_the_seats_own_action() -> None:
    match = _match(2)
    _news(match, 4)  # this seat's action and three bots' replies
    match.step_by_step(2, out=False)
    assert match.pacing and [s.event for s in match.drawn] == ["e1", "e2", "e3"]
    assert match.next_step() and match.drawn[-1].event == "e4"
    assert match.next_step() and match.next_step() and match.drawn[-1].event == "e6"
    assert not match.next_step() and not match.pacing and len(match.drawn) == 6


def test_another_persons_move_brought_by_news_is_drawn_next_not_behind_the_queued_steps() -> None:
    match = _match(0)
    _news(match, 4)
    match.step_by_step(0, out=False)  # e1 drawn; e2-e4 queued at the pace
    before = _news(match, 2)  # another person's move (e5) and a bot's reply (e6)
    match.hurry(before)
    assert match.hurried and match.pacing
    assert match.drawn[-1].event == "e5"  # at the fragment's next look, not three steps later
    assert match.next_step() and match.drawn[-1].event == "e6"  # the rest at the pace
    assert not match.next_step() and match.shown is None


def test_a_move_brought_once_every_queued_step_is_drawn_is_drawn_next() -> None:
    match = _match(0)
    _news(match, 3)
    match.step_by_step(0, out=False)
    match.next_step()
    match.next_step()  # e3 drawn: the last queued step
    match.hurry(_news(match, 1))
    assert match.hurried and match.drawn[-1].event == "e4"


def test_news_changes_nothing_on_a_page_that_is_not_pacing() -> None:
    caught_up = _match(3)
    caught_up.hurry(_news(caught_up, 2))
    assert not caught_up.hurried and caught_up.shown is None and len(caught_up.drawn) == 5

    out = _match(0)  # this seat is out: held at its last action until the person chooses
    _news(out, 3)
    out.step_by_step(0, out=True)
    out.hurry(_news(out, 2))
    assert not out.hurried and out.shown == 1 and out.offer_watch
