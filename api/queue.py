"""The matchmaking queue: accounts wait for a table of a game and size; the service seats a
match as soon as enough different accounts wait (or, for a waiter who chose so, fills the
empty seats with the service's bots after a wait), and hands each waiter its match, seat and a
seat token.

Seating is claiming: the queue creates a match whose seats are open (and bots), and claims
each seat as its waiter's account with an Idempotency-Key it keeps on the ticket. A waiter
asking for its ticket gets a *fresh* seat token by replaying that claim (the match service's
idempotent claim issues a new token and retires the previous one), so no seat token is ever
stored, and a bot that lost its token (a restart) asks again. The claims are the ordinary
claims as an account, so queued matches are rated like any other.

A waiter's ``entropy`` (docs/API.md "Fairness") is kept on its ticket until the claim that
seats it contributes it to the match's first deck: the match is created with its seats open,
so the service's commitment to that deck comes first, and no deal happens before the last
claim.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from dataclasses import dataclass

from api.players import PlayerService
from api.service import MatchService, NewSeat, ServiceError, UnknownGame, seat_specs
from api.store.players import PlayerRecord
from api.store.queue import MATCHED, QueueStore, Ticket
from domain.errors import DomainError
from domain.games import GAMES

log = logging.getLogger("cuccu.queue")

#: how often the service looks for waiters whose bots are due (seconds), while any waits
SWEEP_EVERY = 0.5
#: the longest pause of a sweeper that found nobody waiting: each idle sweep doubles its pause
#: up to this, and a join in this process wakes it at once (a ticket joined through another
#: process is that process's sweeper's to seat; this one sees it within this bound)
SWEEP_IDLE_MAX = 8.0
#: how often a long poll re-reads its ticket (another process may have seated it)
POLL_EVERY = 0.2
#: a seating older than this was cut off by a crash (it takes milliseconds)
SEATING_TIMEOUT = dt.timedelta(seconds=60)


class InvalidTable(ServiceError):
    """A table the game does not seat (a size it refuses)."""


class TicketNotFound(ServiceError):
    def __init__(self, ticket_id: str) -> None:
        super().__init__(f"no queue ticket {ticket_id!r} of this account")


class TicketSeated(ServiceError):
    def __init__(self, ticket_id: str) -> None:
        super().__init__(f"ticket {ticket_id!r} is seated already: play its match")


@dataclass(frozen=True)
class TicketView:
    ticket: Ticket
    #: a fresh seat token once the ticket is seated (the previous one stops working)
    token: str | None = None


class QueueService:
    def __init__(self, store: QueueStore, players: PlayerService, matches: MatchService) -> None:
        self.store = store
        self.players = players
        self.matches = matches
        self._lock = asyncio.Lock()
        #: set by a join: the sweeper looks again at once, at its busy pace
        self._joined = asyncio.Event()

    def check_table(self, game: str, seats: int) -> None:
        """UnknownGame or InvalidTable unless ``game`` seats ``seats`` (the game's own
        creation check, on a table of open seats)."""
        hosted = GAMES.get(game)
        if hosted is None:
            raise UnknownGame(game)
        specs = tuple(seat_specs([NewSeat("open", "open")] * seats))
        try:
            hosted.apply(hosted.initial(), hosted.create_command(specs, 0, hosted.options))
        except DomainError as exc:
            raise InvalidTable(f"{game} cannot seat {seats}: {exc}") from None

    async def join(
        self,
        player: PlayerRecord,
        game: str,
        seats: int,
        bots_after: int | None = None,
        bot_level: str = "basic",
        entropy: str | None = None,
    ) -> TicketView:
        """Wait for a table; seated at once when enough accounts wait already. An account
        whose ticket for this table is matched to a match not over yet gets that ticket (with
        a fresh seat token): a join matched at once whose answer was lost, sent again, must
        lead back to its seat, or that match would wait for ever for a player who never comes."""
        self.check_table(game, seats)
        seated = await self.store.last_matched(player.id, game, seats)
        if seated is not None:
            assert seated.match_id is not None
            hosted, state = await self.matches.game_state(seated.match_id)
            if not hosted.is_over(state):
                return TicketView(seated, await self._token(player, seated))
        ticket = await self.store.join(player.id, game, seats, bots_after, bot_level, entropy)
        self._joined.set()
        await self.seat_waiting(game, seats)
        return await self.view(player, ticket.id)

    async def view(self, player: PlayerRecord, ticket_id: str, wait: float = 0) -> TicketView:
        """The ticket; with ``wait``, after waiting up to that many seconds for its seat."""
        deadline = asyncio.get_running_loop().time() + wait
        while True:
            ticket = await self.store.get(ticket_id)
            if ticket is None or ticket.player_id != player.id:
                raise TicketNotFound(ticket_id)
            if ticket.status == MATCHED:
                return TicketView(ticket, await self._token(player, ticket))
            if asyncio.get_running_loop().time() >= deadline:
                return TicketView(ticket)
            await asyncio.sleep(POLL_EVERY)

    async def leave(self, player: PlayerRecord, ticket_id: str) -> None:
        ticket = await self.store.get(ticket_id)
        if ticket is None or ticket.player_id != player.id:
            raise TicketNotFound(ticket_id)
        left = await self.store.leave(ticket_id)
        if left is not None and left.status == MATCHED:
            raise TicketSeated(ticket_id)

    async def _token(self, player: PlayerRecord, ticket: Ticket) -> str:
        assert ticket.match_id is not None and ticket.seat is not None and ticket.claim_key
        played = await self.matches.claim(
            ticket.match_id, ticket.seat, player.name, ticket.claim_key, player.id
        )
        assert played.token is not None
        return played.token

    async def seat_waiting(self, game: str, seats: int) -> None:
        """Seat the oldest waiters of one table, if enough different accounts wait."""
        async with self._lock:
            waiting = _distinct(await self.store.waiting(game, seats))
            while len(waiting) >= seats:
                await self._seat(waiting[:seats], game, seats)
                waiting = waiting[seats:]

    async def sweep(self, now: dt.datetime | None = None) -> bool:
        """Seat, with bots in the empty seats, every waiter whose wait for people is over;
        whether anyone was waiting."""
        now = now or dt.datetime.now(dt.UTC)
        async with self._lock:
            waiting = await self.store.waiting()
            for ticket in waiting:
                due = ticket.bots_after is not None and (
                    ticket.created_at + dt.timedelta(seconds=ticket.bots_after) <= now
                )
                if not due:
                    continue
                fresh = await self.store.get(ticket.id)
                if fresh is None or fresh.status != "waiting":
                    continue  # seated meanwhile in this sweep
                table = [ticket] + [
                    w for w in _distinct(await self.store.waiting(ticket.game, ticket.seats))
                    if w.player_id != ticket.player_id
                ][: ticket.seats - 1]  # fmt: skip
                await self._seat(table, ticket.game, ticket.seats, bot_level=ticket.bot_level)
        return bool(waiting)

    async def _seat(
        self, tickets: list[Ticket], game: str, seats: int, bot_level: str = "basic"
    ) -> None:
        """A match of ``seats`` for ``tickets``' accounts (the rest bots), each seat claimed
        as its account. Three steps, each its own transaction: the tickets are reserved with
        their seats and claim keys, the match is created (and noted on them), the seats are
        claimed; :meth:`recover` finishes a seating a crash cut off after the second."""
        plan = {t.id: (seat, secrets.token_urlsafe(32)) for seat, t in enumerate(tickets)}
        if not await self.store.reserve(plan):
            return
        try:
            table = [NewSeat("open", "open") for _ in tickets] + [
                NewSeat(f"bot{i + 1}", "bot", bot_level) for i in range(seats - len(tickets))
            ]
            created = await self.matches.create(table, game=game)
        except Exception:
            log.exception("seating %d waiter(s) of %s failed; they wait again", len(tickets), game)
            await self.store.release(list(plan))
            raise
        await self.store.created(list(plan), created.match_id)
        for ticket in tickets:
            seat, key = plan[ticket.id]
            await self._claim(ticket, created.match_id, seat, key)

    async def _claim(self, ticket: Ticket, match_id: str, seat: int, key: str) -> None:
        player = await self.players.store.get(ticket.player_id)
        assert player is not None
        await self.matches.claim(
            match_id, seat, player.name, key, player.id, entropy=ticket.entropy
        )
        await self.store.seated(ticket.id)

    async def recover(self, now: dt.datetime | None = None) -> None:
        """Finish the seatings a crash cut off (older than :data:`SEATING_TIMEOUT`): claim
        the seats of a match that was created (the claims are idempotent: their keys are on
        the tickets), or put the tickets back in the queue when no match was."""
        now = now or dt.datetime.now(dt.UTC)
        for ticket in await self.store.seating(now - SEATING_TIMEOUT):
            if ticket.match_id is None:
                await self.store.release([ticket.id])
                continue
            assert ticket.seat is not None and ticket.claim_key is not None
            try:
                await self._claim(ticket, ticket.match_id, ticket.seat, ticket.claim_key)
            except ServiceError as exc:
                log.warning("queue ticket %s cannot be seated: %s", ticket.id, exc)

    async def run_sweeper(self) -> None:
        """Sweep for ever (an API process's background task): every :data:`SWEEP_EVERY`
        while anyone waits; when nobody does, after pauses that double up to
        :data:`SWEEP_IDLE_MAX` (an idle service reads the queue a few times a minute, not
        twice a second), or at once after a join."""
        pause = SWEEP_EVERY
        while True:
            self._joined.clear()  # before the reads: a join during them wakes the next wait
            busy = True
            try:
                busy = await self.sweep()
                await self.recover()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("queue sweep failed; trying again")
            pause = SWEEP_EVERY if busy else min(2 * pause, SWEEP_IDLE_MAX)
            with contextlib.suppress(TimeoutError):  # the pause over, nobody joined
                await asyncio.wait_for(self._joined.wait(), pause)


def _distinct(tickets: list[Ticket]) -> list[Ticket]:
    """One ticket per account, the oldest (an account never sits twice at one table)."""
    seen: set[str] = set()
    out = []
    for t in tickets:
        if t.player_id not in seen:
            seen.add(t.player_id)
            out.append(t)
    return out
