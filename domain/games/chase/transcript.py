"""The canonical transcript (tests/scenarios-chase/README.md, "Events"): a round's story.

The match's creation, seat claims and a round's start and end (its commitment and opening)
are left out, as the format says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    CutExchanged,
    CutVoided,
    DealerKept,
    Event,
    ExchangeRequested,
    Kept,
    KingBlocked,
    LifeLost,
    LowCardAnnounced,
    MatchWon,
    RoundScored,
    RoundWipedOut,
    SeatEliminated,
    StockCut,
)  # fmt: skip

Entry = dict[str, Any]


def transcript_entry(event: Event) -> Entry | None:
    """One transcript line, or None for events the transcript leaves out."""
    match event:
        case CardDealt(seat=seat, card=card):
            return {"t": "deal", "seat": seat, "card": card}
        case Kept(seat=seat):
            return {"t": "keep", "seat": seat}
        case ExchangeRequested(seat=seat, target=target):
            return {"t": "request", "seat": seat, "target": target}
        case KingBlocked(seat=seat, requester=requester, card=card):
            return {"t": "king_block", "seat": seat, "requester": requester, "card": card}
        case CardsExchanged(
            requester=requester, target=target, requester_gets=r_gets, target_gets=t_gets
        ):
            return {
                "t": "exchange",
                "requester": requester,
                "target": target,
                "requester_gets": r_gets,
                "target_gets": t_gets,
            }
        case LowCardAnnounced(seat=seat, card=card):
            return {"t": "announce", "seat": seat, "card": card}
        case DealerKept(seat=seat):
            return {"t": "dealer_keep", "seat": seat}
        case StockCut(seat=seat, card=card):
            return {"t": "cut", "seat": seat, "card": card}
        case CutExchanged(seat=seat, gave=gave, got=got):
            return {"t": "cut_exchange", "seat": seat, "gave": gave, "got": got}
        case CutVoided(seat=seat):
            return {"t": "cut_void", "seat": seat}
        case RoundScored(revealed=revealed, losers=losers):
            shown = [{"seat": r.seat, "card": r.card} for r in revealed]
            return {"t": "score", "revealed": shown, "losers": list(losers)}
        case RoundWipedOut(seats=seats):
            return {"t": "wipe_out", "seats": list(seats)}
        case LifeLost(seat=seat, reason=reason, lives_after=lives_after):
            return {"t": "life_loss", "seat": seat, "reason": reason, "lives_after": lives_after}
        case SeatEliminated(seat=seat):
            return {"t": "eliminated", "seat": seat}
        case MatchWon(winner=winner):
            return {"t": "match_end", "winner": winner}
    return None


def transcript(events: Iterable[Event]) -> list[Entry]:
    """The canonical transcript of ``events`` (complete, unredacted events)."""
    return [entry for event in events if (entry := transcript_entry(event)) is not None]
