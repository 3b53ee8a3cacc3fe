"""``expert``: reasons over what its seat knows, then plays the round out many times.

How a decision is made:

1. **Card accounting** (``account``). Every card in a round comes from a known place in the
   pack: participant ``P[k]`` is dealt the k-th card from the bottom (RULES §5.1), the dealer
   draws the next one from the bottom and a horse at the dealer sends a requester to the top.
   Replaying this round's events *as the seat saw them*, we follow which pack position each
   seat's current card came from, and we pin every card the seat has seen to its position:
   its own deal, both cards of its own exchanges and reversals, its pack draws and discards,
   and the revealed specials. A target that exchanged without a reveal held a plain card.
   Earlier rounds tell nothing: the pack is reshuffled every round.
2. **Sampling** (``sample_packs``). The unseen cards are dealt at random to the unseen positions,
   honouring the "plain" constraints, which gives a full pack consistent with everything the
   seat knows. Each sample is weighted by how likely the other seats' earlier keep/exchange
   choices were with the cards it gives them, under the ``basic`` model: a seat that kept
   probably holds a high card.
3. **Rollouts**. From the rebuilt full state, each possible answer is applied with the pure
   domain (``apply``) and the round is played to its end, every later decision taken by the
   ``basic`` model. The same samples serve every answer (common random numbers), so the
   comparison is sharper than the estimates.
4. **Standings** (``standing``). A rollout's outcome is the lives after the round and who deals
   next, scored as the chance of ending the match as the last seat standing. That weighs
   elimination (worth nothing), the lives of everyone, how many seats remain and who deals
   (the dealer loses fewer rounds), not only the lives lost now.

Only the ``MatchView`` is read, and chance comes only from the caller's ``rng``, so a decision
is a function of what the seat may know and of the seed.

Strength (``cuccu tournament``, 4 seats, 3 lives): about 27% of matches won against three
``basic`` bots, where parity is 25%. ``bench/expert_ceiling.py`` runs this same search with more
knowledge than a seat may have: seeing every hand already dealt wins about 29%, and only seeing
the cards still to be dealt (hidden from everyone by RULES §7) lifts it to about 40%. What the
expert misses is mostly those undealt cards (docs/BOTS.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple, cast

from msgspec.structs import replace

from domain.games.cuccu.bots.basic import basic_decision, exchanges_on_turn
from domain.games.cuccu.cards import CARDS, is_special
from domain.games.cuccu.commands import Choice, Choose
from domain.games.cuccu.decide import apply
from domain.games.cuccu.events import (
    CardDealt,
    CardRevealed,
    CardsExchanged,
    Event,
    ExchangeRequested,
    ExchangeReversed,
    Kept,
    LifeLost,
    PackExchanged,
    Retargeted,
)
from domain.games.cuccu.pending import pending
from domain.games.cuccu.state import MatchState, RoundState
from domain.games.cuccu.views import MatchView
from domain.seats import SeatSpec

PACK_SIZE = len(CARDS)

# Samples per decision. The dealer's answer needs no rollout beyond scoring, so it can afford
# more. Measured against a perfect-information referee, 100 samples leave a turn decision
# within 0.001 (in chance of winning the match) of 500 samples.
SAMPLES: dict[str, int] = {"turn": 100, "dealer_turn": 250, "inn_choice": 100, "inn_response": 100}

# A cap on the domain commands applied per decision, so that big tables (long rollouts) cost
# fewer samples rather than more time: the decision time p99 stays well under 50 ms.
WORK_BUDGET = 1500

# How often the model expects another seat to act against the ``basic`` heuristic. Above zero so
# that a surprising choice (a human, another expert) down-weights a deal instead of ruling it out.
SURPRISE = 0.1

# In the standings model a round costs one seat a life, the dealer less often than the others:
# it acts last, with the pack as its only partner, and cannot lose a life before scoring.
# Between ``basic`` bots the dealer loses in 0.72 as many rounds as the mean other seat with 4
# seats in play, 0.79 with 3 and 0.87 with 2.
DEALER_SHARE = 0.8

# Beyond this many positions (lives combinations times seats) the standings odds are
# approximated by the share of lives, so that the first decision at a big table stays fast.
_EXACT_STANDINGS_POSITIONS = 5000


class PastTurn(NamedTuple):
    """Another seat's keep/exchange decision earlier this round, and what it was based on."""

    seat: int
    position: int  # pack position of the card it held when it chose
    exchanged: bool
    lives: int
    live_players: int


@dataclass(frozen=True)
class Accounting:
    """What the seat knows about where this round's cards are."""

    known: dict[int, str]  # pack position -> card, for every card the seat has seen
    plain: frozenset[int]  # positions whose card was targeted and exchanged: no special
    holding: dict[int, int]  # dealt seat -> pack position its current card came from
    top: int  # next position drawn from the top
    bottom: int  # next position dealt or drawn from the bottom
    requester: int | None  # the request being resolved (meaningful at inn prompts)
    target: int | None
    past_turns: tuple[PastTurn, ...]


def account(view: MatchView) -> Accounting:
    """Replay the round's events as ``view.viewer`` saw them (see the module docstring, 1)."""
    lives = [s.lives for s in view.seats]
    for e in view.round_events:  # lives at the round's start: undo its mid-round losses
        if type(e) is LifeLost:
            lives[e.seat] += 1
    me = view.viewer
    known: dict[int, str] = {}
    plain: set[int] = set()
    revealed: set[int] = set()
    holding: dict[int, int] = {}
    past: list[PastTurn] = []
    top, bottom = 0, PACK_SIZE - 1
    requester: int | None = None
    target: int | None = None

    def note_turn(seat: int, exchanged: bool) -> None:
        if seat != me:
            live = sum(1 for p in view.participants if lives[p] > 0)
            past.append(PastTurn(seat, holding[seat], exchanged, lives[seat], live))

    for e in view.round_events:
        kind = type(e)
        if kind is CardDealt:
            assert isinstance(e, CardDealt)
            holding[e.seat] = bottom
            if e.card is not None:
                known[bottom] = e.card
            bottom -= 1
        elif kind is Kept:
            assert isinstance(e, Kept)
            note_turn(e.seat, False)
        elif kind is ExchangeRequested:
            assert isinstance(e, ExchangeRequested)
            note_turn(e.seat, True)
            requester, target = e.seat, e.target
        elif kind is Retargeted:
            assert isinstance(e, Retargeted)
            target = e.target
        elif kind is CardRevealed:
            assert isinstance(e, CardRevealed)
            known[holding[e.seat]] = e.card
            revealed.add(holding[e.seat])
        elif kind is CardsExchanged or kind is ExchangeReversed:
            assert isinstance(e, CardsExchanged | ExchangeReversed)
            r, t = e.requester, e.target
            if kind is CardsExchanged and holding[t] not in revealed:
                plain.add(holding[t])  # a target's dealt card exchanged without a reveal
            if e.requester_gets is not None:  # the seat was a party: it saw both cards
                known[holding[t]] = e.requester_gets
            if e.target_gets is not None:
                known[holding[r]] = e.target_gets
            holding[r], holding[t] = holding[t], holding[r]
        elif kind is PackExchanged:
            assert isinstance(e, PackExchanged)
            if e.end == "top":
                position, top = top, top + 1
            else:
                position, bottom = bottom, bottom - 1
            if e.gave is not None:
                known[holding[e.seat]] = e.gave
            if e.got is not None:
                known[position] = e.got
            holding[e.seat] = position
        elif kind is LifeLost:
            assert isinstance(e, LifeLost)
            lives[e.seat] = e.lives_after
    return Accounting(
        known=known,
        plain=frozenset(plain),
        holding=holding,
        top=top,
        bottom=bottom,
        requester=requester,
        target=target,
        past_turns=tuple(past),
    )


def unseen_cards(acc: Accounting) -> list[str]:
    """The cards the seat has not seen this round, in canonical order (for determinism)."""
    seen = set(acc.known.values())
    return [card for card in CARDS if card not in seen]


def in_play_positions(participants: int) -> list[int]:
    """The pack positions a round can use: one deal each plus the dealer's draw from the
    bottom, and the horse draw from the top (RULES §5.6). The middle of the pack never plays."""
    return [0, *range(PACK_SIZE - participants - 1, PACK_SIZE)]


def sample_packs(acc: Accounting, participants: int, rng: random.Random) -> Iterator[list[str]]:
    """Full packs agreeing with everything the seat knows, each uniform among those that do."""
    unseen = unseen_cards(acc)
    assert len(unseen) + len(acc.known) == PACK_SIZE, "card accounting is inconsistent"
    in_play = [p for p in in_play_positions(participants) if p not in acc.known]
    must_be_plain = [p for p in in_play if p in acc.plain]
    free = [p for p in in_play if p not in acc.plain]
    middle = [p for p in range(PACK_SIZE) if p not in acc.known and p not in in_play]
    plain_cards = [c for c in unseen if not is_special(c)]
    known = [acc.known.get(p, "") for p in range(PACK_SIZE)]
    while True:
        # Plain-constrained positions first, from the plain cards; then the rest from the rest.
        chosen = rng.sample(plain_cards, len(must_be_plain))
        rest = [c for c in unseen if c not in chosen] if chosen else unseen
        chosen += rng.sample(rest, len(free))
        pack = known.copy()
        for position, card in zip(must_be_plain + free, chosen, strict=True):
            pack[position] = card
        # The middle of the pack never plays: the leftovers go there, to keep a permutation.
        placed = set(chosen)
        leftovers = [c for c in unseen if c not in placed]
        for position, card in zip(middle, leftovers, strict=True):
            pack[position] = card
        yield pack


def likelihood(acc: Accounting, pack: list[str]) -> float:
    """How well the other seats' earlier choices fit the cards ``pack`` gives them."""
    weight = 1.0
    for turn in acc.past_turns:
        expected = exchanges_on_turn(pack[turn.position], turn.lives, turn.live_players)
        weight *= 1.0 - SURPRISE if expected == turn.exchanged else SURPRISE
    return weight


def template_state(view: MatchView, acc: Accounting) -> MatchState:
    """The full match state as the view describes it, with the pack and hands still blank."""
    assert view.step is not None
    inn_prompt = view.step in ("inn_choice", "inn_response")
    rnd = RoundState(
        number=view.round,
        dealer=view.dealer,
        participants=view.participants,
        commitment="",
        pack=(),
        salt="",
        hands=(None,) * len(view.seats),
        top=acc.top,
        bottom=acc.bottom,
        step=view.step,
        current=view.current,
        requester=acc.requester if inn_prompt else None,
        target=acc.target if inn_prompt else None,
        chain=view.chain,
        pledges=view.pledges,
        revealed=tuple((r.seat, r.card) for r in view.revealed),
        skipped=tuple(s.seat for s in view.seats if s.skipped),
        dead=tuple(s.seat for s in view.seats if s.dead),
    )
    return MatchState(
        seats=tuple(SeatSpec(name=s.name) for s in view.seats),
        starting_lives=view.starting_lives,
        lives=tuple(s.lives for s in view.seats),
        dealer=view.dealer,
        status="in_round",
        rounds_played=view.round - 1,
        round=rnd,
    )


def rebuild(template: MatchState, acc: Accounting, pack: list[str]) -> MatchState:
    """The template with a sampled pack: each dealt seat holds the card of its position."""
    assert template.round is not None
    hands = tuple(
        pack[acc.holding[s]] if s in acc.holding else None for s in range(len(template.lives))
    )
    return replace(template, round=replace(template.round, pack=tuple(pack), hands=hands))


def play_out(state: MatchState, rng: random.Random) -> tuple[MatchState, int]:
    """Finish the round with every seat following ``basic``: the state after it, and how many
    decisions that took."""
    steps = 0
    for after, _ in play_out_steps(state, rng):
        state, steps = after, steps + 1
    return state, steps


def play_out_steps(
    state: MatchState, rng: random.Random
) -> Iterator[tuple[MatchState, list[Event]]]:
    """:func:`play_out` decision by decision: the state after each, and its events (the coach
    reads who lost a life in them)."""
    while state.status == "in_round":
        decision = pending(state)
        rnd = state.round
        assert decision is not None and decision.seat is not None and rnd is not None
        card = rnd.hands[decision.seat]
        assert card is not None
        live = sum(1 for p in rnd.participants if state.lives[p] > 0)
        lives = state.lives[decision.seat]
        choice = basic_decision(decision.kind, card, lives, live, rng)
        state, events = apply(state, Choose(decision.seat, cast(Choice, choice)))
        yield state, events


@cache
def _last_standing_odds(lives: tuple[int, ...], me: int) -> float:
    """P(``me`` ends as the only seat with lives) if each round one seat with lives, at random,
    loses one, the dealer ``DEALER_SHARE`` times as often as each other seat.

    ``lives`` holds only the seats with lives, in play order from the next round's dealer
    (``lives[0]``), so rotating it by one passes the deal on (RULES §6.4); ``me`` indexes it.
    A crude model of a round, yet within a couple of points of the win rates measured between
    ``basic`` bots from the same positions (4 seats, 3 lives).
    """
    n = len(lives)
    if n == 1:
        return 1.0
    total = 0.0
    for loser in range(n):
        if loser == me and lives[me] == 1:
            continue  # eliminated: worth nothing
        after = [x - (seat == loser) for seat, x in enumerate(lives)]
        rotated = after[1:] + after[:1]
        kept = tuple(x for x in rotated if x > 0)
        new_me = sum(1 for x in rotated[: (me - 1) % n] if x > 0)
        total += (DEALER_SHARE if loser == 0 else 1.0) * _last_standing_odds(kept, new_me)
    return total / (DEALER_SHARE + n - 1)


def standing(lives: tuple[int, ...], me: int, dealer: int) -> float:
    """How good the lives after a round are for ``me``, ``dealer`` dealing the next round: its
    odds of winning the match."""
    if lives[me] == 0:
        return 0.0
    n = len(lives)
    order = [(dealer + i) % n for i in range(n)]
    live = [seat for seat in order if lives[seat] > 0]
    if math.prod(lives[seat] for seat in live) * len(live) > _EXACT_STANDINGS_POSITIONS:
        return lives[me] / sum(lives)  # too many positions to enumerate: the share of lives
    return _last_standing_odds(tuple(lives[seat] for seat in live), live.index(me))


def expert_choice(view: MatchView, rng: random.Random) -> str:
    """The answer with the best expected standing over deals consistent with the view."""
    assert view.pending is not None, "nothing to decide"
    if view.pending.kind == "next_round":
        return "next_round"
    return best_choice(view, account(view), rng)


def best_choice(view: MatchView, acc: Accounting, rng: random.Random) -> str:
    """The answer with the best expected standing over packs consistent with ``acc``.

    Split from ``expert_choice`` so that a benchmark can hand in an ``Accounting`` that knows
    more than the seat may (bench/expert_ceiling.py), to measure what fair play leaves on the table.
    """
    decision = view.pending
    assert decision is not None
    me = view.viewer
    assert me is not None and decision.seat == me and view.hand is not None
    template = template_state(view, acc)
    choices = decision.choices
    totals = [0.0] * len(choices)
    packs = sample_packs(acc, len(view.participants), rng)
    work = 0
    for _ in range(SAMPLES[decision.kind]):
        if work >= WORK_BUDGET:  # long rounds (many seats) get fewer samples, not more time
            break
        pack = next(packs)
        weight = likelihood(acc, pack)
        state = rebuild(template, acc, pack)
        for i, choice in enumerate(choices):
            after, _ = apply(state, Choose(me, cast(Choice, choice)))
            final, steps = play_out(after, rng)
            totals[i] += weight * standing(final.lives, me, final.dealer)
            work += 1 + steps
    # Equal estimates (the answers lead to the same outcomes in every sample) go to basic's
    # choice: asking the innkeeper to pay, say, costs nothing even when it changes nothing.
    lives_now = view.seats[me].lives
    live = sum(1 for s in view.seats if s.in_round and not s.dead)
    fallback = basic_decision(decision.kind, view.hand, lives_now, live, rng)
    best = max(range(len(choices)), key=lambda i: (totals[i], choices[i] == fallback))
    return choices[best]
