"""The viewer's pure parts: translations, captions, the replay model, chart numbers, rules."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.audit import chain
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.events import (
    CardRevealed,
    LifeLost,
    LivesReset,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatEliminated,
)
from domain.games.cuccu.views import view
from viewer.games.cuccu import bot_match
from viewer.games.cuccu_captions import caption, card_name
from viewer.games.cuccu_play import SeenEvent, round_ending
from viewer.games.cuccu_replay import Replay
from viewer.games.cuccu_stats import lives_curve, tallies
from viewer.i18n import LANGS, tr
from viewer.rules import rules_text


def test_every_event_of_many_matches_has_a_caption_in_every_language() -> None:
    events = [e for seed in range(30) for e in bot_match(seed, seats=2 + seed % 5)]
    kinds = {type(e).__name__ for e in events}
    assert {"CardRevealed", "ExchangeReversed", "PledgeMade", "LivesReset"} <= kinds
    names = [f"S{i}" for i in range(6)]
    for lang in LANGS:
        for event in events:
            text = caption(event, names, lang)
            assert text and "{" not in text and text != type(event).__name__


@pytest.mark.parametrize("lang", list(LANGS))
def test_every_card_has_a_name(lang: str) -> None:
    assert len({card_name(c, lang) for c in CARDS}) == 20  # the two copies read the same
    assert card_name(None, lang) == tr(lang, "card.hidden")


def test_a_finished_match_replays_with_every_card() -> None:
    events = bot_match(8)
    replay = Replay(chain(events))
    assert replay.full and replay.last_step == len(events) and replay.stuck_at is None
    assert sorted(replay.round_start) == list(range(1, sum(isinstance(e, RoundEnded)
                                                               for e in events) + 1))  # fmt: skip
    for step in range(replay.last_step + 1):
        frame = replay.frame(step)
        rnd = replay.states[step].round
        if rnd is not None:
            assert [row.card for row in frame.rows] == list(rnd.hands)
    last = replay.frame(replay.last_step)
    assert sum(row.winner for row in last.rows) == 1


@pytest.mark.parametrize("seed", range(6))
def test_an_unfinished_log_never_shows_a_hidden_card(seed: int) -> None:
    events = bot_match(seed)
    ends = [i for i, e in enumerate(events) if isinstance(e, RoundEnded)]
    cut = ends[len(ends) // 2] + 12  # in the middle of a round
    replay = Replay(chain(events[:cut]))
    assert not replay.full
    for step in range(replay.last_step + 1):
        state = replay.states[step]
        public = view(state, None).hands
        frame = replay.frame(step)
        shown = {(row.seat, row.card) for row in frame.rows if row.card is not None}
        revealed = set(frame.revealed)
        scored = {
            (s, c) for e in (state.round.log if state.round else ())
            if isinstance(e, RoundScored) for s, c in zip(e.live, e.cards, strict=True)
        }  # fmt: skip
        assert shown <= revealed | scored | {(s, c) for s, c in enumerate(public) if c}
        assert all(getattr(e, "card", "shown") is None for e in replay.events
                   if type(e).__name__ == "CardDealt")  # fmt: skip


def test_a_tampered_log_replays_up_to_the_event_the_rules_cannot_follow() -> None:
    events = bot_match(2)
    at = next(i for i, e in enumerate(events) if isinstance(e, CardRevealed))
    events[at] = replace(events[at], card="joker#9")  # no such card
    replay = Replay(chain(events))
    assert replay.stuck_at == at + 1 and replay.last_step == at
    assert replay.frame(10_000).step == at


def test_the_lives_curve_and_tallies_add_up() -> None:
    events = bot_match(9)
    curve = lives_curve(events)
    rounds = [e.round for e in events if isinstance(e, RoundEnded)]
    assert curve.rounds == [0, *rounds]
    assert curve.lives[0] == [3, 3, 3, 3]
    counts = tallies(events, 4)
    losses = sum(1 for e in events if isinstance(e, LifeLost))
    assert sum(c[k] for c in counts for k in c if k.startswith("lost:")) == losses
    if not any(isinstance(e, LivesReset) for e in events):
        assert sum(3 - n for n in curve.lives[-1]) == losses
    reveals = sum(1 for e in events if isinstance(e, CardRevealed))
    assert reveals >= sum(c["refused"] for c in counts)


@pytest.mark.parametrize("lang", list(LANGS))
def test_the_rules_text_names_every_card_in_its_language(lang: str) -> None:
    text = rules_text("cuccu", lang)
    assert text.startswith("# Cuccù")
    for rank in ("lion", "mask", "bucket", "zero", "inn", "cat", "horse", "hunter", "cuckoo",
                 "fool"):  # fmt: skip
        assert tr(lang, f"rank.{rank}").lower() in text.lower(), rank
    assert "14½" in text and "XIIII" in text and "cuccu verify" in text


def test_between_rounds_cuccu_play_tells_who_lost_a_life_and_who_is_out() -> None:
    """Play's "How round N ended": the reveal, each life lost with its reason, each seat out,
    taken from a real match's log and never the next round's events."""
    events = bot_match(5)
    names = ["You", "Ada", "Bruno", "Chiara"]
    seen = [SeenEvent(version, event) for version, event in enumerate(events, 1)]
    ends = [i for i, e in enumerate(events) if isinstance(e, RoundEnded)]
    assert len(ends) >= 2 and round_ending(seen[:3]) == []
    eliminated = 0
    for end in ends:
        ending = round_ending(seen[: end + 1])
        scored = ending[0].event
        assert isinstance(scored, RoundScored)
        start = max(i for i, e in enumerate(events[: end + 1]) if isinstance(e, RoundScored))
        lost = [e for e in events[start:end] if isinstance(e, LifeLost)]
        out = [e for e in events[start:end] if isinstance(e, SeatEliminated)]
        assert [e.event for e in ending if isinstance(e.event, LifeLost)] == lost
        assert [e.event for e in ending if isinstance(e.event, SeatEliminated)] == out
        assert not any(isinstance(e.event, RoundStarted) for e in ending)
        eliminated += len(out)
        lines = [caption(e.event, names, "en") for e in ending]
        for loss in lost:
            assert any(names[loss.seat] in line for line in lines)
    assert eliminated >= 1  # a whole match puts seats out, and the summary says so
    for lang in LANGS:
        heading = tr(lang, "play.round_ending", round=1)
        assert "1" in heading and heading != "play.round_ending"
