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

Every waiter contributes to its table's first deck *after* seeing the service's commitment to
it (docs/API.md "Fairness"): the queue creates the match with its waiters' seats open, which
commits to deck 1 and deals nothing (no game deals while a seat is open), and does not claim
those seats. Each waiter's ticket then answers ``seating`` with the match, the seat and that
commitment; the waiter takes its seat with ``POST /queue/{ticket}/claim`` and its ``entropy``,
which is the queue's own claim (its key kept on the ticket) carrying the contribution. The
last claim deals, as at any table of open seats. A waiter that never takes its seat would
stall the table, so after :data:`CONTRIBUTION_WAIT` the queue claims the seat itself, without
entropy (that deck is then no weaker than the service's secret alone): any process does it,
the sweeper of every process looks, and a restart loses nothing (the claim keys and the
reservation time are on the tickets). Entropy sent with the join (before any commitment) is
ignored: mixing it would let the operator grind its secret against it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from api.players import PlayerService
from api.service import MatchService, NewSeat, ServiceError, UnknownGame, seat_specs
from api.store.players import PlayerRecord
from api.store.queue import MATCHED, SEATING, WAITING, QueueStore, Ticket
from domain.entropy import EntropyContributed
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
#: a seating older than this whose match was never created was cut off by a crash (creating
#: takes milliseconds): its tickets go back to the queue
SEATING_TIMEOUT = dt.timedelta(seconds=60)
#: how long a seated waiter has, from its table's creation (its commitment to deck 1), to take
#: its seat with its entropy; then the queue takes it for them, without (docs/API.md "The queue")
CONTRIBUTION_WAIT = dt.timedelta(seconds=30)


class InvalidTable(ServiceError):
    """A table the game does not seat (a size it refuses)."""


class TicketNotFound(ServiceError):
    def __init__(self, ticket_id: str) -> None:
        super().__init__(f"no queue ticket {ticket_id!r} of this account")


class TicketWaiting(ServiceError):
    def __init__(self, ticket_id: str) -> None:
        super().__init__(
            f"ticket {ticket_id!r} has no table yet: wait for it (GET /queue/{{ticket_id}}?wait=30)"
        )


class TicketSeated(ServiceError):
    def __init__(self, ticket_id: str) -> None:
        super().__init__(f"ticket {ticket_id!r} is seated already: take your seat, play its match")


@dataclass(frozen=True)
class TicketView:
    ticket: Ticket
    #: a fresh seat token once the ticket is seated (the previous one stops working)
    token: str | None = None
    #: while its table waits for its seat to be taken: the service's commitment to the
    #: table's first deck (``entropy_committed {deck: 1}``), and until when it waits
    commitment: str | None = None
    contribute_by: dt.datetime | None = None
    #: the answer of a seat's taking: whether its entropy went into the first deck (False: the
    #: seat had been taken without it, at the end of the wait)
    contributed: bool | None = None


def public_status(ticket: Ticket) -> str:
    """The ticket's status as answered: ``seating`` only once its table exists (the moment
    between the tickets' reservation and the match's creation still answers ``waiting``)."""
    if ticket.status == SEATING and ticket.match_id is None:
        return WAITING
    return ticket.status


def contribute_by(ticket: Ticket) -> dt.datetime | None:
    """When the queue takes a ticket's seat without entropy, once its table exists."""
    if ticket.match_id is None or ticket.reserved_at is None:
        return None
    return ticket.reserved_at + CONTRIBUTION_WAIT


def first_commitment(state: Any) -> str | None:
    """The commitment to deck 1 of a match not dealt yet (every game's state keeps its entropy
    ledger, domain/games/mixing.py)."""
    pending = state.entropy.pending
    return pending.commitment if pending is not None and pending.deck == 1 else None


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
        ticket = await self.store.join(player.id, game, seats, bots_after, bot_level)
        self._joined.set()
        await self.seat_waiting(game, seats)
        return await self.view(player, ticket.id)

    async def view(
        self, player: PlayerRecord, ticket_id: str, wait: float = 0, seen: str | None = None
    ) -> TicketView:
        """The ticket; with ``wait``, answered as soon as its status (:func:`public_status`)
        is not ``seen``, the one the waiter last saw, or, without ``seen``, as soon as it is
        matched (as before seats were taken in two steps: such a client, which never takes
        its seat, waits for the queue to take it, in a long poll, not a busy loop), else after
        that many seconds. The waiter says what it saw because a ticket can move on between
        two polls: the server cannot know which move the waiter has not seen yet."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            ticket = await self._own(player, ticket_id)
            if ticket.status == MATCHED:
                return TicketView(ticket, await self._token(player, ticket))
            moved = seen is not None and public_status(ticket) != seen
            if moved or loop.time() >= deadline:
                return await self._shown(ticket)
            await asyncio.sleep(POLL_EVERY)

    async def take_seat(
        self, player: PlayerRecord, ticket_id: str, entropy: str | None
    ) -> TicketView:
        """The waiter takes its seat at the table its ticket is seated at, contributing
        ``entropy`` to the first deck (whose commitment the ticket showed): the queue's claim
        of the seat (its key is the ticket's), so a repeat answers the same claim with a new
        seat token, and a seat the queue took at the end of the wait is answered as taken,
        without this entropy (``contributed`` says which). TicketWaiting before the table
        exists."""
        ticket = await self._own(player, ticket_id)
        if ticket.match_id is None or ticket.seat is None or ticket.claim_key is None:
            raise TicketWaiting(ticket_id)
        played = await self.matches.claim(
            ticket.match_id, ticket.seat, player.name, ticket.claim_key, player.id,
            entropy=entropy,
        )  # fmt: skip
        await self.store.seated(ticket.id)
        # a repeat replays the first claim's events: its contribution, or none
        mine = any(
            isinstance(e, EntropyContributed) and e.seat == ticket.seat for _, e in played.events
        )
        seated = await self._own(player, ticket_id)
        return TicketView(seated, played.token, contributed=mine)

    async def _own(self, player: PlayerRecord, ticket_id: str) -> Ticket:
        ticket = await self.store.get(ticket_id)
        if ticket is None or ticket.player_id != player.id:
            raise TicketNotFound(ticket_id)
        return ticket

    async def _shown(self, ticket: Ticket) -> TicketView:
        """A ticket not matched: once its table exists, with the commitment to its first deck."""
        if ticket.status != SEATING or ticket.match_id is None:
            return TicketView(ticket)
        _, state = await self.matches.game_state(ticket.match_id)
        return TicketView(
            ticket, commitment=first_commitment(state), contribute_by=contribute_by(ticket)
        )

    async def leave(self, player: PlayerRecord, ticket_id: str) -> None:
        await self._own(player, ticket_id)
        left = await self.store.leave(ticket_id)
        if left is not None and left.status in (MATCHED, SEATING):
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
        """A match of ``seats`` for ``tickets``' accounts (the rest bots), their seats open:
        its creation commits to the first deck and deals nothing. Two steps, each its own
        transaction: the tickets are reserved with their seats and claim keys, the match is
        created (and noted on them). Each waiter then takes its seat (:meth:`take_seat`), or
        :meth:`recover` takes it after :data:`CONTRIBUTION_WAIT`; it also puts back the
        tickets of a seating a crash cut off before the match existed."""
        plan = {t.id: (seat, secrets.token_urlsafe(32)) for seat, t in enumerate(tickets)}
        if not await self.store.reserve(plan):
            return
        try:
            table = [NewSeat("open", "open") for _ in tickets] + [
                NewSeat(f"bot{i + 1}", "bot", bot_level) for i in range(seats - len(tickets))
            ]
            created = await self.matches.create(table, game=game, queued=True)
        except Exception:
            log.exception("seating %d waiter(s) of %s failed; they wait again", len(tickets), game)
            await self.store.release(list(plan))
            raise
        await self.store.created(list(plan), created.match_id)

    async def _claim(self, ticket: Ticket, match_id: str, seat: int, key: str) -> None:
        """The queue's claim of a waiter's seat, without entropy (the waiter's wait is over)."""
        player = await self.players.store.get(ticket.player_id)
        assert player is not None
        await self.matches.claim(match_id, seat, player.name, key, player.id)
        await self.store.seated(ticket.id)

    async def recover(self, now: dt.datetime | None = None) -> bool:
        """Take the seats whose waiters did not take them within :data:`CONTRIBUTION_WAIT`
        of their table's creation (the claims are idempotent: their keys are on the tickets,
        so two processes doing it at once, or a waiter's own claim meanwhile, make one
        claim), and put back in the queue the tickets of a seating cut off before its match
        was created (older than :data:`SEATING_TIMEOUT`). Whether a seating is still under
        way (the sweeper then keeps its busy pace)."""
        now = now or dt.datetime.now(dt.UTC)
        under_way = False
        for ticket in await self.store.seating():
            assert ticket.seat is not None and ticket.claim_key is not None
            if ticket.match_id is None:
                assert ticket.reserved_at is not None
                if ticket.reserved_at < now - SEATING_TIMEOUT:
                    await self.store.release([ticket.id])
                else:
                    under_way = True
                continue
            due = contribute_by(ticket)
            if due is not None and due > now:
                under_way = True
                continue
            try:
                await self._claim(ticket, ticket.match_id, ticket.seat, ticket.claim_key)
            except (ServiceError, DomainError) as exc:  # the next tickets are still seated
                log.warning("queue ticket %s cannot be seated: %s", ticket.id, exc)
        return under_way

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
                busy = await self.recover() or busy
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
