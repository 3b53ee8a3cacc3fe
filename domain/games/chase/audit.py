"""Chase the Ace's own audit checks (CHASE.md), run by ``domain.audit`` after the generic ones.

- ``commitments``: every round's published commitment equals ``commitment(salt, pack)`` for
  the salt and pack its ``round_ended`` opens, the pack holds the 52 cards once each, and a
  round recorded with its pack was dealt from the pack it opens to;
- ``replay``: the decisions read off the log (the creation, every claim, every round start
  with its pack and salt, every seat's choice) re-executed through ``apply`` reproduce exactly
  the recorded events. Each choice ``pending`` offers a seat is tried and the one whose events
  are the recorded ones is taken, so no second table of the rules can drift from them;
- ``cards``: after every event of a round the 52 cards are each in exactly one place (the
  stock, a hand or the discard), and every card an event names (a deal, an exchange, a block,
  an announcement, a cut, a reveal) is the one the stock or its seat holds;
- ``lives``: lives never rise and fall by one per loss, only a scored loser loses one, a seat
  at 0 is eliminated and never dealt again, and the winner is the only seat with lives.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, cast

from domain.audit_record import AuditRecord, CheckFailed, GameAudit, GameCheck
from domain.errors import DomainError
from domain.games.chase.cards import CARD_SET
from domain.games.chase.commands import Choice, Choose, ClaimSeat, Command, CreateMatch, StartRound
from domain.games.chase.config import Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    ChaseMatchCreated,
    CutExchanged,
    Event,
    KingBlocked,
    LifeLost,
    LowCardAnnounced,
    MatchWon,
    RoundEnded,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    SeatClaimed,
    SeatEliminated,
    StockCut,
    encode_event,
    event_type,
)
from domain.games.chase.evolve import evolve
from domain.games.chase.fairness import commitment
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState, initial_state


def _short(event: Event) -> str:
    return encode_event(event).decode("utf-8")


# --- commitments -----------------------------------------------------------------------------


def _opening(salt: str, pack: tuple[str, ...]) -> str | None:
    """``commitment(salt, pack)``, or None for a salt that is not hex."""
    try:
        return commitment(salt, pack)
    except ValueError:
        return None


def _bad_pack(pack: tuple[str, ...]) -> bool:
    return len(pack) != len(CARD_SET) or set(pack) != CARD_SET


def _check_commitments(records: Sequence[AuditRecord]) -> int:
    started: dict[int, tuple[int, RoundStarted]] = {}  # round number -> (version, start)
    rounds = 0
    for record in records:
        event, v = record.event, record.version
        if isinstance(event, RoundStarted):
            if event.pack is not None and event.salt is not None:
                if _bad_pack(event.pack):
                    raise CheckFailed(v, f"round {event.round} is dealt from a pack that is not "
                                      "the 52 cards")  # fmt: skip
                if _opening(event.salt, event.pack) != event.commitment:
                    raise CheckFailed(
                        v, f"round {event.round}'s commitment does not match its pack and salt"
                    )
            started[event.round] = (v, event)
        elif isinstance(event, RoundEnded):
            start = started.pop(event.round, None)
            if start is None:
                raise CheckFailed(v, f"round {event.round} ends but never started")
            at, begun = start
            if _bad_pack(event.pack):
                raise CheckFailed(v, f"round {event.round} opens a pack that is not the 52 cards")
            if _opening(event.salt, event.pack) != begun.commitment:
                raise CheckFailed(
                    v,
                    f"round {event.round}: the salt and pack opened here do not match the "
                    f"commitment published at v{at}",
                )
            if begun.pack is not None and begun.pack != event.pack:
                raise CheckFailed(v, f"round {event.round} opens another pack than it was dealt")
            rounds += 1
    return rounds


# --- replay ----------------------------------------------------------------------------------


def _candidates(state: MatchState, record: AuditRecord) -> list[Command]:
    """The commands that could have produced ``record``'s event as their first."""
    event, v = record.event, record.version
    if not state.seats:
        if not isinstance(event, ChaseMatchCreated):
            raise CheckFailed(v, f"v{v} ({event_type(event)}) comes before the match was created")
        options = Options(event.announce_low, event.king_cut_loses)
        return [CreateMatch(Config(event.seats, event.starting_lives, event.first_dealer, options))]
    step = pending(state)
    if step is None:
        raise CheckFailed(v, f"v{v} ({event_type(event)}) follows the end of the match")
    if isinstance(event, SeatClaimed):
        return [ClaimSeat(event.seat, event.name)]
    if isinstance(event, RoundStarted):
        if event.pack is None or event.salt is None:
            raise CheckFailed(v, f"v{v} is redacted: the audit needs the complete log")
        return [StartRound(event.pack, event.salt)]
    if step.seat is None:
        raise CheckFailed(v, f"v{v} records {_short(event)}; the next step is {step.kind}")
    return [Choose(step.seat, cast(Choice, choice)) for choice in step.choices]


def _matched(records: Sequence[AuditRecord], index: int, produced: list[Event]) -> int:
    """How many of ``produced`` the log records from ``index`` on, in order."""
    count = 0
    for want in produced:
        if index + count >= len(records) or records[index + count].event != want:
            break
        count += 1
    return count


def _check_replay(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    index, commands = 0, 0
    while index < len(records):
        record = records[index]
        tried: list[tuple[int, MatchState, list[Event]]] = []
        refusal: str | None = None
        for command in _candidates(state, record):
            try:
                after, produced = apply(state, command)
            except DomainError as error:
                refusal = error.message
                continue
            except Exception as error:  # a log the rules cannot even follow
                raise CheckFailed(
                    record.version, f"v{record.version} cannot be replayed: {error!r}"
                ) from None
            tried.append((_matched(records, index, produced), after, produced))
        if not tried:
            raise CheckFailed(record.version, f"v{record.version} is not allowed: {refusal}")
        count, after, produced = max(tried, key=lambda t: t[0])
        if count < len(produced):
            if index + count >= len(records):
                last = records[-1].version
                raise CheckFailed(
                    last + 1,
                    f"the log stops at v{last}, the rules go on with {_short(produced[count])}",
                )
            got = records[index + count]
            raise CheckFailed(
                got.version,
                f"v{got.version} records {_short(got.event)}; "
                f"the rules produce {_short(produced[count])}",
            )
        state = after
        index += len(produced)
        commands += 1
    return commands


# --- cards -----------------------------------------------------------------------------------


def _named(state: MatchState, event: Event, v: int) -> None:
    """Every card ``event`` names is where the state before it says it is."""
    rnd = state.round
    if rnd is None:
        return
    wrong = False
    if isinstance(event, CardDealt | StockCut):  # both take the top of the stock
        wrong = rnd.stock_top >= len(rnd.pack) or event.card != rnd.pack[rnd.stock_top]
    elif isinstance(event, CardsExchanged):
        wrong = (
            event.requester_gets != rnd.hands[event.target]
            or event.target_gets != rnd.hands[event.requester]
        )
    elif isinstance(event, KingBlocked | LowCardAnnounced):
        wrong = rnd.hands[event.seat] != event.card
    elif isinstance(event, CutExchanged):
        wrong = event.gave != rnd.hands[event.seat] or event.got != rnd.pack[rnd.stock_top]
    elif isinstance(event, RoundScored):
        wrong = any(rnd.hands[r.seat] != r.card for r in event.revealed)
    if wrong:
        raise CheckFailed(v, f"v{v} names a card its seat or the stock does not hold")


def _places(state: MatchState, v: int) -> None:
    rnd = state.round
    if rnd is None or state.status != "in_round" or rnd.phase == "deal":
        return
    held = [card for card in rnd.hands if card is not None]
    places = [*rnd.stock, *held, *rnd.discard]
    if len(places) != len(CARD_SET) or set(places) != CARD_SET:
        raise CheckFailed(v, f"v{v}: the 52 cards are not each in exactly one place")


def _check_cards(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    for record in records:
        event, v = record.event, record.version
        # Events after a late or early creation are the replay check's to report.
        if not state.seats and not isinstance(event, ChaseMatchCreated):
            continue
        try:
            _named(state, event, v)
            state = evolve(state, event)
            _places(state, v)
        except CheckFailed:
            raise
        except Exception as error:  # an event that cannot happen where it stands
            raise CheckFailed(v, f"v{v} cannot be applied to the match: {error!r}") from None
    return len(records)


# --- lives -----------------------------------------------------------------------------------


def _check_lives(records: Sequence[AuditRecord]) -> int:
    lives: list[int] = []
    losers: tuple[int, ...] = ()
    for record in records:
        event, v = record.event, record.version
        if not lives and not isinstance(event, ChaseMatchCreated):
            continue  # a log that does not start with its creation: the replay check says so
        if isinstance(event, ChaseMatchCreated):
            lives = [event.starting_lives] * len(event.seats)
        elif isinstance(event, RoundStarted):
            if any(lives[s] <= 0 for s in event.participants):
                raise CheckFailed(v, f"v{v}: a seat without lives is dealt in")
            losers = ()
        elif isinstance(event, RoundScored):
            losers = event.losers
        elif isinstance(event, RoundWipedOut):
            if any(lives[s] != 1 for s in event.seats):
                raise CheckFailed(v, f"v{v}: a wipe-out among seats that had lives to spare")
        elif isinstance(event, LifeLost):
            if event.seat not in losers or event.lives_after != lives[event.seat] - 1:
                raise CheckFailed(v, f"v{v}: seat {event.seat} loses a life it did not lose")
            if event.lives_after < 0:
                raise CheckFailed(v, f"v{v}: seat {event.seat} goes below 0 lives")
            lives[event.seat] = event.lives_after
        elif isinstance(event, SeatEliminated):
            if lives[event.seat] != 0:
                raise CheckFailed(v, f"v{v}: seat {event.seat} is eliminated with lives left")
        elif isinstance(event, MatchWon):
            alive = [s for s, n in enumerate(lives) if n > 0]
            if alive != [event.winner]:
                raise CheckFailed(
                    v, f"v{v}: seat {event.winner} wins, but seats {alive} have lives"
                )
    return len(records)


# --- the game's audit ------------------------------------------------------------------------


def _summary(events: Sequence[Any]) -> tuple[int, tuple[int, ...]]:
    rounds = sum(1 for e in events if isinstance(e, RoundStarted))
    won = next((e for e in events if isinstance(e, MatchWon)), None)
    return rounds, ((won.winner,) if won is not None else ())


AUDIT: Final = GameAudit(
    checks=(
        GameCheck("commitments", "shuffle commitments", _check_commitments),
        GameCheck("replay", "re-execution of the decisions", _check_replay),
        GameCheck("cards", "card conservation", _check_cards),
        GameCheck("lives", "lives bookkeeping", _check_lives),
    ),
    final_event="match_won",
    noun="match",
    unfinished="before the match is won",
    summary=_summary,
)
