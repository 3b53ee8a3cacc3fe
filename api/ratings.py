"""Ratings: OpenSkill (Plackett–Luce) over the finished matches whose seats are accounts.

Pure computation, no I/O: what a finished match says for the ratings (:func:`finish_of`,
read from its stored events alone) and how one finish moves the ratings (:func:`rate`). The
projection that applies them in order, and keeps the result in the database, is
``api/store/players.py``; ``cuccu ratings rebuild`` runs the same code over the whole log.

A match is rated when at least two different accounts hold its seats, each at one seat. Only
the account seats are rated, placed by the game's own final ranking (``Game.final_ranks``)
among themselves; seats held without an account (a seat token, a server-side bot) are
opponents nobody rates. The order of finishes is the time of their final event, then the
match id: the same order whoever applies them, so a rebuild gives the same numbers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce

from domain.games import by_name

#: the model every rating uses; its defaults (mu 25, sigma 25/3, tau 25/300) are part of what a
#: rebuild must reproduce, so they are spelled out
MODEL: Final = PlackettLuce(mu=25.0, sigma=25.0 / 3.0, tau=25.0 / 300.0)
#: a new account's rating in every game
INITIAL_MU: Final = 25.0
INITIAL_SIGMA: Final = 25.0 / 3.0


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    #: the rated matches this rating has taken in
    matches: int = 0

    @property
    def ordinal(self) -> float:
        """What the leaderboard sorts by: a conservative estimate (mu − 3·sigma)."""
        return self.mu - 3.0 * self.sigma


NEW_RATING: Final = Rating(INITIAL_MU, INITIAL_SIGMA)


@dataclass(frozen=True)
class Finish:
    """A finished match as the ratings see it."""

    match_id: str
    game: str
    #: the time of its final event: with the match id, the order finishes are rated in
    ended_at: dt.datetime
    #: the account at each seat claimed as one
    accounts: Mapping[int, str]
    #: each seat's place (0 best), from the game's final ranking
    ranks: tuple[int, ...]

    @property
    def order(self) -> tuple[dt.datetime, str]:
        return (self.ended_at, self.match_id)

    @property
    def rated(self) -> bool:
        """Two accounts or more, none at two seats (an account cannot play itself)."""
        players = list(self.accounts.values())
        return len(players) >= 2 and len(set(players)) == len(players)


def account_of(meta: Mapping[str, Any] | None) -> tuple[int, str] | None:
    """The (seat, account) a stored event's metadata records a claim as an account for."""
    if not meta or not isinstance(meta.get("account"), str):
        return None
    actor = meta.get("actor")
    if not isinstance(actor, str) or not actor.startswith("seat:"):
        return None
    return int(actor.removeprefix("seat:")), meta["account"]


def finish_of(match_id: str, game_name: str, stored: Sequence[Any]) -> Finish | None:
    """What a match's stored events (``api.store.StoredEvent``) say for the ratings; None
    while the match is not over."""
    if not stored:
        return None
    game = by_name(game_name)
    state = game.fold([s.event_of(game) for s in stored], game.initial())
    if not game.is_over(state):
        return None
    accounts: dict[int, str] = {}
    for s in stored:
        found = account_of(s.meta)
        if found is not None:
            accounts[found[0]] = found[1]
    return Finish(
        match_id=match_id,
        game=game.name,
        ended_at=stored[-1].recorded_at,
        accounts=accounts,
        ranks=tuple(game.final_ranks(state)),
    )


def rate(ratings: Mapping[str, Rating], finish: Finish) -> dict[str, Rating]:
    """The new ratings of ``finish``'s accounts (in its game), from ``ratings`` (an account
    missing there starts at :data:`NEW_RATING`). Nothing for a match that is not rated."""
    if not finish.rated:
        return {}
    seats = sorted(finish.accounts)
    players = [finish.accounts[seat] for seat in seats]
    before = [ratings.get(p, NEW_RATING) for p in players]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(finish.ranks[seat]) for seat in seats])
    return {
        p: Rating(team[0].mu, team[0].sigma, old.matches + 1)
        for p, team, old in zip(players, after, before, strict=True)
    }


def replay(
    finishes: Sequence[Finish], start: Mapping[str, Mapping[str, Rating]] | None = None
) -> dict[str, dict[str, Rating]]:
    """The ratings per game and account after ``finishes``, applied in their order to
    ``start`` (none: every account new)."""
    table = {game: dict(of_game) for game, of_game in (start or {}).items()}
    for finish in sorted(finishes, key=lambda f: f.order):
        of_game = table.setdefault(finish.game, {})
        of_game.update(rate(of_game, finish))
    return table
