"""Each game's parts of the Tables page: a claimed seat made into the game's own Play match, and
a spectator's table and captions, by the game's registry name.

The Tables page knows no game: it claims a seat through the API and hands the answer to the
game's ``adopt`` here, which builds the same match object the game's Play page draws (so a seat
at a table between people is played with that page's own table and choices). A spectator's
view is the public one (no token), drawn with the game's own ``drawing`` and ``caption``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from viewer.i18n import Lang
from viewer.table import TableDrawing

#: the session key every game's Play page keeps this browser's match under (one at a time)
PLAY_KEY = "game"
#: set when the person leaves their match: the tab forgets the seat it kept (viewer.seat_keeper)
FORGET_KEY = "seat_keeper_forget"


@dataclass(frozen=True)
class SeatParts:
    """One game's parts of a table between people."""

    #: (url, match_id, token, seat, the claim's view JSON) -> the game's Play match, caught up
    adopt: Callable[[str, str, str, int, Any], Any]
    #: bring that match up to date (its events and view, with its token)
    follow: Callable[[Any], None]
    #: the game's view and event types (a spectator's answers are decoded to them)
    view_type: Any
    event_type: Any
    #: (view, names, lang, last event) -> the table as that view may see it
    drawing: Callable[[Any, Sequence[str], Lang, Any], TableDrawing]
    #: (event, names, lang) -> one sentence
    caption: Callable[[Any, Sequence[str], Lang], str]


def _adopter(kind: Any, view_type: Any, follow: Callable[[Any], None]) -> Callable[..., Any]:
    """``adopt`` for a game whose Play match is ``kind(url, match_id, token, seat, view)``."""

    def adopt(url: str, match_id: str, token: str, seat: int, view: Any) -> Any:
        found = kind(url, match_id, token, seat, msgspec.convert(view, view_type))
        follow(found)
        return found

    return adopt


def _parts() -> dict[str, SeatParts]:
    from domain.games.chase.events import Event as ChaseEvent
    from domain.games.chase.views import MatchView as ChaseView
    from domain.games.cucco21.events import Event as Event21
    from domain.games.cucco21.views import GameView
    from domain.games.cuccu.events import Event as CuccuEvent
    from domain.games.cuccu.views import MatchView as CuccuView
    from viewer.games import (
        chase,
        chase_play,
        cucco21,
        cuccu_board,
        cuccu_captions,
        cuccu_play,
        play21,
    )

    return {
        "cuccu": SeatParts(
            _adopter(cuccu_play.Game, CuccuView, cuccu_play.follow), cuccu_play.follow,
            CuccuView, CuccuEvent, cuccu_board.view_drawing, cuccu_captions.caption,
        ),
        "cucco21": SeatParts(
            _adopter(play21.Game21, GameView, play21.follow), play21.follow,
            GameView, Event21, cucco21.view_drawing, cucco21.caption,
        ),
        "chase": SeatParts(
            _adopter(chase_play.ChaseMatch, ChaseView, chase_play.follow), chase_play.follow,
            ChaseView, ChaseEvent, chase.view_drawing, chase.caption,
        ),
    }  # fmt: skip


#: each hosted game's parts of a table between people, by its registry name
SEATS: dict[str, SeatParts] = _parts()
