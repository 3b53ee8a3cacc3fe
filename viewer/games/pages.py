"""Each game's parts of the viewer's pages (Streamlit), by the game's registry name.

The pages (Replay, Charts, Play) draw what every game has (the step controls, the loader, the
game picker) and hand the rest to the game's own parts here. Apart from ``viewer.games`` (the
pure registry a session opens a log with) because these import Streamlit and the pages'
helpers, which themselves open sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from viewer.i18n import Lang


@dataclass(frozen=True)
class GamePages:
    """One game's parts of the pages; ``replay`` is its ``Presentation.replay``'s."""

    #: Replay: the table at a step, what happened, and the log so far
    replay_step: Callable[[Any, int, Lang], None]
    #: Charts: the game's own counters over the match
    charts: Callable[[Any], None]
    #: Play: the form that starts a match against bots (the opponents' levels offered)
    new_match_form: Callable[[tuple[str, ...]], None]
    #: Play: the match this browser plays (None: none), and the page that shows it
    playing: Callable[[], Any | None]
    show: Callable[[Any], None]


def _pages() -> dict[str, GamePages]:
    from viewer.games import cucco21_ui, cuccu_play_ui, cuccu_ui, play21_ui

    return {
        "cuccu": GamePages(
            replay_step=cuccu_ui.replay_step,
            charts=cuccu_ui.charts,
            new_match_form=cuccu_play_ui.new_match_form,
            playing=cuccu_play_ui.current,
            show=cuccu_play_ui.show,
        ),
        "cucco21": GamePages(
            replay_step=cucco21_ui.replay_step,
            charts=cucco21_ui.charts,
            new_match_form=play21_ui.new_game_form,
            playing=play21_ui.current,
            show=play21_ui.show,
        ),
    }


#: each hosted game's parts of the pages, by its registry name
PAGES: dict[str, GamePages] = _pages()
