"""Cucco 21 in the viewer: a replay, the drawn table, captions and chart figures (pure).

Everything here reads Cucco 21's own domain (``domain.games.cucco21``) and turns it into what
the shared drawing (``viewer.table``) and the pages show; no page knows this game's events.
Chips replace lives (in words: a number of chips is not drawn as pictures), the middle of the
table shows the round card, the box, the deck and the discard pile, and each event is drawn as
an arrow (a request, a refusal, a send-on, a trade, a draw, a payment) or a note on a seat.

A finished log (one that ends with ``game_ended``) shows every card; any other log is shown as
a spectator sees it (``views.redact``), so no hidden card leaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games.cucco21.bots import choose
from domain.games.cucco21.bots.autoplay import autoplay
from domain.games.cucco21.bots.expert import search
from domain.games.cucco21.cards import NAMES, value
from domain.games.cucco21.commands import CreateGame
from domain.games.cucco21.config import Config
from domain.games.cucco21.decide import apply
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
    PowerDiscarded,
    Refused,
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
)
from domain.games.cucco21.evolve import evolve
from domain.games.cucco21.pending import pending
from domain.games.cucco21.state import GameState, initial_state
from domain.games.cucco21.views import GameView, redact, view
from domain.seats import SeatSpec
from viewer.games import Advice, Presentation
from viewer.games.steps import Steps
from viewer.i18n import Lang, tr, trn
from viewer.table import PACK, Arrow, CardFace, SeatDrawing, TableDrawing

DEATH_REASONS = ("clown", "cat", "scoring")
PAY_REASONS = ("ante", "penalty", "ceremony")


def card_words(card: str, lang: Lang) -> str:
    """``"18 Cat"`` in ``lang``, or the bare value of a plain card."""
    v = value(card)
    return f"{v} {tr(lang, f'c21.card.{v}')}" if v in NAMES else str(v)


def face(card: str | None, dealt: bool, lang: Lang) -> CardFace:
    """A known card face up (its value, and its power's name), a hidden one face down."""
    if card is not None:
        v = value(card)
        return CardFace(str(v), tr(lang, f"c21.card.{v}") if v in NAMES else "")
    if dealt:
        return CardFace(name=tr(lang, "table.face_down"), face_down=True)
    return CardFace(name=tr(lang, "table.no_card"))


def caption(event: Event, names: Sequence[str], lang: Lang) -> str:
    """One sentence for ``event``, in ``lang``."""

    def who(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"#{seat}"

    key = f"c21.ev.{type(event).__struct_config__.tag}"
    match event:
        case GameCreated(seats=seats, starting_chips=chips, powers=powers):
            on = tr(lang, "c21.powers_on" if powers else "c21.powers_off")
            return tr(lang, key, seats=len(seats), chips=trn(lang, "c21.count.chips", chips),
                      powers=on)  # fmt: skip
        case SeatClaimed(seat=seat, name=name):
            return tr(lang, key, seat=seat, name=name)
        case DeckShuffled(number=number, size=size):
            return tr(lang, key, number=number, cards=trn(lang, "count.cards", size))
        case DeckOpened(number=number, order=order):
            return tr(lang, key, number=number, cards=trn(lang, "count.cards", len(order)))
        case RoundStarted(round=rnd, set_number=s, round_card=card, dealer=dealer):
            return tr(lang, key, round=rnd, set=s, card=card, dealer=who(dealer))
        case ChipsPaid(seat=seat, amount=amount, to=to, reason=reason):
            paid = trn(lang, "c21.count.chips", amount)
            why = tr(lang, f"c21.pay.{reason}")
            if to == "box":  # its own sentence: "to" + "the box" is not "to the box" everywhere
                return tr(lang, "c21.ev.chips_paid.box", seat=who(seat), chips=paid, reason=why)
            return tr(lang, key, seat=who(seat), chips=paid, to=who(to), reason=why)
        case SeatBankrupted(seat=seat):
            return tr(lang, key, seat=who(seat))
        case CardDealt(seat=seat, card=card) | CardDrawn(seat=seat, card=card):
            shown = card_words(card, lang) if card is not None else tr(lang, "c21.hidden")
            return tr(lang, key, seat=who(seat), card=shown)
        case Kept(seat=seat) | Claimed(seat=seat) | Declined(seat=seat):
            return tr(lang, key, seat=who(seat))
        case Asked(seat=seat, target=target):
            return tr(lang, key, seat=who(seat), target=who(target))
        case Refused(seat=seat, asker=asker) | SentOn(seat=seat, asker=asker):
            return tr(lang, key, seat=who(seat), asker=who(asker))
        case Traded(asker=asker, target=target):
            return tr(lang, key, asker=who(asker), target=who(target))
        case (DeckDiscarded(seat=seat, card=card) | PowerDiscarded(seat=seat, card=card)
              | TakenBack(seat=seat, card=card)):  # fmt: skip
            return tr(lang, key, seat=who(seat), card=card_words(card, lang))
        case MadeOut(seat=seat, reason=reason, card=card):
            why = tr(lang, f"c21.card.{1 if reason == 'clown' else 18}")
            return tr(lang, key, seat=who(seat), why=why, card=card_words(card, lang))
        case Died(seat=seat, reason=reason):
            return tr(lang, key, seat=who(seat), why=tr(lang, f"c21.death.{reason}"))
        case RoundScored(revealed=revealed, out=out):
            shown = ", ".join(f"{who(r.seat)} {card_words(r.card, lang)}" for r in revealed)
            lowest = ", ".join(who(s) for s in out) or tr(lang, "c21.nobody")
            return tr(lang, key, cards=shown or "-", out=lowest)
        case RevealedDiscarded(cards=cards):
            return tr(lang, key, cards=trn(lang, "count.cards", len(cards)))
        case SetEnded(survivor=survivor, undecided=undecided):
            if undecided:
                return tr(lang, "c21.ev.set_ended.undecided")
            if survivor is None:
                return tr(lang, "c21.ev.set_ended.nobody")
            return tr(lang, key, seat=who(survivor))
        case BoxTaken(seat=seat, amount=amount):
            return tr(lang, key, seat=who(seat), chips=trn(lang, "c21.count.chips", amount))
        case RoundEnded(next_round_card=card, next_dealer=dealer):
            return tr(lang, key, card=card, dealer=who(dealer))
        case SetStarted(number=number, dealer=dealer):
            return tr(lang, key, set=number, dealer=who(dealer))
        case GameEnded(winners=winners):
            return tr(lang, key, winners=", ".join(who(s) for s in winners))
    return key


def action(event: Event | None, lang: Lang) -> tuple[tuple[Arrow, ...], dict[int, str]]:
    """What ``event`` does, drawn: arrows between seats (or the middle) and notes on seats."""
    if event is None:
        return (), {}

    def say(key: str, **values: object) -> str:
        return tr(lang, key, **values)

    match event:
        case Asked(seat=seat, target=target):
            return (Arrow(seat, target, "ask", say("c21.act.ask")),), {}
        case Refused(seat=seat, asker=asker):
            return (Arrow(seat, asker, "refused", say("act.refused")),), {}
        case SentOn(seat=seat, asker=asker):
            return (Arrow(seat, asker, "skip", say("c21.act.sent_on")),), {}
        case Traded(asker=asker, target=target):
            return (Arrow(asker, target, "swap", say("c21.act.trade")),), {}
        case DeckDiscarded(seat=seat):
            return (Arrow(seat, PACK, "pack", say("c21.act.discards")),), {}
        case CardDrawn(seat=seat):
            return (Arrow(PACK, seat, "draw", say("c21.act.draws")),), {}
        case ChipsPaid(seat=seat, amount=amount, to=to):
            label = say("c21.act.pays", n=amount)
            return (Arrow(seat, PACK if to == "box" else to, "pay", label),), {}
        case BoxTaken(seat=seat, amount=amount):
            return (Arrow(PACK, seat, "pay", say("c21.act.takes_box", n=amount)),), {}
        case Kept(seat=seat):
            return (), {seat: say("act.keeps")}
        case PowerDiscarded(seat=seat, card=card):
            return (), {seat: say("c21.act.power", card=card_words(card, lang))}
        case TakenBack(seat=seat):
            return (), {seat: say("c21.act.taken_back")}
        case MadeOut(seat=seat, reason=reason):
            return (), {
                seat: say("c21.act.out", why=say(f"c21.card.{1 if reason == 'clown' else 18}"))
            }
        case Died(seat=seat):
            return (), {seat: say("c21.act.dies")}
        case SeatBankrupted(seat=seat):
            return (), {seat: say("c21.seat.bankrupt")}
        case Claimed(seat=seat):
            return (), {seat: say("c21.act.claims")}
        case Declined(seat=seat):
            return (), {seat: say("c21.act.declines")}
        case RoundScored(out=out):
            return (), {seat: say("c21.act.lowest") for seat in out}
    return (), {}


def _parties(event: Event | None) -> frozenset[int]:
    if event is None:
        return frozenset()
    if isinstance(event, RoundScored):
        return frozenset(event.out)
    found = {getattr(event, name, None) for name in ("seat", "target", "asker", "survivor")}
    if isinstance(event, ChipsPaid) and isinstance(event.to, int):
        found.add(event.to)
    return frozenset(s for s in found if isinstance(s, int))


def centre_lines(state: GameState, lang: Lang) -> tuple[str, ...]:
    """The cloth: the set and round card, the box, the deck and the discard pile."""
    return (
        tr(lang, "c21.table.round", set=state.set_number, card=state.round_card),
        tr(lang, "c21.table.box", chips=trn(lang, "c21.count.chips", state.box)),
        tr(
            lang,
            "c21.table.deck",
            deck=trn(lang, "count.cards", len(state.deck)),
            discard=len(state.discard),
        ),  # fmt: skip
    )


def _dead(state: GameState, seat: int) -> bool:
    """Killed in sudden death this set (once the game is over, nobody is shown dead)."""
    return state.status != "over" and bool(state.alive) and not state.alive[seat]


def seat_markers(state: GameState, seat: int, deciding: int | None, lang: Lang,
                 you: int | None = None) -> tuple[str, ...]:  # fmt: skip
    found = []
    rnd = state.round
    if seat in state.winners:
        found.append(tr(lang, "seat.winner"))
    if seat == you:
        found.append(tr(lang, "seat.you"))
    if state.status != "over" and seat == (rnd.dealer if rnd and state.status == "in_round"
                                           else state.dealer):  # fmt: skip
        found.append(tr(lang, "seat.dealer"))
    if deciding == seat:
        found.append(tr(lang, "seat.deciding"))
    if state.bankrupt and state.bankrupt[seat]:
        found.append(tr(lang, "c21.seat.bankrupt"))
    elif _dead(state, seat):
        found.append(tr(lang, "c21.seat.dead"))
    elif rnd is not None and state.status == "in_round" and seat in rnd.out:
        found.append(tr(lang, "seat.out"))
    return tuple(found)


def drawing(state: GameState, names: Sequence[str], lang: Lang, *, event: Event | None = None,
            show_hands: bool = False, you: int | None = None,
            deciding: int | None = None) -> TableDrawing:  # fmt: skip
    """The table at ``state``: every card face up when ``show_hands`` (a finished log), else only
    the scoring reveal and ``you``'s own card."""
    arrows, notes = action(event, lang)
    involved = _parties(event)
    rnd = state.round
    playing = rnd is not None and state.status == "in_round"
    revealed = {r.seat: r.card for r in rnd.revealed} if rnd is not None and playing else {}
    seats = []
    for seat in range(len(state.seats)):
        held = rnd.hands[seat] if rnd is not None and playing else None
        known = revealed.get(seat)
        if known is None and held is not None and (show_hands or seat == you):
            known = held
        chips = state.chips[seat]
        seats.append(SeatDrawing(
            seat=seat, name=names[seat], card=face(known, held is not None, lang),
            counter=chips, counter_max=0, counter_text=trn(lang, "c21.count.chips", chips),
            markers=seat_markers(state, seat, deciding, lang, you),
            highlight=seat in involved, deciding=deciding == seat,
            faded=bool(state.bankrupt and state.bankrupt[seat]) or _dead(state, seat),
            note=notes.get(seat, ""),
        ))  # fmt: skip
    return TableDrawing(tuple(seats), arrows, centre_lines(state, lang), tr(lang, "table.label"))


@dataclass
class Replay21(Steps):
    """The game after every event: step ``k`` is the game after its first ``k`` events."""

    events: list[Event] = field(init=False)
    states: list[GameState] = field(init=False)

    initial_state = staticmethod(initial_state)
    evolve = staticmethod(evolve)
    redact = staticmethod(redact)
    caption = staticmethod(caption)
    last_event = GameEnded
    round_started = RoundStarted

    def table(self, step: int, lang: Lang) -> TableDrawing:
        step = max(0, min(step, self.last_step))
        state = self.states[step]
        event = self.events[step - 1] if step > 0 else None
        decision = pending(state) if step == self.last_step or _before_command(
            self.events[step]) else None  # fmt: skip
        deciding = decision.seat if decision is not None else None
        return drawing(state, self.names, lang, event=event, show_hands=self.full,
                       deciding=deciding)  # fmt: skip

    def log(self, step: int) -> tuple[int, ...]:
        """Versions of this round's events up to ``step``."""
        if step <= 0:
            return ()
        start = self.round_start.get(self.round_at(step), 1)
        return tuple(range(min(start, step), step + 1))


def _before_command(event: Event) -> bool:
    """Whether ``event`` is the first of a command (the state before it awaits a decision)."""
    # a trade or a deck discard may open a command (accept, the dealer's trade) or follow a
    # request within one: they are left out rather than name a seat that is not deciding
    return isinstance(event, Kept | Asked | Refused | SentOn | Claimed | Declined | RoundStarted
                      | DeckShuffled | SeatClaimed)  # fmt: skip


@dataclass(frozen=True)
class ChipsCurve:
    """Chips per seat and the box at the start (round 0) and after every round."""

    rounds: list[int]
    chips: list[tuple[int, ...]]
    box: list[int]
    sets: list[int]  # the rounds after which a new set began
    deaths: list[tuple[int, int, str]]  # (round, seat, reason)


def chips_curve(replay: Replay21) -> ChipsCurve:
    """Snapshots taken just before each round starts (after the last round's payments, the box
    taken, a new set), and at the end; round 0 is the start of the game."""
    rounds: list[int] = []
    chips: list[tuple[int, ...]] = []
    box: list[int] = []
    sets: list[int] = []
    deaths: list[tuple[int, int, str]] = []
    current = 0

    def snapshot(x: int, state: GameState) -> None:
        if rounds and rounds[-1] == x:
            chips[-1], box[-1] = state.chips, state.box
        else:
            rounds.append(x)
            chips.append(state.chips)
            box.append(state.box)

    for index, event in enumerate(replay.events[: replay.last_step]):
        if isinstance(event, RoundStarted):
            snapshot(event.round - 1, replay.states[index])
            current = event.round
        elif isinstance(event, SetStarted):
            sets.append(current)
        elif isinstance(event, Died):
            deaths.append((current, event.seat, event.reason))
    if replay.states[-1].chips:
        snapshot(current, replay.states[-1])
    return ChipsCurve(rounds, chips, box, sets, deaths)


def tallies(events: Sequence[Event], seats: int) -> list[dict[str, int]]:
    """Per seat: deaths by reason, chips paid by reason, sets won, chips won from boxes."""
    keys = [f"died:{r}" for r in DEATH_REASONS] + [f"paid:{r}" for r in PAY_REASONS]
    counts = [dict.fromkeys([*keys, "sets_won", "box_chips", "claims"], 0) for _ in range(seats)]
    for event in events:
        if isinstance(event, Died):
            counts[event.seat][f"died:{event.reason}"] += 1
        elif isinstance(event, ChipsPaid):
            counts[event.seat][f"paid:{event.reason}"] += event.amount
        elif isinstance(event, BoxTaken):
            counts[event.seat]["sets_won"] += 1
            counts[event.seat]["box_chips"] += event.amount
        elif isinstance(event, Claimed):
            counts[event.seat]["claims"] += 1
    return counts


# --- Play: one seat's view, as the API gives it ----------------------------------------------


def view_drawing(view: GameView, names: Sequence[str], lang: Lang,
                 event: Event | None = None) -> TableDrawing:  # fmt: skip
    """The table as ``view.viewer`` sees it: its own card face up, the scoring reveal, the rest
    face down."""
    arrows, notes = action(event, lang)
    involved = _parties(event)
    deciding = view.pending.seat if view.pending is not None else None
    shown = {r.seat: r.card for r in view.revealed}
    over = view.status == "over"
    seats = []
    for info in view.seats:
        known = shown.get(info.seat)
        if known is None and info.seat == view.viewer:
            known = view.hand
        found = []
        if info.seat in view.winners:
            found.append(tr(lang, "seat.winner"))
        if info.seat == view.viewer:
            found.append(tr(lang, "seat.you"))
        if not over and info.seat == view.dealer:
            found.append(tr(lang, "seat.dealer"))
        if deciding == info.seat:
            found.append(tr(lang, "seat.deciding"))
        dead = not over and not info.alive and not info.bankrupt
        if info.bankrupt:
            found.append(tr(lang, "c21.seat.bankrupt"))
        elif dead:
            found.append(tr(lang, "c21.seat.dead"))
        elif info.out:
            found.append(tr(lang, "seat.out"))
        seats.append(SeatDrawing(
            seat=info.seat, name=names[info.seat], card=face(known, info.holder, lang),
            counter=info.chips, counter_max=0,
            counter_text=trn(lang, "c21.count.chips", info.chips), markers=tuple(found),
            highlight=info.seat in involved, deciding=deciding == info.seat,
            faded=info.bankrupt or dead, note=notes.get(info.seat, ""),
        ))  # fmt: skip
    centre = (
        tr(lang, "c21.table.round", set=view.set_number, card=view.round_card),
        tr(lang, "c21.table.box", chips=trn(lang, "c21.count.chips", view.box)),
        tr(
            lang,
            "c21.table.deck",
            deck=trn(lang, "count.cards", view.deck_size),
            discard=len(view.discard),
        ),  # fmt: skip
    )
    return TableDrawing(tuple(seats), arrows, centre, tr(lang, "table.label"))


def trade_target(view: GameView) -> int | None:
    """Whom a trade on this seat's turn would ask: the next holder after it in turn order, or
    None for the deck (the dealer, or no holder left after it)."""
    me = view.viewer
    order = list(view.turn_order)
    if me is None or me not in order or me == view.dealer:
        return None
    for seat in order[order.index(me) + 1 :]:
        if view.seats[seat].holder:
            return seat
    return None


def asker(view: GameView) -> int | None:
    """The seat whose request waits for this seat's answer (the last ``asked`` of the round)."""
    for event in reversed(view.round_events):
        if isinstance(event, Asked):
            return event.seat
    return None


def choice_words(view: GameView, choice: str, names: Sequence[str], lang: Lang) -> tuple[str, str]:
    """A choice's button label and what it does in this position, in ``lang``."""
    mine = card_words(view.hand, lang) if view.hand else "-"
    if choice == "trade":
        target = trade_target(view)
        if target is None:
            return tr(lang, "c21.choice.trade_deck"), tr(
                lang, "c21.explain.trade_deck", card=mine,
                deck=trn(lang, "count.cards", view.deck_size))  # fmt: skip
        whom = names[target]
        return tr(lang, "c21.choice.trade", target=whom), tr(lang, "c21.explain.trade",
                                                              target=whom, card=mine)  # fmt: skip
    who = asker(view)
    whom = names[who] if who is not None else "-"
    meaning = f"c21.explain.{choice}"
    if choice == "refuse" and view.hand is not None and value(view.hand) == 18:
        meaning = "c21.explain.refuse_cat"
    return (tr(lang, f"c21.choice.{choice}", asker=whom),
            tr(lang, meaning, card=mine, asker=whom))  # fmt: skip


def bot_game21(
    seed: int,
    seats: int = 4,
    chips: int = 6,
    levels: Sequence[str] = ("basic", "random"),
    max_sets: int | None = 3,
    powers: bool = True,
) -> list[Any]:
    """Every event of a whole Cucco 21 game between bots (the viewer's sample), seeded.

    Few chips and a cap on sets keep a sample short enough to step through.
    """
    rng = random.Random(seed)
    levels_of = [levels[s % len(levels)] for s in range(seats)]
    specs = tuple(SeatSpec(name=f"Bot {s}", kind="bot", bot_level=levels_of[s])
                  for s in range(seats))  # fmt: skip
    config = Config(specs, starting_chips=chips, powers=powers, max_sets=max_sets,
                    first_dealer=rng.randrange(seats))  # fmt: skip
    state, events = apply(initial_state(), CreateGame(config))
    log: list[Any] = list(events)

    def answer(state: GameState, seat: int) -> str:
        return choose(levels_of[seat], view(state, seat, with_log=False), rng)

    for _, events in autoplay(state, answer, rng):
        log.extend(events)
    return log


#: the decisions the coach weighs
COACHED = ("turn", "asked", "ceremony")


def advise(view: GameView, samples: int, seed: int) -> Advice | None:
    """The coach: the chance of being out this round (or bankrupt) after each choice open to
    ``view.viewer``, from the expert's own search (``domain.games.cucco21.bots.expert``):
    worlds consistent with what the seat saw and with the other seats' public decisions, each
    answer played out to the end of the round."""
    decision = view.pending
    me = view.viewer
    if decision is None or me is None or decision.seat != me:
        return None
    if decision.kind not in COACHED or view.hand is None:
        return None
    estimate = search(view, random.Random(seed), samples=samples, stop_early=False)
    return Advice(dict(zip(estimate.choices, estimate.out, strict=True)), estimate.samples)


PRESENTATION = Presentation(replay=Replay21, sample=bot_game21, advise=advise)
