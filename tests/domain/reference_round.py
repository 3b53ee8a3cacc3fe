"""An independent reference model of ONE round of Cuccù, for differential tests of ``domain``.

Written from ``RULES.md`` (§5, §6, §8 and decisions D1–D26) and the scenario format
(``tests/scenarios/FORMAT.md``) only; it deliberately shares no code with ``domain/``.
It favours plainness over speed: one function per rule step, each citing its rule.

``play_reference_round`` takes a position and a ``chooser(seat, prompt_kind, allowed) -> choice``
callback, and returns the scenario ``expected`` block plus the decisions taken, in prompt order.

Prompt kinds: ``turn`` (a non-dealer's keep/exchange), ``dealer_turn`` (the dealer's final
keep/exchange), ``inn_choice`` (requester at an inn) and ``inn_response`` (the innkeeper).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Chooser = Callable[[int, str, tuple[str, ...]], str]
Event = dict[str, Any]

# §3.1 / §3.2: the 20 ranks, lowest first, each in two copies.
RANKS: tuple[str, ...] = (
    "lion", "mask", "bucket", "zero",
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
    "inn", "cat", "horse", "hunter", "cuckoo", "fool",
)  # fmt: skip
CANONICAL_PACK: tuple[str, ...] = tuple(f"{rank}#{copy}" for rank in RANKS for copy in (1, 2))

# §3.3: comparison values; the fool has none of its own (§6.2, D17).
VALUES: dict[str, float] = {
    "lion": -3, "mask": -2, "bucket": -1, "zero": 0,
    **{str(i): i for i in range(1, 11)},
    "inn": 11, "cat": 12, "horse": 13, "hunter": 14, "cuckoo": 15,
}  # fmt: skip

TURN_CHOICES = ("keep", "exchange")
INN_CHOICES = ("inn_keep", "inn_ask_pay")
INN_RESPONSES = ("inn_accept", "inn_refuse")


def rank(card: str) -> str:
    """The rank key of a card id ``<rank>#<copy>`` (§3.1)."""
    return card.split("#", 1)[0]


@dataclass
class RoundState:
    """Everything one round needs; the field names follow the §8 pseudocode."""

    seats: int
    starting_lives: int
    lives: list[int]
    dealer: int
    pack: list[str]  # index 0 = top, last = bottom (D3)
    chooser: Chooser
    participants: list[int] = field(default_factory=list)
    hand: dict[int, str] = field(default_factory=dict)
    chain: list[tuple[int, int]] = field(default_factory=list)
    pledges: dict[int, int] = field(default_factory=dict)  # requester -> innkeeper (D14)
    discard: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    dead_seats: list[int] = field(default_factory=list)  # eliminated mid-round (D15)
    life_losses: list[dict[str, Any]] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)
    public_reveals: list[dict[str, Any]] = field(default_factory=list)

    # -- helpers -------------------------------------------------------------------------------

    def pos(self, seat: int) -> int:
        return self.participants.index(seat)

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def ask(self, seat: int, kind: str, allowed: tuple[str, ...]) -> str:
        """One prompt; the answer is recorded in prompt order (FORMAT.md ``decisions``)."""
        choice = self.chooser(seat, kind, allowed)
        assert choice in allowed, (seat, kind, choice, allowed)
        self.decisions.append({"seat": seat, "choice": choice})
        return choice


# -- §5.1 setup ------------------------------------------------------------------------------


def participants_in_turn_order(seats: int, lives: list[int], dealer: int) -> list[int]:
    """§1 / D1: ``dealer+1, dealer+2, …, dealer`` (mod N), skipping seats with 0 lives."""
    order = [(dealer + k) % seats for k in range(1, seats + 1)]
    return [s for s in order if lives[s] > 0]


def deal(state: RoundState, seat: int) -> None:
    """D2: lazy deal, one card from the bottom, only to a participant not dealt yet."""
    if seat not in state.hand:
        state.hand[seat] = state.pack.pop()  # D3: deals come from the bottom


def next_undealt(state: RoundState, seat: int) -> int:
    """D2, D26: the first participant after ``seat`` in turn order that is not dealt yet."""
    for later in state.participants[state.pos(seat) + 1 :]:
        if later not in state.hand:
            return later
    raise AssertionError(f"no undealt participant after seat {seat} (D26: dealer is last)")


def swap(state: RoundState, a: int, b: int) -> None:
    state.hand[a], state.hand[b] = state.hand[b], state.hand[a]


def reveal(state: RoundState, seat: int) -> None:
    """§7 / D22: a targeted special is shown to everyone, with its holder."""
    card = state.hand[seat]
    state.emit({"t": "reveal", "seat": seat, "card": card})
    state.public_reveals.append({"seat": seat, "card": card})


def lose_life_mid_round(state: RoundState, seat: int, reason: str) -> None:
    """§5.3.3 / §5.3.5 / D15: a hunter or cat costs the requester 1 life at once; at 0 it is
    eliminated at once and its card becomes dead."""
    state.lives[seat] = max(0, state.lives[seat] - 1)
    state.emit({"t": "life_loss", "seat": seat, "reason": reason, "lives_after": state.lives[seat]})
    state.life_losses.append({"seat": seat, "reason": reason})
    if state.lives[seat] == 0:
        state.emit({"t": "eliminated", "seat": seat})
        state.eliminated.append(seat)
        state.dead_seats.append(seat)


def draw_from_pack(state: RoundState, seat: int, end: str) -> None:
    """A pack exchange (D7 top, D8 bottom). The drawn card is inert (D25). The defensive D23
    fallback (empty pack: keep the card) is unreachable for N <= 20 but kept for clarity."""
    if not state.pack:
        return
    got = state.pack.pop(0) if end == "top" else state.pack.pop()
    gave = state.hand[seat]
    state.discard.append(gave)
    state.hand[seat] = got
    state.emit({"t": "pack_exchange", "seat": seat, "end": end, "gave": gave, "got": got})


# -- §5.2 a non-dealer's turn -----------------------------------------------------------------


def non_dealer_turn(state: RoundState, current: int) -> int:
    """§5.2: keep (ends the chain, next seat plays) or exchange (request the next undealt).

    Returns the next current player."""
    if state.ask(current, "turn", TURN_CHOICES) == "keep":
        state.emit({"t": "keep", "seat": current})
        state.chain = []  # D11: keeping ends the chain
        return state.participants[state.pos(current) + 1]
    target = next_undealt(state, current)
    state.emit({"t": "request", "seat": current, "target": target})
    return resolve_request(state, current, target)


# -- §5.3 resolving a request ------------------------------------------------------------------


def resolve_request(state: RoundState, requester: int, target: int) -> int:
    """§5.3: the target's DEALT card decides (D25). Horses loop on to the next undealt seat.

    Returns the next current player (the final target, or the dealer after D7)."""
    while True:
        deal(state, target)
        card_rank = rank(state.hand[target])
        if card_rank == "horse":
            follow = resolve_horse(state, requester, target)
            if follow is None:  # D7: the dealer's horse sent the requester to the pack top
                return state.dealer
            target = follow
            continue
        if card_rank == "cuckoo":
            return resolve_cuckoo(state, requester, target)
        if card_rank == "hunter":
            return resolve_hunter(state, requester, target)
        if card_rank == "cat":
            return resolve_cat(state, requester, target)
        if card_rank == "inn":
            return resolve_inn(state, requester, target)
        return resolve_plain(state, requester, target)


def exchange_in_chain(state: RoundState, requester: int, target: int) -> None:
    """A player-to-player exchange; it grows the chain (§5.4, D11)."""
    swap(state, requester, target)
    state.chain.append((requester, target))
    state.emit({
        "t": "exchange", "requester": requester, "target": target,
        "requester_gets": state.hand[requester], "target_gets": state.hand[target],
    })  # fmt: skip


def refuse(state: RoundState, requester: int, target: int) -> None:
    state.emit({"t": "refuse", "seat": target, "requester": requester})


def resolve_plain(state: RoundState, requester: int, target: int) -> int:
    """§5.3.1: a plain card (numeral, zero, negative, fool) must be exchanged; the target then
    acts on the card it received (D4), or takes the dealer's final turn (D9)."""
    exchange_in_chain(state, requester, target)
    return target


def resolve_cuckoo(state: RoundState, requester: int, target: int) -> int:
    """§5.3.2 / D5: reveal, refuse, no life lost; the chain ends; the holder plays normally."""
    reveal(state, target)
    refuse(state, requester, target)
    state.chain = []  # D11
    return target


def resolve_hunter(state: RoundState, requester: int, target: int) -> int:
    """§5.3.3 / D15: reveal, refuse, the requester loses a life at once (maybe eliminated)."""
    reveal(state, target)
    refuse(state, requester, target)
    lose_life_mid_round(state, requester, "hunter")
    state.chain = []  # D11
    return target


def resolve_horse(state: RoundState, requester: int, target: int) -> int | None:
    """§5.3.4 / D6 / D7: reveal and skip the horse.

    A non-dealer holder never plays this round; the request moves to the next undealt seat,
    which is returned. At the dealer, the requester swaps with the TOP of the pack (inert),
    the chain ends and None is returned (the dealer still takes its final turn)."""
    reveal(state, target)
    state.emit({"t": "horse_skip", "seat": target})
    if target == state.dealer:
        draw_from_pack(state, requester, "top")  # D3, D7
        state.chain = []  # D11
        return None
    follow = next_undealt(state, target)
    state.emit({"t": "retarget", "seat": requester, "target": follow})
    return follow


def resolve_cat(state: RoundState, requester: int, target: int) -> int:
    """§5.3.5 / D10: reveal, refuse, the requester loses a life (maybe eliminated, D15), then
    the whole current chain is undone most recent first (even if the requester is out)."""
    reveal(state, target)
    refuse(state, requester, target)
    lose_life_mid_round(state, requester, "cat")
    reverse_chain(state)
    state.chain = []  # D11
    return target


def reverse_chain(state: RoundState) -> None:
    """D10: undo each exchange of the chain, most recent first; the fields name the original
    exchange's parties. The reversal is mechanical: no card acts (D25)."""
    for a, b in reversed(state.chain):
        swap(state, a, b)
        state.emit({
            "t": "reverse", "requester": a, "target": b,
            "requester_gets": state.hand[a], "target_gets": state.hand[b],
        })  # fmt: skip


def resolve_inn(state: RoundState, requester: int, target: int) -> int:
    """§5.3.6 / D12 / D13 / D14: the inn is revealed and pauses the exchange.

    The requester keeps or asks to pay (a bluff is allowed, D14); the innkeeper accepts (a
    pledge, a refusal for the chain) or refuses (the inn must be exchanged, in the chain, D11).
    In every case the innkeeper (the former holder) then acts normally (D13)."""
    reveal(state, target)
    if state.ask(requester, "inn_choice", INN_CHOICES) == "inn_keep":
        state.emit({"t": "inn_choice", "seat": requester, "choice": "keep"})
        state.chain = []  # D11: inn keep is a refusal
        return target
    state.emit({"t": "inn_choice", "seat": requester, "choice": "ask_pay"})
    if state.ask(target, "inn_response", INN_RESPONSES) == "inn_accept":
        state.emit({"t": "inn_response", "seat": target, "response": "accept"})
        state.pledges[requester] = target
        state.emit({"t": "pledge", "innkeeper": target, "requester": requester})
        state.chain = []  # D11: inn accept is a refusal
        return target
    state.emit({"t": "inn_response", "seat": target, "response": "refuse"})
    exchange_in_chain(state, requester, target)  # D11 (a): part of the chain
    return target


# -- §5.5 the dealer's final turn --------------------------------------------------------------


def dealer_final_turn(state: RoundState) -> None:
    """§5.5 / D8 / D9: keep, or swap blind with the BOTTOM of the pack; the draw is inert."""
    dealer = state.dealer
    deal(state, dealer)
    if state.ask(dealer, "dealer_turn", TURN_CHOICES) == "keep":
        state.emit({"t": "dealer_keep", "seat": dealer})
    else:
        draw_from_pack(state, dealer, "bottom")


def exchange_phase(state: RoundState) -> None:
    """§8 main loop: each current player is dealt, then plays; the dealer always ends it."""
    current = state.participants[0]
    while True:
        deal(state, current)
        if current == state.dealer:
            dealer_final_turn(state)
            return
        current = non_dealer_turn(state, current)


# -- §6 scoring and end of round ---------------------------------------------------------------


def scoring_values(cards: dict[int, str]) -> dict[int, float]:
    """§6.2 / D17: the value of every live NON-cuckoo card (the candidates, §6.3.1)."""
    candidates = {s: c for s, c in cards.items() if rank(c) != "cuckoo"}
    fools = [s for s, c in candidates.items() if rank(c) == "fool"]
    others = [VALUES[rank(c)] for c in candidates.values() if rank(c) != "fool"]
    values: dict[int, float] = {}
    for seat, card in candidates.items():
        if rank(card) != "fool":
            values[seat] = VALUES[rank(card)]
        elif len(fools) == 2:
            values[seat] = 14.5  # two fools rank 14½
        elif others:
            values[seat] = min(others)  # one fool ties with the lowest other live card
        else:
            values[seat] = float("-inf")  # only cuckoos (or nothing) beside it: loses alone
    return values


def score(state: RoundState) -> None:
    """§6.1–§6.3 / D14 / D16 / D18: compare live cards, apply all losses from one snapshot."""
    live = sorted(s for s in state.participants if state.lives[s] > 0)
    dead = sorted(state.dead_seats)
    values = scoring_values({s: state.hand[s] for s in live})
    lowest = min(values.values()) if values else None
    losers = sorted(s for s, v in values.items() if v == lowest)
    state.emit({"t": "score", "live": live, "dead": dead, "losers": losers})

    lives_at_scoring = list(state.lives)
    for loser in losers:  # ascending seat order (D18)
        innkeeper = state.pledges.get(loser)
        pledge_due = (
            rank(state.hand[loser]) == "zero"
            and innkeeper is not None
            and lives_at_scoring[innkeeper] > 0  # D14: void once the innkeeper is out
        )
        if pledge_due and innkeeper is not None:
            lose_life_at_scoring(state, innkeeper, "inn_pledge", on_behalf_of=loser)
        else:
            lose_life_at_scoring(state, loser, "scoring")

    # §6.3.5: every seat going from >0 to 0 in scoring is eliminated, ascending seat order.
    for seat in range(state.seats):
        if lives_at_scoring[seat] > 0 and state.lives[seat] == 0:
            state.emit({"t": "eliminated", "seat": seat})
            state.eliminated.append(seat)


def lose_life_at_scoring(
    state: RoundState, seat: int, reason: str, on_behalf_of: int | None = None
) -> None:
    """§6.3.3–4: one scoring loss; lives floor at 0 (D18)."""
    state.lives[seat] = max(0, state.lives[seat] - 1)
    lives_after = state.lives[seat]
    event: Event = {"t": "life_loss", "seat": seat, "reason": reason, "lives_after": lives_after}
    loss: dict[str, Any] = {"seat": seat, "reason": reason}
    if on_behalf_of is not None:
        event["on_behalf_of"] = on_behalf_of
        loss["on_behalf_of"] = on_behalf_of
    state.emit(event)
    state.life_losses.append(loss)


def end_of_round(state: RoundState) -> tuple[bool, int | None, int | None]:
    """§6.4 / D19 / D20 / D21: reset, else match end, else the next surviving dealer.

    Returns (reset, next_dealer, match_winner)."""
    reset = all(lives == 0 for lives in state.lives)
    if reset:  # D19: ALL seats return with L0
        state.lives = [state.starting_lives] * state.seats
        state.emit({"t": "reset", "lives": state.starting_lives})
    alive = [s for s in range(state.seats) if state.lives[s] > 0]
    if len(alive) == 1:  # D21
        state.emit({"t": "match_end", "winner": alive[0]})
        return reset, None, alive[0]
    for k in range(1, state.seats + 1):  # D20: after any reset
        seat = (state.dealer + k) % state.seats
        if state.lives[seat] > 0:
            return reset, seat, None
    raise AssertionError("no seat with lives after the round")


# -- entry point -------------------------------------------------------------------------------


def play_reference_round(
    seats: int,
    starting_lives: int,
    lives_before: list[int],
    dealer: int,
    pack_top_to_bottom: list[str],
    chooser: Chooser,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play one round; return (the ``expected`` block of FORMAT.md, the decisions taken)."""
    assert 2 <= seats <= 20 and len(lives_before) == seats  # D24
    assert all(0 <= lives <= starting_lives for lives in lives_before)
    assert lives_before[dealer] > 0, "the dealer always has lives (§1)"
    assert sorted(pack_top_to_bottom) == sorted(CANONICAL_PACK)
    state = RoundState(
        seats=seats,
        starting_lives=starting_lives,
        lives=list(lives_before),
        dealer=dealer,
        pack=list(pack_top_to_bottom),
        chooser=chooser,
    )
    state.participants = participants_in_turn_order(seats, state.lives, dealer)
    exchange_phase(state)
    score(state)
    reset, next_dealer, match_winner = end_of_round(state)
    expected: dict[str, Any] = {
        "events": state.events,
        "final_cards": [state.hand.get(s) for s in range(seats)],
        "dead_seats": sorted(state.dead_seats),
        "life_losses": state.life_losses,
        "eliminated": state.eliminated,
        "lives_after": state.lives,
        "reset": reset,
        "next_dealer": next_dealer,
        "match_winner": match_winner,
        "public_reveals": state.public_reveals,
    }
    return expected, state.decisions


def dealt_cards(
    seats: int, lives_before: list[int], dealer: int, pack_top_to_bottom: list[str]
) -> list[str | None]:
    """Informative ``dealt`` field: participant P[k] gets the k-th card from the bottom (§5.1)."""
    order = participants_in_turn_order(seats, lives_before, dealer)
    dealt: list[str | None] = [None] * seats
    for k, seat in enumerate(order):
        dealt[seat] = pack_top_to_bottom[-1 - k]
    return dealt


def replay_chooser(decisions: list[dict[str, Any]]) -> tuple[Chooser, list[int]]:
    """A chooser answering from a scenario's ``decisions``; ``used[0]`` counts answers given.

    It checks that every prompt is addressed to the seat the decision names (FORMAT.md)."""
    used = [0]

    def chooser(seat: int, kind: str, allowed: tuple[str, ...]) -> str:
        assert used[0] < len(decisions), f"prompt {kind} to seat {seat} but no decision left"
        decision = decisions[used[0]]
        assert decision["seat"] == seat, f"prompt for seat {seat}, decision names {decision}"
        assert decision["choice"] in allowed, f"{decision} not among {allowed}"
        used[0] += 1
        return str(decision["choice"])

    return chooser, used
