"""Every step of a replay as the card table component shows it, for any game (pure).

A game's replay (``viewer.games.steps.Steps``) gives the captions, rounds and states; the game's
presentation gives the table at a step (``table_at``) and any public fact the table does not
draw (``facts_at``). Nothing here reads a card: the tables are built from the replay's public
view, which shows every card only for a finished log.
"""

from __future__ import annotations

from collections.abc import Callable

from viewer.card_table import Step
from viewer.games.steps import Steps
from viewer.i18n import Lang, tr
from viewer.table import TableDrawing


def replay_steps(
    replay: Steps,
    lang: Lang,
    table_at: Callable[[int], TableDrawing],
    facts_at: Callable[[int], str] | None = None,
) -> list[Step]:
    captions = replay.captions(lang)
    total = len(replay.records)
    found = []
    for step in range(replay.last_step + 1):
        rnd = replay.round_at(step)
        if step == 0:
            heading, caption = "", tr(lang, "replay.before")
        else:
            key = "replay.now" if rnd > 0 else "replay.setup"
            heading = tr(lang, key, version=step, total=total, round=rnd)
            caption = captions[step - 1]
        start = replay.round_start.get(rnd, 1) if rnd > 0 else 1
        facts = facts_at(step) if facts_at is not None else ""
        found.append(Step(table_at(step), heading, caption, rnd, start, facts))
    return found


def labels(lang: Lang) -> dict[str, str]:
    """The replay controls' words in ``lang``."""
    keys = ("first", "prev", "next", "last", "play", "pause", "copy", "copied", "keys", "log",
            "nothing", "round", "step")  # fmt: skip
    words = {key: tr(lang, f"replay.{key}") for key in keys}
    words["round"] = tr(lang, "charts.round")
    return words
