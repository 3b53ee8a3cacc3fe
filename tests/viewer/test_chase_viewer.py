"""Ranter-Go-Round in the viewer, without a browser: captions, the drawn table, the replay's
steps and charts (through Streamlit's AppTest), the coach, the Play page's words."""

from __future__ import annotations

import json
import random
import re

import pytest

from domain.audit import chain, to_ndjson
from domain.games.chase.bots.expert import expert_choice
from domain.games.chase.commands import CreateMatch
from domain.games.chase.config import Config
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    CardsExchanged,
    ChaseMatchCreated,
    CutExchanged,
    ExchangeRequested,
    KingBlocked,
    LifeLost,
    RoundScored,
    SeatEliminated,
    StockCut,
)
from domain.games.chase.fairness import shuffled_round
from domain.games.chase.pending import pending
from domain.games.chase.state import initial_state
from domain.games.chase.views import view
from domain.seats import SeatSpec
from tests.viewer.test_viewer_pages import open_page, table_data, texts, upload
from viewer.coach import advise
from viewer.games import game_of
from viewer.games.chase import (
    ChaseReplay,
    action,
    bot_match,
    caption,
    card_words,
    choice_words,
    face,
    lives_curve,
    tallies,
    view_drawing,
)
from viewer.games.chase_play import SeenChaseEvent, request_body, round_ending
from viewer.i18n import LANGS, Lang
from viewer.table import render

SEED = 3


@pytest.fixture(scope="module")
def replay() -> ChaseReplay:
    return ChaseReplay(chain(bot_match(SEED)))


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_event_reads_as_a_sentence_in_each_language(replay: ChaseReplay, lang: Lang) -> None:
    captions = replay.captions(lang)
    assert len(captions) == len(replay.events) > 40
    for text in captions:
        assert "chase." not in text and "{" not in text, text  # no key and no hole left
    assert "Bot" in captions[-1]


def test_cards_are_named_in_words_no_suit_symbol_needed() -> None:
    assert card_words("KH", "en") == "King of hearts"
    assert card_words("10D", "fr") == "10 de carreau"
    assert card_words("AS", "pt") == "Ás de espadas"
    assert card_words("QC", "th") == "ควีน ดอกจิก"


def test_a_finished_match_is_replayed_to_its_winner_with_every_card(replay: ChaseReplay) -> None:
    assert replay.full and replay.stuck_at is None and replay.last_step == len(replay.events)
    last = render(replay.table(replay.last_step, "en"))
    assert "WINNER" in last and "lives" in last
    scored = next(i for i, e in enumerate(replay.events, start=1) if isinstance(e, RoundScored))
    dealt = replay.table(scored - 1, "en")  # just before the reveal: every card face up anyway
    assert all(not s.card.face_down for s in dealt.seats)


def test_an_unfinished_log_shows_no_card_a_spectator_may_not_see() -> None:
    events = bot_match(4)
    first_score = next(i for i, e in enumerate(events) if isinstance(e, RoundScored))
    cut = ChaseReplay(chain(events[:first_score]))  # every hand dealt, nothing revealed yet
    assert not cut.full
    public = {face(e.card, True, "en") for e in cut.events if isinstance(e, KingBlocked)}
    for step in range(cut.last_step + 1):
        shown = {s.card for s in cut.table(step, "en").seats if not s.card.face_down}
        assert shown - {face(None, False, "en")} <= public, (step, shown)  # shown Kings only
    dealt = [c for c in cut.captions("en") if " is dealt " in c]
    assert dealt and all(c.endswith("is dealt a hidden card.") for c in dealt)
    swaps = [c for e, c in zip(cut.events, cut.captions("en"), strict=True)
             if isinstance(e, CardsExchanged)]  # fmt: skip
    assert all("face down" in c for c in swaps)


def test_each_action_is_drawn_between_the_seats_it_names(replay: ChaseReplay) -> None:
    ask = next(i for i, e in enumerate(replay.events, start=1) if isinstance(e, ExchangeRequested))
    event = replay.events[ask - 1]
    assert isinstance(event, ExchangeRequested)
    arrows = replay.table(ask, "en").arrows
    assert [(a.source, a.target, a.kind, a.label) for a in arrows] == [
        (event.seat, event.target, "ask", "asks to exchange")
    ]
    lost = next(i for i, e in enumerate(replay.events, start=1) if isinstance(e, LifeLost))
    seat = replay.events[lost - 1].seat  # type: ignore[union-attr]
    assert replay.table(lost, "en").seats[seat].note == "loses a life"


def test_the_table_marks_who_decides_only_when_a_decision_is_awaited(
    replay: ChaseReplay,
) -> None:
    ask = next(i for i, e in enumerate(replay.events, start=1) if isinstance(e, ExchangeRequested))
    before = replay.table(ask - 1, "en")
    asker = replay.events[ask - 1].seat  # type: ignore[union-attr]
    assert [s.seat for s in before.seats if s.deciding] == [asker]
    assert not any(s.deciding for s in replay.table(ask, "en").seats)  # the block or swap follows


def test_the_lives_curve_and_tallies_agree_with_the_log(replay: ChaseReplay) -> None:
    created = replay.events[0]
    assert isinstance(created, ChaseMatchCreated)
    curve = lives_curve(replay)
    assert curve.rounds[0] == 0 and curve.lives[0] == (created.starting_lives,) * 4
    assert curve.lives[-1] == replay.states[-1].lives
    assert curve.rounds == sorted(curve.rounds)
    out = [e.seat for e in replay.events if isinstance(e, SeatEliminated)]
    assert sorted(s for _, s in curve.eliminated) == sorted(out) and len(out) == 3
    counts = tallies(replay.events, 4)
    lost = sum(c["lost:lowest"] + c["lost:king_cut"] for c in counts)
    assert lost == 4 * created.starting_lives - sum(replay.states[-1].lives)
    asked = sum(isinstance(e, ExchangeRequested) for e in replay.events)
    assert sum(c["asked"] for c in counts) == asked


def test_a_chase_export_opens_in_replay_as_chase_with_its_steps() -> None:
    events = bot_match(SEED)
    assert game_of(events) == "chase"
    at = upload(open_page("replay"), to_ndjson(chain(events)), "chase.ndjson")
    data = table_data(at)
    steps = data["steps"]
    assert data["mode"] == "replay" and len(steps) == len(events) + 1
    assert "Ranter-Go-Round" in texts(at)
    last = steps[-1]["t"]["seats"]
    assert len(last) == 4 and all(s["card"][2] != "down" for s in last)  # every card shown
    assert any("Round 1" in str(step["t"]) for step in steps)


def test_charts_draw_lives_losses_decisions_and_tallies() -> None:
    at = upload(open_page("charts"), to_ndjson(chain(bot_match(SEED))), "chase.ndjson")
    assert [s.value for s in at.subheader] == [
        "Lives per seat after each round", "Lives lost, by reason", "Decisions",
        "Per-seat tallies",
    ]  # fmt: skip
    charts = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    assert len(charts) == 3
    layers = json.loads(charts[0].proto.spec)["layer"]
    assert any(layer["mark"].get("shape") == "cross" for layer in layers)  # eliminations
    table = at.dataframe[0].value
    assert list(table["Name"]) == ["Bot 0", "Bot 1", "Bot 2", "Bot 3"]
    assert table["lowest card"].sum() > 0 and table["Asked to exchange"].sum() > 0
    assert "void round" in texts(at)  # the marks' legend says what a dotted line is


def test_a_seat_sees_its_own_card_and_the_coach_weighs_its_choices() -> None:
    specs = tuple(
        SeatSpec(name=n, kind="bot", bot_level="basic") for n in ("Ann", "Ben", "Cy", "Di")
    )
    state, _ = apply(initial_state(), CreateMatch(Config(specs, first_dealer=3)))
    state, _ = apply(state, shuffled_round(random.Random(1)))  # round 1 dealt, seat 0 to play
    step = pending(state)
    assert step is not None and step.seat == 0 and step.kind == "turn"
    seen = view(state, 0)
    drawing = view_drawing(seen, ["Ann", "Ben", "Cy", "Di"], "en")
    faces = [s.card for s in drawing.seats]
    assert not faces[0].face_down and all(f.face_down for f in faces[1:])
    assert "you" in drawing.seats[0].markers and "dealer" in drawing.seats[3].markers
    advice = advise(seen)
    assert advice is not None and set(advice.risks) == {"keep", "exchange"}
    assert all(0.0 <= r <= 1.0 for r in advice.risks.values())
    best = min(advice.risks, key=lambda c: (advice.risks[c], c != "keep"))
    assert best == expert_choice(seen, random.Random(0))  # the coach is the expert's figures
    assert advise(view(state, 1)) is None  # not its turn
    label, meaning = choice_words(seen, "exchange", ["Ann", "Ben", "Cy", "Di"], "en")
    assert label == "Exchange with Ben" and "King" in meaning
    assert card_words(seen.hand or "", "en") in meaning


def test_play_sends_the_games_own_options_and_reads_the_rounds_end() -> None:
    body = request_body("Zoe", "expert", 2, True, False, ("Ada",))
    assert body["game"] == "chase" and body["starting_lives"] == 2
    assert body["announce_low"] is True and body["king_cut_loses"] is False
    assert [s["kind"] for s in body["seats"]] == ["human", "bot"]
    events = bot_match(SEED)
    seen = [SeenChaseEvent(v, e) for v, e in enumerate(events[:17], start=1)]
    ending = round_ending(seen)
    assert ending and isinstance(ending[0].event, RoundScored)
    assert any(isinstance(e.event, LifeLost) for e in ending)
    words = ChaseReplay(chain(events)).captions("en")
    assert re.match(r"Cards shown: .*Lowest: ", words[events.index(ending[0].event)])


@pytest.mark.parametrize("lang", list(LANGS))
def test_an_arrow_says_what_the_log_says_of_the_same_event(lang: Lang) -> None:
    names = ["Ann", "Bob"]
    swap = CardsExchanged(requester=0, target=1, requester_gets=None, target_gets=None)
    cut = (StockCut(seat=1, card="7H"), CutExchanged(seat=1, gave=None, got="7H"))
    for event in (ExchangeRequested(seat=0, target=1), swap, *cut):
        (arrow,), _ = action(event, lang)
        sentence = caption(event, names, lang)
        for word in arrow.label.split():
            assert word in sentence, (arrow.label, sentence)
