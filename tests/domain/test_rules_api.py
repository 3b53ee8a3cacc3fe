"""The domain's contract as its callers see it: errors, prompts, views, the commitment."""

from __future__ import annotations

import hashlib

import pytest

from domain.errors import DomainError
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.commands import Choose, ClaimSeat, CreateMatch, StartRound
from domain.games.cuccu.decide import apply, decide
from domain.games.cuccu.events import CardDealt, CardsExchanged, RoundEnded, RoundStarted
from domain.games.cuccu.fairness import commitment
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import redact, view
from domain.seats import SeatSpec

SALT = "ab" * 16
HUMANS = tuple(SeatSpec(f"p{i}") for i in range(4))


def created(first_dealer: int = 0, lives: int = 3) -> MatchState:
    return apply(initial_state(), CreateMatch(HUMANS, lives, first_dealer))[0]


def started(pack: tuple[str, ...] = CARDS) -> MatchState:
    return apply(created(), StartRound(pack, SALT))[0]


def code_of(state: MatchState, command: object) -> str:
    with pytest.raises(DomainError) as caught:
        decide(state, command)  # type: ignore[arg-type]
    assert caught.value.message
    return caught.value.code


@pytest.mark.parametrize(
    ("seats", "lives", "dealer"),
    [(1, 3, 0), (21, 3, 0), (4, 0, 0), (4, 3, 4), (4, 3, -1)],
)
def test_invalid_configurations_are_rejected(seats: int, lives: int, dealer: int) -> None:
    specs = tuple(SeatSpec(f"p{i}") for i in range(seats))
    assert code_of(initial_state(), CreateMatch(specs, lives, dealer)) == "invalid_config"


def test_seat_specs_are_checked() -> None:
    blank = (SeatSpec(" "), SeatSpec("b"))
    assert code_of(initial_state(), CreateMatch(blank)) == "invalid_config"
    bad_bot = (SeatSpec("a"), SeatSpec("b", "bot", "genius"))
    assert code_of(initial_state(), CreateMatch(bad_bot)) == "invalid_config"
    human_level = (SeatSpec("a", "human", "basic"), SeatSpec("b"))
    assert code_of(initial_state(), CreateMatch(human_level)) == "invalid_config"


def test_twenty_seats_play_a_round() -> None:
    specs = tuple(SeatSpec(f"p{i}") for i in range(20))
    state = apply(apply(initial_state(), CreateMatch(specs))[0], StartRound(CARDS, SALT))[0]
    while state.status == "in_round":
        decision = pending(state)
        assert decision is not None and decision.seat is not None
        state = apply(state, Choose(decision.seat, decision.choices[1]))[0]  # type: ignore[arg-type]
    assert state.status in ("between_rounds", "over")


def test_commands_out_of_place_have_stable_codes() -> None:
    assert code_of(initial_state(), Choose(0, "keep")) == "match_not_started"
    assert code_of(initial_state(), StartRound(CARDS, SALT)) == "match_not_started"
    assert code_of(created(), CreateMatch(HUMANS)) == "match_exists"
    assert code_of(created(), Choose(1, "keep")) == "illegal_choice"
    state = started()
    assert code_of(state, StartRound(CARDS, SALT)) == "round_in_progress"
    assert code_of(state, Choose(9, "keep")) == "unknown_seat"
    assert code_of(state, Choose(2, "keep")) == "not_your_turn"
    assert code_of(state, Choose(1, "inn_accept")) == "illegal_choice"


def test_a_pack_must_be_complete_and_salted() -> None:
    state = created()
    assert code_of(state, StartRound(CARDS[:-1], SALT)) == "invalid_pack"
    assert code_of(state, StartRound((*CARDS[:-1], CARDS[0]), SALT)) == "invalid_pack"
    assert code_of(state, StartRound(CARDS, "zz")) == "invalid_pack"
    assert code_of(state, StartRound(CARDS, "ab")) == "invalid_pack"


def test_the_first_player_is_prompted_and_dealt_from_the_bottom() -> None:
    state = started()
    decision = pending(state)
    assert decision is not None
    assert (decision.seat, decision.kind, decision.choices) == (1, "turn", ("keep", "exchange"))
    assert view(state, 1).hand == CARDS[-1]


def test_the_round_start_publishes_a_commitment_and_hides_the_pack() -> None:
    state, events = apply(created(), StartRound(CARDS, SALT))
    start = events[0]
    assert isinstance(start, RoundStarted)
    expected = hashlib.sha256(bytes.fromhex(SALT) + ",".join(CARDS).encode()).hexdigest()
    assert start.commitment == commitment(SALT, CARDS) == expected
    for seat in (None, 0, 1):
        hidden = redact(start, seat)
        assert isinstance(hidden, RoundStarted)
        assert hidden.pack is None and hidden.salt is None and hidden.commitment == expected


def test_a_spectator_sees_no_card_and_a_seat_only_its_own() -> None:
    state = apply(started(), Choose(1, "exchange"))[0]  # seat 1 swaps with seat 2
    exchange = next(e for e in state.round.log if isinstance(e, CardsExchanged))  # type: ignore[union-attr]
    for seat, sees in ((None, False), (0, False), (1, True), (2, True), (3, False)):
        shown = redact(exchange, seat)
        assert isinstance(shown, CardsExchanged)
        assert (shown.requester_gets is not None) is sees
    spectator = view(state, None)
    assert spectator.hand is None and set(spectator.hands) == {None}
    assert view(state, 2).hands == (None, None, state.round.hands[2], None)  # type: ignore[union-attr]
    deal = next(e for e in state.round.log if isinstance(e, CardDealt))  # type: ignore[union-attr]
    assert isinstance(redact(deal, 3), CardDealt) and redact(deal, 3).card is None  # type: ignore[union-attr]


def test_the_end_of_a_round_opens_the_commitment() -> None:
    state = started()
    for seat in (1, 2, 3, 0):
        state = apply(state, Choose(seat, "keep"))[0]
    ended = state.round.log[-1]  # type: ignore[union-attr]
    assert isinstance(ended, RoundEnded)
    assert (ended.salt, ended.pack, ended.next_dealer) == (SALT, CARDS, 1)
    assert commitment(ended.salt, ended.pack) == state.round.commitment  # type: ignore[union-attr]
    assert pending(state) is not None and pending(state).kind == "next_round"  # type: ignore[union-attr]


def test_open_seats_are_claimed_before_the_first_round() -> None:
    seats = (SeatSpec("host"), SeatSpec("open 1", "open"), SeatSpec("bot", "bot", "basic"))
    state = apply(initial_state(), CreateMatch(seats))[0]
    assert pending(state) is not None and pending(state).kind == "claim_seat"  # type: ignore[union-attr]
    assert code_of(state, StartRound(CARDS, SALT)) == "seats_open"
    assert code_of(state, ClaimSeat(0, "me")) == "seat_taken"
    assert code_of(state, ClaimSeat(7, "me")) == "unknown_seat"
    assert code_of(state, ClaimSeat(1, "  ")) == "invalid_config"
    state = apply(state, ClaimSeat(1, "Ada"))[0]
    assert state.seats[1] == SeatSpec("Ada", "human")
    assert code_of(state, ClaimSeat(1, "Bob")) == "seat_taken"
    assert pending(state).kind == "next_round"  # type: ignore[union-attr]
    assert apply(state, StartRound(CARDS, SALT))[0].status == "in_round"


def test_an_open_seat_has_no_bot_level() -> None:
    seats = (SeatSpec("a"), SeatSpec("b", "open", "basic"))
    assert code_of(initial_state(), CreateMatch(seats)) == "invalid_config"
