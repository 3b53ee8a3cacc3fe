"""Chase the Ace behind the game seam (``domain.games.game.Game``).

Everything here is a plain reference to the package's modules, or a few lines that say, in the
game's own terms, what a host needs (who acts when no person must, the host's deal, the bots'
commands, the matches row); nothing of the rules is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, cast

import msgspec

from domain.entropy import DeckHooks
from domain.errors import COMMON_ERRORS
from domain.games.chase import commands, conformance, decide, events, evolve, pending, state, views
from domain.games.chase.audit import AUDIT
from domain.games.chase.bots import NEEDS_LOG
from domain.games.chase.bots import choose as bot_choose
from domain.games.chase.config import (
    DEFAULT_LIVES,
    MAX_LIVES,
    MAX_SEATS,
    MIN_LIVES,
    MIN_SEATS,
    Config,
)
from domain.games.chase.config import Options as Rules
from domain.games.chase.fairness import shuffled_round
from domain.games.game import HOST, Game, SafeChoice, Score, Standing, ranks_by_standing
from domain.games.mixing import with_entropy
from domain.seats import SeatSpec

# --- hosting: what the service needs, in Chase the Ace's terms -------------------------------

#: a round's salt: 32 bytes, as the service salts the other games' shuffles
SALT_BYTES: Final = 32
#: what a player may send: both prompts' answers, and ``next_round`` between rounds
CHOICES: Final[tuple[str, ...]] = (*commands.CHOICES, "next_round")


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a match is created with, besides its seats and first dealer (A4, A20, A21)."""

    starting_lives: Annotated[
        int,
        msgspec.Meta(
            ge=MIN_LIVES, le=MAX_LIVES, description=f"Lives per seat ({MIN_LIVES} to {MAX_LIVES})"
        ),
    ] = DEFAULT_LIVES
    announce_low: Annotated[bool, msgspec.Meta(description="The optional rule A20 on or off")] = (
        False
    )
    king_cut_loses: Annotated[bool, msgspec.Meta(description="The optional rule A21 on or off")] = (
        False
    )


def create_command(
    seats: tuple[SeatSpec, ...], first_dealer: int, options: Mapping[str, Any]
) -> commands.CreateMatch:
    return commands.CreateMatch(
        Config(
            seats=seats,
            starting_lives=int(options["starting_lives"]),
            first_dealer=first_dealer,
            options=Rules(bool(options["announce_low"]), bool(options["king_cut_loses"])),
        )
    )


def has_live_human(s: state.MatchState) -> bool:
    """A human seat still has lives: it may start the next round itself."""
    return any(spec.kind == "human" and s.lives[i] > 0 for i, spec in enumerate(s.seats))


def automatic_turn(s: state.MatchState) -> str | int | None:
    """Round 1 is dealt as soon as every seat is taken; a later round by itself only once no
    human seat has lives left to start it (as in Cuccù). A bot answers its own prompts."""
    step = pending.pending(s)
    if step is None or step.kind == "claim_seat":
        return None
    if step.kind == "next_round":
        return None if s.rounds_played > 0 and has_live_human(s) else HOST
    assert step.seat is not None
    return step.seat if s.seats[step.seat].kind == "bot" else None


def host_command(s: state.MatchState, rng: Any) -> commands.StartRound:
    """The only host step: a round's deal, the 52 cards shuffled afresh (A5)."""
    return shuffled_round(rng, salt_bytes=SALT_BYTES)


def player_command(s: state.MatchState, seat: int, choice: str, rng: Any) -> commands.Command:
    """``next_round`` is a deal with the host's chance (any seat may ask for it)."""
    if choice == "next_round":
        return host_command(s, rng)
    return commands.Choose(seat=seat, choice=cast(commands.Choice, choice))


def bot_level(s: state.MatchState, seat: int) -> str:
    """The level of the bot at ``seat`` (``random`` if it was created without one)."""
    return s.seats[seat].bot_level or "random"


def bot_command(s: state.MatchState, seat: int, rng: Any) -> commands.Choose:
    level = bot_level(s, seat)
    seen = views.view(s, seat, with_log=level in NEEDS_LOG)
    return commands.Choose(seat=seat, choice=cast(commands.Choice, bot_choose(level, seen, rng)))


def slow_bots(s: state.MatchState) -> bool:
    # Every bot decides in microseconds (the expert reads one round's log); only a long
    # play-out between bots alone is worth running off the event loop.
    return not has_live_human(s)


def command_meta(command: commands.Command) -> dict[str, Any]:
    # A round's pack and salt live in its round_started event (hidden until round_ended);
    # metadata names the command only, so it can never carry a card.
    if isinstance(command, commands.StartRound):
        return {"type": "start_round"}
    return cast(dict[str, Any], msgspec.to_builtins(command))


def summary(s: state.MatchState) -> Standing:
    return Standing(
        status=s.status,
        standing=s.lives,
        winners=() if s.winner is None else (s.winner,),
        rounds=s.rounds_played,
        version=s.version,
        seats=s.seats,
    )


def final_ranks(s: state.MatchState) -> tuple[int, ...]:
    """Places at the end: the winner(s) first, then by lives left (docs/API.md, "Ratings")."""
    return ranks_by_standing(summary(s))


#: what a timeout answers each prompt with: keep one's card (a turn, and the dealer's)
_SAFE: Final[dict[str, str]] = {"turn": "keep", "dealer_turn": "keep", "next_round": "next_round"}


def safe_choice(s: state.MatchState) -> SafeChoice | None:
    """The decision people owe now and its timeout's answer (``domain.clock``)."""
    if automatic_turn(s) is not None:
        return None
    step = pending.pending(s)
    if step is None or step.kind not in _SAFE:
        return None
    return SafeChoice(step.seat, _SAFE[step.kind])


def _dealt(event: Any) -> int | None:
    return event.round if isinstance(event, events.RoundStarted) else None


def _opened(event: Any) -> tuple[int, tuple[str, ...], str] | None:
    if isinstance(event, events.RoundEnded):
        return event.round, event.pack, event.salt
    return None


#: where the shared entropy protocol (domain.entropy) finds this game's decks
DECKS: Final = DeckHooks(dealt=_dealt, opened=_opened, noun="round")

#: the game as its own rules define it, before the shared entropy protocol wraps it
_RULES = Game(
    name="chase",
    title="Ranter-Go-Round",
    created_event="chase_match_created",
    event_type=events.Event,
    view_type=views.MatchView,
    initial=state.initial_state,
    apply=decide.apply,
    evolve=evolve.evolve,
    fold=evolve.fold,
    view=views.view,
    redact=views.redact,
    is_over=state.is_over,
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    score=Score(field="lives", unit="lives left", one_winner=True),
    options_type=Options,
    create_command=create_command,
    errors=COMMON_ERRORS,
    automatic_turn=automatic_turn,
    host_command=host_command,
    player_command=player_command,
    choices=CHOICES,
    claim_command=commands.ClaimSeat,
    bot_level=bot_level,
    bot_command=bot_command,
    slow_bots=slow_bots,
    command_meta=command_meta,
    summary=summary,
    final_ranks=final_ranks,
    read_event=events.event_from_json,
    audit=AUDIT,
    scenario_format=conformance.FORMAT,
    play_scenario=conformance.play,
    safe_choice=safe_choice,
)
GAME = with_entropy(_RULES, DECKS)
