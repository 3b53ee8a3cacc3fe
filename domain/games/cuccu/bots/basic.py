"""``basic``: a sensible heuristic. Swap low cards, keep high ones, mind the lives at stake."""

from __future__ import annotations

import random

from domain.games.cuccu.cards import rank, value
from domain.games.cuccu.views import MatchView


def _strength(card: str) -> float:
    """How safe a card is at scoring; a lone fool usually ties with the lowest, so it is weak."""
    if rank(card) == "fool":
        return -1.0
    return value(card)


def exchanges_on_turn(card: str, lives: int, live_players: int) -> bool:
    """A non-dealer's turn: request an exchange with this card?"""
    # A request risks a hunter or cat (4 of 40 cards): with one life left, only a card that
    # is likely to lose is worth that risk. Fewer players make any card likelier to lose.
    threshold = 4 if lives > 1 else 2
    if live_players <= 2:
        threshold += 2
    return _strength(card) <= threshold


def exchanges_as_dealer(card: str, live_players: int) -> bool:
    """The dealer's final turn: swap this card for the bottom one?"""
    # The bottom card is blind and inert; swap only what is probably the lowest.
    threshold = 3 if live_players > 2 else 5
    return _strength(card) <= threshold


def basic_decision(kind: str, card: str, lives: int, live_players: int, rng: random.Random) -> str:
    """The heuristic on plain facts, so the expert can use it as its model of other seats.

    ``rng`` is drawn from only for an innkeeper's response with one life left.
    """
    if kind == "turn":
        return "exchange" if exchanges_on_turn(card, lives, live_players) else "keep"
    if kind == "dealer_turn":
        return "exchange" if exchanges_as_dealer(card, live_players) else "keep"
    if kind == "inn_choice":
        # Asking costs nothing: either a pledge or the innkeeper must hand over the inn (XI).
        return "inn_ask_pay"
    # inn_response: keeping the inn (XI) beats taking a card someone wanted rid of, unless a
    # pledge could cost the last life.
    if lives == 1 and rng.random() < 0.5:
        return "inn_refuse"
    return "inn_accept"


def basic_choice(view: MatchView, rng: random.Random) -> str:
    decision = view.pending
    assert decision is not None and view.viewer is not None and view.hand is not None
    lives = view.seats[view.viewer].lives
    live_players = sum(1 for s in view.seats if s.in_round and not s.dead)
    return basic_decision(decision.kind, view.hand, lives, live_players, rng)
