"""A log folded event by event, for any game: what Replay pages step through.

Step ``k`` is the match after its first ``k`` events. An unfinished log is shown as a
spectator sees it (the game's ``redact``), so no hidden card leaks. Each game's replay says
which events end a match and start a round, and how an event is captioned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from viewer.i18n import Lang


def seat_names(names: Sequence[str]) -> list[str]:
    """Display names; a name used twice gets its seat number."""
    return [f"{n} #{i}" if names.count(n) > 1 else n for i, n in enumerate(names)]


#: the bots' names at a Play table, every game's (up to the 19 opponents of a 20-seat table)
BOT_NAMES = ("Ada", "Bruno", "Chiara", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Lia", "Marco",
             "Nina", "Oscar", "Paola", "Rino", "Sara", "Tito", "Ugo", "Vera", "Zeno")  # fmt: skip


def opponents(seats: int) -> tuple[str, ...]:
    """The bots' names at a table of ``seats`` (this person and ``seats - 1`` bots)."""
    return BOT_NAMES[: max(1, min(seats - 1, len(BOT_NAMES)))]


@dataclass
class Steps:
    records: Sequence[Any]
    events: list[Any] = field(init=False)
    states: list[Any] = field(init=False)
    full: bool = field(init=False)
    stuck_at: int | None = field(init=False, default=None)  # first event the fold refused
    round_start: dict[int, int] = field(init=False)  # round number -> step of its start
    _captions: dict[Lang, list[str]] = field(init=False, default_factory=dict)

    # --- the game's own pieces, set by each game's replay (as static methods and classes;
    # typed Any here because each game's own signatures differ) ------------------------------
    initial_state: ClassVar[Any]  # () -> state
    evolve: ClassVar[Any]  # (state, event) -> state
    redact: ClassVar[Any]  # (event, seat) -> event as that seat may see it
    caption: ClassVar[Any]  # (event, names, lang) -> str
    last_event: ClassVar[Any]  # the event class that ends a match
    round_started: ClassVar[Any]  # the event class that starts a round (its ``round`` field)

    def __post_init__(self) -> None:
        game = type(self)
        raw = [r.event for r in self.records]
        self.full = bool(raw) and isinstance(raw[-1], game.last_event)
        self.events = raw if self.full else [game.redact(e, None) for e in raw]
        self.states = [game.initial_state()]
        self.round_start = {}
        state = self.states[0]
        for index, event in enumerate(raw, start=1):
            try:
                state = game.evolve(state, event)
            except Exception:  # noqa: BLE001 - a tampered log the rules cannot follow further
                self.stuck_at = index
                break
            self.states.append(state)
            if isinstance(event, game.round_started):
                self.round_start[event.round] = index

    @property
    def last_step(self) -> int:
        return len(self.states) - 1

    @property
    def names(self) -> list[str]:
        return seat_names([spec.name for spec in self.states[-1].seats])

    def captions(self, lang: Lang) -> list[str]:
        """The caption of every event, in ``lang`` (computed once per language)."""
        found = self._captions.get(lang)
        if found is None:
            names = self.names
            found = [type(self).caption(e, names, lang) for e in self.events]
            self._captions[lang] = found
        return found

    def round_at(self, step: int) -> int:
        rnd = self.states[step].round
        return rnd.number if rnd is not None else 0
