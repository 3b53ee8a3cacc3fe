"""Cuccù (../shared/rules/RULES.md, decisions D1-D26) as a pure Decider: stdlib and msgspec only.

Modules: ``cards``, ``commands``, ``events``, ``state``, ``decide``, ``evolve``, ``pending``,
``views``, ``transcript``, ``turns``, ``fairness``, ``conformance``, ``legacy``, ``audit``,
``bots``; ``game.GAME`` gathers them for the registry (``domain.games``).
"""
