"""Cuccù's own audit checks (RULES.md), run by ``domain.audit`` after the generic ones.

- ``commitments``: every round's published commitment equals ``commitment(salt, pack)`` for
  the salt and pack revealed when the round ends;
- ``replay``: the decisions read off the log (creation, round starts with their revealed pack,
  every keep / exchange / inn choice) re-executed through ``apply`` reproduce exactly the
  recorded events;
- ``conservation``: after every event each of the 40 cards is in exactly one place (the pack,
  a hand or the discard), and every card shown (reveals, scoring) is the one its seat holds;
- ``lives``: every life loss, elimination, reset, scoring result, dealer change and the win
  agree with the lives counted from the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from domain.audit_record import AuditRecord, CheckFailed, GameAudit, GameCheck
from domain.errors import DomainError
from domain.games.cuccu.cards import CARD_SET, rank
from domain.games.cuccu.commands import Choice, Choose, ClaimSeat, Command, CreateMatch, StartRound
from domain.games.cuccu.decide import apply, losers
from domain.games.cuccu.events import (
    CardRevealed,
    DealerKept,
    Event,
    ExchangeRefused,
    ExchangeRequested,
    InnChoiceMade,
    InnResponded,
    Kept,
    LifeLost,
    LivesReset,
    MatchCreated,
    MatchWon,
    PackExchanged,
    PledgeMade,
    RoundEnded,
    RoundScored,
    RoundStarted,
    SeatClaimed,
    SeatEliminated,
    encode_event,
    event_type,
)
from domain.games.cuccu.evolve import evolve
from domain.games.cuccu.fairness import commitment
from domain.games.cuccu.state import MatchState, RoundState, initial_state


def _short(event: Event) -> str:
    return encode_event(event).decode("utf-8")


def _opening(salt: str, pack: tuple[str, ...]) -> str | None:
    """``commitment(salt, pack)``, or None for a salt that is not hex."""
    try:
        return commitment(salt, pack)
    except ValueError:
        return None


def _check_commitments(records: Sequence[AuditRecord]) -> int:
    opened: dict[int, tuple[int, RoundStarted]] = {}  # round number -> (version, start)
    rounds = 0
    for record in records:
        event, v = record.event, record.version
        if isinstance(event, RoundStarted):
            if event.pack is not None and event.salt is not None:
                if _bad_pack(event.pack):
                    raise CheckFailed(
                        v, f"round {event.round} is dealt from a pack that is not the 40 cards"
                    )
                if _opening(event.salt, event.pack) != event.commitment:
                    raise CheckFailed(
                        v, f"round {event.round}'s commitment does not match its pack and salt"
                    )
            opened[event.round] = (v, event)
        elif isinstance(event, RoundEnded):
            start = opened.pop(event.round, None)
            if start is None:
                raise CheckFailed(v, f"round {event.round} ends but never started")
            started_at, started = start
            if _bad_pack(event.pack):
                raise CheckFailed(v, f"round {event.round} reveals a pack that is not the 40 cards")
            if _opening(event.salt, event.pack) != started.commitment:
                raise CheckFailed(
                    v,
                    f"round {event.round}: the salt and pack revealed here do not match the "
                    f"commitment published at v{started_at}",
                )
            if started.pack is not None and started.pack != event.pack:
                raise CheckFailed(
                    v, f"round {event.round} reveals another pack than it was dealt from"
                )
            rounds += 1
    return rounds


def _bad_pack(pack: tuple[str, ...]) -> bool:
    return len(pack) != len(CARD_SET) or set(pack) != CARD_SET


def _command_for(event: Event, version: int) -> Command | None:
    """The command whose first event is ``event``, read off the log; None if none could be."""
    if isinstance(event, MatchCreated):
        return CreateMatch(event.seats, event.starting_lives, event.first_dealer)
    if isinstance(event, SeatClaimed):
        return ClaimSeat(event.seat, event.name)
    if isinstance(event, RoundStarted):
        pack, salt = event.pack, event.salt
        if pack is None or salt is None:
            raise CheckFailed(version, f"v{version} is redacted: the audit needs the complete log")
        return StartRound(pack, salt)
    choice: Choice | None = None
    if isinstance(event, Kept | DealerKept):
        choice = "keep"
    elif isinstance(event, ExchangeRequested) or (
        isinstance(event, PackExchanged) and event.end == "bottom"
    ):
        choice = "exchange"
    elif isinstance(event, InnChoiceMade):
        choice = "inn_keep" if event.choice == "keep" else "inn_ask_pay"
    elif isinstance(event, InnResponded):
        choice = "inn_accept" if event.response == "accept" else "inn_refuse"
    if choice is None:
        return None
    return Choose(event.seat, choice)  # type: ignore[union-attr]


def _check_replay(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    index, commands = 0, 0
    while index < len(records):
        record = records[index]
        command = _command_for(record.event, record.version)
        if command is None:
            raise CheckFailed(
                record.version,
                f"v{record.version} ({event_type(record.event)}) is not a decision, and the "
                "events before it do not produce it",
            )
        try:
            state, produced = apply(state, command)
        except DomainError as error:
            raise CheckFailed(
                record.version, f"v{record.version} is not allowed: {error.message}"
            ) from None
        except Exception as error:  # a log the rules cannot even follow
            raise CheckFailed(
                record.version, f"v{record.version} cannot be replayed: {error!r}"
            ) from None
        for offset, want in enumerate(produced):
            if index + offset >= len(records):
                raise CheckFailed(
                    records[-1].version + 1,
                    f"the log stops at v{records[-1].version}, the rules go on with {_short(want)}",
                )
            got = records[index + offset]
            if got.event != want:
                raise CheckFailed(
                    got.version,
                    f"v{got.version} records {_short(got.event)}; the rules produce {_short(want)}",
                )
        index += len(produced)
        commands += 1
    return commands


def _where_cards_are(rnd: RoundState) -> list[str | None]:
    places: list[str | None] = list(rnd.pack[rnd.top : rnd.bottom + 1])
    places.extend(rnd.hands)
    places.extend(rnd.discard)
    return places


def _check_places(rnd: RoundState, version: int) -> None:
    places = [card for card in _where_cards_are(rnd) if card is not None]
    if len(places) != len(CARD_SET) or set(places) != CARD_SET:
        twice = sorted(card for card, count in Counter(places).items() if count > 1)
        missing = sorted(CARD_SET - set(places))
        parts = []
        if twice:
            parts.append("in two places: " + ", ".join(twice))
        if missing:
            parts.append("nowhere: " + ", ".join(missing))
        unknown = sorted(set(places) - CARD_SET)
        if unknown:
            parts.append("not in the pack: " + ", ".join(unknown))
        raise CheckFailed(
            version, f"after v{version} cards are " + "; ".join(parts or ["miscounted"])
        )
    for seat, card in enumerate(rnd.hands):
        if card is not None and seat not in rnd.participants:
            raise CheckFailed(
                version, f"after v{version} seat {seat} holds a card but is not in the round"
            )


def _conserve(state: MatchState, record: AuditRecord) -> MatchState:
    event, version = record.event, record.version
    rnd = state.round
    if isinstance(event, CardRevealed) and rnd is not None and rnd.hands[event.seat] != event.card:
        raise CheckFailed(
            version,
            f"v{version} shows seat {event.seat} with {event.card}, "
            f"but it holds {rnd.hands[event.seat]}",
        )
    if isinstance(event, RoundScored) and rnd is not None:
        held = tuple(rnd.hands[s] for s in event.live)
        if held != event.cards:
            raise CheckFailed(
                version,
                f"v{version} shows cards {list(event.cards)}, but the live seats hold {list(held)}",
            )
    state = evolve(state, event)
    if state.round is not None:
        _check_places(state.round, version)
    return state


def _check_conservation(records: Sequence[AuditRecord]) -> int:
    state = initial_state()
    for record in records:
        try:
            state = _conserve(state, record)
        except CheckFailed:
            raise
        except Exception as error:  # an event that cannot happen where it stands
            v = record.version
            raise CheckFailed(v, f"v{v} cannot be applied to the match: {error!r}") from None
    return len(records)


class _Lives:
    """The lives ledger, counted from the log alone."""

    def __init__(self) -> None:
        self.lives: list[int] = []
        self.start = 0
        self.next_dealer: int | None = None
        self.round_start: list[int] = []
        self.participants: tuple[int, ...] = ()
        self.eliminated: set[int] = set()
        self.zeroed: set[int] = set()  # seats whose lives reached zero this round
        self.scored: RoundScored | None = None
        self.paid: list[int] = []  # losers whose scoring loss was recorded
        self.pledges: set[tuple[int, int]] = set()  # (requester, innkeeper)
        self.dealer = 0
        self.won: int | None = None
        self.scored_lives: list[int] = []

    def step(self, records: Sequence[AuditRecord], i: int) -> None:
        event, v = records[i].event, records[i].version
        if self.won is not None:
            raise CheckFailed(v, f"v{v} follows the end of the match")
        if not self.lives and not isinstance(event, MatchCreated):
            raise CheckFailed(v, f"v{v} comes before the match was created")
        if isinstance(event, MatchCreated):
            if self.lives:
                raise CheckFailed(v, f"v{v} creates the match a second time")
            self.start = event.starting_lives
            self.lives = [event.starting_lives] * len(event.seats)
            self.next_dealer = event.first_dealer
        elif isinstance(event, RoundStarted):
            self._round_started(event, v)
        elif isinstance(event, PledgeMade):
            self.pledges.add((event.requester, event.innkeeper))
        elif isinstance(event, LifeLost):
            self._life_lost(records, i)
        elif isinstance(event, SeatEliminated):
            if self.lives[event.seat] != 0 or event.seat in self.eliminated:
                raise CheckFailed(
                    v,
                    f"v{v} eliminates seat {event.seat}, which has "
                    f"{self.lives[event.seat]} lives and was not in play to lose them",
                )
            if self.round_start[event.seat] == 0:
                raise CheckFailed(
                    v, f"v{v} eliminates seat {event.seat}, already out before the round"
                )
            self.eliminated.add(event.seat)
        elif isinstance(event, RoundScored):
            self._round_scored(event, v)
        elif isinstance(event, LivesReset):
            if any(self.lives) or event.lives != self.start:
                raise CheckFailed(
                    v, f"v{v} resets lives to {event.lives} while lives are {self.lives}"
                )
            self.lives = [self.start] * len(self.lives)
        elif isinstance(event, RoundEnded):
            self._round_ended(event, v)
        elif isinstance(event, MatchWon):
            alive = [s for s, n in enumerate(self.lives) if n > 0]
            if alive != [event.winner]:
                raise CheckFailed(
                    v, f"v{v} names seat {event.winner} the winner, but lives are {self.lives}"
                )
            self.won = event.winner

    def _round_started(self, e: RoundStarted, v: int) -> None:
        n = len(self.lives)
        if e.dealer != self.next_dealer:
            raise CheckFailed(
                v, f"v{v}: seat {e.dealer} deals, but seat {self.next_dealer} was due to"
            )
        expected = tuple(
            s for s in ((e.dealer + k) % n for k in range(1, n + 1)) if self.lives[s] > 0
        )
        if e.participants != expected:
            raise CheckFailed(
                v,
                f"v{v}: the round is played by {list(e.participants)}, "
                f"but seats with lives in turn order are {list(expected)}",
            )
        self.round_start = list(self.lives)
        self.participants = e.participants
        self.eliminated = set()
        self.zeroed = set()
        self.scored = None
        self.paid = []
        self.pledges = set()
        self.dealer = e.dealer
        self.next_dealer = None

    def _life_lost(self, records: Sequence[AuditRecord], i: int) -> None:
        e, v = records[i].event, records[i].version
        assert isinstance(e, LifeLost)
        before = self.lives[e.seat]
        if e.lives_after != max(0, before - 1) or e.lives_after > self.start:
            raise CheckFailed(v, f"v{v}: seat {e.seat} had {before} lives, not {e.lives_after + 1}")
        if e.reason in ("hunter", "cat"):
            refused = records[i - 1].event if i >= 2 else None
            shown = records[i - 2].event if i >= 2 else None
            if (
                not isinstance(refused, ExchangeRefused)
                or refused.requester != e.seat
                or not isinstance(shown, CardRevealed)
                or rank(shown.card) != e.reason
                or self.scored is not None
                or before == 0
            ):
                raise CheckFailed(
                    v, f"v{v}: seat {e.seat} loses a life to a {e.reason} it never met"
                )
        else:
            scored = self.scored
            loser = e.on_behalf_of if e.reason == "inn_pledge" else e.seat
            if scored is None or loser is None or loser not in scored.losers or loser in self.paid:
                raise CheckFailed(
                    v, f"v{v}: seat {e.seat} loses a life at scoring without losing it"
                )
            card = scored.cards[scored.live.index(loser)]
            pledged = {k for r, k in self.pledges if r == loser and self.scored_lives[k] > 0}
            owes = rank(card) == "zero" and bool(pledged)
            if e.reason == "inn_pledge" and (not owes or e.seat not in pledged):
                raise CheckFailed(
                    v, f"v{v}: seat {e.seat} pays for seat {loser} without a valid pledge"
                )
            if e.reason == "scoring" and owes:
                raise CheckFailed(
                    v, f"v{v}: seat {loser} loses with a zero its innkeeper pledged to pay for"
                )
            self.paid.append(loser)
        if before > 0 and e.lives_after == 0:
            self.zeroed.add(e.seat)
        self.lives[e.seat] = e.lives_after

    def _round_scored(self, e: RoundScored, v: int) -> None:
        live = tuple(sorted(s for s in self.participants if self.lives[s] > 0))
        dead = tuple(sorted(s for s in self.participants if self.lives[s] == 0))
        if e.live != live or e.dead != dead:
            raise CheckFailed(
                v,
                f"v{v} scores live seats {list(e.live)} and dead {list(e.dead)}; "
                f"the lives say {list(live)} and {list(dead)}",
            )
        try:
            lowest = tuple(e.live[k] for k in losers(e.cards))
        except (KeyError, IndexError, ValueError):
            raise CheckFailed(v, f"v{v} scores cards that are not in the pack") from None
        if lowest != e.losers:
            raise CheckFailed(
                v, f"v{v} names losers {list(e.losers)}; the cards make {list(lowest)} lose"
            )
        self.scored = e
        self.scored_lives = list(self.lives)

    def _round_ended(self, e: RoundEnded, v: int) -> None:
        scored = self.scored
        if scored is None or sorted(self.paid) != sorted(scored.losers):
            raise CheckFailed(v, f"v{v} ends the round before every loser lost a life")
        if self.zeroed != self.eliminated:
            raise CheckFailed(
                v,
                f"v{v}: seats {sorted(self.zeroed)} reached zero lives but "
                f"{sorted(self.eliminated)} were eliminated",
            )
        alive = [s for s, n in enumerate(self.lives) if n > 0]
        n = len(self.lives)
        due = None
        if len(alive) != 1:
            due = next(
                s for s in ((self.dealer + k) % n for k in range(1, n + 1)) if self.lives[s] > 0
            )
        if e.next_dealer != due:
            raise CheckFailed(
                v, f"v{v} names seat {e.next_dealer} the next dealer; seat {due} is due"
            )
        self.next_dealer = e.next_dealer
        self.scored = None


def _check_lives(records: Sequence[AuditRecord]) -> int:
    ledger = _Lives()
    for i in range(len(records)):
        try:
            ledger.step(records, i)
        except CheckFailed:
            raise
        except Exception as error:  # seats out of range and the like
            v = records[i].version
            raise CheckFailed(v, f"v{v} does not fit the match: {error!r}") from None
    return len(records)


def _summary(events: Sequence[Any]) -> tuple[int, tuple[int, ...]]:
    rounds = sum(1 for e in events if isinstance(e, RoundEnded))
    won = next((e.winner for e in events if isinstance(e, MatchWon)), None)
    return rounds, (() if won is None else (won,))


AUDIT: Final = GameAudit(
    checks=(
        GameCheck("commitments", "shuffle commitments", _check_commitments),
        GameCheck("replay", "re-execution of the decisions", _check_replay),
        GameCheck("conservation", "card conservation", _check_conservation),
        GameCheck("lives", "lives bookkeeping", _check_lives),
    ),
    final_event="match_won",
    noun="match",
    unfinished="before the match is won",
    summary=_summary,
)
