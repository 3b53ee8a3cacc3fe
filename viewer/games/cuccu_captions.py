"""Plain-language captions of events and card names, in the viewer's four languages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from domain.games.cuccu.cards import rank
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
)
from viewer.i18n import Lang, tr, trn

_ROMAN: Final = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
_SPECIAL_NUMBERS: Final = {"inn": "XI", "cat": "XII", "horse": "XIII", "hunter": "XIIII",
                           "cuckoo": "XV"}  # fmt: skip
_PLAIN_VALUES: Final = {"lion": "−3", "mask": "−2", "bucket": "−1"}


def card_name(card: str | None, lang: Lang) -> str:
    """``"cuckoo XV"``, ``"VII"``, ``"lion −3"``; a hidden card reads as such."""
    if card is None:
        return tr(lang, "card.hidden")
    kind = rank(card)
    if kind.isdigit():
        return _ROMAN[int(kind) - 1]
    name = tr(lang, f"rank.{kind}")
    number = _SPECIAL_NUMBERS.get(kind) or _PLAIN_VALUES.get(kind)
    return f"{name} {number}" if number else name


def card_numeral(card: str) -> str:
    """What the corner of the drawn card shows: ``"XV"``, ``"VII"``, ``"−3"``, ``"0"``."""
    kind = rank(card)
    if kind.isdigit():
        return _ROMAN[int(kind) - 1]
    return _SPECIAL_NUMBERS.get(kind) or _PLAIN_VALUES.get(kind) or ("0" if kind == "zero" else "?")


def card_chip(card: str | None, lang: Lang) -> str:
    """The card in words for lists and logs: ``"VII (7)"``, ``"cuckoo XV"``; text only, no
    emoji, so it reads on a machine without an emoji font."""
    if card is None:
        return tr(lang, "card.hidden")
    kind = rank(card)
    if kind.isdigit():
        return f"{card_name(card, lang)} ({kind})"
    return card_name(card, lang)


def caption(event: Event, names: Sequence[str], lang: Lang) -> str:
    """What ``event`` means, in one sentence. ``names`` are the seats' display names."""

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    def card(c: str | None) -> str:
        return card_name(c, lang)

    match event:
        case MatchCreated(seats=seats, starting_lives=lives, first_dealer=dealer):
            return tr(lang, "ev.match_created", n=len(seats), dealer=who(dealer),
                      lives=trn(lang, "count.lives", lives))  # fmt: skip
        case SeatClaimed(seat=seat):
            return tr(lang, "ev.seat_claimed", seat=who(seat))
        case RoundStarted(round=number, dealer=dealer):
            return tr(lang, "ev.round_started", round=number, dealer=who(dealer))
        case CardDealt(seat=seat, card=c):
            return tr(lang, "ev.card_dealt", seat=who(seat), card=card(c))
        case Kept(seat=seat):
            return tr(lang, "ev.kept", seat=who(seat))
        case ExchangeRequested(seat=seat, target=target):
            return tr(lang, "ev.exchange_requested", seat=who(seat), target=who(target))
        case CardRevealed(seat=seat, card=c):
            return tr(lang, "ev.card_revealed", seat=who(seat), card=card(c))
        case HorseSkipped(seat=seat):
            return tr(lang, "ev.horse_skipped", seat=who(seat))
        case Retargeted(seat=seat, target=target):
            return tr(lang, "ev.retargeted", seat=who(seat), target=who(target))
        case CardsExchanged(requester=r, target=t, requester_gets=None, target_gets=None):
            return tr(lang, "ev.cards_swapped", requester=who(r), target=who(t))
        case CardsExchanged(requester=r, target=t, requester_gets=rg, target_gets=tg):
            return tr(lang, "ev.cards_exchanged", requester=who(r), target=who(t),
                      rgets=card(rg), tgets=card(tg))  # fmt: skip
        case ExchangeRefused(seat=seat, requester=requester):
            return tr(lang, "ev.exchange_refused", seat=who(seat), requester=who(requester))
        case InnChoiceMade(seat=seat, choice=choice):
            return tr(lang, f"ev.inn_{choice}", seat=who(seat))
        case InnResponded(seat=seat, response=response):
            return tr(lang, f"ev.inn_{response}", seat=who(seat))
        case PledgeMade(innkeeper=innkeeper, requester=requester):
            return tr(lang, "ev.pledge_made", innkeeper=who(innkeeper), requester=who(requester))
        case ExchangeReversed(requester=r, target=t):
            return tr(lang, "ev.exchange_reversed", requester=who(r), target=who(t))
        case LifeLost(seat=seat, reason=reason, lives_after=lives, on_behalf_of=other):
            return tr(lang, f"ev.life_lost.{reason}", seat=who(seat), lives=lives,
                      other=who(other))  # fmt: skip
        case SeatEliminated(seat=seat):
            return tr(lang, "ev.seat_eliminated", seat=who(seat))
        case PackExchanged(seat=seat, end=end, gave=None, got=None):
            return tr(lang, f"ev.pack_{end}_hidden", seat=who(seat))
        case PackExchanged(seat=seat, end=end, gave=gave, got=got):
            return tr(lang, f"ev.pack_{end}", seat=who(seat), gave=card(gave), got=card(got))
        case DealerKept(seat=seat):
            return tr(lang, "ev.dealer_kept", seat=who(seat))
        case RoundScored(live=live, losers=losing, cards=cards):
            shown = ", ".join(f"{who(s)} {card(c)}" for s, c in zip(live, cards, strict=False))
            lowest = ", ".join(who(s) for s in losing) or tr(lang, "ev.nobody")
            return tr(lang, "ev.round_scored", cards=shown, losers=lowest)
        case LivesReset(lives=lives):
            return tr(lang, "ev.lives_reset", lives=trn(lang, "count.lives", lives))
        case RoundEnded(round=number, next_dealer=dealer):
            if dealer is None:
                return tr(lang, "ev.round_ended_last", round=number)
            return tr(lang, "ev.round_ended", round=number, dealer=who(dealer))
        case MatchWon(winner=winner):
            return tr(lang, "ev.match_won", seat=who(winner))
    return type(event).__name__  # pragma: no cover - every event type is captioned above
