"""``cuccu verify`` on decks mixed with the players' entropy (docs/API.md "Fairness"): an
operator that deals from another secret than the one it committed to, or reveals another one,
is caught; matches without the protocol verify, reported as operator-chosen decks."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from api.cli import main
from api.turns import advance
from domain import entropy
from domain.audit import chain, to_ndjson
from domain.games import CUCCU
from domain.games.cuccu.fairness import shuffled_round
from domain.seats import SeatSpec
from viewer.games.cuccu import bot_match

FIXTURES = Path(__file__).parent / "fixtures"
SEED = 11


def _match(*, cheat: bool = False) -> list[Any]:
    """A Cuccù match with a person at seat 0 who contributes before the first deal; with
    ``cheat`` the operator, having seen the contribution, deals the first round from a secret
    of its choosing instead of the one it committed to."""
    game = CUCCU
    seats = (
        SeatSpec("Ann", "open"),
        SeatSpec("Bo", "bot", "random"),
        SeatSpec("Cy", "bot", "basic"),
    )
    state, events = game.apply(game.initial(), game.create_command(seats, 0, {"starting_lives": 1}))
    state, steps = advance(state, SEED, game)  # the host commits to the first deck's secret
    events += [e for step in steps for e in step.events]
    for command in (game.claim_command(0, "Ann"), entropy.Contribute(0, "ab" * 16)):
        state, more = game.apply(state, command)
        events += more
    assert state.entropy.pending is not None and state.entropy.pending.contributions
    if cheat:
        chosen = replace(state.entropy.pending, secret="cd" * 32)
        state, more = game.apply(state, shuffled_round(entropy.DerivedDeck(chosen), 32))
        events += more
    answers = random.Random(SEED)
    while True:
        state, steps = advance(state, SEED, game)
        events += [e for step in steps for e in step.events]
        if game.is_over(state):
            return events
        pending = game.view(state, 0).pending
        choice = "next_round" if pending.seat is None else answers.choice(pending.choices)
        state, more = game.apply(state, game.player_command(state, 0, choice, random.Random()))
        events += more


def _verify(
    tmp_path: Path, events: list[Any], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    path = tmp_path / "match.ndjson"
    path.write_text(to_ndjson(chain(events)))
    code = main(["verify", "--allow-unsigned", str(path)])
    return code, capsys.readouterr().out


def test_an_honest_mixed_match_verifies_and_names_the_contributors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _verify(tmp_path, _match(), capsys)
    assert code == 0, out
    assert "PASS shuffle entropy" in out
    assert "mixed with players' entropy (seats 0)" in out
    assert "operator-chosen" not in out


def test_an_operator_that_deals_from_another_secret_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _verify(tmp_path, _match(cheat=True), capsys)
    assert code == 1
    assert "FAIL shuffle entropy" in out
    assert "round 1 is not the deck its secret and contributions give" in out
    # every other check passes: only the protocol tells this deck was chosen
    assert "PASS shuffle commitments" in out and "PASS re-execution" in out


def test_an_operator_that_reveals_another_secret_is_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events = _match()
    first = next(i for i, e in enumerate(events) if isinstance(e, entropy.EntropyRevealed))
    events[first] = replace(events[first], secret="ef" * 32)
    code, out = _verify(tmp_path, events, capsys)
    assert code == 1
    assert "the service changed its secret" in out


@pytest.mark.parametrize("name", ["legacy-sqlite-export", "legacy-postgres-export"])
def test_matches_from_before_the_protocol_verify_as_operator_chosen(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--allow-unsigned", str(FIXTURES / f"{name}.ndjson")]) == 0
    out = capsys.readouterr().out
    assert "audit passed" in out and "operator-chosen deck" in out


def test_a_table_of_bots_only_deals_operator_chosen_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _verify(tmp_path, list(bot_match(4)), capsys)
    assert code == 0 and "operator-chosen deck" in out and "mixed" not in out
