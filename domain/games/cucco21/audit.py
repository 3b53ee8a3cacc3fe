"""Cucco 21's own audit checks (CUCCO21.md), run by ``domain.audit`` after the generic ones.

- ``replay``: the decisions read off the log (the creation, every shuffle with the order and
  salt it recorded, every round start and every seat's choice) re-executed through ``apply``
  reproduce exactly the recorded events. Each choice ``pending`` offers a seat is tried and the
  one whose events are the recorded ones is taken, so no second table of which event each
  choice begins with can drift from the rules;
- ``decks``: every deck opens to the commitment published when it was shuffled, in sequence,
  the first holding the 42 cards, and every deck of a finished game is opened (C27,
  ``fairness.deck_problems``); a deck recorded with its order and salt must match its
  commitment at once;
- ``chips``: seats plus box hold the starting chips at every step, no seat pays more than it
  has, a short payment is a bankruptcy, antes and penalties are the round card's, every seat
  owing a Ceremony claim pays it (or goes bankrupt), the survivor takes the whole box, and the
  winners are the seats with the most chips;
- ``cards``: after every event each of the 42 cards is in exactly one place (the deck, a hand,
  the discard pile, or drawn and about to be discarded), and every card an event names (a
  deal, a draw, a trade, a discard, a reveal) is the one the deck or its seat holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final, cast

from domain.audit_record import AuditRecord, CheckFailed, GameAudit, GameCheck
from domain.errors import DomainError
from domain.games.cucco21.cards import CARD_SET, kept_when_drawn
from domain.games.cucco21.commands import Choice as ChoiceName
from domain.games.cucco21.commands import (
    Choose,
    ClaimSeat,
    Command,
    CreateGame,
    Shuffle,
    StartRound,
)
from domain.games.cucco21.config import PENALTY, Config, RoundCard
from domain.games.cucco21.decide import apply
from domain.games.cucco21.events import (
    BoxTaken,
    CardDealt,
    CardDrawn,
    ChipsPaid,
    Claimed,
    DeckDiscarded,
    DeckOpened,
    DeckShuffled,
    Event,
    GameCreated,
    GameEnded,
    MadeOut,
    PowerDiscarded,
    RevealedDiscarded,
    RoundScored,
    RoundStarted,
    SeatBankrupted,
    SeatClaimed,
    TakenBack,
    Traded,
    encode_event,
    event_type,
)
from domain.games.cucco21.evolve import evolve
from domain.games.cucco21.fairness import commitment, deck_problems
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, initial_state


def _short(event: Event) -> str:
    return encode_event(event).decode("utf-8")


# --- replay ----------------------------------------------------------------------------------


def _candidates(state: GameState, record: AuditRecord) -> list[Command]:
    """The commands that could have produced ``record``'s event as their first."""
    event, v = record.event, record.version
    if not state.seats:
        if not isinstance(event, GameCreated):
            raise CheckFailed(v, f"v{v} ({event_type(event)}) comes before the game was created")
        config = Config(
            event.seats, event.starting_chips, event.powers, event.max_sets, event.first_dealer
        )
        return [CreateGame(config)]
    step = pending(state)
    if step is None:
        raise CheckFailed(v, f"v{v} ({event_type(event)}) follows the end of the game")
    if isinstance(event, SeatClaimed):  # claims may precede the first shuffle (the host waits)
        return [ClaimSeat(event.seat, event.name)]
    if step.kind == "shuffle":
        if not isinstance(event, DeckShuffled):
            raise CheckFailed(v, f"v{v} records {_short(event)}; a deck is due to be shuffled")
        if event.order is None or event.salt is None:
            raise CheckFailed(v, f"v{v} is redacted: the audit needs the complete log")
        return [Shuffle(event.order, event.salt)]
    if step.kind in ("next_round", "claim_seat"):
        return [StartRound()]
    assert step.seat is not None
    return [Choose(step.seat, choice) for choice in _choices(step.choices)]


def _choices(names: tuple[str, ...]) -> list[ChoiceName]:
    return [cast(ChoiceName, name) for name in names]


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
        tried: list[tuple[int, GameState, list[Event]]] = []
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


# --- decks -----------------------------------------------------------------------------------


def _opens(salt: str, order: tuple[str, ...], published: str) -> bool:
    try:
        return commitment(salt, order) == published
    except ValueError:  # a salt that is not hex
        return False


def _check_decks(records: Sequence[AuditRecord]) -> int:
    decks: list[Event] = []
    for record in records:
        event, v = record.event, record.version
        if not isinstance(event, DeckShuffled | DeckOpened):
            continue
        if isinstance(event, DeckShuffled):
            if event.order is not None and event.salt is not None:
                if len(event.order) != event.size:
                    raise CheckFailed(v, f"deck {event.number} holds {len(event.order)} cards, "
                                      f"not the {event.size} it says")  # fmt: skip
                if not _opens(event.salt, event.order, event.commitment):
                    raise CheckFailed(
                        v, f"deck {event.number}'s commitment does not match its order and salt"
                    )
        elif not all(c in "0123456789abcdef" for c in event.salt):
            raise CheckFailed(v, f"deck {event.number} opens with a salt that is not hex")
        decks.append(event)
        problems = deck_problems(decks, finished=False)
        if problems:
            raise CheckFailed(v, f"v{v}: {problems[0]}")
    if records and isinstance(records[-1].event, GameEnded):
        problems = deck_problems(decks, finished=True)
        if problems:
            last = records[-1].version
            raise CheckFailed(last, f"the game ends at v{last} but {problems[0]}")
    return sum(1 for deck in decks if isinstance(deck, DeckShuffled))


# --- chips -----------------------------------------------------------------------------------


class _Chips:
    """The chips ledger, counted from the log alone."""

    def __init__(self) -> None:
        self.chips: list[int] = []
        self.box = 0
        self.total = 0
        self.bankrupt: set[int] = set()
        self.round_card: RoundCard = "1"
        self.antes: list[int] = []  # seats still to pay this round's ante, in turn order
        self.owed: list[tuple[int, int]] = []  # (payer, claimer) of a Ceremony claim, in order

    def step(self, event: Event, v: int) -> None:
        if isinstance(event, GameCreated):
            if self.chips:
                raise CheckFailed(v, f"v{v} creates the game a second time")
            self.chips = [event.starting_chips] * len(event.seats)
            self.total = event.starting_chips * len(event.seats)
            return
        if not self.chips:
            raise CheckFailed(v, f"v{v} comes before the game was created")
        self._settle_dues(event, v)
        if isinstance(event, RoundStarted):
            self.round_card = event.round_card
            if event.round_card == "1":
                self.antes = [s for s in event.turn_order if s not in self.bankrupt]
        elif isinstance(event, ChipsPaid):
            self._paid(event, v)
        elif isinstance(event, SeatBankrupted):
            if self.chips[event.seat] != 0 or event.seat in self.bankrupt:
                raise CheckFailed(
                    v, f"v{v} bankrupts seat {event.seat}, which has {self.chips[event.seat]} chips"
                )
            self.bankrupt.add(event.seat)
            self._due(event.seat, event.reason, v)
        elif isinstance(event, Claimed):
            n = len(self.chips)
            payers = ((event.seat + k) % n for k in range(1, n))  # R3: in seat order
            self.owed = [(p, event.seat) for p in payers if p not in self.bankrupt]
        elif isinstance(event, BoxTaken):
            if event.amount != self.box:
                raise CheckFailed(
                    v, f"v{v}: seat {event.seat} takes {event.amount} chips; the box has {self.box}"
                )
            self.box = 0
            self.chips[event.seat] += event.amount
        elif isinstance(event, GameEnded):
            most = max(self.chips)
            best = tuple(s for s, c in enumerate(self.chips) if c == most)
            if event.winners != best:
                raise CheckFailed(
                    v, f"v{v} names winners {list(event.winners)}; chips {self.chips} make "
                    f"{list(best)} the winners",
                )  # fmt: skip
        if sum(self.chips) + self.box != self.total:
            raise CheckFailed(
                v, f"after v{v} seats and box hold {sum(self.chips) + self.box} chips, "
                f"not the {self.total} the game started with",
            )  # fmt: skip

    def _settle_dues(self, event: Event, v: int) -> None:
        """Antes and claim payments come in a run: anything else means one was left out."""
        if isinstance(event, ChipsPaid | SeatBankrupted):
            return
        if self.antes:
            raise CheckFailed(v, f"v{v}: seat {self.antes[0]} never paid its ante")
        if self.owed:
            payer, claimer = self.owed[0]
            raise CheckFailed(v, f"v{v}: seat {payer} never paid seat {claimer}'s claim")

    def _due(self, seat: int, reason: str, v: int) -> None:
        """``seat`` paid (or went bankrupt over) what it owed first for ``reason``."""
        if reason == "ante":
            if not self.antes or self.antes[0] != seat:
                due = f"seat {self.antes[0]}'s" if self.antes else "no"
                raise CheckFailed(v, f"v{v}: seat {seat} pays an ante where {due} ante is due")
            self.antes.pop(0)
        elif reason == "ceremony":
            if not self.owed:
                raise CheckFailed(v, f"v{v}: seat {seat} pays a claim it does not owe")
            payer, claimer = self.owed[0]
            if payer != seat:
                raise CheckFailed(
                    v, f"v{v}: seat {payer} never paid seat {claimer}'s claim (seat {seat} pays)"
                )
            self.owed.pop(0)

    def _paid(self, e: ChipsPaid, v: int) -> None:
        has = self.chips[e.seat]
        if e.seat in self.bankrupt:
            raise CheckFailed(v, f"v{v}: seat {e.seat} pays although it is bankrupt")
        if e.amount < 1 or e.amount > has:
            raise CheckFailed(v, f"v{v}: seat {e.seat} pays {e.amount} chips out of {has}")
        due = 1 if e.reason in ("ante", "ceremony") else PENALTY.get(self.round_card, 0)
        if e.amount != due and e.amount != has:  # short of what is due: all it has (C23)
            raise CheckFailed(
                v, f"v{v}: seat {e.seat} pays {e.amount} chips as {e.reason}; {due} are due"
            )
        if e.reason == "ceremony":
            claimer = self.owed[0][1] if self.owed else None
            if e.to != claimer:
                raise CheckFailed(v, f"v{v}: seat {e.seat} pays a claim to {e.to}, not {claimer}")
        elif e.to != "box":
            raise CheckFailed(v, f"v{v}: seat {e.seat} pays its {e.reason} to seat {e.to}")
        self._due(e.seat, e.reason, v)
        self.chips[e.seat] -= e.amount
        if e.to == "box":
            self.box += e.amount
        else:
            self.chips[e.to] += e.amount


def _check_chips(records: Sequence[AuditRecord]) -> int:
    ledger = _Chips()
    for record in records:
        try:
            ledger.step(record.event, record.version)
        except CheckFailed:
            raise
        except Exception as error:  # seats out of range and the like
            v = record.version
            raise CheckFailed(v, f"v{v} does not fit the game: {error!r}") from None
    return len(records)


# --- cards -----------------------------------------------------------------------------------


def _shown(state: GameState, event: Event, in_flight: str | None, v: int) -> None:
    """Every card ``event`` names is where the state before it says it is."""
    rnd = state.round
    hands = rnd.hands if rnd is not None else ()
    top = state.deck_cards[state.deck_top] if not state.deck_empty else None
    wrong: str | None = None
    if isinstance(event, CardDealt | CardDrawn) and event.card != top:
        wrong = f"seat {event.seat} takes {event.card} from the deck, whose top card is {top}"
    elif isinstance(event, Traded) and (
        event.asker_gets != hands[event.target] or event.target_gets != hands[event.asker]
    ):
        wrong = (
            f"seats {event.asker} and {event.target} trade {event.target_gets} and "
            f"{event.asker_gets}, but hold {hands[event.asker]} and {hands[event.target]}"
        )
    elif isinstance(event, DeckDiscarded | MadeOut | SeatBankrupted) and event.card not in (
        None if isinstance(event, SeatBankrupted) else hands[event.seat],
        hands[event.seat],
    ):
        wrong = f"seat {event.seat} discards {event.card}, but holds {hands[event.seat]}"
    elif isinstance(event, PowerDiscarded) and event.card != in_flight:
        wrong = f"seat {event.seat} discards {event.card}, but drew {in_flight}"
    elif isinstance(event, TakenBack) and (rnd is None or event.card != rnd.given):
        given = rnd.given if rnd is not None else None
        wrong = f"seat {event.seat} takes back {event.card}, but gave {given}"
    elif isinstance(event, RoundScored):
        for reveal in event.revealed:
            if hands[reveal.seat] != reveal.card:
                wrong = f"seat {reveal.seat} shows {reveal.card}, but holds {hands[reveal.seat]}"
                break
    elif isinstance(event, RevealedDiscarded) and rnd is not None:
        shown = tuple(r.card for r in rnd.revealed)
        if event.cards != shown:
            wrong = f"the cards discarded {list(event.cards)} are not those shown {list(shown)}"
    if wrong is not None:
        raise CheckFailed(v, f"v{v}: {wrong}")


def _places(state: GameState, in_flight: str | None, v: int) -> None:
    rnd = state.round
    places = [*state.deck, *state.discard]
    if rnd is not None:
        places.extend(card for card in rnd.hands if card is not None)
    if in_flight is not None:
        places.append(in_flight)
    if len(places) == len(CARD_SET) and set(places) == CARD_SET:
        return
    twice = sorted(card for card, count in Counter(places).items() if count > 1)
    missing = sorted(CARD_SET - set(places))
    unknown = sorted(set(places) - CARD_SET)
    parts = []
    if twice:
        parts.append("in two places: " + ", ".join(twice))
    if missing:
        parts.append("nowhere: " + ", ".join(missing))
    if unknown:
        parts.append("not in the game: " + ", ".join(unknown))
    raise CheckFailed(v, f"after v{v} cards are " + "; ".join(parts or ["miscounted"]))


def _check_cards(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    in_flight: str | None = None  # a power card drawn, discarded by the next event
    for record in records:
        event, v = record.event, record.version
        try:
            _shown(state, event, in_flight, v)
            if isinstance(event, DeckShuffled) and (
                event.order is None or sorted(event.order) != sorted(
                    CARD_SET if state.deck_number == 0 else state.discard
                )
            ):  # fmt: skip
                pile = "the 42 cards" if state.deck_number == 0 else "the discard pile"
                raise CheckFailed(v, f"v{v}: deck {event.number} is not {pile} shuffled")
            state = evolve(state, event)
            in_flight = None
            drawn = event.card if isinstance(event, CardDrawn) else None
            if drawn is not None and not kept_when_drawn(drawn, state.powers):
                in_flight = drawn
            if state.deck_number:
                _places(state, in_flight, v)
        except CheckFailed:
            raise
        except Exception as error:  # an event that cannot happen where it stands
            raise CheckFailed(v, f"v{v} cannot be applied to the game: {error!r}") from None
    return len(records)


# --- the game's audit ------------------------------------------------------------------------


def _summary(events: Sequence[Any]) -> tuple[int, tuple[int, ...]]:
    rounds = sum(1 for e in events if isinstance(e, RoundStarted))
    ended = next((e for e in events if isinstance(e, GameEnded)), None)
    return rounds, (ended.winners if ended is not None else ())


AUDIT: Final = GameAudit(
    checks=(
        GameCheck("replay", "re-execution of the decisions", _check_replay),
        GameCheck("decks", "deck commitments", _check_decks),
        GameCheck("chips", "chip bookkeeping", _check_chips),
        GameCheck("cards", "card conservation", _check_cards),
    ),
    final_event="game_ended",
    noun="game",
    unfinished="before the game ends",
    summary=_summary,
)
