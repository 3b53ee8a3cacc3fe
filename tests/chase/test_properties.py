"""Invariants of Chase the Ace over random matches (hypothesis picks the table and a seed;
the seed shuffles every pack and makes every choice, so a failure replays exactly)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import cast

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.chase.cards import CARD_SET, value
from domain.games.chase.commands import Choice, Choose, CreateMatch, StartRound
from domain.games.chase.config import Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    CutExchanged,
    CutVoided,
    Event,
    KingBlocked,
    LifeLost,
    LowCardAnnounced,
    MatchWon,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    StockCut,
)
from domain.games.chase.evolve import fold
from domain.games.chase.fairness import shuffled_round
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState, initial_state, turn_order
from domain.games.chase.views import view
from domain.seats import SeatSpec

CARD_ID = re.compile(r'"((?:10|[2-9AJQK])[CDHS])"')


class Table(msgspec.Struct, frozen=True):
    seats: int
    lives: int
    dealer: int
    announce_low: bool
    king_cut_loses: bool
    seed: int


@st.composite
def tables(draw: st.DrawFn, max_seats: int = 8) -> Table:
    seats = draw(st.integers(2, max_seats))
    return Table(
        seats,
        draw(st.integers(1, 3)),
        draw(st.integers(0, seats - 1)),
        draw(st.booleans()),
        draw(st.booleans()),
        draw(st.integers(0, 2**32)),
    )


def matches(table: Table) -> Iterator[tuple[MatchState, MatchState, list[Event]]]:
    """Every command of a whole match: the state before it, after it, and its events."""
    rng = random.Random(table.seed)
    specs = tuple(SeatSpec(f"s{i}") for i in range(table.seats))
    options = Options(table.announce_low, table.king_cut_loses)
    state, _ = apply(
        initial_state(), CreateMatch(Config(specs, table.lives, table.dealer, options))
    )
    while state.status != "over":
        step = pending(state)
        assert step is not None
        command: StartRound | Choose
        if step.kind == "next_round":
            command = shuffled_round(rng)
        else:
            assert step.seat is not None
            command = Choose(step.seat, cast(Choice, rng.choice(step.choices)))
        after, events = apply(state, command)
        yield state, after, events
        state = after


def _check_cards(state: MatchState) -> None:
    """Each of the 52 cards is in exactly one place: the stock, a participant's hand, the
    discard; a seat out of the round holds nothing."""
    rnd = state.round
    if rnd is None or state.status != "in_round":
        return
    held = [rnd.hands[s] for s in rnd.participants]
    assert None not in held
    assert all(rnd.hands[s] is None for s in range(len(rnd.hands)) if s not in rnd.participants)
    places = [*rnd.stock, *held, *rnd.discard]
    assert len(places) == 52 and set(places) == CARD_SET
    assert len(rnd.discard) <= 1


def _check_scoring(before: MatchState, after: MatchState, events: list[Event]) -> None:
    scored = next((e for e in events if isinstance(e, RoundScored)), None)
    if scored is None:
        assert after.lives == before.lives
        return
    rnd = after.round
    assert rnd is not None
    assert tuple(r.seat for r in scored.revealed) == rnd.participants
    king_cut = any(isinstance(e, CutVoided) for e in rnd.log)
    if before.options.king_cut_loses and king_cut:
        assert scored.losers == (rnd.dealer,)
    else:
        lowest = min(value(r.card) for r in scored.revealed)
        assert scored.losers == tuple(r.seat for r in scored.revealed if value(r.card) == lowest)
    lost = [e.seat for e in events if isinstance(e, LifeLost)]
    wiped = any(isinstance(e, RoundWipedOut) for e in events)
    if wiped:
        assert set(scored.losers) == set(rnd.participants)
        assert all(before.lives[s] == 1 for s in rnd.participants) and not lost
        assert after.lives == before.lives
    else:
        assert lost == list(scored.losers)
    for seat, (was, now) in enumerate(zip(before.lives, after.lives, strict=True)):
        assert 0 <= now <= was and was - now == (seat in lost)
    alive = [s for s, n in enumerate(after.lives) if n > 0]
    assert alive, "a round never leaves nobody with lives (A16)"
    won = [e.winner for e in events if isinstance(e, MatchWon)]
    if len(alive) == 1:
        assert won == alive and after.status == "over" and after.winner == alive[0]
    else:
        assert not won and after.status == "between_rounds"
        n = len(after.lives)
        following = [(rnd.dealer + i) % n for i in range(1, n + 1)]
        assert after.dealer == next(s for s in following if after.lives[s] > 0)  # A18


def _known(log: tuple[Event, ...], seat: int | None) -> set[str]:
    """The cards ``seat`` may know in a round so far, read off the complete log (CHASE §5)."""
    known: set[str] = set()
    for event in log:
        if isinstance(event, CardDealt) and event.seat == seat:
            known.add(event.card or "")
        elif isinstance(event, CardsExchanged) and seat in (event.requester, event.target):
            known |= {event.requester_gets or "", event.target_gets or ""}
        elif isinstance(event, KingBlocked | LowCardAnnounced | StockCut):
            known.add(event.card)
        elif isinstance(event, CutExchanged):
            known.add(event.got)
        elif isinstance(event, RoundScored):
            known |= {r.card for r in event.revealed}
    return known


def _check_views(state: MatchState) -> None:
    """No view shows a card its seat may not know: another seat's face-down card, a card of
    an exchange between two others, the dealer's discard, the undealt pack."""
    rnd = state.round
    if rnd is None or state.status != "in_round":
        return
    for seat in (None, *range(len(state.seats))):
        text = msgspec.json.encode(view(state, seat)).decode()
        shown = set(CARD_ID.findall(text))
        assert shown <= _known(rnd.log, seat), (seat, shown - _known(rnd.log, seat))
        assert rnd.salt not in text


_FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(tables())
def test_every_rule_invariant_holds_over_a_whole_match(table: Table) -> None:
    log: list[Event] = []
    start: MatchState | None = None
    last: MatchState | None = None
    for before, after, events in matches(table):
        start = start or before
        last = after
        log.extend(events)
        _check_cards(after)
        _check_scoring(before, after, events)
        _check_views(after)
        for event in events:
            if isinstance(event, RoundStarted):
                assert all(before.lives[s] > 0 for s in event.participants)
                assert event.participants == turn_order(before.dealer, before.lives)
    assert start is not None and last is not None
    final = fold(log, start)  # the events alone rebuild the state
    assert final == last and final.status == "over" and final.winner is not None
    assert [s for s, n in enumerate(final.lives) if n > 0] == [final.winner]


@settings(max_examples=30, deadline=None)
@given(tables(max_seats=20))
def test_big_tables_conserve_the_pack_and_end_with_one_winner(table: Table) -> None:
    rounds = 0
    after = None
    for _, after, events in matches(table):
        rounds += sum(1 for e in events if isinstance(e, RoundStarted))
        _check_cards(after)
    assert after is not None and after.status == "over"
    assert sum(1 for n in after.lives if n > 0) == 1
    assert rounds >= 1
