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

from viewer.card_table import Step
from viewer.i18n import Lang


@dataclass(frozen=True)
class GamePages:
    """One game's parts of the pages; ``replay`` is its ``Presentation.replay``'s."""

    #: Replay: every step of the replay as the card table component shows it (its table, what
    #: happened, public facts the table does not draw), built once and stepped in the browser
    replay_steps: Callable[[Any, Lang], list[Step]]
    #: Charts: the game's own counters over the match
    charts: Callable[[Any], None]
    #: Play: the form that starts a match against bots (the opponents' levels offered)
    new_match_form: Callable[[tuple[str, ...]], None]
    #: Play: the match this browser plays (None: none), and the page that shows it
    playing: Callable[[], Any | None]
    show: Callable[[Any], None]


def _pages() -> dict[str, GamePages]:
    from viewer.games import chase_play_ui, chase_ui, cucco21_ui, cuccu_play_ui, cuccu_ui, play21_ui

    return {
        "cuccu": GamePages(
            replay_steps=cuccu_ui.replay_steps,
            charts=cuccu_ui.charts,
            new_match_form=cuccu_play_ui.new_match_form,
            playing=cuccu_play_ui.current,
            show=cuccu_play_ui.show,
        ),
        "cucco21": GamePages(
            replay_steps=cucco21_ui.replay_steps,
            charts=cucco21_ui.charts,
            new_match_form=play21_ui.new_game_form,
            playing=play21_ui.current,
            show=play21_ui.show,
        ),
        "chase": GamePages(
            chase_ui.replay_steps,
            chase_ui.charts,
            chase_play_ui.new_match_form,
            chase_play_ui.current,
            chase_play_ui.show,
        ),  # fmt: skip
    }


#: each hosted game's parts of the pages, by its registry name
PAGES: dict[str, GamePages] = _pages()
