"""The canonical transcript (tests/scenarios/FORMAT.md): the public story of a round.

Deals, round starts and ends, and the match's creation are left out, as the format says.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.games.cuccu.events import (
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
    MatchWon,
    PackExchanged,
    PledgeMade,
    Retargeted,
    RoundScored,
    SeatEliminated,
)  # fmt: skip

Entry = dict[str, Any]


def transcript_entry(event: Event) -> Entry | None:
    """One transcript line, or None for events the transcript leaves out."""
    match event:
        case Kept(seat=seat):
            return {"t": "keep", "seat": seat}
        case ExchangeRequested(seat=seat, target=target):
            return {"t": "request", "seat": seat, "target": target}
        case CardRevealed(seat=seat, card=card):
            return {"t": "reveal", "seat": seat, "card": card}
        case HorseSkipped(seat=seat):
            return {"t": "horse_skip", "seat": seat}
        case Retargeted(seat=seat, target=target):
            return {"t": "retarget", "seat": seat, "target": target}
        case CardsExchanged() | ExchangeReversed():
            return {
                "t": "exchange" if isinstance(event, CardsExchanged) else "reverse",
                "requester": event.requester,
                "target": event.target,
                "requester_gets": event.requester_gets,
                "target_gets": event.target_gets,
            }
        case ExchangeRefused(seat=seat, requester=requester):
            return {"t": "refuse", "seat": seat, "requester": requester}
        case InnChoiceMade(seat=seat, choice=choice):
            return {"t": "inn_choice", "seat": seat, "choice": choice}
        case InnResponded(seat=seat, response=response):
            return {"t": "inn_response", "seat": seat, "response": response}
        case PledgeMade(innkeeper=innkeeper, requester=requester):
            return {"t": "pledge", "innkeeper": innkeeper, "requester": requester}
        case LifeLost(seat=seat, reason=reason, lives_after=lives_after):
            entry: Entry = {"t": "life_loss", "seat": seat, "reason": reason}
            entry["lives_after"] = lives_after
            if reason == "inn_pledge":
                entry["on_behalf_of"] = event.on_behalf_of
            return entry
        case SeatEliminated(seat=seat):
            return {"t": "eliminated", "seat": seat}
        case PackExchanged(seat=seat, end=end, gave=gave, got=got):
            return {"t": "pack_exchange", "seat": seat, "end": end, "gave": gave, "got": got}
        case DealerKept(seat=seat):
            return {"t": "dealer_keep", "seat": seat}
        case RoundScored(live=live, dead=dead, losers=losers):
            return {"t": "score", "live": list(live), "dead": list(dead), "losers": list(losers)}
        case LivesReset(lives=lives):
            return {"t": "reset", "lives": lives}
        case MatchWon(winner=winner):
            return {"t": "match_end", "winner": winner}
    return None


def transcript(events: Iterable[Event]) -> list[Entry]:
    """The canonical transcript of ``events`` (complete, unredacted events)."""
    return [entry for event in events if (entry := transcript_entry(event)) is not None]
