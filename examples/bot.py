#!/usr/bin/env python3
"""An example bot that plays one seat of a Cuccù or Cucco 21 match over HTTP only.

It uses the typed client (``cuccu_client``, installed on its own from ``clients/python``, or
``api/client.py`` in a checkout: httpx and the standard library, nothing of the service or the
rules), claims an open seat or plays a seat whose token it is given, follows the match's event
stream and answers every decision of its seat until the match is over:

    python examples/bot.py http://127.0.0.1:8000/matches/MATCH_ID --seat 1 --name Robo
    python examples/bot.py http://127.0.0.1:8000/matches/MATCH_ID --token SEAT_TOKEN
    python examples/bot.py http://127.0.0.1:8000 --key API_KEY --queue cucco21 --games 10

With ``--queue`` it plays rated games unattended as the player account of ``--key``: it joins
the matchmaking queue (``--seats``, and ``--bots-after`` seconds to accept the service's bots),
takes its seat once its ticket shows the table's commitment to the first deck, plays the
match, and joins again, ``--games`` times; after a server restart it asks for its ticket again
(a fresh seat token) and plays on. Its seat's taking, its claims and its commands carry fresh
entropy from the OS (the client adds it), so its seat contributes to every deck of its
matches, the first included, each time after the service's commitment (docs/API.md
"Fairness").

It reads the game from the match's view (``view.game``) and always picks among
``view.pending.choices``. Its Cuccù play: keep high cards and exchange low ones (more boldly
with lives to spare or few players left), ask the innkeeper to pay, accept pledges, and start
the next round when one is due. Its Cucco 21 play: keep a card of 12 or more and trade a lower
one, refuse with Lovers or Cat, send an asker on with House or Horse, claim what a Ceremony
pays, and start the next round when one is due.
Exit status: 0 once the match is over, 1 on an API error, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

try:  # the client installed on its own (pip install clients/python)
    from cuccu_client import (
        ApiError,
        Client,
        CommandOut,
        Conflict,
        MatchOut,
        MatchView,
        StreamEnded,
    )
except ImportError:  # a checkout: the same module, as api/client.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from api.client import ApiError, Client, CommandOut, Conflict, MatchOut, MatchView, StreamEnded

# card id "<rank>#<copy>" -> how safe it is at scoring (RULES §3); a lone fool counts as the
# lowest other card, so it is weak
VALUES: dict[str, float] = {
    "lion": -3, "mask": -2, "bucket": -1, "zero": 0, "fool": -1,
    **{str(n): n for n in range(1, 11)},
    "inn": 11, "cat": 12, "horse": 13, "hunter": 14, "cuckoo": 15,
}  # fmt: skip


def strength(card: str) -> float:
    return VALUES.get(card.split("#", 1)[0], 0)


def choose(view: MatchView) -> str:
    """The choice for this seat's pending decision, from its view alone."""
    if view.get("game") == "cucco21":
        return choose_cucco21(view)
    return choose_cuccu(view)


#: Cucco 21 (CUCCO21 §3): a card's value is its number, 1 to 21; trade below this one
CUCCO21_KEEP_FROM = 12


def choose_cucco21(view: MatchView) -> str:
    pending = view["pending"]
    assert pending is not None
    choices = pending["choices"]
    for preferred in ("next_round", "claim", "refuse", "send_on"):
        if preferred in choices:
            return preferred
    if "keep" in choices and "trade" in choices:
        card = view["hand"]
        assert card is not None
        return "keep" if int(card.split("#", 1)[0]) >= CUCCO21_KEEP_FROM else "trade"
    return str(choices[0])


def choose_cuccu(view: MatchView) -> str:
    pending = view["pending"]
    assert pending is not None
    kind = pending["kind"]
    if kind == "next_round":
        return "next_round"
    if kind == "inn_choice":
        return "inn_ask_pay"  # costs nothing: a pledge, or the innkeeper hands over the inn
    if kind == "inn_response":
        return "inn_accept"  # keep the inn (XI) rather than take a card someone wanted rid of
    me = view["viewer"]
    card = view["hand"]
    assert me is not None and card is not None
    lives = view["seats"][me]["lives"]
    players = sum(1 for s in view["seats"] if s["in_round"] and not s["dead"])
    if kind == "dealer_turn":  # the bottom card is blind: swap only a probable loser
        threshold = 3 if players > 2 else 5
    else:  # a request risks a hunter or a cat: with one life left, only for a weak card
        threshold = 4 if lives > 1 else 2
        if players <= 2:
            threshold += 2
    return "exchange" if strength(card) <= threshold else "keep"


def mine(view: MatchView) -> bool:
    """This seat must decide, or may start the next round (any seat may)."""
    pending = view["pending"]
    if pending is None:
        return False
    return bool(pending["kind"] == "next_round" or pending["seat"] == view["viewer"])


class Bot:
    def __init__(self, client: Client, match_id: str, verbose: bool = False) -> None:
        self.client = client
        self.match_id = match_id
        self.verbose = verbose
        self.known = -1  # the newest version whose view this bot has acted on

    def log(self, text: str) -> None:
        if self.verbose:
            print(text, file=sys.stderr, flush=True)

    def act(self, current: MatchOut | CommandOut) -> None:
        """Answer every decision of this seat in ``current`` and the replies that follow."""
        while True:
            self.known = max(self.known, current["version"])
            view = current["view"]
            if not mine(view):
                return
            choice = choose(view)
            self.log(f"v{current['version']} {view['pending']} hand={view['hand']} -> {choice}")
            try:
                current = self.client.send_command(
                    self.match_id, choice, expected_version=current["version"]
                )
            except Conflict as exc:  # someone else moved first (e.g. started the round)
                self.log(f"v{current['version']} {choice} refused: {exc.slug}")
                return

    def play(self) -> MatchOut:
        for message in self.client.stream(self.match_id):
            if message.id <= self.known:
                continue  # events of commands already seen
            snapshot = message.view or self.client.get_match(self.match_id)
            self.act(snapshot)
        return self.client.get_match(self.match_id)


def parse_match_url(url: str) -> tuple[str, str]:
    """``http://host:port[/prefix]/matches/ID`` -> (base URL, match id)."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    head, sep, match_id = path.rpartition("/matches/")
    if not sep or not match_id or "/" in match_id or not parts.scheme or not parts.netloc:
        raise ValueError(f"not a match URL: {url!r} (expected http://HOST:PORT/matches/ID)")
    return f"{parts.scheme}://{parts.netloc}{head}", match_id


def queued(args: argparse.Namespace) -> int:
    """Play ``args.games`` games through the queue as the account of ``args.key``."""
    base = args.match_url.rstrip("/")
    for game in range(args.games):
        with Client(base) as client:
            ticket_id: str | None = None
            for attempt in range(60):  # a restarting server: wait for it, ask again
                try:
                    if ticket_id is None:
                        ticket = client.join_queue(
                            args.key, args.queue, args.seats, bots_after=args.bots_after
                        )
                        ticket_id = ticket["ticket_id"]
                    else:  # seated before the break: a fresh token for the same seat
                        ticket = client.queue_ticket(args.key, ticket_id)
                    # to its table, then its seat, with entropy drawn after the commitment
                    ticket = client.queue_seat(args.key, ticket, wait=20)
                    if ticket["status"] != "matched":
                        print(f"bot: ticket {ticket_id} left the queue", file=sys.stderr)
                        return 1
                    client.token = ticket["token"]
                    match_id, seat = str(ticket["match_id"]), int(ticket["seat"] or 0)
                    print(f"bot: game {game + 1}: seat {seat} of match {match_id}",
                          file=sys.stderr, flush=True)  # fmt: skip
                    final = Bot(client, match_id, args.verbose).play()
                    break
                except (httpx.TransportError, StreamEnded) as exc:
                    print(f"bot: {type(exc).__name__}; asking again", file=sys.stderr)
                    time.sleep(min(0.5 * (attempt + 1), 5.0))
                except ApiError as exc:
                    print(f"bot: {exc.status} {exc.slug}: {exc.detail}", file=sys.stderr)
                    return 1
            else:
                return 1
        print(summary(match_id, final["view"], seat), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "match_url", help="http://HOST:PORT/matches/MATCH_ID (with --queue: http://HOST:PORT)"
    )
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--seat", type=int, help="claim this open seat")
    who.add_argument("--token", help="play the seat of this token")
    who.add_argument("--queue", metavar="GAME", help="play rated games through the queue")
    parser.add_argument("--name", help="display name for a claimed seat (default: bot-SEAT)")
    parser.add_argument("--key", help="the player account's API key (with --queue)")
    parser.add_argument("--seats", type=int, default=2, help="table size (with --queue)")
    parser.add_argument("--games", type=int, default=1, help="games to play (with --queue)")
    parser.add_argument("--bots-after", type=int, help="seconds before bots fill (--queue)")
    parser.add_argument("--verbose", "-v", action="store_true", help="log every decision")
    args = parser.parse_args(argv)
    if args.queue is not None:
        if not args.key:
            parser.error("--queue needs --key (POST /players answers one)")
        return queued(args)
    try:
        base, match_id = parse_match_url(args.match_url)
    except ValueError as exc:
        parser.error(str(exc))
    with Client(base, args.token) as client:
        try:
            if args.token is None:
                claimed = client.claim_seat(match_id, args.seat, args.name or f"bot-{args.seat}")
                seat: Any = claimed["seat"]
            else:
                seat = client.get_match(match_id)["seat"]
            print(f"bot: playing seat {seat} of match {match_id}", file=sys.stderr, flush=True)
            final = Bot(client, match_id, args.verbose).play()
        except ApiError as exc:
            print(f"bot: {exc.status} {exc.slug}: {exc.detail}", file=sys.stderr)
            return 1
    print(summary(match_id, final["view"], seat))
    return 0


def summary(match_id: str, view: MatchView, seat: int) -> str:
    """The closing line: who won, and what this seat has left."""
    if view.get("game") == "cucco21":
        names = ", ".join(f"seat {w} ({view['seats'][w]['name']})" for w in view["winners"])
        return (
            f"match {match_id} over after round {view['round']}: {names or 'nobody'} won; "
            f"seat {seat} has {view['seats'][seat]['chips']} chips"
        )
    winner = view["winner"]
    name = view["seats"][winner]["name"] if winner is not None else "nobody"
    return (
        f"match {match_id} over after round {view['round']}: seat {winner} ({name}) won; "
        f"seat {seat} has {view['seats'][seat]['lives']} lives"
    )


if __name__ == "__main__":
    raise SystemExit(main())
