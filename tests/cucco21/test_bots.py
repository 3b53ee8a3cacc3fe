"""Cucco 21 bots, the game loop and ``cuccu tournament --game cucco21``."""

from __future__ import annotations

import io
import random
from contextlib import redirect_stdout

import pytest
from msgspec.structs import replace

from api.games.cucco21 import format_cucco21_result, run_cucco21_tournament
from domain.games.cucco21.bots import POLICIES, choose
from domain.games.cucco21.bots.basic import basic_choice
from domain.games.cucco21.bots.expert import account, expert_choice, sample_world, search
from domain.games.cucco21.bots.expert import unseen_cards as expert_unseen
from domain.games.cucco21.bots.expert_v1 import expert_v1_choice
from domain.games.cucco21.bots.tournament import play_game
from domain.games.cucco21.cards import CARDS, value
from domain.games.cucco21.commands import Choose, StartRound
from domain.games.cucco21.conformance import position
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import decode_events, encode_event
from domain.games.cucco21.evolve import fold
from domain.games.cucco21.game import GAME
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState
from domain.games.cucco21.views import GameView, view


def _round(dealt: list[str], discard: list[str], seats: int = 4, powers: bool = True) -> GameState:
    """Round 2 dealt (dealer 0): seats 1, 2, … get ``dealt`` in turn order, the rest at random."""
    rest = [c for c in CARDS if c not in dealt and c not in discard]
    random.Random(len(discard)).shuffle(rest)
    deck = [*dealt, *rest]
    scenario = {
        "seats": seats, "starting_chips": 10, "powers": powers, "chips_before": [10] * seats,
        "box_before": 0, "alive_before": list(range(seats)), "bankrupt_before": [],
        "round_card": "2", "dealer": 0, "set_number": 1, "max_sets": None,
        "turn_order": [*range(1, seats), 0], "deck_top_to_bottom": deck,
        "discard_before": discard,
    }  # fmt: skip
    state, _ = apply(position(scenario), StartRound())
    return state


def _turn_view(hand: str, discard: list[str], seats: int = 4, powers: bool = True) -> GameView:
    """Seat 1's view of its first turn (round 2, dealer 0), holding ``hand``."""
    seen = view(_round([hand], discard, seats, powers), 1)
    assert seen.pending is not None and seen.pending.seat == 1 and seen.hand == hand
    return seen


def test_basic_trades_low_cards_and_clowns_and_keeps_high_ones() -> None:
    rng = random.Random(1)
    assert basic_choice(_turn_view("3#1", []), rng) == "trade"
    assert basic_choice(_turn_view("1#1", []), rng) == "trade"
    assert basic_choice(_turn_view("12#1", []), rng) == "trade"  # the Ceremony's claim
    assert basic_choice(_turn_view("15#1", []), rng) == "keep"
    assert basic_choice(_turn_view("12#1", [], powers=False), rng) == "keep"


def test_expert_counts_the_public_discard_pile() -> None:
    """A 9 is a keeper for ``basic``; once every card below 9 is in the discard pile, nobody
    can hold a lower card, so both experts trade it away. A 20 they keep."""
    rng = random.Random(1)
    assert expert_choice(_turn_view("20#1", []), rng) == "keep"
    assert expert_v1_choice(_turn_view("9#1", []), rng) == "keep"
    low = [c for c in CARDS if int(c.split("#")[0]) < 9]
    counted = _turn_view("9#1", low)
    assert basic_choice(counted, rng) == "keep"
    assert expert_choice(counted, rng) == "trade"
    assert expert_v1_choice(counted, rng) == "trade"


def test_expert_trades_an_8_that_is_likely_out() -> None:
    """The first seat to speak with an 8: ``basic`` and today's ``expert_v1`` keep it; the
    rollouts see that the three others end the round above it more often than not."""
    seen = _turn_view("8#1", [])
    assert basic_choice(seen, random.Random(1)) == "keep"
    estimate = search(seen, random.Random(3), samples=120, stop_early=False)
    keep, trade = (estimate.choices.index(c) for c in ("keep", "trade"))
    assert estimate.out[keep] > 0.5 > estimate.out[trade]
    assert estimate.values[trade] > estimate.values[keep]
    assert all(expert_choice(seen, random.Random(seed)) == "trade" for seed in range(3))


def test_worlds_follow_the_other_seats_public_decisions() -> None:
    """Seat 1 asks seat 2, which refuses (a Lovers or a Cat, by the rules: a Cat here, so seat
    1 is out); seat 2 then keeps and seat 3 keeps (8 or more under the basic model): the
    dealer's sampled worlds give them such cards."""
    state = _round(["3#1", "18#1", "15#1", "9#1"], [])
    state, _ = apply(state, Choose(1, "trade"))  # asks seat 2, which holds the Cat
    state, _ = apply(state, Choose(2, "refuse"))  # seat 1's card was its own: seat 1 is out
    state, _ = apply(state, Choose(2, "keep"))
    state, _ = apply(state, Choose(3, "keep"))
    seen = view(state, 0)
    assert seen.pending is not None and seen.pending.seat == 0
    acc = account(seen)
    assert 1 not in acc.holding  # out
    two, three = acc.slots[acc.holding[2]], acc.slots[acc.holding[3]]
    assert {v for v in range(1, 22) if two.weights[v] > 0} == {6, 18}
    assert three.weights[3] < 0.2 < 0.8 < three.weights[15]
    unseen = expert_unseen(seen, acc)
    assert "3#1" not in unseen and "9#1" not in unseen  # the Cat's victim discarded its card
    rng = random.Random(5)
    for _ in range(50):
        world = sample_world(acc, unseen, rng)
        assert value(world.hands[2]) in (6, 18)
        assert len(world.deck) == seen.deck_size


def test_a_decline_after_a_public_trade_is_no_sign_of_a_ceremony() -> None:
    """Seats 1 and 2 trade a 3 and a 15: both are prompted for a Ceremony claim and decline, as
    after every trade. Seat 3's expert must not read the declines as a Ceremony given (it used
    to, found no world that fits, and fell back to its old formula)."""
    state = _round(["3#1", "15#1", "9#1", "16#1"], [])
    state, _ = apply(state, Choose(1, "trade"))
    state, _ = apply(state, Choose(2, "accept"))  # the prompt every target gets
    state, _ = apply(state, Choose(1, "decline"))
    state, _ = apply(state, Choose(2, "decline"))
    state, _ = apply(state, Choose(2, "keep"))
    seen = view(state, 3)
    assert seen.pending is not None and seen.pending.seat == 3 and seen.pending.kind == "turn"
    acc = account(seen)
    for seat in (1, 2):
        support = {v for v in range(1, 22) if acc.slots[acc.holding[seat]].weights[v] > 0}
        assert support != {12} and len(support) > 10
    assert search(seen, random.Random(3)).samples > 0


def _asked_with_a_lovers() -> GameView:
    """Seat 2 holds a Lovers and seat 1 asks it. Every card below 8 but the Lovers, and both
    Ceremonies, are in the discard pile: whatever seat 1 offers beats the 6 seat 2 holds, the
    lowest card at the table."""
    discard = [c for c in CARDS if value(c) < 8 and c != "6#1"] + ["12#1", "12#2"]
    state = _round(["15#1", "6#1", "17#1", "20#1"], discard)
    state, _ = apply(state, Choose(1, "trade"))
    seen = view(state, 2)
    assert seen.pending is not None and seen.pending.kind == "asked"
    assert seen.pending.choices == ("refuse", "accept")
    return seen


def test_expert_accepts_a_lovers_request_when_the_askers_card_is_better() -> None:
    seen = _asked_with_a_lovers()
    assert basic_choice(seen, random.Random(1)) == "refuse"
    estimate = search(seen, random.Random(2), samples=60, stop_early=False)
    refuse, accept = (estimate.choices.index(c) for c in ("refuse", "accept"))
    # Refusing keeps the 6 for its own turn (a trade with seat 3 then); accepting takes the
    # asker's card, higher whatever it is, and leaves seat 1 with the lowest card.
    assert estimate.out[accept] < estimate.out[refuse]
    assert estimate.values[accept] > estimate.values[refuse]
    assert expert_choice(seen, random.Random(4)) == "accept"


def test_the_coach_uses_the_expert_search_on_the_seat_view() -> None:
    from viewer.coach import advise

    seen = _asked_with_a_lovers()
    advice = advise(seen, samples=40)
    assert advice is not None and set(advice.risks) == {"refuse", "accept"}
    assert advice.risks["accept"] < advice.risks["refuse"]
    assert advise(seen, samples=40) == advice  # the view and the seed, nothing else
    state = _round(["15#1", "6#1", "17#1", "20#1"], [])
    assert advise(view(state, None)) is None  # a spectator has nothing to decide
    assert advise(view(state, 2)) is None  # not its turn


def test_expert_refuses_with_a_cat_that_strikes_the_asker() -> None:
    """Seat 2 holds a Cat and seat 1, whose own card it is, asks: refusing makes seat 1 out."""
    state = _round(["4#1", "18#1", "9#1", "13#1"], [])
    state, _ = apply(state, Choose(1, "trade"))
    seen = view(state, 2)
    assert expert_choice(seen, random.Random(1)) == "refuse"


def test_expert_never_reads_hidden_cards() -> None:
    """The same view over other hidden hands and another deck order: the same estimate."""
    record = play_game(["basic"] * 4, random.Random(9), max_sets=1, keep_events=True)
    compared = 0
    state: GameState = fold(record.events[:1])
    for event in record.events[1:]:
        state = fold([event], state)
        step = pending(state)
        if step is None or step.seat is None or step.kind != "turn" or compared >= 4:
            continue
        rnd = state.round
        assert rnd is not None
        me = step.seat
        seen = view(state, me)
        # Swap every other seat's card with a deck card: its view cannot tell.
        deck = list(state.deck)
        hands = list(rnd.hands)
        for seat, card in enumerate(hands):
            if seat != me and card is not None and deck:
                hands[seat], deck[0] = deck[0], card
                deck = deck[1:] + deck[:1]
        other = replace(state, round=replace(rnd, hands=tuple(hands)), deck_cards=tuple(deck))
        other = replace(other, deck_top=0)
        assert view(other, me) == seen and other.round != state.round
        first = search(seen, random.Random(compared), samples=30)
        again = search(view(other, me), random.Random(compared), samples=30)
        assert first == again
        compared += 1
    assert compared == 4


def test_every_policy_answers_every_prompt_with_an_allowed_choice() -> None:
    for level in POLICIES:
        record = play_game([level, "random", "basic"], random.Random(level), max_sets=2)
        assert record.winners and sum(record.chips_won) == 0


def test_a_seeded_game_replays_exactly_and_folds_to_its_end() -> None:
    first = play_game(["expert", "basic"], random.Random(4), keep_events=True)
    again = play_game(["expert", "basic"], random.Random(4), keep_events=True)
    assert first.events == again.events and first.winners == again.winners
    state: GameState = fold(first.events)
    assert GAME.is_over(state) and state.winners == first.winners
    assert decode_events(b"[" + b",".join(map(encode_event, first.events)) + b"]") == (first.events)


def test_choose_refuses_a_step_without_a_seat() -> None:
    record = play_game(["basic", "basic"], random.Random(2), max_sets=1, keep_events=True)
    over = view(fold(record.events), 0)
    with pytest.raises(AssertionError):
        choose("basic", over, random.Random(0))


def test_the_tournament_reports_win_rates_chips_and_times() -> None:
    result = run_cucco21_tournament(["expert", "basic", "basic"], 9, 3, 1, False, max_sets=1)
    assert sum(s.seat_games for s in result.policies.values()) == 27
    assert sum(s.chips_won for s in result.policies.values()) == 0  # chips are conserved
    report = format_cucco21_result(result)
    assert "9 Cucco 21 games of 1 set(s) at most" in report and "95% Wilson" in report
    assert "expert" in report and "p99 ms" in report
    again = run_cucco21_tournament(["expert", "basic", "basic"], 9, 3, 2, False, max_sets=1)
    assert {p: (s.wins, s.chips_won) for p, s in again.policies.items()} == {
        p: (s.wins, s.chips_won) for p, s in result.policies.items()
    }


def test_expert_v1_plays_in_tournaments_only() -> None:
    """Today's expert is kept for measurement: a tournament seats it, a game's config (and so
    the API, whose bot levels are the config's) does not; the new expert keeps the name."""
    from domain.games.cucco21.config import BOT_LEVELS, Config, config_errors
    from domain.seats import SeatSpec

    assert "expert" in BOT_LEVELS and "expert_v1" not in BOT_LEVELS
    assert POLICIES["expert"] is expert_choice and POLICIES["expert_v1"] is expert_v1_choice
    seats = (SeatSpec("a", "bot", "expert_v1"), SeatSpec("b", "bot", "basic"))
    assert config_errors(Config(seats))
    result = run_cucco21_tournament(["expert_v1", "basic"], 4, 1, 1, False, max_sets=1)
    assert result.policies["expert_v1"].seat_games == 4
    # A table with a person and an expert still plays in the bot workers (api/bots_pool.py).
    from domain.games.cucco21.commands import CreateGame
    from domain.games.cucco21.state import initial_state

    for level, slow in (("expert", True), ("basic", False)):
        table = Config((SeatSpec("Ann", "human"), SeatSpec("Bot", "bot", level)))
        created, _ = apply(initial_state(), CreateGame(table))
        assert GAME.slow_bots(created) is slow


def test_the_cli_runs_a_cucco21_tournament() -> None:
    from api.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        args = ["tournament", "--game", "cucco21", "--seats", "expert,basic", "-n", "4"]
        code = main([*args, "--seed", "2", "--max-sets", "1", "--no-progress"])
    assert code == 0
    assert "4 Cucco 21 games of 1 set(s) at most, seats expert,basic" in out.getvalue()
    bad = ["tournament", "--game", "cucco21", "--seats", "basic,nobody", "--no-progress"]
    assert main(bad) == 2
    assert main(["tournament", "--game", "cucco21", "--seats", "basic", "--no-progress"]) == 2
