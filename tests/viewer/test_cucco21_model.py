"""Cucco 21 in the viewer, without a browser: captions, the drawn table, charts, exports."""

from __future__ import annotations

import random
import re

import msgspec
import pytest

from domain.audit import chain, parse_export, to_ndjson
from domain.games.cucco21.bots import autoplay, choose
from domain.games.cucco21.cards import value
from domain.games.cucco21.commands import CreateGame
from domain.games.cucco21.config import Config
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import (
    ChipsPaid,
    GameCreated,
    RevealedDiscarded,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SetEnded,
    Traded,
)
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, initial_state
from domain.games.cucco21.views import GameView, view
from domain.seats import SeatSpec
from viewer.games import game_of, game_of_summary
from viewer.games.cucco21 import (
    Replay21,
    bot_game21,
    caption,
    card_words,
    chips_curve,
    choice_words,
    tallies,
    trade_target,
    view_drawing,
)
from viewer.games.play21 import SeenEvent21, as_round_ended, round_ending
from viewer.i18n import LANGS, Lang
from viewer.session import build
from viewer.table import PACK, render


@pytest.fixture(scope="module")
def replay() -> Replay21:
    return Replay21(chain(bot_game21(1)))


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_event_reads_as_a_sentence_in_each_language(replay: Replay21, lang: Lang) -> None:
    captions = replay.captions(lang)
    assert len(captions) == len(replay.events) > 50
    for text in captions:
        assert "c21." not in text and "{" not in text, text


def test_a_finished_game_is_replayed_to_its_end_with_its_winners(replay: Replay21) -> None:
    assert replay.full and replay.stuck_at is None
    assert replay.last_step == len(replay.events)
    last = render(replay.table(replay.last_step, "en"))
    assert "WINNER" in last and "chips" in last and "Box:" in last
    assert replay.captions("en")[-1].startswith("The game is over. Most chips:")


def test_an_unfinished_log_shows_no_card_a_spectator_may_not_see() -> None:
    events = bot_game21(4)
    first_score = next(i for i, e in enumerate(events) if isinstance(e, RoundScored))
    cut = Replay21(chain(events[:first_score]))  # every hand dealt, nothing shown yet
    assert not cut.full
    for step in range(cut.last_step + 1):
        svg = render(cut.table(step, "en"))
        shown = re.findall(r'data-card="([^"]*)"', svg)
        assert set(shown) <= {"", "face-down"}, (step, shown)
    assert all("is dealt a hidden card" in c for c in cut.captions("en") if "is dealt" in c)


def test_each_action_is_drawn_between_the_seats_it_names(replay: Replay21) -> None:
    trade = next(i for i, e in enumerate(replay.events, start=1) if isinstance(e, Traded))
    event = replay.events[trade - 1]
    assert isinstance(event, Traded)
    drawing = replay.table(trade, "en")
    assert [(a.source, a.target, a.kind) for a in drawing.arrows] == [
        (event.asker, event.target, "swap")
    ]
    paid = next(i for i, e in enumerate(replay.events, start=1)
                if isinstance(e, ChipsPaid) and e.to == "box")  # fmt: skip
    arrows = replay.table(paid, "en").arrows
    assert arrows[0].target == PACK and arrows[0].label.startswith("pays ")


def test_the_chips_chart_adds_up_to_the_chips_the_game_started_with(replay: Replay21) -> None:
    created = replay.events[0]
    assert isinstance(created, GameCreated)
    total = created.starting_chips * len(created.seats)
    curve = chips_curve(replay)
    assert curve.rounds[0] == 0 and curve.rounds == sorted(curve.rounds)
    for chips, box in zip(curve.chips, curve.box, strict=True):
        assert sum(chips) + box == total
    assert curve.chips[-1] == replay.states[-1].chips
    point = dict(zip(curve.rounds, zip(curve.chips, curve.box, strict=True), strict=True))
    for index, event in enumerate(replay.events):  # what a round starts with, box taken or not
        if isinstance(event, RoundStarted):
            before = replay.states[index]
            assert point[event.round - 1] == (before.chips, before.box)
    assert curve.sets, "this sample has a second set"
    counts = tallies(replay.events, len(created.seats))
    died = sum(c[f"died:{r}"] for c in counts for r in ("clown", "cat", "scoring"))
    assert died == len(curve.deaths)


def test_an_export_of_a_cucco21_game_opens_as_cucco21() -> None:
    events = bot_game21(5)
    text = to_ndjson(chain(events))
    exported = parse_export(text)
    assert [r.event for r in exported.records] == events
    assert game_of([r.event for r in exported.records]) == "cucco21"
    opened = build("upload", exported.records)
    assert opened.game == "cucco21" and isinstance(opened.replay, Replay21)


def test_a_listed_match_without_a_game_field_is_cuccu() -> None:
    assert game_of_summary({"match_id": "x"}) == "cuccu"
    assert game_of_summary({"game": "cucco21"}) == "cucco21"
    assert game_of_summary({"game": "chess"}) == "cuccu"


def _first_turn_of(seat: int, dealer: bool) -> GameView:
    """Seat ``seat``'s view at its first turn where it is (or is not) the dealer."""
    rng = random.Random(7)
    specs = tuple(SeatSpec(name=f"P{s}", kind="bot", bot_level="basic") for s in range(4))
    created, _ = apply(initial_state(), CreateGame(Config(specs, 6, True, None, 0)))

    def answer(state: GameState, who: int) -> str:
        return choose("basic", view(state, who), rng)

    for state, _ in autoplay(created, answer, rng):
        step = pending(state)
        deals = state.round is not None and state.round.dealer == seat
        if step is not None and step.seat == seat and step.kind == "turn" and deals == dealer:
            return view(state, seat)
    raise AssertionError("no such turn")


def test_play_says_whom_a_trade_asks_and_shows_only_the_players_card() -> None:
    names = ["You", "Ada", "Bruno", "Chiara"]
    seen = _first_turn_of(0, dealer=False)
    as_json = msgspec.json.decode(msgspec.json.encode(seen))  # what the API sends
    assert msgspec.convert(as_json, GameView) == seen  # and what Play reads back from it
    label, meaning = choice_words(seen, "trade", names, "en")
    target = trade_target(seen)
    assert target is not None and label == f"Ask {names[target]} to trade"
    assert seen.hand is not None and card_words(seen.hand, "en") in meaning
    svg = render(view_drawing(seen, names, "en"))
    cards = re.findall(r'data-card="([^"]*)"', svg)
    assert cards.count("face-down") == sum(s.holder for s in seen.seats) - 1
    assert [c for c in cards if c not in ("", "face-down")] == [str(value(seen.hand))]
    dealer = _first_turn_of(0, dealer=True)
    label, meaning = choice_words(dealer, "trade", names, "fr")
    assert label == "Échanger avec la pioche" and "pioche" in meaning


def test_between_rounds_play_tells_how_the_last_round_ended() -> None:
    """The reveal and what it cost, from the last scoring on, never the next round's ante."""
    events = bot_game21(3)
    seen = [SeenEvent21(version, event) for version, event in enumerate(events, 1)]
    ends = [i for i, e in enumerate(events) if isinstance(e, RoundEnded)]
    assert len(ends) >= 2
    for end in ends:
        ending = round_ending(seen[: end + 1])
        assert isinstance(ending[0].event, RoundScored)
        scored = ending[0].version
        assert [e.version for e in ending] == sorted(e.version for e in ending)
        paid = [e for e in ending if isinstance(e.event, ChipsPaid)]
        assert all(e.event.reason != "ante" for e in paid)
        last_scoring = max(s.version for s in seen[: end + 1] if isinstance(s.event, RoundScored))
        assert scored == last_scoring
    # a whole game's end: the last round's reveal, then the set's end and its box
    final = round_ending(seen)
    assert any(isinstance(e.event, SetEnded) for e in final)
    assert round_ending(seen[:3]) == []  # nothing scored yet


def test_between_rounds_play_shows_the_round_that_ended_as_it_ended() -> None:
    """Header, centre, your card and the dealer all tell the round just scored, not half of it
    and half of the next: the view already holds the next round's card and dealer."""
    rng = random.Random(7)
    specs = tuple(SeatSpec(name=f"P{s}", kind="bot", bot_level="basic") for s in range(4))
    created, log = apply(initial_state(), CreateGame(Config(specs, 6, True, None, 0)))
    seen = [SeenEvent21(version, event) for version, event in enumerate(log, 1)]
    names = ["You", "Ada", "Bruno", "Chiara"]
    checked = differs = 0
    for state, events in autoplay(created, lambda st, w: choose("basic", view(st, w), rng), rng):
        seen.extend(SeenEvent21(len(seen) + 1, event) for event in events)
        step = pending(state)
        if (
            step is None
            or step.kind != "next_round"
            or not any(isinstance(e, RoundScored) for e in events)
        ):
            continue
        raw = view(state, 0)
        started = next(e.event for e in reversed(seen) if isinstance(e.event, RoundStarted))
        shown = as_round_ended(raw, seen)
        assert shown.round == started.round == raw.round
        assert (shown.round_card, shown.dealer) == (started.round_card, started.dealer)
        mine = next((r.card for r in raw.revealed if r.seat == 0), None)
        assert shown.hand == mine  # "Your card" is the card your seat shows
        drawing = view_drawing(shown, names, "en")
        assert str(started.round_card) in drawing.centre[0]
        dealers = [s.seat for s in drawing.seats if "dealer" in s.markers]
        assert dealers == [started.dealer]
        differs += (raw.round_card, raw.dealer, raw.hand) != (shown.round_card, shown.dealer,
                                                               shown.hand)  # fmt: skip
        checked += 1
    assert checked >= 3 and differs >= 3  # the raw view is half next round: the fix is needed


@pytest.mark.parametrize(("n", "text"), [(1, "(1 card)"), (3, "(3 cards)")])
def test_the_discarded_reveal_counts_its_cards_in_words_that_agree(n: int, text: str) -> None:
    cards = tuple(f"{v}#1" for v in range(2, 2 + n))
    assert caption(RevealedDiscarded(cards=cards), ["A"], "en").endswith(f"pile {text}.")


@pytest.mark.parametrize(
    ("lang", "text"),
    [("en", "A pays 2 chips to the box (penalty)."),
     ("fr", "A paie 2 jetons à la caisse (pénalité)."),
     ("pt", "A paga 2 fichas à caixa (penalidade).")],
)  # fmt: skip
def test_a_payment_to_the_box_reads_right_in_each_language(lang: Lang, text: str) -> None:
    paid = ChipsPaid(seat=0, amount=2, to="box", reason="penalty")
    assert caption(paid, ["A", "B"], lang) == text
    to_seat = ChipsPaid(seat=1, amount=1, to=0, reason="ceremony")
    assert caption(to_seat, ["A", "B"], "pt") == "B paga 1 ficha a A (cobrança da Cerimônia)."
