"""Cucco 21 (../shared/rules/CUCCO21.md) as a pure Decider: stdlib and msgspec only.

Modules: ``config``, ``commands``, ``events``, ``state``, ``decide``, ``evolve``, ``pending``,
``views``, ``transcript``, ``conformance``, ``fairness``, ``bots``; ``game.GAME`` gathers them.
"""
