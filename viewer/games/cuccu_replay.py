"""A replay: the match after every event, and what the table shows at each step (pure).

Step ``k`` is the match after its first ``k`` events (step 0: before anything). A complete
log (one that ends with the winner) shows every card; any other log is shown as a spectator
sees it, through ``domain.redact`` and ``domain.view``, so no hidden card ever leaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.games.cuccu.cards import CARDS
from domain.games.cuccu.events import (
    DealerKept,
    Event,
    ExchangeRequested,
    InnChoiceMade,
    InnResponded,
    Kept,
    MatchCreated,
    MatchWon,
    PackExchanged,
    RoundScored,
    RoundStarted,
    SeatClaimed,
)
from domain.games.cuccu.evolve import evolve
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, initial_state
from domain.games.cuccu.views import redact, view
from viewer.games.cuccu_captions import caption
from viewer.games.steps import Steps

_PARTY_FIELDS = ("seat", "target", "requester", "innkeeper", "winner", "on_behalf_of")


def starts_a_command(event: Event) -> bool:
    """Whether ``event`` is the first event of a command: a decision, a deal, a creation."""
    if isinstance(event, PackExchanged):
        return event.end == "bottom"
    return isinstance(
        event,
        MatchCreated | SeatClaimed | RoundStarted | Kept | DealerKept | ExchangeRequested
        | InnChoiceMade | InnResponded,
    )  # fmt: skip


def parties(event: Event) -> frozenset[int]:
    """The seats an event is about (highlighted on the table)."""
    if isinstance(event, RoundScored):
        return frozenset(event.losers)
    found = {getattr(event, name, None) for name in _PARTY_FIELDS}
    return frozenset(s for s in found if isinstance(s, int))


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    card: str | None
    lives: int
    dealer: bool
    deciding: bool
    out: bool  # no lives: sits out
    dead: bool  # eliminated during this round by a hunter or cat
    skipped: bool
    dealt: bool
    involved: bool  # named by the current event
    winner: bool


@dataclass(frozen=True)
class Frame:
    step: int
    total: int
    round: int
    event: Event | None
    rows: tuple[SeatRow, ...]
    revealed: tuple[tuple[int, str], ...]
    pack_left: int
    discard: int
    log: tuple[int, ...]  # versions of this round's events up to the step


@dataclass
class Replay(Steps):
    events: list[Event] = field(init=False)
    states: list[MatchState] = field(init=False)

    initial_state = staticmethod(initial_state)
    evolve = staticmethod(evolve)
    redact = staticmethod(redact)
    caption = staticmethod(caption)
    last_event = MatchWon
    round_started = RoundStarted

    def frame(self, step: int) -> Frame:
        step = max(0, min(step, self.last_step))
        state = self.states[step]
        event = self.events[step - 1] if step > 0 else None
        rnd = state.round
        seen = view(state, None)
        hands = rnd.hands if (self.full and rnd is not None) else seen.hands
        if not self.full:  # a special revealed in play is public: drawn face up
            shown = {r.seat: r.card for r in seen.revealed}
            hands = tuple(c if c is not None else shown.get(s) for s, c in enumerate(hands))
        boundary = step == self.last_step or starts_a_command(self.events[step])
        decision = pending(state) if boundary else None
        deciding = decision.seat if decision is not None else None
        involved = parties(event) if event is not None else frozenset()
        rows = tuple(
            SeatRow(
                seat=info.seat,
                name=self.names[info.seat],
                card=hands[info.seat] if info.seat < len(hands) else None,
                lives=info.lives,
                dealer=rnd is not None and seen.dealer == info.seat,
                deciding=deciding == info.seat,
                out=info.lives == 0 and not info.dead,
                dead=info.dead,
                skipped=info.skipped,
                dealt=info.dealt,
                involved=info.seat in involved,
                winner=state.winner == info.seat,
            )
            for info in seen.seats
        )
        start = self.round_start.get(rnd.number, 1) if rnd is not None else 1
        log = tuple(range(start, step + 1)) if step > 0 else ()
        return Frame(
            step=step,
            total=len(self.records),
            round=rnd.number if rnd is not None else 0,
            event=event,
            rows=rows,
            revealed=self._revealed(rnd.revealed if rnd is not None else (), log),
            pack_left=(rnd.bottom - rnd.top + 1) if rnd is not None else len(CARDS),
            discard=len(rnd.discard) if rnd is not None else 0,
            log=log,
        )

    def _revealed(
        self, during_play: Sequence[tuple[int, str]], log: Sequence[int]
    ) -> tuple[tuple[int, str], ...]:
        """The cards shown this round so far: the specials shown in play, and once the round is
        scored every live card (scoring shows them all)."""
        for version in reversed(log):
            event = self.events[version - 1]
            if isinstance(event, RoundScored):
                return tuple(zip(event.live, event.cards, strict=False))
        return tuple(during_play)
