"""Player accounts and the ratings projection, in the database (revision 0007).

Accounts are rows of ``players``; which account held which seat is in the log itself (the
claim event's ``meta.account``, api/ratings.py), found through the partial index
``ix_events_account``. The ratings are a projection of finished matches: :meth:`catch_up`
takes in the finished matches not yet in ``rated_matches``, in their order, and
:meth:`rebuild` makes the whole projection again from the events. Both run under one lock
(a PostgreSQL advisory lock, SQLite's write lock), so two API processes never rate from the
same starting point; ``rated_matches``' primary key makes taking a match in twice impossible.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from api.ratings import Finish, Rating, account_of, finish_of, rate
from api.store import tables as t

#: the key of the advisory lock the ratings projection takes on PostgreSQL (any constant)
RATINGS_LOCK = 0x6375_6363_7572_6174  # "cuccurat"

#: the indexed expression of migration 0007, per dialect: a query must write it the same way
ACCOUNT = {
    "postgresql": "(e.meta ->> 'account')",
    "sqlite": "json_extract(e.meta, '$.account')",
}

Loader = Callable[[str], Awaitable[Sequence[Any]]]


class NameTaken(Exception):
    """Another account has this name (names are unique regardless of case)."""


@dataclass(frozen=True)
class PlayerRecord:
    id: str
    name: str
    kind: str
    created_at: dt.datetime
    #: False once the key is revoked
    active: bool = True


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match one of an account's seats played."""

    match_id: str
    game: str
    seat: int
    standing: list[int]
    winners: list[int]
    finished_at: dt.datetime
    rated: bool
    #: the account's rating in the game just after this match (None: not rated)
    rating: Rating | None = None


@dataclass(frozen=True)
class Ranked:
    player: PlayerRecord
    rating: Rating


def _aware(stamp: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every stored stamp is UTC."""
    return stamp if stamp.tzinfo is not None else stamp.replace(tzinfo=dt.UTC)


def name_key(name: str) -> str:
    """What makes two names the same name: case does not count."""
    return name.casefold()


def _player(row: Any) -> PlayerRecord:
    return PlayerRecord(
        row.id, row.name, row.kind, _aware(row.created_at), row.key_sha256 is not None
    )


class PlayerStore:
    def __init__(self, engine: AsyncEngine, load: Loader) -> None:
        self.engine = engine
        #: a match's stored events (``EventStore.load``)
        self.load = load
        self.dialect = engine.dialect.name
        self._lock = asyncio.Lock()

    # --- accounts -------------------------------------------------------------------------

    async def register(self, name: str, kind: str, key_sha256: str) -> PlayerRecord:
        record = PlayerRecord(str(uuid.uuid4()), name, kind, dt.datetime.now(dt.UTC))
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    t.players.insert().values(
                        id=record.id,
                        name=name,
                        name_key=name_key(name),
                        kind=kind,
                        key_sha256=key_sha256,
                        created_at=record.created_at,
                    )  # fmt: skip
                )
        except IntegrityError as exc:
            raise NameTaken(name) from exc
        return record

    async def get(self, player_id: str) -> PlayerRecord | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.players).where(t.players.c.id == player_id))
            ).first()
        return _player(row) if row is not None else None

    async def by_key(self, key_sha256: str) -> PlayerRecord | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(t.players).where(t.players.c.key_sha256 == key_sha256))
            ).first()
        return _player(row) if row is not None else None

    async def replace_key(self, player_id: str, key_sha256: str | None) -> None:
        """Give the account a new key (None: revoke it; the account then has none)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                t.players.update().where(t.players.c.id == player_id).values(key_sha256=key_sha256)
            )

    async def ratings_of(self, player_id: str) -> dict[str, Rating]:
        r = t.player_ratings
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(r).where(r.c.player_id == player_id).order_by(r.c.game)
                )
            ).all()
        return {row.game: Rating(row.mu, row.sigma, row.matches) for row in rows}

    async def leaderboard(self, game: str, limit: int) -> list[Ranked]:
        r, p = t.player_ratings, t.players
        query = (
            sa.select(r, p)
            .join(p, p.c.id == r.c.player_id)
            .where(r.c.game == game)
            .order_by((r.c.mu - 3.0 * r.c.sigma).desc(), p.c.name_key)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Ranked(_player(row), Rating(row.mu, row.sigma, row.matches)) for row in rows]

    async def seats_of(self, match_id: str) -> dict[int, str]:
        """The seats of ``match_id`` claimed as accounts, and their accounts (from its log)."""
        expr = ACCOUNT[self.dialect]
        query = sa.text(
            f"SELECT e.meta AS meta FROM events e "
            f"WHERE e.match_id = :match_id AND {expr} IS NOT NULL"
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query, {"match_id": match_id})).all()
        seats: dict[int, str] = {}
        for row in rows:
            meta = row.meta if not isinstance(row.meta, str) else _json(row.meta)
            found = account_of(meta)
            if found is not None:
                seats[found[0]] = found[1]
        return seats

    async def matches_of(self, player_id: str, limit: int) -> list[PlayedMatch]:
        """The account's finished matches, the latest first."""
        expr = ACCOUNT[self.dialect]
        query = sa.text(
            f"SELECT DISTINCT e.match_id AS match_id, e.meta AS meta, m.game AS game, "
            f"m.standing AS standing, m.winners AS winners, m.updated_at AS finished_at, "
            f"r.rated AS rated, c.mu AS mu, c.sigma AS sigma, c.matches AS rated_count "
            f"FROM events e JOIN matches m ON m.id = e.match_id "
            f"LEFT JOIN rated_matches r ON r.match_id = e.match_id "
            f"LEFT JOIN rating_changes c ON c.match_id = e.match_id AND c.player_id = :player "
            f"WHERE {expr} = :player AND m.status = 'over' "
            f"ORDER BY m.updated_at DESC, e.match_id LIMIT :limit"
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query, {"player": player_id, "limit": limit})).all()
        out: list[PlayedMatch] = []
        seen: set[str] = set()
        for row in rows:
            found = account_of(_json(row.meta))
            if found is None or row.match_id in seen:
                continue
            seen.add(row.match_id)
            out.append(
                PlayedMatch(
                    row.match_id,
                    row.game,
                    found[0],
                    list(_json(row.standing)),
                    list(_json(row.winners)),
                    _aware(_stamp(row.finished_at)),
                    bool(row.rated),
                    None if row.mu is None else Rating(row.mu, row.sigma, row.rated_count),
                )
            )
        return out

    # --- the ratings projection -------------------------------------------------------------

    async def catch_up(self, match_id: str | None = None) -> int:
        """Rate the finished matches not rated yet, in their order; how many were taken in.
        With ``match_id``, only that match (the one that just ended): a match nobody claimed
        as an account then costs one indexed read, and no lock.

        A match that ended before matches already rated (two processes ending matches at the
        same moment) cannot be slotted in behind them: the ratings go back to just before it
        (``rating_changes``) and the matches from there on are rated again, so the projection
        always equals a rebuild.
        """
        if match_id is not None and not await self.seats_of(match_id):
            return 0
        async with self._lock, self.engine.begin() as conn:
            await self._take_lock(conn)
            new = await self._finishes(conn, only_new=True, match_id=match_id)
            if not new:
                return 0
            later = await self._rated_after(conn, new[0].order)
            redo = sorted([*new, *later], key=lambda f: f.order)
            players = {p for f in redo if f.rated for p in f.accounts.values()}
            if later:
                rm = t.rated_matches
                await conn.execute(rm.delete().where(rm.c.match_id.in_(f.match_id for f in later)))
                start = await self._ratings_before(conn, players, new[0].order)
            else:
                start = await self._ratings(conn, players)
            await self._apply(conn, redo, start)
            return len(new)

    async def rebuild(self) -> int:
        """Make the whole projection again from the events; how many matches it took in."""
        async with self._lock, self.engine.begin() as conn:
            await self._take_lock(conn)
            await conn.execute(t.rating_changes.delete())
            await conn.execute(t.player_ratings.delete())
            await conn.execute(t.rated_matches.delete())
            finishes = await self._finishes(conn, only_new=False)
            await self._apply(conn, finishes, {})
            return len(finishes)

    async def all_ratings(self) -> dict[str, dict[str, Rating]]:
        """Every stored rating, per game and account (for comparing with a rebuild)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(sa.select(t.player_ratings))).all()
        table: dict[str, dict[str, Rating]] = {}
        for row in rows:
            table.setdefault(row.game, {})[row.player_id] = Rating(row.mu, row.sigma, row.matches)
        return table

    async def _rated_after(
        self, conn: AsyncConnection, point: tuple[dt.datetime, str]
    ) -> list[Finish]:
        """The rated matches that come after ``point`` in rating order, read again from
        their events."""
        rm = t.rated_matches
        at, match_id = point
        rows = (
            await conn.execute(
                sa.select(rm.c.match_id, rm.c.game).where(
                    sa.or_(
                        rm.c.ended_at > at, sa.and_(rm.c.ended_at == at, rm.c.match_id > match_id)
                    )
                )
            )
        ).all()
        finishes = []
        for row in rows:
            finish = finish_of(row.match_id, row.game, await self.load(row.match_id))
            if finish is not None:
                finishes.append(finish)
        return finishes

    async def _ratings_before(
        self, conn: AsyncConnection, players: set[str], point: tuple[dt.datetime, str]
    ) -> dict[str, dict[str, Rating]]:
        """Each of ``players``' ratings just before ``point``: after its last rated match
        before it (none: a new rating)."""
        rc = t.rating_changes
        at, match_id = point
        rows = (
            await conn.execute(
                sa.select(rc)
                .where(
                    rc.c.player_id.in_(players),
                    sa.or_(
                        rc.c.ended_at < at, sa.and_(rc.c.ended_at == at, rc.c.match_id < match_id)
                    ),
                )
                .order_by(rc.c.ended_at, rc.c.match_id)
            )
        ).all()
        table: dict[str, dict[str, Rating]] = {}
        for row in rows:  # in order: the last one of each player and game stays
            table.setdefault(row.game, {})[row.player_id] = Rating(row.mu, row.sigma, row.matches)
        return table

    async def _take_lock(self, conn: AsyncConnection) -> None:
        if self.dialect == "postgresql":
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": RATINGS_LOCK})
        else:  # a write statement takes SQLite's one write lock until the transaction ends
            await conn.execute(sa.text("DELETE FROM rated_matches WHERE 1 = 0"))

    async def _finishes(
        self, conn: AsyncConnection, *, only_new: bool, match_id: str | None = None
    ) -> list[Finish]:
        """The finished matches whose log holds a claim as an account (the ones not taken in
        yet: ``only_new``; only ``match_id``: when given), read from their events, in rating
        order."""
        expr = ACCOUNT[self.dialect]
        query = (
            f"SELECT DISTINCT e.match_id AS match_id, m.game AS game "
            f"FROM events e JOIN matches m ON m.id = e.match_id "
            f"WHERE {expr} IS NOT NULL AND m.status = 'over'"
        )
        if only_new:
            query += " AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = e.match_id)"
        if match_id is not None:
            query += " AND e.match_id = :match_id"
        rows = (await conn.execute(sa.text(query), {"match_id": match_id})).all()
        finishes = []
        for row in rows:
            finish = finish_of(row.match_id, row.game, await self.load(row.match_id))
            if finish is not None:
                finishes.append(finish)
        return sorted(finishes, key=lambda f: f.order)

    async def _ratings(
        self, conn: AsyncConnection, players: set[str]
    ) -> dict[str, dict[str, Rating]]:
        r = t.player_ratings
        rows = (await conn.execute(sa.select(r).where(r.c.player_id.in_(players)))).all()
        table: dict[str, dict[str, Rating]] = {}
        for row in rows:
            table.setdefault(row.game, {})[row.player_id] = Rating(row.mu, row.sigma, row.matches)
        return table

    async def _apply(
        self,
        conn: AsyncConnection,
        finishes: Sequence[Finish],
        start: Mapping[str, Mapping[str, Rating]],
    ) -> None:
        """Rate ``finishes`` (in rating order) from ``start``, and store each match, each
        account's rating after it, and the accounts' ratings at the end."""
        if not finishes:
            return
        table = {game: dict(of_game) for game, of_game in start.items()}
        matches: list[dict[str, Any]] = []
        changes: list[dict[str, Any]] = []
        touched: set[tuple[str, str]] = set()
        for f in finishes:
            of_game = table.setdefault(f.game, {})
            moved = rate(of_game, f)
            of_game.update(moved)
            matches.append(
                {"match_id": f.match_id, "game": f.game, "ended_at": f.ended_at, "rated": f.rated}
            )
            changes += [
                {"match_id": f.match_id, "player_id": p, "game": f.game, "ended_at": f.ended_at,
                 "mu": r.mu, "sigma": r.sigma, "matches": r.matches}
                for p, r in moved.items()
            ]  # fmt: skip
            touched.update((f.game, p) for p in moved)
        await conn.execute(t.rated_matches.insert(), matches)
        if not changes:
            return
        await conn.execute(t.rating_changes.insert(), changes)
        r = t.player_ratings
        for game, player in sorted(touched):
            await conn.execute(r.delete().where(r.c.player_id == player, r.c.game == game))
        await conn.execute(
            r.insert(),
            [
                {"player_id": player, "game": game, "mu": table[game][player].mu,
                 "sigma": table[game][player].sigma, "matches": table[game][player].matches}
                for game, player in sorted(touched)
            ],
        )  # fmt: skip


def _json(value: Any) -> Any:
    """A JSON column's value (some drivers hand JSON back as text)."""
    if isinstance(value, str | bytes):
        import msgspec

        return msgspec.json.decode(value)
    return value


def _stamp(value: Any) -> dt.datetime:
    """A timestamp column read through ``text()`` (SQLite hands back its text)."""
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    assert isinstance(value, dt.datetime)
    return value
