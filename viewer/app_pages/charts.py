"""Charts: each game's own counters over the open match (``viewer.games.pages``), readable
without colour vision (``viewer.seat_charts``)."""

from __future__ import annotations

from viewer.games.pages import PAGES
from viewer.loader import match_panel


def page() -> None:
    match = match_panel()
    if match is None:
        return
    PAGES[match.game].charts(match.replay)


page()
