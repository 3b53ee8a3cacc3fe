"""Ranter-Go-Round / Chase the Ace (../shared/rules/CHASE.md) as a pure Decider: stdlib and
msgspec only.

Modules: ``cards``, ``config``, ``commands``, ``events``, ``state``, ``decide``, ``evolve``,
``pending``, ``views``, ``transcript``, ``conformance``, ``fairness``, ``audit``, ``bots``;
``game.GAME`` gathers them.
"""
