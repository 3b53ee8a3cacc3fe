"""Cucco 21 through the service layer: the same service, dispatching on the match's game."""

from __future__ import annotations

import msgspec
import pytest

from api.service import InvalidOptions, MatchService, NewSeat, UnknownGame
from domain.envelope import parse_body
from domain.errors import DomainError
from domain.games import CUCCO21
from domain.games.cucco21 import fairness
from domain.games.cucco21.events import DeckShuffled
from domain.games.cucco21.pending import pending
from tests.service.fakes import InMemoryStore

ANN_VS_BOTS = [
    NewSeat("Ann"),
    NewSeat("Bo", "bot", "basic"),
    NewSeat("Cy", "bot", "random"),
    NewSeat("Di", "bot", "expert"),
]
BOTS = [NewSeat(f"bot{i}", "bot", level) for i, level in enumerate(("basic", "random", "expert"))]


@pytest.fixture
def store() -> InMemoryStore:
    return InMemoryStore()


@pytest.fixture
def service(store: InMemoryStore) -> MatchService:
    return MatchService(store)


async def test_a_cucco21_match_is_created_shuffled_dealt_and_waits_for_the_human(
    service: MatchService, store: InMemoryStore
) -> None:
    created = await service.create(
        ANN_VS_BOTS, seed=5, first_dealer=0, game="cucco21", options={"starting_chips": 7}
    )
    assert created.game.name == "cucco21"
    state = created.state
    assert state.starting_chips == 7 and state.status == "in_round"
    step = pending(state)
    assert step is not None and step.seat == 0
    record = store.matches[created.match_id]
    assert record.game == "cucco21"
    assert record.options == {"starting_chips": 7, "powers": True, "max_sets": None}
    assert record.standing == list(state.chips)
    # the metadata of the host's shuffle names the command, never the deck or its salt
    stored = store.events[created.match_id]
    shuffles = [s for s in stored if s.type == "deck_shuffled"]
    assert shuffles and all(s.meta == {"actor": "service", "command": {"type": "shuffle"}}
                            for s in shuffles)  # fmt: skip


async def test_commands_play_a_cucco21_match_to_its_end_and_it_exports(
    service: MatchService, store: InMemoryStore
) -> None:
    created = await service.create(
        ANN_VS_BOTS, seed=11, first_dealer=1, game="cucco21",
        options={"starting_chips": 2, "max_sets": 1},
    )  # fmt: skip
    state = created.state
    for _ in range(2_000):
        if state.status == "over":
            break
        step = pending(state)
        choice = "next_round" if step is None or step.seat is None else step.choices[0]
        state = (await service.command(created.match_id, 0, choice)).state
    assert state.status == "over"
    record = store.matches[created.match_id]
    assert record.status == "over" and record.winners == list(state.winners)
    assert sum(record.standing) + state.box == 4 * 2  # chips are conserved
    export = await service.export(created.match_id)
    # the export's records, read as Cucco 21's: every deck opens to its commitment (C27)
    lines = [msgspec.json.decode(line) for line in export.splitlines()]
    records = [
        parse_body(msgspec.json.encode(line["record"])) for line in lines if "record" in line
    ]
    events = [created.game.read_event(r.type, r.schema, bytes(r.data)) for r in records]
    assert len(events) == state.version
    assert any(isinstance(e, DeckShuffled) for e in events)
    assert fairness.deck_problems(events) == []


async def test_a_match_of_bots_only_is_played_to_its_end_at_creation(
    service: MatchService,
) -> None:
    created = await service.create(
        BOTS, seed=3, game="cucco21", options={"starting_chips": 3, "max_sets": 2}
    )
    assert created.state.status == "over"
    assert created.state.winners


async def test_an_unknown_game_names_the_known_ones(service: MatchService) -> None:
    with pytest.raises(UnknownGame, match="cuccu, cucco21"):
        await service.create(ANN_VS_BOTS, game="cucco22")


async def test_options_of_another_game_are_refused(service: MatchService) -> None:
    with pytest.raises(InvalidOptions, match="starting_lives"):
        await service.create(ANN_VS_BOTS, game="cucco21", options={"starting_lives": 3})


async def test_an_invalid_config_is_refused_in_the_games_own_words(
    service: MatchService,
) -> None:
    seats = [NewSeat(f"p{i}") for i in range(13)]
    with pytest.raises(DomainError, match="2 to 12 seats"):
        await service.create(seats, game="cucco21")


async def test_a_cuccu_command_is_refused_in_a_cucco21_match(service: MatchService) -> None:
    created = await service.create(ANN_VS_BOTS, seed=5, first_dealer=0, game="cucco21")
    with pytest.raises(DomainError, match="its commands are: keep, trade"):
        await service.command(created.match_id, 0, "exchange")


async def test_open_seats_are_claimed_and_the_last_claim_starts_the_game(
    service: MatchService,
) -> None:
    seats = [NewSeat("open", "open"), NewSeat("Bo", "bot", "basic")]
    created = await service.create(seats, seed=2, game="cucco21")
    # no deck is shuffled while a seat is open (docs/API.md "Fairness"): hosts show it between
    # rounds, as a Cuccù match waiting for its seats
    assert CUCCO21.summary(created.state).status == "between_rounds"
    assert created.state.rounds_played == 0
    claimed = await service.claim(created.match_id, 0, "Ann")
    assert claimed.token is not None
    assert claimed.state.seats[0].name == "Ann"
    assert claimed.state.status in ("in_round", "over")
