"""Cuccù (RULES.md) behind the game seam: ``GAME`` gathers the package's modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, cast

import msgspec

from domain.entropy import DeckHooks
from domain.errors import COMMON_ERRORS
from domain.games.cuccu import conformance
from domain.games.cuccu.audit import AUDIT
from domain.games.cuccu.bots import choose as bot_choose
from domain.games.cuccu.commands import Choice, Choose, ClaimSeat, Command, CreateMatch, StartRound
from domain.games.cuccu.decide import MAX_SEATS, MIN_SEATS, apply
from domain.games.cuccu.events import Event, RoundEnded, RoundStarted, event_from_json
from domain.games.cuccu.evolve import evolve, fold
from domain.games.cuccu.fairness import shuffled_round
from domain.games.cuccu.legacy import legacy_body, legacy_event
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state, is_terminal
from domain.games.cuccu.turns import DEAL, automatic_turn, bot_level, has_expert, has_live_human
from domain.games.cuccu.views import MatchView, redact, view
from domain.games.game import (
    HOST,
    Game,
    LegacyFormat,
    SafeChoice,
    Score,
    Standing,
    ranks_by_standing,
)  # fmt: skip
from domain.games.mixing import with_entropy
from domain.seats import SeatSpec

# --- hosting: what the service needs, in Cuccù's terms ----------------------------------------

#: a deal's salt: 32 bytes (the service has always used this length)
SALT_BYTES = 32
CHOICES: tuple[str, ...] = (
    "keep", "exchange", "inn_keep", "inn_ask_pay", "inn_accept", "inn_refuse", "next_round",
)  # fmt: skip
#: the most lives a match may start with (the rules set no bound; the API always had this one)
MAX_STARTING_LIVES: Final = 20


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a Cuccù match is created with, besides its seats and first dealer."""

    starting_lives: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=MAX_STARTING_LIVES,
            description=f"Lives per seat (1 to {MAX_STARTING_LIVES})",
        ),
    ] = 3


def create_command(
    seats: tuple[SeatSpec, ...], first_dealer: int, options: Mapping[str, Any]
) -> CreateMatch:
    return CreateMatch(
        seats=seats, starting_lives=int(options["starting_lives"]), first_dealer=first_dealer
    )


def host_turn(state: MatchState) -> str | int | None:
    turn = automatic_turn(state)
    return HOST if turn == DEAL else turn


def host_command(state: MatchState, rng: Any) -> StartRound:
    """The only host step of Cuccù is a round's deal."""
    return shuffled_round(rng, salt_bytes=SALT_BYTES)


def player_command(state: MatchState, seat: int, choice: str, rng: Any) -> Command:
    """``next_round`` is a deal with the host's chance (any seat may ask for it)."""
    if choice == "next_round":
        return host_command(state, rng)
    return Choose(seat=seat, choice=cast(Choice, choice))


def bot_command(state: MatchState, seat: int, rng: Any) -> Choose:
    choice = bot_choose(bot_level(state, seat), view(state, seat), rng)
    return Choose(seat=seat, choice=cast(Choice, choice))


#: a bots-only play-out at most this big (live seats × their lives) takes about a millisecond
#: of random or basic bots (4 seats × 3 lives: 1.1 ms, 85 events on the dev box): less than a
#: round trip to a worker process costs the serving process
SMALL_PLAY_OUT: Final = 48


def slow_bots(state: MatchState) -> bool:
    if has_expert(state):
        return True
    if has_live_human(state):
        return False
    alive = [lives for lives in state.lives if lives > 0]
    return len(alive) * sum(alive) > SMALL_PLAY_OUT


def command_meta(command: Command) -> dict[str, Any]:
    # A round's pack and salt live in its round_started event (hidden until round_ended);
    # metadata names the command only, so it can never carry a card.
    if isinstance(command, StartRound):
        return {"type": "start_round"}
    return cast(dict[str, Any], msgspec.to_builtins(command))


def summary(state: MatchState) -> Standing:
    return Standing(
        status=state.status,
        standing=state.lives,
        winners=() if state.winner is None else (state.winner,),
        # the rounds dealt so far, the one in play included, as the other games count them
        # (``rounds_played`` counts a round once it has ended: 0 while round 1 is played)
        rounds=state.rounds_played + (1 if state.status == "in_round" else 0),
        version=state.version,
        seats=state.seats,
    )


#: what a timeout answers each prompt with: keep one's card (a turn, the inn's refusal), and
#: as the innkeeper accept the pledge, the one answer that keeps both cards where they are
_SAFE: Final[dict[str, str]] = {
    "turn": "keep", "dealer_turn": "keep", "inn_choice": "inn_keep",
    "inn_response": "inn_accept", "next_round": "next_round",
}  # fmt: skip


def safe_choice(state: MatchState) -> SafeChoice | None:
    """The decision people owe now and its timeout's answer (``domain.clock``)."""
    if host_turn(state) is not None:
        return None
    decision = pending(state)
    if decision is None or decision.kind not in _SAFE:
        return None
    return SafeChoice(decision.seat, _SAFE[decision.kind])


def final_ranks(s: MatchState) -> tuple[int, ...]:
    """Places at the end: the winner(s) first, then by lives left (docs/API.md, "Ratings")."""
    return ranks_by_standing(summary(s))


def _dealt(event: Any) -> int | None:
    return event.round if isinstance(event, RoundStarted) else None


def _opened(event: Any) -> tuple[int, tuple[str, ...], str] | None:
    if isinstance(event, RoundEnded):
        return event.round, event.pack, event.salt
    return None


#: where the shared entropy protocol (domain.entropy) finds this game's decks
DECKS: Final = DeckHooks(dealt=_dealt, opened=_opened, noun="round")

#: the game as its own rules define it, before the shared entropy protocol wraps it
_RULES = Game(
    name="cuccu",
    title="Cuccù",
    created_event="match_created",
    event_type=Event,
    view_type=MatchView,
    initial=initial_state,
    apply=apply,
    evolve=evolve,
    fold=fold,
    view=view,
    redact=redact,
    is_over=is_terminal,
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    score=Score(field="lives", unit="lives left", one_winner=True),
    options_type=Options,
    create_command=create_command,
    errors=COMMON_ERRORS,
    automatic_turn=host_turn,
    host_command=host_command,
    player_command=player_command,
    choices=CHOICES,
    claim_command=ClaimSeat,
    bot_level=bot_level,
    bot_command=bot_command,
    slow_bots=slow_bots,
    command_meta=command_meta,
    summary=summary,
    final_ranks=final_ranks,
    read_event=event_from_json,
    audit=AUDIT,
    scenario_format=conformance.FORMAT,
    play_scenario=conformance.play,
    legacy=LegacyFormat(body=legacy_body, event=legacy_event),
    safe_choice=safe_choice,
)
GAME = with_entropy(_RULES, DECKS)
