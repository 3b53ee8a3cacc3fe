"""Readings the shipped scenario files leave unexercised (README R1, R2, R5, R8, R11, C18 with
an upstream origin), each played from a built position through the scenario runner."""

from __future__ import annotations

from typing import Any

from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.conformance import play


def position(
    *,
    seats: int,
    dealer: int,
    round_card: str,
    deck: list[str],
    decisions: list[tuple[int, str]],
    chips: list[int] | None = None,
    box: int = 0,
    alive: list[int] | None = None,
    powers: bool = True,
    max_sets: int | None = None,
    set_number: int = 1,
    reshuffles: list[list[str]] | None = None,
    deck_is_all: bool = False,
) -> dict[str, Any]:
    """A scenario dict: ``deck`` on top (the rest of the 42 cards below it in canonical order,
    or, with ``deck_is_all``, in the discard pile), 10 chips a seat unless told."""
    chips = chips if chips is not None else [10] * seats
    rest = [c for c in CARDS if c not in deck]
    alive = alive if alive is not None else list(range(seats))
    return {
        "format": "cucco21-scenario/1",
        "seats": seats,
        "powers": powers,
        "starting_chips": (sum(chips) + box) // seats,
        "chips_before": chips,
        "box_before": box,
        "alive_before": alive,
        "bankrupt_before": [],
        "round_card": round_card,
        "dealer": dealer,
        "set_number": set_number,
        "max_sets": max_sets,
        "turn_order": [
            s for s in ((dealer + i) % seats for i in range(1, seats + 1)) if s in alive
        ],
        "deck_top_to_bottom": deck if deck_is_all else deck + rest,
        "discard_before": rest if deck_is_all else [],
        "reshuffles": reshuffles or [],
        "decisions": [{"seat": s, "choice": c} for s, c in decisions],
    }


def events(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [tuple(e.values()) for e in result["events"]]


def test_r1_a_card_taken_back_after_a_reshuffle_comes_out_of_the_new_deck() -> None:
    # 2 seats, the deck holds just the two dealt cards; the dealer's draw finds it empty.
    scenario = position(
        seats=2, dealer=0, round_card="2", deck=["9#1", "4#1"], deck_is_all=True,
        decisions=[(1, "keep"), (0, "trade")],
    )  # fmt: skip
    pile = [*scenario["discard_before"], "4#1"]  # C16: the discarded card is in the pile
    new_deck = ["6#1", "20#1", "4#1", *[c for c in pile if c not in ("6#1", "20#1", "4#1")]]
    scenario["reshuffles"] = [new_deck]
    result = play(scenario)
    assert events(result)[3:8] == [
        ("deck_discard", 0, "4#1"),
        ("reshuffle", 41),
        ("draw", 0, "6#1"),
        ("power_discard", 0, "6#1"),
        ("take_back", 0, "4#1"),
    ]
    assert result["deck_after"] == [c for c in new_deck if c not in ("6#1", "4#1")]
    assert result["chips_after"] == [8, 10]  # the dealer's 4 is lowest: pays 2


def test_r2_a_clown_drawn_back_after_a_reshuffle_ranks_above_21_and_a_ceremony_pays_nothing() -> (
    None
):
    clown = position(
        seats=2, dealer=0, round_card="2", deck=["9#1", "1#1"], deck_is_all=True,
        decisions=[(1, "keep"), (0, "trade")],
    )  # fmt: skip
    pile = [*clown["discard_before"], "1#1"]
    clown["reshuffles"] = [["1#1", *[c for c in pile if c != "1#1"]]]
    result = play(clown)
    assert ("draw", 0, "1#1") in events(result)
    assert result["chips_after"] == [10, 8]  # the 9 loses to the drawn Clown

    ceremony = position(
        seats=2, dealer=0, round_card="2", deck=["9#1", "12#1"], deck_is_all=True,
        decisions=[(1, "keep"), (0, "trade")],
    )  # fmt: skip
    pile = [*ceremony["discard_before"], "12#1"]
    ceremony["reshuffles"] = [["12#1", *[c for c in pile if c != "12#1"]]]
    result = play(ceremony)  # no Ceremony prompt: a claim would be a decision left unanswered
    assert not any(e[0] in ("claim", "decline") for e in events(result))


def test_r5_two_clowns_drawn_from_the_deck_tie_above_21_and_leave_the_set_undecided() -> None:
    # SD, two alive. Seat 1 asks the dealer (a House): sent on past the last holder, it trades
    # with the deck and draws a Clown; the dealer then draws the other Clown.
    scenario = position(
        seats=3, dealer=0, round_card="SD", alive=[0, 1], box=6, chips=[8, 8, 8],
        deck=["5#1", "11#1", "1#1", "1#2"],
        decisions=[(1, "trade"), (0, "send_on"), (0, "trade")],
    )  # fmt: skip
    result = play(scenario)
    score = next(e for e in result["events"] if e["t"] == "score")
    assert score["out"] == [1, 0]
    assert result["set_undecided"] and result["set_over"] and result["set_survivor"] is None
    assert result["box_after"] == 6 and result["alive_after"] == [0, 1, 2]
    assert result["next_dealer"] == 1 and result["round_card_after"] == "1"


def test_r8_the_last_two_alive_swap_clowns_and_both_die_the_box_stays() -> None:
    scenario = position(
        seats=3, dealer=0, round_card="SD", alive=[0, 1], box=6, chips=[8, 8, 8],
        deck=["1#1", "1#2"], decisions=[(1, "trade")],
    )  # fmt: skip
    result = play(scenario)
    assert events(result)[3:] == [
        ("trade", 1, 0, "1#2", "1#1"),
        ("out", 1, "clown", "1#2"),
        ("die", 1, "clown"),
        ("out", 0, "clown", "1#1"),
        ("die", 0, "clown"),
        ("score", [], []),
        ("discard_revealed", []),
        ("set_end", None, False),
    ]
    assert result["box_after"] == 6 and not result["game_over"]
    assert result["alive_after"] == [0, 1, 2] and result["next_dealer"] == 1


def test_r11_an_undecided_last_set_ends_the_game() -> None:
    scenario = position(
        seats=2, dealer=0, round_card="SD", box=4, chips=[9, 7], max_sets=2, set_number=2,
        deck=["1#1", "1#2"], decisions=[(1, "keep"), (0, "keep")], powers=False,
    )  # fmt: skip
    result = play(scenario)
    assert result["set_undecided"] and result["game_over"] and result["game_winners"] == [0]
    assert result["events"][-1] == {"t": "game_end", "winners": [0]}
    assert result["next_dealer"] is None and result["round_card_after"] is None


def test_c18_a_cat_drawn_strikes_the_origin_of_a_card_the_dealer_received() -> None:
    # Seat 2 gives its 3 to the dealer; the dealer trades it to the deck and draws a Cat: it
    # takes the 3 back, and the 3's origin, seat 2, is out and pays.
    scenario = position(
        seats=3, dealer=0, round_card="2", deck=["15#1", "3#1", "10#1", "18#1"],
        decisions=[(1, "keep"), (2, "trade"), (0, "trade")],
    )  # fmt: skip
    result = play(scenario)
    assert events(result)[7:12] == [
        ("draw", 0, "18#1"),
        ("power_discard", 0, "18#1"),
        ("take_back", 0, "3#1"),
        ("out", 2, "cat", "10#1"),
        ("pay", 2, 2, "box", "penalty"),
    ]
    assert result["chips_after"] == [8, 10, 8]  # then the dealer's 3 is lowest at scoring


def test_r2_a_cat_drawn_back_is_its_own_take_back_and_strikes_the_seat_dealt_it() -> None:
    # Seat 1 is dealt the Cat and trades it to the dealer; the dealer gives it to the deck, the
    # reshuffle puts it on top, and the dealer draws it: a drawn Cat, discarded, and the card
    # taken back is that same Cat, whose origin is still seat 1 (drawing it gave it none).
    scenario = position(
        seats=3, dealer=2, round_card="2", deck=["5#1", "18#2", "9#1"], deck_is_all=True,
        decisions=[(0, "keep"), (1, "trade"), (2, "trade")],
    )  # fmt: skip
    pile = [*scenario["discard_before"], "18#2"]
    scenario["reshuffles"] = [["18#2", *[c for c in pile if c != "18#2"]]]
    result = play(scenario)
    assert events(result)[5:13] == [
        ("trade", 1, 2, "9#1", "18#2"),
        ("deck_discard", 2, "18#2"),
        ("reshuffle", 40),
        ("draw", 2, "18#2"),
        ("power_discard", 2, "18#2"),
        ("take_back", 2, "18#2"),
        ("out", 1, "cat", "9#1"),
        ("pay", 1, 2, "box", "penalty"),
    ]
