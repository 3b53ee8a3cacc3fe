"""Ranter-Go-Round in the viewer: a replay, the drawn table, captions and chart figures (pure).

Everything here reads the game's own domain (``domain.games.chase``) and turns it into what the
shared drawing (``viewer.table``) and the pages show; no page knows this game's events. A seat
holds one card of the 52-card pack (its rank in the corner, its suit in words: no suit symbol
needs a font), its lives are drawn as Cuccù's are, and the middle of the table shows the round
and the stock. Each event is drawn as an arrow (a request, a King's block, an exchange, the
dealer's cut) or a note on a seat.

A finished log (one that ends with ``match_won``) shows every card; any other log is shown as a
spectator sees it (``views.view`` for no seat), so no hidden card leaks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.games.chase.bots import choose
from domain.games.chase.bots.autoplay import autoplay
from domain.games.chase.bots.expert import risks
from domain.games.chase.cards import rank
from domain.games.chase.commands import CreateMatch
from domain.games.chase.config import Config, Options
from domain.games.chase.decide import apply
from domain.games.chase.events import (
    CardDealt,
    CardsExchanged,
    ChaseMatchCreated,
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
    RoundEnded,
    RoundScored,
    RoundStarted,
    RoundWipedOut,
    SeatClaimed,
    SeatEliminated,
    StockCut,
)
from domain.games.chase.evolve import evolve
from domain.games.chase.pending import pending
from domain.games.chase.state import MatchState, initial_state
from domain.games.chase.views import MatchView, redact, view
from domain.seats import SeatSpec
from viewer.games import Advice, Presentation
from viewer.games.steps import Steps
from viewer.i18n import Lang, tr, trn
from viewer.table import PACK, Arrow, CardFace, SeatDrawing, TableDrawing

#: the ranks with a name (the others are their number)
NAMED_RANKS = ("A", "J", "Q", "K")
LOSS_REASONS = ("lowest", "king_cut")
#: the per-seat counts of the Charts page's tallies
TALLIES = ("kept", "asked", "blocked", "cut", "void_cut", "wiped_out")


def card_words(card: str, lang: Lang) -> str:
    """``"King of hearts"`` in ``lang``."""
    r = rank(card)
    rank_words = tr(lang, f"chase.rank.{r}") if r in NAMED_RANKS else r
    return tr(lang, "chase.card", rank=rank_words, suit=tr(lang, f"chase.suit.{card[-1]}"))


def face(card: str | None, dealt: bool, lang: Lang) -> CardFace:
    """A known card face up (its rank in the corner, its suit in a word short enough for the
    card: "diamonds" breaks there), a hidden one face down, no card at all empty."""
    if card:
        return CardFace(rank(card), tr(lang, f"chase.suit.card.{card[-1]}"))
    if dealt:
        return CardFace(name=tr(lang, "table.face_down"), face_down=True)
    return CardFace(name=tr(lang, "table.no_card"))


def caption(event: Event, names: Sequence[str], lang: Lang) -> str:
    """One sentence for ``event``, in ``lang``."""

    def who(seat: int | None) -> str:
        if seat is None:
            return "-"
        return names[seat] if 0 <= seat < len(names) else f"#{seat}"

    def card(c: str | None) -> str:
        return card_words(c, lang) if c else tr(lang, "chase.hidden")

    key = f"chase.ev.{type(event).__struct_config__.tag}"
    match event:
        case ChaseMatchCreated(seats=seats, starting_lives=lives, first_dealer=dealer,
                               announce_low=low, king_cut_loses=king):  # fmt: skip
            rules = [tr(lang, f"chase.rule.{name}") for name, on in
                     (("announce_low", low), ("king_cut_loses", king)) if on]  # fmt: skip
            return tr(lang, key, seats=len(seats), lives=trn(lang, "count.lives", lives),
                      dealer=who(dealer),
                      rules=", ".join(rules) or tr(lang, "chase.rule.none"))  # fmt: skip
        case SeatClaimed(seat=seat, name=name):
            return tr(lang, key, seat=seat, name=name)
        case RoundStarted(round=rnd, dealer=dealer, participants=order):
            return tr(lang, key, round=rnd, dealer=who(dealer), players=len(order))
        case CardDealt(seat=seat, card=c):
            return tr(lang, key, seat=who(seat), card=card(c))
        case Kept(seat=seat) | DealerKept(seat=seat) | CutVoided(seat=seat):
            return tr(lang, key, seat=who(seat))
        case SeatEliminated(seat=seat):
            return tr(lang, key, seat=who(seat))
        case ExchangeRequested(seat=seat, target=target):
            return tr(lang, key, seat=who(seat), target=who(target))
        case KingBlocked(seat=seat, requester=requester, card=c):
            return tr(lang, key, seat=who(seat), requester=who(requester), card=card(c))
        case CardsExchanged(requester=a, target=t, requester_gets=got, target_gets=gave):
            if got is None or gave is None:
                return tr(lang, "chase.ev.cards_exchanged.hidden", requester=who(a), target=who(t))
            return tr(lang, key, requester=who(a), target=who(t), got=card(got), gave=card(gave))
        case LowCardAnnounced(seat=seat, card=c) | StockCut(seat=seat, card=c):
            return tr(lang, key, seat=who(seat), card=card(c))
        case CutExchanged(seat=seat, gave=gave, got=got):
            return tr(lang, key, seat=who(seat), gave=card(gave), got=card(got))
        case RoundScored(revealed=revealed, losers=losers):
            shown = ", ".join(f"{who(r.seat)} {card_words(r.card, lang)}" for r in revealed)
            return tr(lang, key, cards=shown or "-", losers=", ".join(who(s) for s in losers))
        case RoundWipedOut(seats=seats):
            return tr(lang, key, seats=", ".join(who(s) for s in seats))
        case LifeLost(seat=seat, reason=reason, lives_after=left):
            return tr(lang, key, seat=who(seat), why=tr(lang, f"chase.loss.{reason}"),
                      lives=trn(lang, "count.lives", left))  # fmt: skip
        case RoundEnded(round=rnd, next_dealer=dealer):
            if dealer is None:
                return tr(lang, "chase.ev.round_ended.last", round=rnd)
            return tr(lang, key, round=rnd, dealer=who(dealer))
        case MatchWon(winner=winner):
            return tr(lang, key, seat=who(winner))
    return key


def action(event: Event | None, lang: Lang) -> tuple[tuple[Arrow, ...], dict[int, str]]:
    """What ``event`` does, drawn: arrows between seats (or the pack) and notes on seats. An
    arrow's words are the log's own for the same event (one word per thing)."""
    if event is None:
        return (), {}

    def say(key: str, **values: object) -> str:
        return tr(lang, key, **values)

    match event:
        case ExchangeRequested(seat=seat, target=target):
            return (Arrow(seat, target, "ask", say("chase.act.ask")),), {}
        case KingBlocked(seat=seat, requester=requester):
            return (Arrow(seat, requester, "refused", say("chase.act.blocks")),), {}
        case CardsExchanged(requester=a, target=t):
            return (Arrow(a, t, "swap", say("chase.act.exchange")),), {}
        case StockCut(seat=seat, card=card):
            return (Arrow(PACK, seat, "draw", say("chase.act.cuts", card=card_words(card, lang))),
                    ), {}  # fmt: skip
        case CutExchanged(seat=seat):
            return (Arrow(seat, PACK, "pack", say("chase.act.cut_exchange")),), {}
        case CutVoided(seat=seat):
            return (), {seat: say("chase.act.cut_void")}
        case Kept(seat=seat) | DealerKept(seat=seat):
            return (), {seat: say("act.keeps")}
        case LowCardAnnounced(seat=seat, card=card):
            return (), {seat: say("chase.act.announced", card=card_words(card, lang))}
        case LifeLost(seat=seat):
            return (), {seat: say("seat.lost_life")}
        case SeatEliminated(seat=seat):
            return (), {seat: say("chase.act.eliminated")}
        case RoundScored(losers=losers):
            return (), {seat: say("chase.act.lowest") for seat in losers}
        case RoundWipedOut(seats=seats):
            return (), {seat: say("chase.act.void") for seat in seats}
    return (), {}


def _parties(event: Event | None) -> frozenset[int]:
    if event is None:
        return frozenset()
    if isinstance(event, RoundScored):
        return frozenset(event.losers)
    if isinstance(event, RoundWipedOut):
        return frozenset(event.seats)
    found = {getattr(event, name, None) for name in ("seat", "target", "requester", "winner")}
    return frozenset(s for s in found if isinstance(s, int))


def centre_lines(rnd: int, stock: int, discard: int, lang: Lang) -> tuple[str, ...]:
    """The cloth: the round, the stock and the dealer's discard."""
    if rnd == 0:
        return (tr(lang, "chase.table.before"),)
    return (
        tr(lang, "chase.table.round", round=rnd),
        tr(lang, "chase.table.stock", stock=trn(lang, "count.cards", stock), discard=discard),
    )


@dataclass(frozen=True)
class SeatFacts:
    """What the table says of one seat, whatever the source (a state, or a seat's view)."""

    lives: int
    card: str | None  # as this viewer may see it
    dealt: bool  # it holds a card this round
    dealer: bool
    shown: bool  # blocked with a King this round


def _markers(facts: SeatFacts, seat: int, *, winner: int | None, over: bool,
             deciding: int | None, you: int | None, lang: Lang) -> tuple[str, ...]:  # fmt: skip
    found = []
    if seat == winner:
        found.append(tr(lang, "seat.winner"))
    if seat == you:
        found.append(tr(lang, "seat.you"))
    if not over and facts.dealer:
        found.append(tr(lang, "seat.dealer"))
    if deciding == seat:
        found.append(tr(lang, "seat.deciding"))
    if facts.shown:
        found.append(tr(lang, "chase.seat.shown"))
    if facts.lives == 0 and not over:
        found.append(tr(lang, "seat.out"))
    return tuple(found)


def _table(facts: Sequence[SeatFacts], names: Sequence[str], starting_lives: int, lang: Lang, *,
           event: Event | None, winner: int | None, over: bool, deciding: int | None,
           you: int | None, centre: tuple[str, ...]) -> TableDrawing:  # fmt: skip
    arrows, notes = action(event, lang)
    involved = _parties(event)
    seats = tuple(
        SeatDrawing(
            seat=seat, name=names[seat], card=face(f.card, f.dealt, lang), counter=f.lives,
            counter_max=starting_lives, counter_text=trn(lang, "count.lives", f.lives),
            markers=_markers(f, seat, winner=winner, over=over, deciding=deciding, you=you,
                             lang=lang),
            highlight=seat in involved, deciding=deciding == seat, faded=f.lives == 0 and not over,
            note=notes.get(seat, ""),
        )
        for seat, f in enumerate(facts)
    )  # fmt: skip
    return TableDrawing(seats, arrows, centre, tr(lang, "table.label"))


def drawing(state: MatchState, names: Sequence[str], lang: Lang, *, event: Event | None = None,
            show_hands: bool = False, deciding: int | None = None) -> TableDrawing:  # fmt: skip
    """The table at ``state``: every card face up when ``show_hands`` (a finished log), else
    what a spectator may see (shown Kings, the scoring reveal)."""
    rnd = state.round
    public = view(state, None, with_log=False)  # the game's own redaction decides what shows
    seen = rnd.hands if show_hands and rnd is not None else public.hands
    facts = [
        SeatFacts(
            lives=state.lives[seat] if state.lives else 0,
            card=seen[seat] if seat < len(seen) else None,
            dealt=rnd is not None and rnd.hands[seat] is not None,
            dealer=seat == public.dealer and state.status in ("in_round", "between_rounds"),
            shown=rnd is not None and seat in rnd.shown and state.status == "in_round",
        )
        for seat in range(len(state.seats))
    ]
    return _table(facts, names, state.starting_lives, lang, event=event, winner=state.winner,
                  over=state.status == "over", deciding=deciding, you=None,
                  centre=centre_lines(public.round, public.stock_size, len(public.discard),
                                      lang))  # fmt: skip


#: the events a command opens with: the state just before one awaits that decision
_COMMAND_OPENERS = (Kept, ExchangeRequested, DealerKept, StockCut, RoundStarted, SeatClaimed)


@dataclass
class ChaseReplay(Steps):
    """The match after every event: step ``k`` is the match after its first ``k`` events."""

    events: list[Event] = field(init=False)
    states: list[MatchState] = field(init=False)

    initial_state = staticmethod(initial_state)
    evolve = staticmethod(evolve)
    redact = staticmethod(redact)
    caption = staticmethod(caption)
    last_event = MatchWon
    round_started = RoundStarted

    def table(self, step: int, lang: Lang) -> TableDrawing:
        step = max(0, min(step, self.last_step))
        state = self.states[step]
        event = self.events[step - 1] if step > 0 else None
        awaits = step == self.last_step or isinstance(self.events[step], _COMMAND_OPENERS)
        decision = pending(state) if awaits else None
        deciding = decision.seat if decision is not None else None
        return drawing(state, self.names, lang, event=event, show_hands=self.full,
                       deciding=deciding)  # fmt: skip


# --- Charts: figures of a whole match ---------------------------------------------------------


@dataclass(frozen=True)
class LivesCurve:
    """Lives per seat at the start (round 0) and after every round, and who went out when."""

    rounds: list[int]
    lives: list[tuple[int, ...]]
    wiped_out: list[int]  # rounds that were void: every participant was on its last life
    eliminated: list[tuple[int, int]]  # (round, seat)


def lives_curve(replay: ChaseReplay) -> LivesCurve:
    rounds: list[int] = []
    lives: list[tuple[int, ...]] = []
    wiped: list[int] = []
    eliminated: list[tuple[int, int]] = []
    current = 0
    for index, event in enumerate(replay.events[: replay.last_step], start=1):
        state = replay.states[index]
        if isinstance(event, ChaseMatchCreated):
            rounds.append(0)
            lives.append(state.lives)
        elif isinstance(event, RoundStarted):
            current = event.round
        elif isinstance(event, RoundWipedOut):
            wiped.append(current)
        elif isinstance(event, SeatEliminated):
            eliminated.append((current, event.seat))
        elif isinstance(event, RoundEnded):
            rounds.append(event.round)
            lives.append(state.lives)
    return LivesCurve(rounds, lives, wiped, eliminated)


def tallies(events: Sequence[Event], seats: int) -> list[dict[str, int]]:
    """Per seat: lives lost by reason, and what it did (kept, asked, blocked with a King, cut,
    cut a King) and how often it was in a void round."""
    keys = [f"lost:{r}" for r in LOSS_REASONS] + list(TALLIES)
    counts = [dict.fromkeys(keys, 0) for _ in range(seats)]
    cutter: int | None = None
    for event in events:
        if isinstance(event, LifeLost):
            counts[event.seat][f"lost:{event.reason}"] += 1
        elif isinstance(event, Kept | DealerKept):
            counts[event.seat]["kept"] += 1
        elif isinstance(event, ExchangeRequested):
            counts[event.seat]["asked"] += 1
        elif isinstance(event, KingBlocked):
            counts[event.seat]["blocked"] += 1
        elif isinstance(event, StockCut):
            counts[event.seat]["cut"] += 1
            cutter = event.seat
        elif isinstance(event, CutVoided) and cutter is not None:
            counts[cutter]["void_cut"] += 1
        elif isinstance(event, RoundWipedOut):
            for seat in event.seats:
                counts[seat]["wiped_out"] += 1
    return counts


# --- Play: one seat's view, as the API gives it ----------------------------------------------


def view_drawing(seen: MatchView, names: Sequence[str], lang: Lang,
                 event: Event | None = None) -> TableDrawing:  # fmt: skip
    """The table as ``seen.viewer`` sees it: its own card, shown Kings and the reveal face up,
    the rest face down."""
    over = seen.status == "over"
    playing = seen.status == "in_round"
    facts = [
        SeatFacts(
            lives=info.lives,
            card=seen.hands[info.seat] if info.seat < len(seen.hands) else None,
            dealt=info.in_round and (playing or over or bool(seen.revealed)),
            dealer=info.seat == seen.dealer,
            shown=info.shown and playing,
        )
        for info in seen.seats
    ]
    deciding = seen.pending.seat if seen.pending is not None else None
    return _table(facts, names, seen.starting_lives, lang, event=event, winner=seen.winner,
                  over=over, deciding=deciding, you=seen.viewer,
                  centre=centre_lines(seen.round, seen.stock_size, len(seen.discard),
                                      lang))  # fmt: skip


def next_participant(seen: MatchView) -> int | None:
    """Whom an exchange on this seat's turn asks: the next participant (A7)."""
    order = list(seen.participants)
    me = seen.viewer
    if me is None or me not in order or order.index(me) + 1 >= len(order):
        return None
    return order[order.index(me) + 1]


def choice_words(seen: MatchView, choice: str, names: Sequence[str],
                 lang: Lang) -> tuple[str, str]:  # fmt: skip
    """A choice's button label and what it does in this position, in ``lang``."""
    mine = card_words(seen.hand, lang) if seen.hand else "-"
    if choice == "next_round":
        return tr(lang, "choice.next_round"), tr(lang, "explain.next_round")
    if choice == "exchange":
        target = next_participant(seen)
        whom = names[target] if target is not None else "-"
        return (tr(lang, "chase.choice.exchange", target=whom),
                tr(lang, "chase.explain.exchange", target=whom, card=mine))  # fmt: skip
    if choice == "cut":
        rule = "chase.explain.cut_loses" if seen.king_cut_loses else "chase.explain.cut"
        return tr(lang, "chase.choice.cut"), tr(lang, rule, card=mine)
    dealer = seen.pending is not None and seen.pending.kind == "dealer_turn"
    meaning = "chase.explain.dealer_keep" if dealer else "chase.explain.keep"
    return tr(lang, "choice.keep"), tr(lang, meaning, card=mine)


def bot_match(
    seed: int,
    seats: int = 4,
    lives: int = 2,
    levels: Sequence[str] = ("expert", "basic", "random"),
    announce_low: bool = True,
) -> list[Any]:
    """Every event of a whole match between bots (the viewer's sample), seeded.

    Two lives and ``announce_low`` on keep a sample short and show one optional rule at work.
    """
    rng = random.Random(seed)
    levels_of = [levels[s % len(levels)] for s in range(seats)]
    specs = tuple(SeatSpec(name=f"Bot {s}", kind="bot", bot_level=levels_of[s])
                  for s in range(seats))  # fmt: skip
    config = Config(specs, starting_lives=lives, first_dealer=rng.randrange(seats),
                    options=Options(announce_low=announce_low))  # fmt: skip
    state, events = apply(initial_state(), CreateMatch(config))
    log: list[Any] = list(events)

    def answer(state: MatchState, seat: int) -> str:
        level = levels_of[seat]
        return choose(level, view(state, seat, with_log=level == "expert"), rng)

    for _, events in autoplay(state, answer, rng):
        log.extend(events)
    return log


def advise(seen: MatchView, samples: int, seed: int) -> Advice | None:
    """The coach: the chance of losing a life this round after each choice open to
    ``seen.viewer``, the expert's own figures (``domain.games.chase.bots.expert.risks``). They
    are exact, not sampled (the expert counts the unseen cards), so ``samples`` and ``seed``
    are unused and the advice says 0 samples."""
    decision = seen.pending
    me = seen.viewer
    if decision is None or me is None or decision.seat != me or seen.hand is None:
        return None
    if decision.kind not in ("turn", "dealer_turn"):
        return None
    return Advice(risks(seen), 0)


PRESENTATION = Presentation(replay=ChaseReplay, sample=bot_match, advise=advise)
