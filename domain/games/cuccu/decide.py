"""``decide``: what happens when a command meets a state (RULES §4–§6, pseudocode §8).

Each rule step is written as an event emitted onto a tape (``domain.tape``) that folds it at
once, so the next step reads the state exactly as a replay will see it.
"""

from __future__ import annotations

from domain.errors import DomainError
from domain.games.cuccu.cards import CARD_SET, TWO_FOOLS_VALUE, rank, value
from domain.games.cuccu.commands import (
    BOT_LEVELS,
    Choose,
    ClaimSeat,
    Command,
    CreateMatch,
    StartRound,
)
from domain.games.cuccu.events import (
    CardDealt,
    CardRevealed,
    CardsExchanged,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    ExchangeReversed,
    HorseSkipped,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    LivesReset,
    LossReason,
    MatchCreated,
    MatchWon,
    PackExchanged,
    PledgeMade,
    Retargeted,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatClaimed,
    SeatEliminated,
)  # fmt: skip
from domain.games.cuccu.evolve import evolve
from domain.games.cuccu.fairness import commitment
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, RoundState
from domain.tape import Decider, Tape

MIN_SEATS, MAX_SEATS = 2, 20  # the pack cannot run out below 39 seats (§5.6)


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


# --- creation and rounds -----------------------------------------------------------------


def _create(tape: _Tape, c: CreateMatch) -> None:
    if tape.state.status != "new":
        raise DomainError("match_exists", "this match has already been created")
    n = len(c.seats)
    if not MIN_SEATS <= n <= MAX_SEATS:
        message = f"a match has {MIN_SEATS} to {MAX_SEATS} seats, not {n}"
        raise DomainError("invalid_config", message)
    if c.starting_lives < 1:
        raise DomainError("invalid_config", "starting lives must be at least 1")
    if not 0 <= c.first_dealer < n:
        raise DomainError("invalid_config", f"the first dealer must be a seat from 0 to {n - 1}")
    for i, seat in enumerate(c.seats):
        if not seat.name.strip():
            raise DomainError("invalid_config", f"seat {i} needs a name")
        if seat.kind == "bot" and seat.bot_level not in BOT_LEVELS:
            levels = ", ".join(BOT_LEVELS)
            raise DomainError("invalid_config", f"seat {i}: bot level must be one of {levels}")
        if seat.kind != "bot" and seat.bot_level is not None:
            raise DomainError("invalid_config", f"seat {i} is not a bot: it has no bot level")
    tape.emit(MatchCreated(c.seats, c.starting_lives, c.first_dealer))


def _require_started(state: MatchState) -> None:
    if state.status == "new":
        raise DomainError("match_not_started", "the match has not been created")


def _require_playing(state: MatchState) -> None:
    """Created and not over: the match still takes rounds and decisions."""
    _require_started(state)
    if state.status == "over":
        raise DomainError("match_over", "the match is over")


def _require_seat(state: MatchState, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise DomainError("unknown_seat", f"there is no seat {seat}")


def _claim(tape: _Tape, c: ClaimSeat) -> None:
    state = tape.state
    _require_started(state)
    _require_seat(state, c.seat)
    if state.seats[c.seat].kind != "open" or state.status != "between_rounds":
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
        raise DomainError("invalid_pack", "the pack must hold each of the 40 cards exactly once")
    try:
        if len(bytes.fromhex(c.salt)) < 16:
            raise ValueError
    except ValueError:
        raise DomainError("invalid_pack", "the salt must be at least 16 bytes of hex") from None
    n, dealer = len(state.seats), state.dealer
    participants = tuple(
        s for s in ((dealer + i) % n for i in range(1, n + 1)) if state.lives[s] > 0
    )
    number = state.rounds_played + 1
    sealed = commitment(c.salt, c.pack)
    tape.emit(RoundStarted(number, dealer, participants, sealed, c.pack, c.salt))
    _deal(tape, participants[0])


def _deal(tape: _Tape, seat: int) -> None:
    rnd = tape.round
    if rnd.hands[seat] is None:
        tape.emit(CardDealt(seat, rnd.pack[rnd.bottom]))


def _next_undealt(rnd: RoundState, seat: int) -> int:
    participants = rnd.participants
    for other in participants[participants.index(seat) + 1 :]:
        if rnd.hands[other] is None:
            return other
    raise AssertionError("a non-dealer always has an undealt participant after it (D26)")


# --- decisions -----------------------------------------------------------------------------


def _choose(tape: _Tape, c: Choose) -> None:
    state = tape.state
    _require_playing(state)
    _require_seat(state, c.seat)
    decision = pending(state)
    assert decision is not None
    if decision.kind == "next_round":
        raise DomainError("illegal_choice", "the round is over: the next step is next_round")
    if decision.kind == "claim_seat":
        raise DomainError("seats_open", "the first round starts when every open seat is claimed")
    if decision.seat != c.seat:
        raise DomainError("not_your_turn", f"seat {decision.seat} must decide now, not {c.seat}")
    if c.choice not in decision.choices:
        allowed = " or ".join(decision.choices)
        raise DomainError("illegal_choice", f"seat {c.seat} must choose {allowed}, not {c.choice}")

    rnd = tape.round
    if decision.kind == "turn":
        if c.choice == "keep":
            tape.emit(Kept(c.seat))
            _deal(tape, tape.round.current)  # type: ignore[arg-type]
        else:
            target = _next_undealt(rnd, c.seat)
            tape.emit(ExchangeRequested(c.seat, target))
            _resolve(tape, c.seat, target)
    elif decision.kind == "dealer_turn":
        if c.choice == "exchange" and rnd.bottom >= rnd.top:
            tape.emit(PackExchanged(c.seat, "bottom", rnd.hands[c.seat], rnd.pack[rnd.bottom]))
        else:  # a keep, or the unreachable empty-pack fallback of D23
            tape.emit(DealerKept(c.seat))
        _score(tape)
    elif decision.kind == "inn_choice":
        tape.emit(InnChoiceMade(c.seat, "keep" if c.choice == "inn_keep" else "ask_pay"))
    else:  # inn_response
        requester = rnd.requester
        assert requester is not None
        if c.choice == "inn_accept":
            tape.emit(InnResponded(c.seat, "accept"))
            tape.emit(PledgeMade(innkeeper=c.seat, requester=requester))
        else:
            tape.emit(InnResponded(c.seat, "refuse"))
            _swap(tape, requester, c.seat)


def _swap(tape: _Tape, requester: int, target: int) -> None:
    hands = tape.round.hands
    tape.emit(CardsExchanged(requester, target, hands[target], hands[requester]))


def _resolve(tape: _Tape, requester: int, target: int) -> None:
    """The target's dealt card decides (§5.3)."""
    while True:
        _deal(tape, target)
        rnd = tape.round
        card = rnd.hands[target]
        assert card is not None
        kind = rank(card)
        if kind == "horse":
            tape.emit(CardRevealed(target, card))
            tape.emit(HorseSkipped(target))
            if target == rnd.dealer:  # D7: inert draw from the top, then the dealer's turn
                tape.emit(PackExchanged(requester, "top", rnd.hands[requester], rnd.pack[rnd.top]))
                return
            target = _next_undealt(rnd, target)
            tape.emit(Retargeted(requester, target))
            continue
        if kind in ("cuckoo", "hunter", "cat"):
            chain = rnd.chain
            tape.emit(CardRevealed(target, card))
            tape.emit(ExchangeRefused(target, requester))
            if kind != "cuckoo":
                _lose_life(tape, requester, kind)  # type: ignore[arg-type]
            if kind == "cat":
                for a, b in reversed(chain):  # D10: undo the chain, most recent first
                    hands = tape.round.hands
                    tape.emit(ExchangeReversed(a, b, hands[b], hands[a]))
            return
        if kind == "inn":
            tape.emit(CardRevealed(target, card))  # the requester now chooses (§5.3.6)
            return
        _swap(tape, requester, target)  # a plain card must be exchanged
        return


def _lose_life(tape: _Tape, seat: int, reason: LossReason, on_behalf_of: int | None = None) -> None:
    lives = tape.state.lives[seat]
    tape.emit(LifeLost(seat, reason, max(0, lives - 1), on_behalf_of))
    if lives == 1 and reason in ("hunter", "cat"):
        tape.emit(SeatEliminated(seat))


# --- scoring and the end of the round (§6) ---------------------------------------------------


def losers(cards: tuple[str, ...]) -> tuple[int, ...]:
    """Indices into ``cards`` (the live cards) of every lowest card (§6.2, §6.3, D16, D17)."""
    candidates = [i for i, card in enumerate(cards) if rank(card) != "cuckoo"]
    if not candidates:
        return ()
    fools = [i for i in candidates if rank(cards[i]) == "fool"]
    others = [value(cards[i]) for i in candidates if rank(cards[i]) != "fool"]
    # Two fools rank 14½; one ties with the lowest other card, or loses alone against cuckoos.
    lone_fool = min(others) if others else float("-inf")
    fool_value = TWO_FOOLS_VALUE if len(fools) == 2 else lone_fool
    values = [fool_value if rank(cards[i]) == "fool" else value(cards[i]) for i in candidates]
    lowest = min(values)
    return tuple(i for i, v in zip(candidates, values, strict=True) if v == lowest)


def _score(tape: _Tape) -> None:
    state, rnd = tape.state, tape.round
    before = state.lives
    live = tuple(sorted(s for s in rnd.participants if before[s] > 0))
    dead = tuple(sorted(s for s in rnd.participants if before[s] == 0))
    cards = tuple(rnd.hands[s] or "" for s in live)
    losing = tuple(live[i] for i in losers(cards))
    tape.emit(RoundScored(live, dead, losing, cards))

    pledged = dict(rnd.pledges)
    for seat in losing:  # one snapshot, applied in ascending loser order (D18)
        innkeeper = pledged.get(seat)
        hand = rnd.hands[seat]
        if innkeeper is not None and hand and rank(hand) == "zero" and before[innkeeper] > 0:
            _lose_life(tape, innkeeper, "inn_pledge", on_behalf_of=seat)
        else:
            _lose_life(tape, seat, "scoring")
    after = tape.state.lives
    for seat in range(len(after)):
        if before[seat] > 0 and after[seat] == 0:
            tape.emit(SeatEliminated(seat))

    n = len(after)
    if not any(after):
        tape.emit(LivesReset(state.starting_lives))  # D19: every seat returns
    alive = [s for s in range(n) if tape.state.lives[s] > 0]
    winner = alive[0] if len(alive) == 1 else None
    next_dealer = None
    if winner is None:
        next_dealer = next(
            s for s in ((rnd.dealer + i) % n for i in range(1, n + 1)) if tape.state.lives[s] > 0
        )
    tape.emit(RoundEnded(rnd.number, rnd.salt, rnd.pack, next_dealer))
    if winner is not None:
        tape.emit(MatchWon(winner))
