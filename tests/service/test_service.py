"""The service layer on its own: commands in, results or domain/service errors out.

No HTTP and no database: an in-memory store (tests/service/fakes.py) stands in, so these run
in milliseconds. The same behaviours are checked through HTTP on real databases in tests/api.
"""

from __future__ import annotations

import pytest

from api.service import (
    IdempotencyKeyReused,
    MatchNotFinished,
    MatchNotFound,
    MatchService,
    MissingToken,
    NewSeat,
    SeatNotFound,
    StaleVersion,
    UnknownToken,
    WrongMatch,
    hash_token,
)
from domain.audit import parse_export
from domain.errors import DomainError
from domain.event_codec import event_type
from domain.games.cuccu.pending import pending
from tests.service.fakes import InMemoryStore

ANN_VS_BOTS = [
    NewSeat("  Ann "),
    NewSeat("Bo", "bot", "basic"),
    NewSeat("Cy", "bot", "random"),
    NewSeat("Di", "bot", "basic"),
]
TWO_HUMANS = [NewSeat("Ann"), NewSeat("Ben")]


@pytest.fixture
def store() -> InMemoryStore:
    return InMemoryStore()


@pytest.fixture
def service(store: InMemoryStore) -> MatchService:
    return MatchService(store)


async def test_create_deals_round_one_and_lets_the_bots_play_up_to_the_human(
    service: MatchService, store: InMemoryStore
) -> None:
    created = await service.create(
        ANN_VS_BOTS, seed=7, first_dealer=3, game="cuccu", options={"starting_lives": 2}
    )
    assert set(created.tokens) == {0}  # a token for the human seat only
    assert created.state.seats[0].name == "Ann"  # names are stored trimmed
    assert pending(created.state) is not None and pending(created.state).seat == 0  # type: ignore[union-attr]
    assert [v for v, _ in created.events] == list(range(1, created.state.version + 1))
    assert len(store.events[created.match_id]) == created.state.version
    assert await service.seat_of(created.match_id, created.tokens[0], required=True) == 0


async def test_a_command_answers_with_the_bots_replies(service: MatchService) -> None:
    created = await service.create(
        ANN_VS_BOTS, seed=7, first_dealer=3, game="cuccu", options={"starting_lives": 2}
    )
    before = created.state.version
    played = await service.command(created.match_id, 0, "keep")
    assert [v for v, _ in played.events] == list(range(before + 1, played.state.version + 1))
    assert event_type(played.events[0][1]) == "kept"
    assert len(played.events) > 1  # the three bots answered in the same command
    decision = pending(played.state)
    assert decision is not None and decision.seat in (0, None)  # Ann again, or a new round
    assert played.replayed is False


async def test_a_refused_command_changes_nothing(
    service: MatchService, store: InMemoryStore
) -> None:
    created = await service.create(
        TWO_HUMANS, seed=1, first_dealer=1, game="cuccu", options={"starting_lives": 3}
    )
    commits = store.commits
    with pytest.raises(DomainError) as refused:
        await service.command(created.match_id, 1, "keep")  # seat 0 plays first
    assert refused.value.code == "not_your_turn"
    with pytest.raises(DomainError) as refused:
        await service.command(created.match_id, 0, "next_round")
    assert refused.value.code == "round_in_progress"
    with pytest.raises(StaleVersion) as stale:
        await service.command(created.match_id, 0, "keep", expected_version=0)
    assert stale.value.version == created.state.version
    assert store.commits == commits


async def test_a_retry_with_the_same_key_is_answered_again_without_a_second_effect(
    service: MatchService, store: InMemoryStore
) -> None:
    created = await service.create(
        ANN_VS_BOTS, seed=7, first_dealer=3, game="cuccu", options={"starting_lives": 2}
    )
    first = await service.command(created.match_id, 0, "exchange", idempotency_key="k1")
    commits = store.commits
    again = await service.command(created.match_id, 0, "exchange", idempotency_key="k1")
    assert again.replayed and store.commits == commits
    assert again.events == first.events and again.state == first.state
    with pytest.raises(IdempotencyKeyReused):
        await service.command(created.match_id, 0, "keep", idempotency_key="k1")
    # a fresh service (another process) answers the retry from the store alone
    other = await MatchService(store).command(created.match_id, 0, "exchange", idempotency_key="k1")
    assert other.replayed and other.state == first.state and other.events == first.events


async def test_a_stale_kept_state_is_reloaded_not_refused(store: InMemoryStore) -> None:
    a, b = MatchService(store), MatchService(store)  # two API processes on one store
    created = await a.create(
        TWO_HUMANS, seed=1, first_dealer=1, game="cuccu", options={"starting_lives": 3}
    )
    await b.state(created.match_id)  # b keeps the match at its first version
    moved = await a.command(created.match_id, 0, "keep")
    played = await b.command(created.match_id, 1, "keep")  # b's copy is stale: it reloads
    assert played.events[0][0] == moved.state.version + 1


async def test_tokens_say_which_seat_of_which_match(service: MatchService) -> None:
    one = await service.create(
        TWO_HUMANS, seed=1, first_dealer=1, game="cuccu", options={"starting_lives": 3}
    )
    two = await service.create(
        TWO_HUMANS, seed=2, first_dealer=1, game="cuccu", options={"starting_lives": 3}
    )
    assert await service.seat_of(one.match_id, one.tokens[1], required=True) == 1
    assert await service.seat_of(one.match_id, None, required=False) is None
    with pytest.raises(MissingToken):
        await service.seat_of(one.match_id, None, required=True)
    with pytest.raises(UnknownToken):
        await service.seat_of(one.match_id, "not-a-token", required=False)
    with pytest.raises(WrongMatch):
        await service.seat_of(one.match_id, two.tokens[0], required=True)


async def test_claims_fill_open_seats_and_a_retried_claim_gets_a_new_token(
    service: MatchService, store: InMemoryStore
) -> None:
    seats = [NewSeat("open", "open"), NewSeat("open", "open"), NewSeat("Bo", "bot", "basic")]
    created = await service.create(
        seats, seed=3, first_dealer=2, game="cuccu", options={"starting_lives": 2}
    )
    assert created.tokens == {} and created.state.rounds_played == 0
    with pytest.raises(SeatNotFound):
        await service.claim(created.match_id, 5, "Ann")
    first = await service.claim(created.match_id, 0, "Ann", idempotency_key="c1")
    assert first.token is not None and first.state.rounds_played == 0
    retry = await service.claim(created.match_id, 0, "Ann", idempotency_key="c1")
    assert retry.replayed and retry.token not in (None, first.token)
    assert retry.events == first.events
    assert await store.seat_for_token(hash_token(first.token)) is None  # replaced
    assert retry.token is not None
    assert await service.seat_of(created.match_id, retry.token, required=True) == 0
    with pytest.raises(DomainError) as taken:
        await service.claim(created.match_id, 0, "Eve")
    assert taken.value.code == "seat_taken"
    last = await service.claim(created.match_id, 1, "Ben")
    assert last.state.rounds_played == 0 and last.state.status == "in_round"  # round 1 dealt


async def test_invalid_matches_are_refused_by_the_rules_and_nothing_is_stored(
    service: MatchService, store: InMemoryStore
) -> None:
    for seats, first_dealer in (
        (TWO_HUMANS, 2),  # no such seat
        ([NewSeat("Ann"), NewSeat("Ben", "human", "basic")], 0),  # a level on a human
        ([NewSeat("Ann")], 0),  # one seat
    ):
        with pytest.raises(DomainError) as refused:
            await service.create(
                seats,
                seed=None,
                first_dealer=first_dealer,
                game="cuccu",
                options={"starting_lives": 3},
            )
        assert refused.value.code == "invalid_config"
    assert store.matches == {}


async def test_unknown_matches_and_exports_before_the_end(service: MatchService) -> None:
    with pytest.raises(MatchNotFound):
        await service.command("nope", 0, "keep")
    with pytest.raises(MatchNotFound):
        await service.events("nope", 0, 10)
    created = await service.create(
        TWO_HUMANS, seed=1, first_dealer=1, game="cuccu", options={"starting_lives": 3}
    )
    with pytest.raises(MatchNotFinished):
        await service.export(created.match_id)
    bots = [NewSeat(f"b{i}", "bot", "basic") for i in range(3)]
    over = await service.create(
        bots, seed=4, first_dealer=0, game="cuccu", options={"starting_lives": 2}
    )
    assert over.state.status == "over"  # a match of bots is played to its end at once
    log = parse_export(await service.export(over.match_id)).records
    assert [e.version for e in log] == list(range(1, over.state.version + 1))
    assert all(e.prev_hash == p.hash for p, e in zip(log, log[1:], strict=False))
