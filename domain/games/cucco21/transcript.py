"""The canonical transcript (tests/scenarios-cucco21/README.md, "Events"): a round's story.

The game's creation, deck commitments and openings, round starts and ends and set starts are
left out, as the format says; a reshuffle is the ``reshuffle`` line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.games.cucco21.events import (
    Asked,
    BoxTaken,
    CardDealt,
    CardDrawn,
    ChipsPaid,
    Claimed,
    DeckDiscarded,
    DeckShuffled,
    Declined,
    Died,
    Event,
    GameEnded,
    Kept,
    MadeOut,
    PowerDiscarded,
    Refused,
    RevealedDiscarded,
    RoundScored,
    SeatBankrupted,
    SentOn,
    SetEnded,
    TakenBack,
    Traded,
)  # fmt: skip

Entry = dict[str, Any]


def transcript_entry(event: Event) -> Entry | None:
    """One transcript line, or None for events the transcript leaves out."""
    match event:
        case ChipsPaid(seat=seat, amount=amount, to=to, reason=reason):
            return {"t": "pay", "seat": seat, "amount": amount, "to": to, "reason": reason}
        case SeatBankrupted(seat=seat, reason=reason, card=card):
            return {"t": "bankrupt", "seat": seat, "reason": reason, "card": card}
        case DeckShuffled(size=size):
            return {"t": "reshuffle", "size": size}
        case CardDealt(seat=seat, card=card):
            return {"t": "deal", "seat": seat, "card": card}
        case Kept(seat=seat):
            return {"t": "keep", "seat": seat}
        case Asked(seat=seat, target=target):
            return {"t": "ask", "seat": seat, "target": target}
        case Refused(seat=seat, asker=asker):
            return {"t": "refuse", "seat": seat, "asker": asker}
        case SentOn(seat=seat, asker=asker):
            return {"t": "send_on", "seat": seat, "asker": asker}
        case Traded(asker=asker, target=target, asker_gets=asker_gets, target_gets=target_gets):
            return {
                "t": "trade",
                "asker": asker,
                "target": target,
                "asker_gets": asker_gets,
                "target_gets": target_gets,
            }
        case DeckDiscarded(seat=seat, card=card):
            return {"t": "deck_discard", "seat": seat, "card": card}
        case CardDrawn(seat=seat, card=card):
            return {"t": "draw", "seat": seat, "card": card}
        case PowerDiscarded(seat=seat, card=card):
            return {"t": "power_discard", "seat": seat, "card": card}
        case TakenBack(seat=seat, card=card):
            return {"t": "take_back", "seat": seat, "card": card}
        case MadeOut(seat=seat, reason=reason, card=card):
            return {"t": "out", "seat": seat, "reason": reason, "card": card}
        case Died(seat=seat, reason=reason):
            return {"t": "die", "seat": seat, "reason": reason}
        case Claimed(seat=seat):
            return {"t": "claim", "seat": seat}
        case Declined(seat=seat):
            return {"t": "decline", "seat": seat}
        case RoundScored(revealed=revealed, out=out):
            shown = [{"seat": r.seat, "card": r.card} for r in revealed]
            return {"t": "score", "revealed": shown, "out": list(out)}
        case RevealedDiscarded(cards=cards):
            return {"t": "discard_revealed", "cards": list(cards)}
        case SetEnded(survivor=survivor, undecided=undecided):
            return {"t": "set_end", "survivor": survivor, "undecided": undecided}
        case BoxTaken(seat=seat, amount=amount):
            return {"t": "take_box", "seat": seat, "amount": amount}
        case GameEnded(winners=winners):
            return {"t": "game_end", "winners": list(winners)}
    return None


def transcript(events: Iterable[Event]) -> list[Entry]:
    """The canonical transcript of ``events`` (complete, unredacted events)."""
    return [entry for event in events if (entry := transcript_entry(event)) is not None]
