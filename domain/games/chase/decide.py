"""``decide``: what happens when a command meets a state (CHASE §4, the scenario README's
canonical order of events).

As in the other games, each rule step is an event emitted onto the shared tape
(``domain.tape``) that folds it at once, so the next step reads the state exactly as a replay
will. A command runs on until the round needs a seat's answer, or until it is over.
"""

from __future__ import annotations

from domain.errors import DomainError
from domain.games.chase.cards import CARD_SET, is_king, is_low, value
from domain.games.chase.commands import Choose, ClaimSeat, Command, CreateMatch, StartRound
from domain.games.chase.config import config_errors
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    ChaseMatchCreated,
    CutExchanged,
    CutVoided,
    DealerKept,
    Event,
    ExchangeRequested,
    Kept,
    KingBlocked,
    LifeLost,
    LossReason,
    LowCardAnnounced,
    MatchWon,
    Reveal,
    RoundEnded,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    SeatClaimed,
    SeatEliminated,
    StockCut,
)  # fmt: skip
from domain.games.chase.evolve import evolve
from domain.games.chase.fairness import commitment
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState, RoundState, next_dealer, turn_order
from domain.tape import Decider, Tape

_Tape = Tape[MatchState, Event]


def _play(tape: _Tape, command: Command) -> None:
    """The rule steps ``command`` sets off, each emitted onto ``tape``."""
    if isinstance(command, Choose):
        _choose(tape, command)
    elif isinstance(command, StartRound):
        _start_round(tape, command)
    elif isinstance(command, CreateMatch):
        _create(tape, command)
    elif isinstance(command, ClaimSeat):
        _claim(tape, command)
    else:  # pragma: no cover - the union is closed
        raise DomainError("invalid_config", f"unknown command {command!r}")


_DECIDER = Decider(evolve, _play)
#: the events a command produces; raises DomainError and never changes the state
decide = _DECIDER.decide
#: ``decide`` plus the state after its events, without folding them twice
apply = _DECIDER.apply


# --- creation and the start of a round -------------------------------------------------------


def _create(tape: _Tape, c: CreateMatch) -> None:
    if tape.state.seats:
        raise DomainError("match_exists", "this match has already been created")
    errors = config_errors(c.config)
    if errors:
        raise DomainError("invalid_config", "; ".join(errors))
    cfg = c.config
    tape.emit(
        ChaseMatchCreated(
            cfg.seats,
            cfg.starting_lives,
            cfg.first_dealer,
            cfg.options.announce_low,
            cfg.options.king_cut_loses,
        )
    )


def _require_playing(state: MatchState) -> None:
    if not state.seats:
        raise DomainError("match_not_started", "the match has not been created")
    if state.status == "over":
        raise DomainError("match_over", "the match is over")


def _claim(tape: _Tape, c: ClaimSeat) -> None:
    state = tape.state
    if not state.seats:
        raise DomainError("match_not_started", "the match has not been created")
    if not 0 <= c.seat < len(state.seats):
        raise DomainError("unknown_seat", f"there is no seat {c.seat}")
    # a finished match's seats are taken, as in the other games (docs/API.md: 409 seat-taken)
    if state.seats[c.seat].kind != "open" or state.rounds_played or state.status == "over":
        raise DomainError("seat_taken", f"seat {c.seat} is not open")
    if not c.name.strip():
        raise DomainError("invalid_config", "a claimed seat needs a name")
    tape.emit(SeatClaimed(c.seat, c.name))


def _start_round(tape: _Tape, c: StartRound) -> None:
    state = tape.state
    _require_playing(state)
    if state.status == "in_round":
        raise DomainError("round_in_progress", "a round is being played")
    if any(spec.kind == "open" for spec in state.seats):
        raise DomainError("seats_open", "the first round starts when every open seat is claimed")
    if len(c.pack) != len(CARD_SET) or set(c.pack) != CARD_SET:
        raise DomainError("invalid_pack", "the pack must hold each of the 52 cards exactly once")
    try:
        if len(bytes.fromhex(c.salt)) < 16:
            raise ValueError
    except ValueError:
        raise DomainError("invalid_pack", "the salt must be at least 16 bytes of hex") from None
    participants = turn_order(state.dealer, state.lives)
    number = state.rounds_played + 1
    sealed = commitment(c.salt, c.pack)
    tape.emit(RoundStarted(number, state.dealer, participants, sealed, c.pack, c.salt))
    for seat in participants:  # one card each from the top, P[0] first, the dealer last (A6)
        rnd = tape.round
        tape.emit(CardDealt(seat, rnd.pack[rnd.stock_top]))


# --- decisions -------------------------------------------------------------------------------


def _choose(tape: _Tape, c: Choose) -> None:
    state = tape.state
    _require_playing(state)
    if not 0 <= c.seat < len(state.seats):
        raise DomainError("unknown_seat", f"there is no seat {c.seat}")
    step = pending(state)
    assert step is not None
    if step.kind == "claim_seat":
        raise DomainError("seats_open", "the first round starts when every open seat is claimed")
    if step.seat is None:
        raise DomainError("illegal_choice", f"the next step is {step.kind}, not a seat's choice")
    if step.seat != c.seat:
        raise DomainError("not_your_turn", f"seat {step.seat} must decide now, not {c.seat}")
    if c.choice not in step.choices:
        allowed = " or ".join(step.choices)
        raise DomainError("illegal_choice", f"seat {c.seat} must choose {allowed}, not {c.choice}")
    if step.kind == "turn":
        if c.choice == "keep":
            tape.emit(Kept(c.seat))
        else:
            _request(tape, c.seat)
    elif c.choice == "keep":
        tape.emit(DealerKept(c.seat))
    else:
        _cut(tape, c.seat)
    if tape.round.turn >= len(tape.round.participants):
        _score(tape)


def _request(tape: _Tape, requester: int) -> None:
    """§4.3: ask the next participant; a King blocks, anything else is swapped."""
    rnd = tape.round
    target = rnd.participants[rnd.turn + 1]  # a non-dealer always has one (§1)
    tape.emit(ExchangeRequested(requester, target))
    gives, gets = rnd.hands[requester], rnd.hands[target]
    assert gives is not None and gets is not None
    if is_king(gets):
        tape.emit(KingBlocked(target, requester, gets))  # always, unasked (A8)
        return
    tape.emit(CardsExchanged(requester, target, gets, gives))
    if tape.state.options.announce_low:  # the card the requester gave first (A20)
        if is_low(gives):
            tape.emit(LowCardAnnounced(target, gives))
        if is_low(gets):
            tape.emit(LowCardAnnounced(requester, gets))


def _cut(tape: _Tape, dealer: int) -> None:
    """§4.4: turn up the top of the stock; a King voids the exchange (A11–A13)."""
    rnd = tape.round
    card = rnd.pack[rnd.stock_top]  # never runs out: at most N + 1 <= 21 cards leave (A23)
    tape.emit(StockCut(dealer, card))
    if is_king(card):
        tape.emit(CutVoided(dealer))
        return
    gave = rnd.hands[dealer]
    assert gave is not None
    tape.emit(CutExchanged(dealer, gave, card))


# --- scoring and the end of the round (§4.5, §4.6) -------------------------------------------


def losers(rnd: RoundState, king_cut_loses: bool) -> tuple[int, ...]:
    """The round's losers, in turn order: the dealer alone after a cut King under
    ``king_cut_loses`` (A21), else every holder of the lowest value (ties all lose, A14)."""
    if king_cut_loses and rnd.king_cut:
        return (rnd.dealer,)
    values = {s: value(rnd.hands[s] or "") for s in rnd.participants}
    lowest = min(values.values())
    return tuple(s for s in rnd.participants if values[s] == lowest)


def _score(tape: _Tape) -> None:
    state, rnd = tape.state, tape.round
    revealed = tuple(Reveal(s, rnd.hands[s] or "") for s in rnd.participants)
    king_cut_loses = state.options.king_cut_loses
    lost = losers(rnd, king_cut_loses)
    tape.emit(RoundScored(revealed, lost))
    lives = state.lives
    if set(lost) == set(rnd.participants) and all(lives[s] == 1 for s in lost):
        tape.emit(RoundWipedOut(lost))  # nobody would be left: the round is void (A16)
    else:
        reason: LossReason = "king_cut" if king_cut_loses and rnd.king_cut else "lowest"
        for seat in lost:
            tape.emit(LifeLost(seat, reason, lives[seat] - 1))
        for seat in lost:
            if tape.state.lives[seat] == 0:
                tape.emit(SeatEliminated(seat))
    lives = tape.state.lives
    alive = [s for s in range(len(lives)) if lives[s] > 0]
    over = len(alive) == 1
    following = None if over else next_dealer(rnd.dealer, lives)
    tape.emit(RoundEnded(rnd.number, rnd.salt, rnd.pack, following))
    if over:
        tape.emit(MatchWon(alive[0]))
