"""Chase the Ace behind the seam: the ``GAME`` object, the registry, views, bots and audit."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest

from domain.audit import chain
from domain.audit_record import CheckFailed
from domain.conformance import _game_of
from domain.games import CHASE, GAMES, Game, by_name, of_first_event
from domain.games.chase.audit import AUDIT
from domain.games.chase.bots import POLICIES, autoplay, choose
from domain.games.chase.bots.expert import knowledge
from domain.games.chase.commands import Choose, CreateMatch, StartRound
from domain.games.chase.config import Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    CutExchanged,
    Event,
    LifeLost,
    RoundStarted,
    decode_events,
    encode_event,
)
from domain.games.chase.state import MatchState, initial_state
from domain.games.chase.views import redact, view
from domain.games.game import HOST
from domain.seats import SeatSpec
from tests.chase.tables import play, table


def test_game_fills_every_field_of_the_seam() -> None:
    for field in dataclasses.fields(Game):
        if field.name != "legacy":
            assert getattr(CHASE, field.name) is not None, field.name
    assert CHASE.name == "chase" and CHASE.scenario_format == "chase-scenario/1"
    assert dict(CHASE.options) == {
        "starting_lives": 3,
        "announce_low": False,
        "king_cut_loses": False,
    }
    # "resume" is the clock's (domain/clock.py): an abandoned seat's holder takes it back
    assert set(CHASE.choices) == {"keep", "exchange", "cut", "next_round", "resume"}


def test_the_hosts_and_the_runner_find_it_by_name_format_and_first_event() -> None:
    assert by_name("chase") is CHASE and GAMES["chase"] is CHASE
    assert _game_of({"format": "chase-scenario/1"}) is CHASE
    # its first event is its own (the hosts tell games by it)
    assert of_first_event(CHASE.created_event) is CHASE
    others = {game.created_event for game in GAMES.values() if game is not CHASE}
    assert CHASE.created_event not in others


def test_a_match_through_the_seam_with_bots_and_the_host() -> None:
    rng = random.Random(7)
    seats = tuple(SeatSpec(f"b{i}", "bot", level) for i, level in enumerate(POLICIES))
    options = {"starting_lives": 2, "announce_low": True, "king_cut_loses": True}
    create = CHASE.create_command(seats, 1, options)
    assert create == CreateMatch(Config(seats, 2, 1, Options(True, True)))
    state, log = CHASE.apply(CHASE.initial(), create)
    while not CHASE.is_over(state):
        turn = CHASE.automatic_turn(state)
        if turn == HOST:
            command = CHASE.host_command(state, rng)
            assert CHASE.command_meta(command) == {"type": "start_round"}
        else:
            assert isinstance(turn, int)
            command = CHASE.bot_command(state, turn, rng)
        state, events = CHASE.apply(state, command)
        log.extend(events)
    assert CHASE.fold(log) == state
    assert decode_events(b"[" + b",".join(map(encode_event, log)) + b"]") == log
    summary = CHASE.summary(state)
    assert summary.status == "over" and summary.winners == (state.winner,)
    assert sum(1 for lives in summary.standing if lives > 0) == 1
    assert [CHASE.bot_level(state, s) for s in range(3)] == list(POLICIES)
    assert CHASE.slow_bots(state)  # bots alone


def test_a_person_is_never_played_for_and_starts_later_rounds() -> None:
    state = table(2)
    assert CHASE.automatic_turn(state) == HOST  # round 1 is dealt at once
    state, _ = play(state, ["5C", "6C"], [(1, "keep"), (0, "keep")])
    # the host's one step: a commitment to the next deck's secret (docs/API.md "Fairness")
    assert CHASE.automatic_turn(state) == HOST
    state, _ = CHASE.apply(state, CHASE.host_command(state, random.Random(2)))
    assert CHASE.automatic_turn(state) is None  # a human with lives starts the next round
    command = CHASE.player_command(state, 0, "next_round", random.Random(1))
    assert isinstance(command, StartRound)
    assert CHASE.player_command(state, 1, "keep", None) == Choose(1, "keep")


# --- what a seat sees ------------------------------------------------------------------------


def _round() -> tuple[MatchState, list[Event]]:
    # 1 exchanges with 2, 2 keeps, 3 keeps, the dealer cuts the 4H and discards its 9S.
    return play(
        table(4), ["2C", "8D", "7D", "9S", "4H"], [(1, "exchange"), (2, "keep"), (3, "keep")]
    )


def test_redact_hides_each_card_from_whoever_may_not_see_it() -> None:
    state, events = _round()
    state, more = apply(state, Choose(0, "cut"))
    events += more
    for seat in (None, 0, 1, 2, 3):
        for event in events:
            seen = redact(event, seat)
            if isinstance(seen, CardDealt):
                assert (seen.card is None) == (seat != seen.seat)
            elif isinstance(seen, CardsExchanged):
                hidden = seat not in (seen.requester, seen.target)
                assert (seen.requester_gets is None) == hidden == (seen.target_gets is None)
            elif isinstance(seen, CutExchanged):
                assert seen.got == "4H" and (seen.gave is None) == (seat != 0)
            elif isinstance(seen, RoundStarted):
                assert seen.pack is None and seen.salt is None
            else:
                assert seen is event
    assert redact(events[0], None, reveal_all=True) is events[0]


def test_a_view_shows_the_own_card_a_shown_king_and_nothing_else() -> None:
    state, _ = play(table(4), ["2C", "KH", "7D", "9S"], [(1, "exchange")])
    for seat in (None, 0, 1, 2, 3):
        seen = view(state, seat)
        mine = {seat: state.round.hands[seat]} if seat is not None and state.round else {}
        expected = {2: "KH", **mine}
        assert {s: c for s, c in enumerate(seen.hands) if c is not None} == expected
        assert seen.public_reveals == ("KH",) and seen.seats[2].shown
        text = msgspec.json.encode(seen).decode()
        assert "ab" * 16 not in text  # the salt
        assert state.round is not None
        assert not [c for c in state.round.stock if f'"{c}"' in text]  # the undealt pack


def test_the_dealer_alone_sees_its_discard_and_everything_shows_once_over() -> None:
    state, _ = _round()
    state, _ = apply(state, Choose(0, "cut"))
    assert view(state, 0).discard == ("9S",)
    assert view(state, 1).discard == (None,) and view(state, None).discard == (None,)
    assert view(state, 2).hands == ("4H", "8D", "2C", "7D")  # the reveal is public


def test_the_expert_follows_the_card_it_gave_through_public_exchanges() -> None:
    state, _ = play(table(4), ["2C", "8D", "7D", "9S"], [(1, "exchange"), (2, "exchange")])
    known, seen = knowledge(view(state, 1))
    assert known == {3: "2C"}  # seat 2 passed seat 1's Two on to seat 3
    assert {"2C", "8D"} <= seen


@pytest.mark.parametrize("level", sorted(POLICIES))
def test_every_bot_answers_only_with_an_offered_choice(level: str) -> None:
    rng = random.Random(3)
    specs = tuple(SeatSpec(f"b{i}", "bot", level) for i in range(5))
    state, _ = apply(initial_state(), CreateMatch(Config(specs, 2, 0)))

    def answer(current: MatchState, seat: int) -> str:
        seen = view(current, seat)
        choice = choose(level, seen, rng)
        assert seen.pending is not None and choice in seen.pending.choices
        return choice

    states = [after for after, _ in autoplay(state, answer, rng)]
    assert states[-1].status == "over"


def test_the_expert_loses_less_than_random_play() -> None:
    losses = {"random": 0, "expert": 0}
    rng = random.Random(11)
    levels = ("random", "expert", "random", "expert")
    specs = tuple(SeatSpec(f"b{i}", "bot", level) for i, level in enumerate(levels))
    state, _ = apply(initial_state(), CreateMatch(Config(specs, 9, 0)))

    def answer(current: MatchState, seat: int) -> str:
        return choose(levels[seat], view(current, seat), rng)

    for _, events in autoplay(state, answer, rng, max_rounds=150):
        for event in events:
            if isinstance(event, LifeLost):
                losses[levels[event.seat]] += 1
    assert losses["expert"] < losses["random"], losses


# --- audit -----------------------------------------------------------------------------------


def _match_log() -> list[Event]:
    rng = random.Random(5)
    specs = tuple(SeatSpec(f"b{i}", "bot", "basic") for i in range(4))
    state, log = apply(initial_state(), CreateMatch(Config(specs, 2, 3, Options(True, False))))
    for _, events in autoplay(state, lambda s, seat: choose("basic", view(s, seat), rng), rng):
        log.extend(events)
    return log


def test_a_whole_match_passes_every_audit_check() -> None:
    records = chain(_match_log())
    for check in AUDIT.checks:
        assert check.run(records) > 0, check.name
    rounds, winners = AUDIT.summary([r.event for r in records])
    assert rounds >= 1 and len(winners) == 1
    assert records[-1].event.__struct_config__.tag == AUDIT.final_event


def test_a_tampered_life_loss_fails_replay_and_lives() -> None:
    log = _match_log()
    i = next(i for i, e in enumerate(log) if isinstance(e, LifeLost))
    loss = log[i]
    assert isinstance(loss, LifeLost)
    log[i] = msgspec.structs.replace(loss, seat=(loss.seat + 1) % 4)
    records = chain(log)
    failed = []
    for check in AUDIT.checks:
        try:
            check.run(records)
        except CheckFailed as failure:
            failed.append((check.name, failure.version))
    assert ("replay", i + 1) in failed and ("lives", i + 1) in failed
