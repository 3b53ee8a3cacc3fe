"""The drawn table, the replay's scoring frame, the coach and the charts' data (no browser)."""

from __future__ import annotations

import random
import re

import pytest

from domain.audit import chain
from domain.games.cuccu.commands import Choose, CreateMatch
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import LivesReset, RoundScored, SeatEliminated
from domain.games.cuccu.evolve import evolve
from domain.games.cuccu.fairness import shuffled_round
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import view
from domain.seats import SeatSpec
from viewer.coach import advise
from viewer.event_log import log_html
from viewer.games.cuccu import bot_match
from viewer.games.cuccu_board import action, frame_drawing, view_drawing
from viewer.games.cuccu_captions import card_numeral
from viewer.games.cuccu_replay import Replay
from viewer.games.cuccu_stats import lives_curve
from viewer.table import PACK, Arrow, CardFace, SeatDrawing, TableDrawing, render


def _seat(seat: int, **changes: object) -> SeatDrawing:
    fields: dict[str, object] = {
        "seat": seat, "name": f"P{seat}", "card": CardFace("VII", "7"), "counter": 2,
        "counter_max": 3, "counter_text": "2 lives",
    }  # fmt: skip
    fields.update(changes)
    return SeatDrawing(**fields)  # type: ignore[arg-type]


def test_the_table_draws_every_seat_card_marker_and_arrow_in_words() -> None:
    table = TableDrawing(
        seats=(
            _seat(0, markers=("dealer",), deciding=True),
            _seat(1, card=CardFace(name="face down", face_down=True), highlight=True),
            _seat(
                2,
                card=CardFace(name="no card"),
                counter=0,
                counter_text="0 lives",
                markers=("out",),
                faded=True,
            ),
            _seat(3, note="−1 life"),
        ),  # fmt: skip
        arrows=(Arrow(0, 1, "ask", "asks to exchange"), Arrow(3, PACK, "pack", "swaps")),
        centre=("pack", "30 cards"),
        label="The card table",
    )
    svg = render(table)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert re.findall(r'data-card="([^"]*)"', svg) == ["VII", "face-down", "", "VII"]
    for words in (
        "DEALER",
        "OUT",
        "2 lives",
        "0 lives",
        "face down",
        "no card",
        "−1 life",
        "asks to exchange",
        "swaps",
        "30 cards",
        "<title>The card table</title>",
    ):
        assert words in svg, words  # fmt: skip
    assert svg.count('class="arrow"') == 2 and 'data-to="-1"' in svg
    assert 'data-deciding="1"' in svg and 'data-highlight="1"' in svg
    # lives as pictures too: one heart per life, hollow when lost
    assert svg.count('fill="#c0392b"') == 3 * 2 and svg.count('fill="none" stroke="#c0392b"') == 6


def test_names_are_escaped() -> None:
    svg = render(TableDrawing((_seat(0, name="<b>x</b>"), _seat(1))))
    assert "<b>" not in svg and "&lt;b&gt;" in svg


def test_twenty_seats_fit_on_the_table() -> None:
    svg = render(TableDrawing(tuple(_seat(s) for s in range(20))))
    xs = [float(x) for x in re.findall(r'<rect x="(-?[\d.]+)" y="[\d.-]+" width="[\d.]+" '
                                       r'height="[\d.]+" rx="12"', svg)]  # fmt: skip
    assert len(xs) == 20 and min(xs) >= 0


def test_each_step_of_a_replay_draws_its_action() -> None:
    events = bot_match(1)
    replay = Replay(chain(events))
    kinds: set[str] = set()
    notes: set[str] = set()
    for step in range(1, replay.last_step + 1):
        arrows, on_seats = action(replay.events[step - 1], "en")
        kinds |= {a.kind for a in arrows}
        notes |= set(on_seats.values())
    assert {"ask", "swap", "refused", "pack"} <= kinds
    assert {"−1 life: lowest card", "keeps", "shows"} <= notes


def test_the_scoring_step_reveals_every_live_card() -> None:
    replay = Replay(chain(bot_match(3)))
    step = next(i for i, e in enumerate(replay.events, 1) if isinstance(e, RoundScored))
    scored = replay.events[step - 1]
    assert isinstance(scored, RoundScored)
    frame = replay.frame(step)
    assert frame.revealed == tuple(zip(scored.live, scored.cards, strict=True))
    drawing = frame_drawing(frame, 3, "fr")
    assert all(s.counter_text.endswith(("vie", "vies")) for s in drawing.seats)
    assert replay.frame(1).round == 0  # the creation comes before any round


def _position(seed: int, kind: str) -> MatchState:
    """A match between bots, played on until some seat must answer a ``kind`` decision."""
    rng = random.Random(seed)
    specs = tuple(SeatSpec(name=f"S{i}", kind="bot", bot_level="basic") for i in range(4))
    state, _ = apply(initial_state(), CreateMatch(specs, 3, 0))
    for _ in range(20_000):
        decision = pending(state)
        if decision is None:  # the match is over: another one
            state, _ = apply(initial_state(), CreateMatch(specs, 3, rng.randrange(4)))
            continue
        if decision.kind == kind:
            return state
        if decision.kind == "next_round":
            state, _ = apply(state, shuffled_round(rng))
        else:
            state, _ = apply(state, Choose(decision.seat, rng.choice(decision.choices)))
    raise AssertionError(f"no {kind} decision met")


@pytest.mark.parametrize("kind", ["turn", "dealer_turn", "inn_response"])
def test_the_coach_gives_a_risk_for_each_choice_from_the_seat_view_only(kind: str) -> None:
    state = _position(11, kind)
    decision = pending(state)
    assert decision is not None and decision.seat is not None
    mine = view(state, decision.seat)
    advice = advise(mine, samples=60)
    assert advice is not None and set(advice.risks) == set(decision.choices)
    assert all(0.0 <= r <= 1.0 for r in advice.risks.values())
    # the same view gives the same figures: the coach reads nothing but the view and its seed
    assert advise(mine, samples=60) == advice
    assert advise(view(state, None)) is None  # a spectator has nothing to decide


def test_the_coach_sees_the_danger_of_keeping_a_lion() -> None:
    """A dealer holding the lowest card loses a life for sure unless it swaps with the pack."""
    for seed in range(200):
        state = _position(seed, "dealer_turn")
        decision = pending(state)
        assert decision is not None and decision.seat is not None
        mine = view(state, decision.seat)
        if mine.hand is not None and mine.hand.startswith("lion"):
            advice = advise(mine, samples=60)
            assert advice is not None
            assert advice.risks["keep"] > 0.6 > advice.risks["exchange"]
            return
    pytest.skip("no dealer held a lion in 200 seeds")


def test_the_play_table_shows_only_the_seat_card() -> None:
    state = _position(4, "turn")
    decision = pending(state)
    assert decision is not None and decision.seat is not None
    mine = view(state, decision.seat)
    drawing = view_drawing(mine, [f"S{i}" for i in range(4)], "en")
    faces = {s.seat: s.card for s in drawing.seats}
    assert not faces[decision.seat].face_down and faces[decision.seat].corner
    for seat, card in faces.items():  # face up exactly where the API showed this seat a card
        assert bool(card.corner) == (mine.hands[seat] is not None)
        assert card.face_down == (mine.hands[seat] is None and mine.seats[seat].dealt)
    assert "you" in drawing.seats[decision.seat].markers


def test_the_lives_curve_marks_resets_and_eliminations() -> None:
    events = bot_match(1)
    curve = lives_curve(events)
    assert len(curve.resets) == sum(isinstance(e, LivesReset) for e in events) >= 1
    eliminated = sum(isinstance(e, SeatEliminated) for e in events)
    assert 0 < len(curve.eliminated) <= eliminated
    assert all(0 <= seat < 4 and rnd >= 1 for seat, rnd in curve.eliminated)


def test_play_draws_a_revealed_special_face_up() -> None:
    """Issue 20, problem 1: a hunter or inn revealed in play is public; the seat that sees
    the table (Play) draws it face up, though ``view.hands`` does not list it."""
    found = 0
    for seed in range(1, 40):
        state = initial_state()
        for event in bot_match(seed):
            state = evolve(state, event)
            seen = view(state, 0)
            hidden = [r for r in seen.revealed if r.seat != 0 and seen.hands[r.seat] is None]
            if not hidden:
                continue
            table = view_drawing(seen, [f"P{s}" for s in range(4)], "en")
            for reveal in hidden:
                card = table.seats[reveal.seat].card
                assert not card.face_down and card.corner == card_numeral(reveal.card)
                found += 1
        if found:
            return
    pytest.fail("no seeded match revealed a special to check")


def _pack_count(drawing: TableDrawing) -> int:
    """The number of cards the table says are left in the pack (its centre: "pack", "N cards")."""
    (number,) = re.findall(r"\d+", drawing.centre[1])
    return int(number)


@pytest.mark.parametrize("seed", [3, 9])
def test_play_and_replay_count_the_same_pack_between_rounds_and_at_the_end(seed: int) -> None:
    """Issue 20, problem 9: the final table said 40 cards in Play and 38 in Replay. The last
    round's cards lie face up on the table until the next shuffle, so both say 40 less them."""
    events = bot_match(seed)
    replay = Replay(chain(events))
    state = initial_state()
    checked = 0
    for step, event in enumerate(events, 1):
        state = evolve(state, event)
        if state.status not in ("between_rounds", "over"):
            continue
        seen = view(state, 0)
        play = view_drawing(seen, [f"P{s}" for s in range(4)], "en")
        frame = replay.frame(step)
        shown = sum(1 for card in seen.hands if card is not None)
        assert _pack_count(play) == _pack_count(frame_drawing(frame, 3, "en")) == frame.pack_left
        assert _pack_count(play) + shown + frame.discard == 40, (step, shown, frame.discard)
        checked += 1
    assert state.status == "over" and checked > 1


def test_plays_log_shows_a_typed_name_as_typed() -> None:
    """The log is HTML now: a seat's name is whatever a player typed, and reads as typed."""
    page = log_html([(7, "<b>Zed</b> & Co keeps their card."), (6, "Round 1 starts.")],
                    heading="What happened")  # fmt: skip
    assert "&lt;b&gt;Zed&lt;/b&gt; &amp; Co keeps their card." in page and "<b>" not in page
    assert page.index(">7<") < page.index(">6<")  # the caller's order: newest first
