"""What the API hosts per game beyond the seam (``domain.games.game.Game``): each game's
``cuccu tournament`` (its report knows the game's own figures: lives lost by reason, chips
won). One line per game in :data:`TOURNAMENTS`; a test keeps it equal to the registry."""

from __future__ import annotations

from api.games.chase import TOURNAMENT as CHASE
from api.games.cucco21 import TOURNAMENT as CUCCO21
from api.games.cuccu import TOURNAMENT as CUCCU
from api.tally import Tournament

#: each hosted game's tournament, by the game's registry name
TOURNAMENTS: dict[str, Tournament] = {"cuccu": CUCCU, "cucco21": CUCCO21, "chase": CHASE}
