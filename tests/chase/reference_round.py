"""A second, deliberately plain implementation of one Chase the Ace round, written from
tests/scenarios-chase/README.md ("The round, step by step") and CHASE.md §6 alone.

Mutable lists and dicts, one pass over the turn order, no code shared with ``domain/``: it
exists to be compared with the engine (test_reference_model.py). ``answer(seat, options)``
gives each decision; the round returns the scenario's ``expected`` object and the decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Answer = Callable[[int, tuple[str, ...]], str]
VALUES = {
    r: i + 1
    for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
}


def val(card: str) -> int:
    return VALUES[card[:-1]]


def play_round(s: dict[str, Any], answer: Answer) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    n, dealer, opts = s["seats"], s["dealer"], s["options"]
    lives = list(s["lives_before"])
    order = [x for x in ((dealer + i) % n for i in range(1, n + 1)) if lives[x] > 0]
    pack = list(s["pack_top_to_bottom"])
    ev: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    reveals: list[str] = []
    hand: dict[int, str] = {}
    for seat in order:
        hand[seat] = pack.pop(0)
        ev.append({"t": "deal", "seat": seat, "card": hand[seat]})
    shown: set[int] = set()
    discard: list[str] = []
    king_cut = False

    def ask(seat: int, options: tuple[str, ...]) -> str:
        choice = answer(seat, options)
        decisions.append({"seat": seat, "choice": choice})
        return choice

    for i, r in enumerate(order):
        if r in shown:
            continue
        if r == dealer:
            if ask(r, ("keep", "cut")) == "keep":
                ev.append({"t": "dealer_keep", "seat": r})
            else:
                top = pack[0]
                ev.append({"t": "cut", "seat": r, "card": top})
                reveals.append(top)
                if top[:-1] == "K":
                    king_cut = True
                    ev.append({"t": "cut_void", "seat": r})
                else:
                    pack.pop(0)
                    discard.append(hand[r])
                    ev.append({"t": "cut_exchange", "seat": r, "gave": hand[r], "got": top})
                    hand[r] = top
            break
        if ask(r, ("keep", "exchange")) == "keep":
            ev.append({"t": "keep", "seat": r})
            continue
        t = order[i + 1]
        ev.append({"t": "request", "seat": r, "target": t})
        if hand[t][:-1] == "K":
            shown.add(t)
            ev.append({"t": "king_block", "seat": t, "requester": r, "card": hand[t]})
            reveals.append(hand[t])
            continue
        hand[r], hand[t] = hand[t], hand[r]
        ev.append({"t": "exchange", "requester": r, "target": t,
                   "requester_gets": hand[r], "target_gets": hand[t]})  # fmt: skip
        if opts["announce_low"]:
            for seat in (t, r):
                if hand[seat][:-1] in ("A", "2", "3"):
                    ev.append({"t": "announce", "seat": seat, "card": hand[seat]})
                    reveals.append(hand[seat])
    if opts["king_cut_loses"] and king_cut:
        losers = [dealer]
    else:
        low = min(val(hand[x]) for x in order)
        losers = [x for x in order if val(hand[x]) == low]
    ev.append({"t": "score", "revealed": [{"seat": x, "card": hand[x]} for x in order],
               "losers": losers})  # fmt: skip
    void = set(losers) == set(order) and all(lives[x] == 1 for x in order)
    if void:
        ev.append({"t": "wipe_out", "seats": losers})
    else:
        for x in losers:
            lives[x] -= 1
            reason = "king_cut" if opts["king_cut_loses"] and king_cut else "lowest"
            ev.append({"t": "life_loss", "seat": x, "reason": reason, "lives_after": lives[x]})
        for x in losers:
            if lives[x] == 0:
                ev.append({"t": "eliminated", "seat": x})
    alive = [x for x in range(n) if lives[x] > 0]
    winner = alive[0] if len(alive) == 1 else None
    if winner is not None:
        ev.append({"t": "match_end", "winner": winner})
    nxt = None
    if winner is None:
        nxt = next(x for x in ((dealer + i) % n for i in range(1, n + 1)) if lives[x] > 0)
    expected = {
        "events": ev,
        "final_cards": [hand.get(x) for x in range(n)],
        "life_losses": [] if void else sorted(losers),
        "eliminated": [] if void else sorted(x for x in losers if lives[x] == 0),
        "void": void,
        "lives_after": lives,
        "next_dealer": nxt,
        "match_winner": winner,
        "stock_after": pack,
        "discard_after": discard,
        "public_reveals": reveals,
    }
    return expected, decisions
