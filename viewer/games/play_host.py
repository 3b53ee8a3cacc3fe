"""A seat's match through the API, for any game: create, act with the seat token, catch up.

Every game's Play does the same with the API (docs/API.md): create the match and keep its
seat token, send that seat's choices with ``expected_version``, read the events it may see and
then its view. Only the view's and the events' types differ, so a game gives those two and
gets :class:`PlayHost`. Kept out of the page script, whose classes Streamlit redefines on every
run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from api.client import Client, CreatedMatch
from viewer.play_clock import clock_in, game_events
from viewer.remote import call

V = TypeVar("V")  # the game's view of one seat
E = TypeVar("E")  # the game's event


@dataclass(frozen=True)
class Seen(Generic[E]):
    """One event of the match as this seat may see it, with its version."""

    version: int
    event: E


@dataclass
class PlayMatch(Generic[V, E]):
    """The match this browser plays: its seat token, the seat's view and what it has seen."""

    url: str
    match_id: str
    token: str
    seat: int
    view: V
    seen: list[Seen[E]] = field(default_factory=list)
    clock: dict[str, Any] | None = None  # the API's ``clock`` (docs/API.md), null: none
    #: the first of ``seen`` the last action brought: where its steps, shown one at a time, start
    since: int = 0
    #: while those steps are shown one at a time, how many of ``seen`` are drawn so far
    #: (None: all of them, the page is at the seat's latest view and decision)
    shown: int | None = None
    #: the last action brought the rest of a match this seat is out of: the page asks whether
    #: to watch it step by step or skip to its end
    offer_watch: bool = False
    #: moves brought by news while steps were shown one at a time (``hurry``): the page draws
    #: the first of them at its next look and takes its next step a whole pace later
    hurried: bool = False

    @property
    def pacing(self) -> bool:
        """Steps are being shown one at a time, on their own."""
        return self.shown is not None and not self.offer_watch

    @property
    def drawn(self) -> list[Seen[E]]:
        """The events drawn now: up to the step being shown, else all."""
        return self.seen if self.shown is None else self.seen[: self.shown]

    def step_by_step(self, since: int, out: bool) -> None:
        """After an action: its steps (``seen[since:]``) are to be shown one at a time, the
        first now; when this seat is ``out`` (the rest was played without it), held at the first
        until this person chooses."""
        self.since = since
        if len(self.seen) - since < 2:
            return  # one step: nothing to pace
        self.shown = since + 1  # the seat's own action first
        self.offer_watch = out  # held there until this person chooses to watch or skip

    def watch(self) -> None:
        """The offered rest of the match, one step at a time from where it is held."""
        self.offer_watch = False

    def next_step(self) -> bool:
        """One more step drawn; False (and all drawn) once the last was already shown."""
        if self.shown is None:
            return False
        if self.shown >= len(self.seen):
            self.shown = None
            return False
        self.shown += 1
        return True

    def hurry(self, before: int) -> None:
        """``seen[before:]`` came by news (another seat's move) while steps were shown one at
        a time: the steps still queued before them are drawn at once and the first of them
        next, so another person's move is not kept waiting behind a pace; the rest at the
        pace."""
        if self.pacing and self.shown is not None and len(self.seen) > before >= self.shown:
            self.shown = before + 1
            self.hurried = True

    def skip(self) -> None:
        """Straight to the seat's latest view (its next decision, or the match's end)."""
        self.shown = None
        self.offer_watch = False


def round_ending(seen: Sequence[Seen[E]], scored: type, ends: tuple[type, ...],
                 starts: type | tuple[type, ...]) -> list[Seen[E]]:  # fmt: skip
    """The last scored round's reveal (``scored``) and what followed from it (events of the
    types ``ends``) until the next round ``starts``, so a person between rounds sees how the
    round ended without reading the whole log."""
    first = max((i for i, e in enumerate(seen) if isinstance(e.event, scored)), default=None)
    if first is None:
        return []
    ending: list[Seen[E]] = []
    for seen_event in seen[first:]:
        if isinstance(seen_event.event, starts):
            break  # the next round's deal is not this round's doing
        if isinstance(seen_event.event, ends):
            ending.append(seen_event)
    return ending


M = TypeVar("M", bound=PlayMatch[Any, Any])


class PlayHost(Generic[M]):
    """The API's part of Play for one game: ``match`` is the game's :class:`PlayMatch` class,
    ``view`` and ``event`` the types its view and its events are read as."""

    def __init__(self, match: type[M], view: Any, event: Any) -> None:
        self.match = match
        self.view = view
        self.event = event

    def catch_up(self, client: Client, match: M) -> None:
        """Events after the last one seen (as this seat may see them), then the seat's view."""
        after = match.seen[-1].version if match.seen else 0
        for out in game_events(client.iter_events(match.match_id, after=after)):
            match.seen.append(Seen(out["version"], msgspec.convert(out["event"], self.event)))
        answer = client.get_match(match.match_id)
        match.view = msgspec.convert(answer["view"], self.view)
        match.clock = clock_in(answer)

    def follow(self, match: M) -> None:
        call(match.url, match.token, lambda client: self.catch_up(client, match))

    def start(self, url: str, create: Callable[[Client], CreatedMatch]) -> M:
        """Create the match with ``create`` (the project's client: its retries reuse one
        Idempotency-Key), keep seat 0's token, catch up."""
        created = call(url, None, create)
        token = next(t["token"] for t in created["seat_tokens"] if t["seat"] == 0)
        view = msgspec.convert(created["view"], self.view)
        match = self.match(url, created["match_id"], token, 0, view, clock=clock_in(created))
        self.follow(match)
        return match

    def act(self, match: M, choice: str) -> None:
        """Send this seat's choice (refused if the match moved on meanwhile), then catch up."""

        def send(client: Client) -> None:
            client.send_command(match.match_id, choice, expected_version=match.view.version)
            self.catch_up(client, match)

        call(match.url, match.token, send)

    def rematch(self, match: M) -> M:
        """The rematch of this finished match (``POST /matches/{id}/rematch`` with this seat's
        token): this person's new seat in it, caught up."""
        answer = call(match.url, match.token, lambda client: client.rematch(match.match_id))
        view = msgspec.convert(answer["view"], self.view)
        new = self.match(match.url, answer["match_id"], answer["token"], answer["seat"], view,
                         clock=clock_in(answer))  # fmt: skip
        self.follow(new)
        return new
