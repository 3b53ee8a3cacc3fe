"""Auditing Cucco 21 logs (issue 14 item 8): ``audit`` and ``cuccu verify`` read a Cucco 21
export, re-execute its decisions and shuffles, open every deck against its commitment, and
count chips and cards; each tamper fails the check that should notice it, at the event where
it was made.

The exports are built in memory (a bot game, its events wrapped as envelope-2 records by
``domain.audit.chain``): the store does not host Cucco 21 matches in this branch.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from api.cli import main
from api.keystore import KeyStore
from api.signing import seal_line
from domain.audit import AuditReport, audit, chain, parse_export, render, to_ndjson
from domain.envelope import parse_body
from domain.event_codec import UnknownEvent
from domain.games import CUCCO21, of_first_event
from domain.games.cucco21.bots import autoplay, choose
from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.commands import CreateGame
from domain.games.cucco21.config import Config
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import (
    CardDealt,
    CardDrawn,
    ChipsPaid,
    Claimed,
    DeckOpened,
    DeckShuffled,
    Event,
    GameEnded,
    RoundStarted,
)
from domain.games.cucco21.fairness import commitment
from domain.games.cucco21.state import GameState, initial_state
from domain.games.cucco21.views import view
from domain.seats import SeatSpec

MATCH = "c21c21c2-0000-4000-8000-000000000021"


def bot_game(
    seed: int, seats: int = 4, powers: bool = True, chips: int = 15, max_sets: int | None = 2
) -> list[Event]:
    """A whole Cucco 21 game of random, basic and expert bots, as its event log."""
    rng = random.Random(seed)
    levels = ("random", "basic", "expert")
    specs = tuple(SeatSpec(f"bot {i}", "bot", levels[i % 3]) for i in range(seats))
    config = Config(specs, chips, powers, max_sets, rng.randrange(seats))
    state, events = apply(initial_state(), CreateGame(config))
    log: list[Event] = list(events)

    def answer(now: GameState, seat: int) -> str:
        return choose(specs[seat].bot_level or "random", view(now, seat), rng)

    for _, produced in autoplay(state, answer, rng):
        log.extend(produced)
    return log


@cache
def rich_game() -> tuple[Event, ...]:
    """The first bot game (by seed) with a paid Ceremony claim, a draw and a reshuffled deck."""
    for seed in range(500):
        log = bot_game(seed, seats=5)
        claim = any(isinstance(e, ChipsPaid) and e.reason == "ceremony" for e in log)
        draw = any(isinstance(e, CardDrawn) for e in log)
        decks = sum(isinstance(e, DeckShuffled) for e in log)
        if claim and draw and decks >= 2:
            return tuple(log)
    raise AssertionError("no bot game with a claim, a draw and a reshuffle in 500 seeds")


def first(log: list[Event], kind: type, where: object = None) -> int:
    """The index of the first event of ``kind`` (that ``where`` accepts, if given)."""
    return next(
        i
        for i, e in enumerate(log)
        if isinstance(e, kind) and (where is None or where(e))  # type: ignore[operator]
    )


def failed_at(report: AuditReport) -> dict[str, int | None]:
    return {c.name: c.version for c in report.failures}


# --- a genuine game ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "seats", "powers", "max_sets"),
    [(1, 2, True, None), (2, 4, False, 2), (3, 7, True, 1), (4, 12, True, 1), (5, 3, False, None)],
)
def test_a_genuine_bot_game_audits_clean(
    seed: int, seats: int, powers: bool, max_sets: int | None
) -> None:
    log = bot_game(seed, seats, powers, chips=6, max_sets=max_sets)
    report = audit(parse_export(to_ndjson(chain(log, match_id=MATCH))).records)
    assert report.ok, render(report)
    assert report.game == "cucco21"
    assert [c.name for c in report.checks] == [
        "hash_chain", "replay", "decks", "chips", "cards", "entropy", "clock", "complete",
    ]  # fmt: skip
    ended = log[-1]
    assert isinstance(ended, GameEnded)
    assert report.winners == ended.winners
    assert report.rounds == sum(isinstance(e, RoundStarted) for e in log)
    assert report.match_id == MATCH and report.final_version == len(log)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 12),
    powers=st.booleans(),
    chips=st.integers(1, 8),
    max_sets=st.one_of(st.none(), st.integers(1, 3)),
)
def test_every_bot_game_exported_re_executes_to_its_log(
    seed: int, seats: int, powers: bool, chips: int, max_sets: int | None
) -> None:
    """Hypothesis over tables: 2–12 seats, powers on and off, few chips, capped or not."""
    log = bot_game(seed, seats, powers, chips, max_sets)
    report = audit(parse_export(to_ndjson(chain(log))).records)
    assert report.ok, render(report)


def test_a_cucco21_export_is_read_as_cucco21_events() -> None:
    """Both games have a ``round_started``: the first record names the game that reads them."""
    log = list(rich_game())
    records = parse_export(to_ndjson(chain(log))).records
    assert [r.event for r in records] == log
    assert of_first_event(parse_body(records[0].body).type) is CUCCO21
    started = parse_body(records[first(log, RoundStarted)].body)
    assert started.schema == 1 and started.type == "round_started"
    with pytest.raises(UnknownEvent):
        CUCCO21.read_event("round_started", 2, bytes(started.data))  # a version from the future


def test_an_old_schema_version_is_upcast_on_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cucco 21 events evolve as Cuccù's do: a type at schema 2 lifts its version-1 records."""

    def upcast_v1_v2(data: dict[str, object]) -> dict[str, object]:
        # the imagined version 1 called the ante "stake"
        return {**data, "reason": "ante" if data["reason"] == "stake" else data["reason"]}

    monkeypatch.setattr(ChipsPaid, "schema_version", 2, raising=False)
    monkeypatch.setattr(ChipsPaid, "upcast_v1_v2", staticmethod(upcast_v1_v2), raising=False)
    old = b'{"amount":1,"reason":"stake","seat":2,"to":"box"}'
    assert CUCCO21.read_event("chips_paid", 1, old) == ChipsPaid(2, 1, "box", "ante")
    with pytest.raises(UnknownEvent):
        CUCCO21.read_event("chips_paid", 3, old)


def test_a_truncated_game_is_incomplete_and_says_so() -> None:
    log = list(rich_game())
    report = audit(chain(log[:-1]))
    # the last command's events stop short: replay notices too
    assert failed_at(report) == {"replay": len(log), "complete": len(log)}
    assert report.check("complete").detail == (
        f"the log stops at v{len(log) - 1} before the game ends"
    )
    # and a log that does not start with the game's creation is still read as Cucco 21
    headless = audit(parse_export(to_ndjson(chain(log[1:]))).records)
    assert headless.game == "cucco21" and not headless.check("complete").ok


# --- tampering -----------------------------------------------------------------------------


def test_a_changed_draw_fails_replay_and_card_conservation() -> None:
    log = list(rich_game())
    i = first(log, CardDrawn)
    drawn = log[i]
    assert isinstance(drawn, CardDrawn) and drawn.card is not None
    other = next(c for c in CARDS if c != drawn.card and c.split("#")[0] != "1")
    tampered = [*log[:i], replace(drawn, card=other), *log[i + 1 :]]
    v = i + 1

    # hashes recomputed: the chain holds, the rules and the cards do not
    report = audit(chain(tampered))
    assert report.check("hash_chain").ok
    assert failed_at(report)["replay"] == v
    assert failed_at(report)["cards"] == v
    assert f"takes {other} from the deck, whose top card is {drawn.card}" in (
        report.check("cards").detail
    )

    # edited in place, old hashes kept: the chain breaks at the same event
    genuine = chain(log)
    forged = chain(tampered)
    spliced = [*genuine[:i], replace(forged[i], prev_hash=genuine[i].prev_hash), *genuine[i + 1 :]]
    spliced[i] = replace(spliced[i], hash=genuine[i].hash)
    assert failed_at(audit(spliced))["hash_chain"] == v


def test_a_removed_claim_payment_fails_replay_and_the_chip_ledger() -> None:
    log = list(rich_game())
    i = first(log, ChipsPaid, lambda e: e.reason == "ceremony")
    paid = log[i]
    assert isinstance(paid, ChipsPaid) and isinstance(paid.to, int)
    assert any(isinstance(e, Claimed) and e.seat == paid.to for e in log[:i])
    tampered = log[:i] + log[i + 1 :]
    v = i + 1

    report = audit(chain(tampered))
    assert report.check("hash_chain").ok  # renumbered and rehashed
    assert failed_at(report)["replay"] == v
    assert failed_at(report)["chips"] == v
    detail = report.check("chips").detail
    assert f"seat {paid.seat}" in detail and "claim" in detail

    # cut out of the genuine chain: a version is missing
    genuine = chain(log)
    assert failed_at(audit(genuine[:i] + genuine[i + 1 :]))["hash_chain"] == v


def test_a_changed_deck_order_fails_the_commitment_and_replay() -> None:
    log = list(rich_game())
    i = first(log, DeckShuffled)
    deck = log[i]
    assert isinstance(deck, DeckShuffled) and deck.order is not None and deck.salt is not None
    order = (deck.order[1], deck.order[0], *deck.order[2:])  # the first two cards swapped
    v = i + 1

    # the order changed, its commitment kept: the deck no longer opens to it
    report = audit(chain([*log[:i], replace(deck, order=order), *log[i + 1 :]]))
    assert report.check("hash_chain").ok
    assert failed_at(report)["decks"] == v
    assert failed_at(report)["replay"] == v  # the shuffle commits to another deck
    assert failed_at(report)["cards"] == v + first(log[i:], CardDealt)  # the first deal

    # a consistent forger: new commitment and the deck opened to the new order. The decks
    # check out; the deal does not follow the deck.
    forged_commitment = commitment(deck.salt, order)
    j = first(log, DeckOpened, lambda e: e.number == deck.number)
    rewritten = list(log)
    rewritten[i] = replace(deck, order=order, commitment=forged_commitment)
    rewritten[j] = replace(log[j], order=order)
    report = audit(chain(rewritten))
    assert report.check("hash_chain").ok and report.check("decks").ok
    dealt = i + first(log[i:], CardDealt) + 1
    assert failed_at(report)["replay"] == dealt
    assert failed_at(report)["cards"] == dealt


def test_a_forged_winner_fails_the_chip_ledger() -> None:
    log = list(rich_game())
    ended = log[-1]
    assert isinstance(ended, GameEnded)
    losers = tuple(s for s in range(5) if s not in ended.winners)
    report = audit(chain([*log[:-1], replace(ended, winners=losers[:1])]))
    assert failed_at(report)["chips"] == len(log)
    assert failed_at(report)["replay"] == len(log)


# --- cuccu verify --------------------------------------------------------------------------


def test_cuccu_verify_checks_a_signed_cucco21_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = KeyStore(tmp_path / "service" / "signing-key.pem")
    signer = keys.load()
    assert signer is not None
    records = chain(list(rich_game()), match_id=MATCH)
    last = records[-1]
    seal = seal_line(signer.sign(MATCH, last.version, last.hash), keys.ring()).decode("utf-8")
    export = tmp_path / "game.ndjson"
    export.write_text(to_ndjson(records) + seal)
    trusted = tmp_path / "keys.json"
    trusted.write_text(json.dumps(keys.ring().document()))

    assert main(["verify", str(export), "--trusted-key", str(trusted)]) == 0
    out = capsys.readouterr().out
    assert "PASS re-execution of the decisions" in out and "PASS deck commitments" in out
    assert "PASS chip bookkeeping" in out and "PASS card conservation" in out
    assert out.rstrip().endswith("verify passed")

    # one card of the export changed by hand: hash, replay and cards all name its version
    lines = export.read_text().splitlines()
    i = first(list(rich_game()), CardDealt)
    dealt = json.loads(lines[i])["record"]["data"]["card"]
    other = next(c for c in CARDS if c != dealt)
    lines[i] = lines[i].replace(f'"card":"{dealt}"', f'"card":"{other}"')
    export.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(export), "--trusted-key", str(trusted)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL hash chain at v{i + 1}" in out
    assert f"FAIL re-execution of the decisions at v{i + 1}" in out
    assert f"FAIL card conservation at v{i + 1}" in out
    assert "verify FAILED" in out
