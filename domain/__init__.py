"""The rules of the cuckoo family of card games, pure: no I/O, no clock, no randomness.

- ``domain.games``: the registry; one package per game (``cuccu``, ``cucco21``), each a
  Decider (``decide`` / ``evolve``) behind the one interface of ``domain.games.game.Game``.
- Shared by every game: ``seats`` (who sits where), ``errors`` (``DomainError``),
  ``event_codec`` (tagged, versioned events), ``envelope`` (the hashed record of an event and
  the chain), ``audit`` / ``audit_record`` (re-checking an export), ``conformance`` (scenario
  files of every game).

The caller supplies shuffles and first dealers in commands.
"""
