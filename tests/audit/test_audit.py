"""domain.audit: passes on every bot match, fails on each kind of tampering, naming the event."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from domain.audit import (
    AuditInputError,
    AuditRecord,
    audit,
    chain,
    parse_ndjson,
    record_json,
    render,
    to_ndjson,
)
from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.events import (
    CardDealt,
    CardsExchanged,
    Event,
    LifeLost,
    MatchCreated,
    MatchWon,
    RoundEnded,
    RoundScored,
    RoundStarted,
)
from viewer.games.cuccu import bot_match

LEVELS = ("basic", "random")
FIXTURES = Path(__file__).parent / "fixtures"
#: exports made before schema revision 0002 (envelope 1), from SQLite and from PostgreSQL
LEGACY_SQLITE = FIXTURES / "legacy-sqlite-export.ndjson"
LEGACY_POSTGRES = FIXTURES / "legacy-postgres-export.ndjson"


def _match(seed: int, seats: int = 4) -> list[Event]:
    return bot_match(seed, seats=seats, levels=LEVELS)


def _failing(report_checks: object) -> dict[str, int | None]:
    return {c.name: c.version for c in report_checks if not c.ok}  # type: ignore[attr-defined]


@settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 8), lives=st.integers(1, 4))
def test_the_audit_passes_on_every_bot_match(seed: int, seats: int, lives: int) -> None:
    events = bot_match(seed, seats=seats, lives=lives, levels=LEVELS)
    assert isinstance(events[-1], MatchWon)
    report = audit(chain(events))
    assert report.ok, render(report)
    assert report.events == len(events)
    assert report.winner == events[-1].winner


def test_the_audit_passes_with_claimed_seats() -> None:
    events = bot_match(11, seats=4, levels=LEVELS, open_seats=(0, 2))
    assert audit(chain(events)).ok


def test_the_audit_passes_through_an_ndjson_export() -> None:
    records = chain(_match(7))
    text = to_ndjson(records)
    assert text.count("\n") == len(records)
    parsed = parse_ndjson(text)
    assert parsed == records
    assert audit(parsed).ok


def test_legacy_lines_without_a_type_inside_data_are_read() -> None:
    lines = []
    for line in LEGACY_SQLITE.read_text().splitlines():
        obj = msgspec.json.decode(line)
        obj["data"].pop("type")
        lines.append(msgspec.json.encode(obj).decode())
    assert audit(parse_ndjson("\n".join(lines))).ok


@pytest.mark.parametrize(
    ("text", "line"),
    [("{not json", 1), ('{"version": 1}', 1), ('\n{"version":1,"type":"nope","data":{}}', 2)],
)
def test_unreadable_exports_name_the_line(text: str, line: int) -> None:
    with pytest.raises(AuditInputError) as caught:
        parse_ndjson(text)
    assert caught.value.line == line


# --- tampering -----------------------------------------------------------------------------


def _rechain(records: list[AuditRecord]) -> list[AuditRecord]:
    """A forger who also rewrites every hash and version after the edit."""
    return chain(r.event for r in records)


def _indices(records: list[AuditRecord], kind: type) -> list[int]:
    return [i for i, r in enumerate(records) if isinstance(r.event, kind)]


def _other_card(card: str | None, rng: random.Random) -> str:
    return rng.choice([c for c in CARDS if c != card])


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_changed_card_fails_naming_the_event(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    i = rng.choice(_indices(records, CardDealt))
    dealt = records[i].event
    assert isinstance(dealt, CardDealt)
    tampered = list(records)
    tampered[i] = replace(records[i], event=replace(dealt, card=_other_card(dealt.card, rng)))
    version = i + 1

    naive = _failing(audit(tampered).checks)
    assert naive["hash_chain"] == version
    assert naive["replay"] == version
    assert naive["conservation"] == version

    forged = _failing(audit(_rechain(tampered)).checks)
    assert "hash_chain" not in forged
    assert forged["replay"] == version
    assert forged["conservation"] == version


@pytest.mark.parametrize("seed", SEEDS)
def test_a_changed_exchanged_or_scored_card_fails(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    candidates = _indices(records, CardsExchanged) + _indices(records, RoundScored)
    i = rng.choice(candidates)
    event = records[i].event
    if isinstance(event, CardsExchanged):
        event = replace(event, requester_gets=_other_card(event.requester_gets, rng))
    else:
        assert isinstance(event, RoundScored)
        cards = list(event.cards)
        cards[0] = _other_card(cards[0], rng)
        event = replace(event, cards=tuple(cards))
    tampered = list(records)
    tampered[i] = replace(records[i], event=event)
    forged = _failing(audit(_rechain(tampered)).checks)
    assert forged["replay"] == i + 1
    assert forged["conservation"] == i + 1


@pytest.mark.parametrize("seed", SEEDS)
def test_a_removed_event_fails_naming_it(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    for i in (rng.randrange(len(records)), 0, len(records) - 1):
        tampered = records[:i] + records[i + 1 :]
        version = i + 1
        naive = _failing(audit(tampered).checks)
        if i < len(records) - 1:
            assert naive["hash_chain"] == version, naive
        else:  # a cut-off tail still chains: the rules and the missing winner give it away
            assert naive["replay"] == naive["complete"] == version, naive
        forged = _failing(audit(_rechain(tampered)).checks)
        assert "hash_chain" not in forged
        assert forged["replay"] == version, forged


@pytest.mark.parametrize("seed", SEEDS)
def test_a_reordered_event_fails_naming_where_order_breaks(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    i = rng.randrange(len(records) - 1)
    j = min(len(records) - 1, i + rng.choice((1, 1, 2, 5)))
    tampered = list(records)
    moved = tampered.pop(j)
    tampered.insert(i, moved)  # the event at j now comes first, at i
    version = i + 1
    naive = _failing(audit(tampered).checks)
    assert naive["hash_chain"] == version
    forged = _failing(audit(_rechain(tampered)).checks)
    assert "hash_chain" not in forged
    assert forged["replay"] == version, forged


@pytest.mark.parametrize("seed", SEEDS)
def test_a_wrong_commitment_fails_naming_the_round_start(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    i = rng.choice(_indices(records, RoundStarted))
    start = records[i].event
    assert isinstance(start, RoundStarted)
    wrong = hashlib.sha256(b"another pack" + start.commitment.encode()).hexdigest()
    tampered = list(records)
    tampered[i] = replace(records[i], event=replace(start, commitment=wrong))
    version = i + 1
    naive = _failing(audit(tampered).checks)
    assert naive["hash_chain"] == version
    assert naive["commitments"] == version
    forged = _failing(audit(_rechain(tampered)).checks)
    assert "hash_chain" not in forged
    assert forged["commitments"] == version
    assert forged["replay"] == version


@pytest.mark.parametrize("seed", SEEDS)
def test_a_different_pack_revealed_at_the_end_fails_there(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    i = rng.choice(_indices(records, RoundEnded))
    end = records[i].event
    assert isinstance(end, RoundEnded)
    pack = list(end.pack)
    pack[0], pack[1] = pack[1], pack[0]
    tampered = list(records)
    tampered[i] = replace(records[i], event=replace(end, pack=tuple(pack)))
    forged = _failing(audit(_rechain(tampered)).checks)
    assert forged["commitments"] == i + 1
    assert forged["replay"] == i + 1


@pytest.mark.parametrize("seed", SEEDS)
def test_forged_lives_fail_the_lives_bookkeeping(seed: int) -> None:
    rng = random.Random(seed)
    records = chain(_match(seed))
    i = rng.choice(_indices(records, LifeLost))
    loss = records[i].event
    assert isinstance(loss, LifeLost)
    tampered = list(records)
    tampered[i] = replace(records[i], event=replace(loss, lives_after=loss.lives_after + 1))
    forged = _failing(audit(_rechain(tampered)).checks)
    assert forged["lives"] == i + 1
    assert forged["replay"] == i + 1


def test_a_truncated_log_is_not_a_complete_match() -> None:
    records = chain(_match(5))
    last_end = _indices(records, RoundEnded)[-2]
    report = audit(records[: last_end + 1])  # stops cleanly between two rounds
    assert _failing(report.checks) == {"complete": last_end + 2}


def test_the_report_renders_every_check() -> None:
    text = render(audit(chain(_match(2))))
    assert text.count("PASS") == 8  # Cuccù's four, entropy, clock and the two generic ones
    assert text.endswith("audit passed")


def _mutate(value: object, rng: random.Random) -> object:
    if isinstance(value, bool) or value is None:
        return rng.choice((0, 1, "keep"))
    if isinstance(value, int):
        return value + rng.choice((-1, 1, 2))
    if isinstance(value, str):
        return rng.choice([c for c in CARDS if c != value] + ["ab" * 16, "accept", "refuse"])
    if isinstance(value, list) and value:
        return value[::-1] if len(value) > 1 and value != value[::-1] else value[1:]
    return value


@settings(max_examples=300, deadline=None, database=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6), how=st.integers(0, 10**6))
def test_any_forged_field_fails_the_audit_without_crashing_it(
    seed: int, pick: int, how: int
) -> None:
    records = chain(bot_match(seed % 50, seats=2 + seed % 4, levels=LEVELS))
    i = pick % len(records)
    record = record_json(records[i])["record"]
    data = {"type": record["type"], **record["data"]}
    keys = sorted(k for k in data if k != "type")
    if isinstance(records[i].event, MatchCreated):
        keys = [k for k in keys if k != "seats"]  # names and bot kinds are not bound by the rules
    if not keys:
        return
    key = keys[how % len(keys)]
    data[key] = _mutate(data[key], random.Random(how))
    try:
        event = msgspec.convert(data, Event)
    except msgspec.ValidationError:
        return
    if event == records[i].event:
        return
    tampered = [r.event for r in records]
    tampered[i] = event
    report = audit(chain(tampered))  # never raises, whatever the forger wrote
    assert not report.ok
    if not isinstance(event, MatchCreated):  # a forged set-up shows only in what follows
        assert report.check("replay").version == i + 1, render(report)
