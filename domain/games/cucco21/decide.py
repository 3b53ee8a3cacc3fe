"""``decide``: what happens when a command meets a state (CUCCO21 §4–§8, README canonical order).

As in Cuccù's ``domain/games/cuccu/decide.py``, each rule step is an event emitted onto the
shared tape (``domain.tape``) that folds it at once, so the next step reads the state exactly as
a replay will. After every command the round runs on by itself until it needs a seat's answer
or a shuffle (``_advance``).
"""

from __future__ import annotations

from domain.errors import DomainError
from domain.games.cucco21.cards import (
    CARDS,
    CAT,
    CLOWN,
    DRAWN_CLOWN_RANK,
    HORSE,
    HOUSE,
    LOVERS,
    value,
)  # fmt: skip
from domain.games.cucco21.commands import (
    Choose,
    ClaimSeat,
    Command,
    CreateGame,
    Shuffle,
    StartRound,
)
from domain.games.cucco21.config import PENALTY, config_errors, next_round_card
from domain.games.cucco21.events import (
    Asked,
    BoxTaken,
    CardDealt,
    CardDrawn,
    ChipsPaid,
    Claimed,
    DeckDiscarded,
    DeckOpened,
    DeckShuffled,
    Declined,
    Died,
    Event,
    GameCreated,
    GameEnded,
    Kept,
    MadeOut,
    OutReason,
    PayReason,
    PowerDiscarded,
    Refused,
    Reveal,
    RevealedDiscarded,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatBankrupted,
    SeatClaimed,
    SentOn,
    SetEnded,
    SetStarted,
    TakenBack,
    Traded,
)  # fmt: skip
from domain.games.cucco21.evolve import evolve
from domain.games.cucco21.fairness import commitment
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, RoundState, is_holder, next_holder, origin
from domain.tape import Decider, Tape

_Tape = Tape[GameState, Event]


def _play(tape: _Tape, command: Command) -> None:
    """The rule steps ``command`` sets off, each emitted onto ``tape``."""
    if isinstance(command, Choose):
        _choose(tape, command)
    elif isinstance(command, Shuffle):
        _shuffle(tape, command)
    elif isinstance(command, StartRound):
        _start_round(tape)
    elif isinstance(command, CreateGame):
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


# --- creation, shuffles, the start of a round -----------------------------------------------


def _create(tape: _Tape, c: CreateGame) -> None:
    if tape.state.seats:
        raise DomainError("match_exists", "this game has already been created")
    errors = config_errors(c.config)
    if errors:
        raise DomainError("invalid_config", "; ".join(errors))
    cfg = c.config
    tape.emit(
        GameCreated(cfg.seats, cfg.starting_chips, cfg.powers, cfg.max_sets, cfg.first_dealer)
    )


def _claim(tape: _Tape, c: ClaimSeat) -> None:
    state = tape.state
    if not state.seats:
        raise DomainError("match_not_started", "the game has not been created")
    if not 0 <= c.seat < len(state.seats):
        raise DomainError("unknown_seat", f"there is no seat {c.seat}")
    # a finished game's seats are taken, as in Cuccù (docs/API.md: 409 seat-taken)
    if state.seats[c.seat].kind != "open" or state.rounds_played or state.status == "over":
        raise DomainError("seat_taken", f"seat {c.seat} is not open")
    if not c.name.strip():
        raise DomainError("invalid_config", "a claimed seat needs a name")
    tape.emit(SeatClaimed(c.seat, c.name))


def _require_playing(state: GameState) -> None:
    if not state.seats:
        raise DomainError("match_not_started", "the game has not been created")
    if state.status == "over":
        raise DomainError("match_over", "the game is over")


def _shuffle(tape: _Tape, c: Shuffle) -> None:
    state = tape.state
    _require_playing(state)
    step = pending(state)
    if step is None or step.kind != "shuffle":
        raise DomainError("illegal_choice", "no deck is to be shuffled now")
    pile = CARDS if state.deck_number == 0 else state.discard
    if len(c.order) != len(pile) or sorted(c.order) != sorted(pile):
        message = f"the deck must be a permutation of the {len(pile)} cards to shuffle"
        raise DomainError("invalid_pack", message)
    try:
        if len(bytes.fromhex(c.salt)) < 16:
            raise ValueError
    except ValueError:
        raise DomainError("invalid_pack", "the salt must be at least 16 bytes of hex") from None
    number = state.deck_number + 1
    tape.emit(DeckShuffled(number, len(c.order), commitment(c.salt, c.order), c.order, c.salt))
    _advance(tape)


def _start_round(tape: _Tape) -> None:
    state = tape.state
    _require_playing(state)
    step = pending(state)
    if step is not None and step.kind == "claim_seat":
        raise DomainError("seats_open", "the first round starts when every open seat is claimed")
    if step is None or step.kind != "next_round":
        raise DomainError("round_in_progress", "a round is being played or a deck shuffled")
    n, dealer = len(state.seats), state.dealer
    order = tuple(s for s in ((dealer + i) % n for i in range(1, n + 1)) if state.alive[s])
    card = state.round_card
    tape.emit(RoundStarted(state.set_number, state.rounds_played + 1, card, dealer, order))
    if card == "1":  # §4.1 step 1, §5.1
        for seat in order:
            _pay(tape, seat, 1, "box", "ante")
        if sum(tape.state.alive) < 2:
            _end_round(tape, undecided=False)
            return
    _advance(tape)


def _pay(tape: _Tape, seat: int, amount: int, to: int | str, reason: PayReason) -> None:
    """*pay* (§5.4, C23, R12): what the seat has, up to ``amount``; short means bankrupt."""
    state = tape.state
    has = state.chips[seat]
    paid = min(has, amount)
    if paid >= 1:
        tape.emit(ChipsPaid(seat, paid, "box" if to == "box" else int(to), reason))
    if has < amount:
        rnd = tape.round
        # R4: a seat bankrupted at scoring leaves its card on the table until the discard.
        card = rnd.hands[seat] if rnd.phase != "scoring" else None
        tape.emit(SeatBankrupted(seat, reason, card))


# --- the round runs on until it needs an answer -------------------------------------------


def _advance(tape: _Tape) -> None:
    while tape.state.status == "in_round":
        state, rnd = tape.state, tape.round
        if rnd.phase == "deal":
            if state.deck_empty:
                return  # a reshuffle first (§4.7)
            seat = next(s for s in rnd.turn_order if state.alive[s] and rnd.hands[s] is None)
            tape.emit(CardDealt(seat, state.deck_cards[state.deck_top]))
            continue
        if rnd.drawer is not None:
            if not _draw(tape, rnd.drawer):
                return  # a reshuffle first
            continue
        if rnd.turn < len(rnd.turn_order) or rnd.target is not None:
            return  # a turn or a request waits for its seat
        if any(is_holder(state, rnd, seat) for seat in rnd.claims):
            return  # a Ceremony prompt waits
        _score(tape)
        return


def _draw(tape: _Tape, d: int) -> bool:
    """Steps 2–3 of a deck trade (§4.6); False when the deck is empty and must be reshuffled."""
    powers = tape.state.powers
    while True:
        state = tape.state
        if state.deck_empty:
            return False
        card = state.deck_cards[state.deck_top]
        tape.emit(CardDrawn(d, card))
        kind = value(card) if powers else 0
        if kind in (HOUSE, HORSE):
            tape.emit(PowerDiscarded(d, card))
            continue
        if kind in (LOVERS, CAT):
            rnd = tape.round
            given = rnd.given
            assert given is not None
            tape.emit(PowerDiscarded(d, card))
            tape.emit(TakenBack(d, given))  # C17, C18, R1
            if kind == CAT:
                _cat_strikes(tape, origin(tape.state, given))
        return True  # anything else is kept (no event beyond the draw)


def _cat_strikes(tape: _Tape, seat: int) -> None:
    """C12, C18: the card's origin ``seat`` is out, unless already out this round or dead."""
    state, rnd = tape.state, tape.round
    if state.alive[seat] and seat not in rnd.out:
        _out(tape, seat, "cat")


def _out(tape: _Tape, seat: int, reason: OutReason) -> None:
    """Out by a power (§4.5): discard, then die in sudden death or pay the round's penalty."""
    card = tape.round.hands[seat]
    assert card is not None
    tape.emit(MadeOut(seat, reason, card))
    round_card = tape.round.round_card
    if round_card == "SD":
        tape.emit(Died(seat, reason))
    else:
        _pay(tape, seat, PENALTY[round_card], "box", "penalty")


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
    rnd = tape.round
    if step.kind == "turn":
        if c.choice == "keep":
            tape.emit(Kept(c.seat))
        else:
            _trade_from(tape, c.seat, c.seat)
    elif step.kind == "asked":
        asker = rnd.asker
        assert asker is not None
        if c.choice == "accept":
            _trade(tape, asker, c.seat)
        elif c.choice == "refuse":
            tape.emit(Refused(c.seat, asker))
            card = tape.round.hands[c.seat]
            offered = tape.round.hands[asker]
            if card is not None and value(card) == CAT and offered is not None:
                _cat_strikes(tape, origin(tape.state, offered))  # C12
        else:  # send_on (C8)
            tape.emit(SentOn(c.seat, asker))
            _trade_from(tape, asker, c.seat)
    else:  # ceremony
        if c.choice == "claim":
            tape.emit(Claimed(c.seat))
            n = len(state.seats)
            for payer in ((c.seat + i) % n for i in range(1, n)):  # R3
                if not tape.state.bankrupt[payer]:
                    _pay(tape, payer, 1, c.seat, "ceremony")
        else:
            tape.emit(Declined(c.seat))
    _advance(tape)


def _trade_from(tape: _Tape, asker: int, after: int) -> None:
    """``asker`` asks the next holder after ``after``, or trades with the deck (C8, C9)."""
    target = next_holder(tape.state, tape.round, after)
    if target is None:
        card = tape.round.hands[asker]
        assert card is not None
        tape.emit(DeckDiscarded(asker, card))
        _draw(tape, asker)
        return
    tape.emit(Asked(asker, target))
    # With powers on, every target is prompted, `accept` its only choice when its card has no
    # power (``pending``): whether a seat is prompted must not tell the table what it holds.
    # With powers off no card answers, as everyone knows: the trade happens at once.
    if not tape.state.powers:
        _trade(tape, asker, target)


def _trade(tape: _Tape, asker: int, target: int) -> None:
    """§4.4: swap; then, powers on, the Clown check (asker first); the Ceremony prompts follow
    from the state (``pending``)."""
    hands = tape.round.hands
    gives, gets = hands[asker], hands[target]
    assert gives is not None and gets is not None
    tape.emit(Traded(asker, target, gets, gives))
    if tape.state.powers:
        for seat, received in ((asker, gets), (target, gives)):
            if value(received) == CLOWN:
                _out(tape, seat, "clown")


# --- scoring and the end of the round (§4.8, §7, §8) -----------------------------------------


def rank(rnd: RoundState, seat: int, powers: bool) -> int:
    """The rank of ``seat``'s card at scoring: its value, 22 for a Clown it drew and kept (C15)."""
    card = rnd.hands[seat]
    assert card is not None
    if powers and (seat, card) in rnd.drawn_clowns:
        return DRAWN_CLOWN_RANK
    return value(card)


def _score(tape: _Tape) -> None:
    state, rnd = tape.state, tape.round
    holders = [s for s in rnd.turn_order if is_holder(state, rnd, s)]
    revealed = tuple(Reveal(s, rnd.hands[s] or "") for s in holders)
    out: tuple[int, ...] = ()
    if len(holders) >= 2:  # C21
        ranks = {s: rank(rnd, s, state.powers) for s in holders}
        lowest = min(ranks.values())
        out = tuple(s for s in holders if ranks[s] == lowest)
    tape.emit(RoundScored(revealed, out))
    undecided = False
    if rnd.round_card == "SD":
        if len(out) == 1:
            tape.emit(Died(out[0], "scoring"))
        elif len(out) == 2 and all(value(rnd.hands[s] or "") == CLOWN for s in out):
            # two Clowns tied for lowest (C22, R5): the set is undecided
            undecided = True
    else:
        for seat in out:
            _pay(tape, seat, PENALTY[rnd.round_card], "box", "penalty")
    tape.emit(RevealedDiscarded(tuple(r.card for r in revealed)))
    _end_round(tape, undecided)


def _end_round(tape: _Tape, undecided: bool) -> None:
    state = tape.state
    for number in state.seals.unopened:  # decks used up this round: nothing they hid is in play now
        tape.emit(DeckOpened(number, state.seals.decks[number - 1], state.seals.salts[number - 1]))
    n = len(state.seats)
    alive = [s for s in range(n) if state.alive[s]]
    set_over = undecided or len(alive) < 2
    if not set_over:
        seats = ((state.dealer + i) % n for i in range(1, n + 1))
        dealer = next(s for s in seats if state.alive[s])
        tape.emit(RoundEnded(next_round_card(state.round_card), dealer))
        return
    survivor = alive[0] if len(alive) == 1 and not undecided else None
    tape.emit(SetEnded(survivor, undecided))
    if survivor is not None:
        tape.emit(BoxTaken(survivor, tape.state.box))
    state = tape.state
    if any(state.bankrupt) or state.set_number == state.max_sets:  # §8, C4, R11
        number = state.deck_number
        tape.emit(DeckOpened(number, state.seals.decks[number - 1], state.seals.salts[number - 1]))
        most = max(state.chips)
        tape.emit(GameEnded(tuple(s for s in range(n) if state.chips[s] == most)))
        return
    if survivor is None:  # C24, C25, R8
        seats = ((state.dealer + i) % n for i in range(1, n + 1))
        survivor = next(s for s in seats if not state.bankrupt[s])
    tape.emit(SetStarted(state.set_number + 1, survivor))
