"""Cucco 21 behind the game seam (``domain.games.game.Game``).

Everything here is a plain reference to the package's modules, or a few lines that say, in the
game's own terms, what a host needs (who acts when no person must, the host's shuffles, the
bots' commands, the matches row); nothing of the rules is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, cast

import msgspec

from domain.entropy import DeckHooks
from domain.errors import COMMON_ERRORS
from domain.games.cucco21 import (
    commands,
    conformance,
    decide,
    events,
    evolve,
    pending,
    state,
    views,
)
from domain.games.cucco21.audit import AUDIT
from domain.games.cucco21.bots import NEEDS_LOG
from domain.games.cucco21.bots import choose as bot_choose
from domain.games.cucco21.cards import CARDS
from domain.games.cucco21.config import (
    DEFAULT_CHIPS,
    MAX_CHIPS,
    MAX_SEATS,
    MIN_CHIPS,
    MIN_SEATS,
    Config,
)
from domain.games.cucco21.fairness import shuffled
from domain.games.game import HOST, Game, SafeChoice, Score, Standing, ranks_by_standing
from domain.games.mixing import with_entropy
from domain.seats import SeatSpec

# --- hosting: what the service needs, in Cucco 21's terms -----------------------------------

#: a deck's salt: 32 bytes, as the service salts Cuccù's rounds (C27 asks for at least 16)
SALT_BYTES: Final = 32
#: what a player may send: every prompt's answers, and ``next_round`` between rounds
CHOICES: Final[tuple[str, ...]] = (*commands.CHOICES, "next_round")
#: the most sets a game may be limited to (the rules set no bound; the API always had this one)
MAX_SETS: Final = 1000


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a Cucco 21 game is created with, besides its seats and first dealer (§2)."""

    starting_chips: Annotated[
        int,
        msgspec.Meta(
            ge=MIN_CHIPS, le=MAX_CHIPS, description=f"Chips per seat ({MIN_CHIPS} to {MAX_CHIPS})"
        ),
    ] = DEFAULT_CHIPS
    powers: Annotated[bool, msgspec.Meta(description="The six special cards' powers on or off")] = (
        True
    )
    max_sets: (
        Annotated[
            int,
            msgspec.Meta(
                ge=1,
                le=MAX_SETS,
                description="End after this many sets; omitted or null, play until a seat is "
                "bankrupt",
            ),
        ]
        | None
    ) = None


def create_command(
    seats: tuple[SeatSpec, ...], first_dealer: int, options: Mapping[str, Any]
) -> commands.CreateGame:
    return commands.CreateGame(
        Config(
            seats=seats,
            starting_chips=int(options["starting_chips"]),
            powers=bool(options["powers"]),
            max_sets=options["max_sets"],
            first_dealer=first_dealer,
        )
    )


def has_live_human(s: state.GameState) -> bool:
    """A human seat is not bankrupt: it may start the next round itself."""
    return any(
        spec.kind == "human" and not (s.bankrupt and s.bankrupt[i])
        for i, spec in enumerate(s.seats)
    )


def automatic_turn(s: state.GameState) -> str | int | None:
    """Every shuffle is the host's; the first round starts as soon as every seat is taken, a
    later one by itself only once no human seat is left in the game (as in Cuccù)."""
    step = pending.pending(s)
    if step is None or step.kind == "claim_seat":
        return None
    if step.kind == "shuffle":
        return HOST
    if step.kind == "next_round":
        return None if s.rounds_played > 0 and has_live_human(s) else HOST
    assert step.seat is not None
    return step.seat if s.seats[step.seat].kind == "bot" else None


def host_command(s: state.GameState, rng: Any) -> commands.Command:
    """A shuffle of the pile the step names (all the cards, or the discard pile), or the next
    round's start."""
    step = pending.pending(s)
    if step is not None and step.kind == "shuffle":
        return shuffled(CARDS if s.deck_number == 0 else s.discard, rng, salt_bytes=SALT_BYTES)
    return commands.StartRound()


def player_command(s: state.GameState, seat: int, choice: str, rng: Any) -> commands.Command:
    if choice == "next_round":
        return commands.StartRound()
    return commands.Choose(seat=seat, choice=cast(commands.Choice, choice))


def bot_level(s: state.GameState, seat: int) -> str:
    return s.seats[seat].bot_level or "random"


def bot_command(s: state.GameState, seat: int, rng: Any) -> commands.Choose:
    level = bot_level(s, seat)
    seen = views.view(s, seat, with_log=level in NEEDS_LOG)
    return commands.Choose(seat=seat, choice=cast(commands.Choice, bot_choose(level, seen, rng)))


def slow_bots(s: state.GameState) -> bool:
    expert = any(spec.kind == "bot" and spec.bot_level == "expert" for spec in s.seats)
    return expert or not has_live_human(s)


def command_meta(command: commands.Command) -> dict[str, Any]:
    # a deck's order and salt live in its deck_shuffled event, hidden until deck_opened (C27)
    if isinstance(command, commands.Shuffle):
        return {"type": "shuffle"}
    return cast(dict[str, Any], msgspec.to_builtins(command))


def summary(s: state.GameState) -> Standing:
    return Standing(
        status=state.shown_status(s),
        standing=s.chips,
        winners=s.winners,
        rounds=s.rounds_played,
        version=s.version,
        seats=s.seats,
    )


def final_ranks(s: state.GameState) -> tuple[int, ...]:
    """Places at the end: the winner(s) first, then by chips left (docs/API.md, "Ratings")."""
    return ranks_by_standing(summary(s))


#: what a timeout answers each prompt with: keep one's card on a turn, refuse (or send on) a
#: request, decline a Ceremony claim; an ``asked`` prompt lists that answer first (or ``accept``
#: alone, when the card has no power)
_SAFE: Final[dict[str, str]] = {"turn": "keep", "ceremony": "decline", "next_round": "next_round"}


def safe_choice(s: state.GameState) -> SafeChoice | None:
    """The decision people owe now and its timeout's answer (``domain.clock``)."""
    if automatic_turn(s) is not None:
        return None
    step = pending.pending(s)
    if step is None:
        return None
    if step.kind == "asked":
        return SafeChoice(step.seat, step.choices[0])
    if step.kind not in _SAFE:
        return None
    return SafeChoice(step.seat, _SAFE[step.kind])


def _dealt(event: Any) -> int | None:
    return event.number if isinstance(event, events.DeckShuffled) else None


def _opened(event: Any) -> tuple[int, tuple[str, ...], str] | None:
    if isinstance(event, events.DeckOpened):
        return event.number, event.order, event.salt
    return None


#: where the shared entropy protocol (domain.entropy) finds this game's decks
DECKS: Final = DeckHooks(dealt=_dealt, opened=_opened, noun="deck")

#: the game as its own rules define it, before the shared entropy protocol wraps it
_RULES = Game(
    name="cucco21",
    title="Cucco 21",
    created_event="game_created",
    event_type=events.Event,
    view_type=views.GameView,
    initial=state.initial_state,
    apply=decide.apply,
    evolve=evolve.evolve,
    fold=evolve.fold,
    view=views.view,
    redact=views.redact,
    is_over=state.is_over,
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    score=Score(field="chips", unit="chips", one_winner=False),
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
