"""Rule edge cases of Chase the Ace (CHASE.md), one decision at a time, through ``apply``."""

from __future__ import annotations

import pytest

from domain.errors import DomainError
from domain.games.chase.commands import Choose, ClaimSeat, CreateMatch, StartRound
from domain.games.chase.config import Config
from domain.games.chase.decide import apply
from domain.games.chase.events import KingBlocked, LifeLost, MatchWon, RoundEnded, RoundWipedOut
from domain.games.chase.pending import PendingDecision, pending
from domain.games.chase.state import initial_state
from domain.games.chase.transcript import transcript
from domain.seats import SeatSpec
from tests.chase.tables import SALT, pack, play, story, table


def test_the_deal_goes_in_turn_order_from_the_top_and_the_first_player_is_asked() -> None:
    state, events = play(table(4, dealer=2), ["5C", "6C", "7C", "8C"], [])
    dealt = [(e["seat"], e["card"]) for e in transcript(events)]
    assert dealt == [(3, "5C"), (0, "6C"), (1, "7C"), (2, "8C")]
    assert pending(state) == PendingDecision(3, "turn", ("keep", "exchange"))
    assert state.round is not None and state.round.stock == pack("5C", "6C", "7C", "8C")[4:]


# --- Kings -----------------------------------------------------------------------------------


def test_a_king_blocks_and_its_holder_is_passed_over() -> None:
    state, events = play(table(4), ["2C", "KH", "7D", "9S"], [(1, "exchange")])
    assert story(events) == [("request", 1, 2), ("king_block", 2, 1, "KH")]
    assert pending(state) == PendingDecision(3, "turn", ("keep", "exchange"))
    state, events = apply(state, Choose(3, "keep"))
    state, events = apply(state, Choose(0, "keep"))
    assert state.round is not None and state.round.hands[1] == "2C"  # kept its card (A9)
    assert [e.seat for e in events if isinstance(e, LifeLost)] == [1]


def test_the_dealers_king_blocks_the_last_request_and_the_dealer_has_no_turn() -> None:
    state, events = play(table(3), ["4C", "2D", "KS"], [(1, "keep"), (2, "exchange")])
    assert story(events)[-4:-1] == [("request", 2, 0), ("king_block", 0, 2, "KS"),
                                   ("score", [{"seat": 1, "card": "4C"}, {"seat": 2, "card": "2D"},
                                              {"seat": 0, "card": "KS"}], [2])]  # fmt: skip
    assert state.status == "between_rounds" and state.lives == (3, 3, 2)


def test_a_king_on_its_holders_own_turn_is_ordinary_and_never_blocks_once_moved() -> None:
    # Seat 1 gives its King away (A10): seat 2 receives it and plays its own turn with it.
    state, events = play(table(4), ["KD", "3C", "9H", "8S"], [(1, "exchange")])
    assert story(events) == [("request", 1, 2), ("exchange", 1, 2, "3C", "KD")]
    assert pending(state) == PendingDecision(2, "turn", ("keep", "exchange"))
    # Seat 2 passes the King on too: no block, whoever holds it now
    state, events = apply(state, Choose(2, "exchange"))
    assert story(events) == [("request", 2, 3), ("exchange", 2, 3, "9H", "KD")]


def test_two_kings_side_by_side_the_blocking_one_is_shown_the_other_plays() -> None:
    state, events = play(table(4), ["5C", "KC", "KD", "6S"], [(1, "exchange")])
    assert [type(e) for e in events].count(KingBlocked) == 1
    assert pending(state) == PendingDecision(3, "turn", ("keep", "exchange"))
    state, _ = apply(state, Choose(3, "exchange"))  # seat 3 gives its King to the dealer
    assert pending(state) == PendingDecision(0, "dealer_turn", ("keep", "cut"))


def test_an_all_king_table_loses_together() -> None:
    state, events = play(table(4), ["KC", "KD", "KH", "KS"], [(1, "keep"), (2, "keep"),
                                                             (3, "keep"), (0, "keep")])  # fmt: skip
    assert state.lives == (2, 2, 2, 2)


# --- the dealer's cut ------------------------------------------------------------------------


def test_the_dealer_cuts_the_top_of_the_stock_and_discards_face_down() -> None:
    state, events = play(table(3), ["9C", "8C", "AC", "4H"], [(1, "keep"), (2, "keep"),
                                                             (0, "cut")])  # fmt: skip
    assert story(events)[-4:-2] == [("cut", 0, "4H"), ("cut_exchange", 0, "AC", "4H")]
    rnd = state.round
    assert rnd is not None
    assert rnd.discard == ("AC",) and rnd.hands[0] == "4H" and rnd.public_reveals == ("4H",)
    assert rnd.stock == pack("9C", "8C", "AC", "4H")[4:]


def test_a_cut_king_is_void_and_stays_on_top_of_the_stock() -> None:
    state, events = play(table(3), ["9C", "8C", "AC", "KH"], [(1, "keep"), (2, "keep"),
                                                             (0, "cut")])  # fmt: skip
    assert story(events)[-4:-2] == [("cut", 0, "KH"), ("cut_void", 0)]
    rnd = state.round
    assert rnd is not None and rnd.hands[0] == "AC" and rnd.discard == ()
    assert rnd.stock[0] == "KH" and len(rnd.stock) == 49
    assert state.lives == (2, 3, 3)  # the option is off: the Ace loses (A12)


def test_king_cut_loses_the_dealer_alone_loses_whatever_the_cards() -> None:
    state, events = play(
        table(3, king_cut_loses=True), ["AS", "8C", "QC", "KH"], [(1, "keep"), (2, "keep"),
                                                                  (0, "cut")]
    )  # fmt: skip
    assert story(events)[-2:] == [("score", [{"seat": 1, "card": "AS"}, {"seat": 2, "card": "8C"},
                                              {"seat": 0, "card": "QC"}], [0]),
                                   ("life_loss", 0, "king_cut", 2)]  # fmt: skip


def test_king_cut_loses_takes_a_last_life_and_ends_the_match() -> None:
    state, events = play(
        table(2, dealer=1, lives=[1, 1], king_cut_loses=True), ["2C", "3C", "KD"],
        [(0, "keep"), (1, "cut")],
    )  # fmt: skip
    assert state.status == "over" and state.winner == 0 and state.lives == (1, 0)
    assert story(events)[-2:] == [("eliminated", 1), ("match_end", 0)]


def test_king_cut_loses_with_an_ordinary_cut_scores_as_usual() -> None:
    state, _ = play(table(3, king_cut_loses=True), ["9C", "8C", "AC", "4H"],
                    [(1, "keep"), (2, "keep"), (0, "cut")])  # fmt: skip
    assert state.lives == (2, 3, 3)  # the dealer took the 4, the lowest card on the table


# --- announce_low ----------------------------------------------------------------------------


def test_announce_low_shows_both_low_cards_the_requesters_given_card_first() -> None:
    state, events = play(table(3, announce_low=True), ["AC", "2H", "9D"], [(1, "exchange")])
    assert story(events) == [("request", 1, 2), ("exchange", 1, 2, "2H", "AC"),
                             ("announce", 2, "AC"), ("announce", 1, "2H")]  # fmt: skip
    assert state.round is not None and state.round.public_reveals == ("AC", "2H")


def test_announce_low_is_silent_for_higher_cards_and_off_by_default() -> None:
    _, events = play(table(3, announce_low=True), ["4C", "9H", "9D"], [(1, "exchange")])
    assert story(events) == [("request", 1, 2), ("exchange", 1, 2, "9H", "4C")]
    _, events = play(table(3), ["AC", "2H", "9D"], [(1, "exchange")])
    assert story(events) == [("request", 1, 2), ("exchange", 1, 2, "2H", "AC")]


def test_a_cut_low_card_is_not_announced_it_is_public_as_the_cut() -> None:
    state, events = play(table(2, announce_low=True), ["9C", "8C", "AD"], [(1, "keep"),
                                                                          (0, "cut")])  # fmt: skip
    assert [e[0] for e in story(events)].count("announce") == 0
    assert state.round is not None and state.round.public_reveals == ("AD",)


# --- lives, eliminations, wipe-outs and the end of the match ---------------------------------


def test_a_seat_losing_its_last_life_is_eliminated_and_sits_out_after() -> None:
    state, events = play(table(4, lives=[3, 1, 3, 3]), ["AC", "5C", "6C", "7C"],
                         [(1, "keep"), (2, "keep"), (3, "keep"), (0, "keep")])  # fmt: skip
    assert story(events)[-2:] == [("life_loss", 1, "lowest", 0), ("eliminated", 1)]
    ended = next(e for e in events if isinstance(e, RoundEnded))
    assert ended.next_dealer == 2  # seat 1 has no lives: the deal passes over it (A18)
    state, events = apply(state, StartRound(pack(), SALT))
    assert state.round is not None and state.round.participants == (3, 0, 2)
    assert state.round.hands[1] is None


def test_the_requester_asks_its_next_participant_over_seats_that_sit_out() -> None:
    state, events = play(table(4, lives=[3, 3, 0, 3]), ["4C", "5C", "6C"], [(1, "exchange")])
    assert story(events) == [("request", 1, 3), ("exchange", 1, 3, "5C", "4C")]


def test_a_dealer_eliminated_passes_the_deal_on() -> None:
    state, events = play(table(3, dealer=0, lives=[1, 2, 2]), ["9C", "8C", "AC"],
                         [(1, "keep"), (2, "keep"), (0, "keep")])  # fmt: skip
    assert state.lives == (0, 2, 2) and state.dealer == 1


def test_a_wipe_out_voids_the_round() -> None:
    state, events = play(table(3, lives=[1, 1, 1]), ["5C", "5D", "5H"],
                         [(1, "keep"), (2, "keep"), (0, "keep")])  # fmt: skip
    wiped = [e for e in events if isinstance(e, RoundWipedOut)]
    assert wiped == [RoundWipedOut((1, 2, 0))] and state.lives == (1, 1, 1)
    assert not any(isinstance(e, LifeLost) for e in events)
    assert state.status == "between_rounds" and state.dealer == 1  # the deal still passes


def test_no_wipe_out_while_one_tied_seat_has_a_life_to_spare() -> None:
    state, events = play(table(3, lives=[1, 2, 1]), ["5C", "5D", "5H"],
                         [(1, "keep"), (2, "keep"), (0, "keep")])  # fmt: skip
    assert state.lives == (0, 1, 0) and state.winner == 1 and state.status == "over"
    assert story(events)[-6:] == [
        ("life_loss", 1, "lowest", 1), ("life_loss", 2, "lowest", 0),
        ("life_loss", 0, "lowest", 0), ("eliminated", 2), ("eliminated", 0), ("match_end", 1),
    ]  # fmt: skip
    assert [e for e in events if isinstance(e, MatchWon)] == [MatchWon(1)]


def test_not_every_seat_losing_is_no_wipe_out_even_at_one_life() -> None:
    state, _ = play(table(3, lives=[1, 1, 1]), ["5C", "5D", "9H"],
                    [(1, "keep"), (2, "keep"), (0, "keep")])  # fmt: skip
    assert state.lives == (1, 0, 0) and state.winner == 0


def test_once_the_match_is_won_every_command_is_refused() -> None:
    state, _ = play(table(2, lives=[1, 1]), ["AC", "5C"], [(1, "keep"), (0, "keep")])
    assert state.status == "over" and state.winner == 0 and pending(state) is None
    for command in (StartRound(pack(), SALT), Choose(0, "keep")):
        with pytest.raises(DomainError) as error:
            apply(state, command)
        assert error.value.code == "match_over"
    # its seats are taken, as in every game; a seat it does not have is unknown
    for seat, code in ((0, "seat_taken"), (2, "unknown_seat")):
        with pytest.raises(DomainError) as error:
            apply(state, ClaimSeat(seat, "Ann"))
        assert error.value.code == code


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "lives", "dealer", "message"),
    [
        (1, 3, 0, "2 to 20 seats"),
        (21, 3, 0, "2 to 20 seats"),
        (4, 0, 0, "starting lives must be 1 to 9"),
        (4, 10, 0, "starting lives must be 1 to 9"),
        (4, 3, 4, "first dealer"),
    ],
)
def test_a_bad_config_is_refused(seats: int, lives: int, dealer: int, message: str) -> None:
    specs = tuple(SeatSpec(f"s{i}") for i in range(seats))
    with pytest.raises(DomainError, match=message):
        apply(initial_state(), CreateMatch(Config(specs, lives, dealer)))


def test_out_of_turn_and_illegal_choices_are_refused() -> None:
    state, _ = play(table(3), ["5C", "6C", "7C"], [])
    for command, code in (
        (Choose(2, "keep"), "not_your_turn"),
        (Choose(1, "cut"), "illegal_choice"),
        (Choose(7, "keep"), "unknown_seat"),
        (StartRound(pack(), SALT), "round_in_progress"),
    ):
        with pytest.raises(DomainError) as error:
            apply(state, command)
        assert error.value.code == code
    state, _ = play(table(3), ["5C", "6C", "7C"], [(1, "keep"), (2, "keep")])
    with pytest.raises(DomainError) as error:
        apply(state, Choose(0, "exchange"))
    assert error.value.code == "illegal_choice"


@pytest.mark.parametrize(
    ("cards", "salt"),
    [(pack()[:-1], SALT), ((*pack()[:-1], "AC"), SALT), (pack(), "ab" * 15), (pack(), "zz" * 16)],
)
def test_a_bad_pack_or_salt_is_refused(cards: tuple[str, ...], salt: str) -> None:
    with pytest.raises(DomainError) as error:
        apply(table(3), StartRound(cards, salt))
    assert error.value.code == "invalid_pack"


def test_open_seats_wait_to_be_claimed() -> None:
    seats = (SeatSpec("a"), SeatSpec("open", "open"))
    state, _ = apply(initial_state(), CreateMatch(Config(seats)))
    assert pending(state) == PendingDecision(None, "claim_seat", ("claim",))
    with pytest.raises(DomainError) as error:
        apply(state, StartRound(pack(), SALT))
    assert error.value.code == "seats_open"
    state, _ = apply(state, ClaimSeat(1, "Bo"))
    assert state.seats[1] == SeatSpec("Bo", "human")
    assert pending(state) == PendingDecision(None, "next_round", ("next_round",))
