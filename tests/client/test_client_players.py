"""The typed client's player calls against the real server, on both databases: register,
claim as an account, play to the end, the profile, the history, the leaderboard, a rotated
and a revoked key."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from api.client import Client, Conflict, Unauthorized, bot, open_seat
from tests.integration.server import Server


def play_out(players: dict[int, Client], match_id: str) -> None:
    anyone = next(iter(players.values()))
    for _ in range(5_000):
        pending = anyone.get_match(match_id)["view"]["pending"]
        if pending is None:
            return
        seat = pending["seat"]
        player = anyone if seat is None else players[seat]
        mine = player.get_match(match_id)["view"]["pending"]
        assert mine is not None
        player.send_command(match_id, mine["choices"][0])
    raise AssertionError("the match did not end")


def test_accounts_through_the_client(server: Server) -> None:
    suffix = uuid.uuid4().hex[:6]
    with Client(server.base) as c:
        ann = c.register_player(f"ann-{suffix}", "bot")
        bob = c.register_player(f"bob-{suffix}")
        assert ann["key"].startswith("cuccu_key_") and bob["player"]["kind"] == "person"
        with pytest.raises(Conflict) as taken:
            c.register_player(f"ANN-{suffix}")
        assert taken.value.slug == "name-taken"
        created = c.create_match([open_seat(), open_seat(), bot("Bo", "random")], seed=7)
        mid = created["match_id"]
        players = {}
        for seat, account in enumerate((ann, bob)):
            player = Client(server.base)
            player.claim_seat_as(account["key"], mid, seat, account["player"]["name"])
            players[seat] = player
        try:
            play_out(players, mid)
        finally:
            for player in players.values():
                player.close()
        board = c.leaderboard("cuccu")
        assert {e["player"]["id"] for e in board["entries"]} == {
            ann["player"]["id"],
            bob["player"]["id"],
        }
        profile = c.player(ann["player"]["id"])
        assert profile["ratings"][0]["game"] == "cuccu" and profile["ratings"][0]["matches"] == 1
        history = c.player_matches(ann["player"]["id"])
        assert [(m["match_id"], m["seat"], m["rated"]) for m in history] == [(mid, 0, True)]
        new = c.rotate_key(ann["key"])["key"]
        with pytest.raises(Unauthorized):
            c.rotate_key(ann["key"])
        c.revoke_key(new)
        with pytest.raises(Unauthorized) as revoked:
            c.claim_seat_as(new, c.create_match([open_seat(), bot("Bo")])["match_id"], 0, "x")
        assert revoked.value.slug == "unknown-key"


def test_the_client_takes_a_queue_seat_with_entropy_drawn_after_the_commitment(
    server: Server,
) -> None:
    """``join_queue`` sends no entropy; ``queue_seat`` waits for the table, then takes the seat
    with entropy drawn once the ticket showed the table's commitment, and returns that
    commitment: the match's first ``entropy_committed`` carries it, and each seat's entropy
    follows it before the first deal."""
    suffix = uuid.uuid4().hex[:6]
    with Client(server.base) as c:
        keys = [c.register_player(f"{who}-{suffix}", "bot")["key"] for who in ("cid", "dot")]
        tickets = [c.join_queue(key, "cuccu", 2) for key in keys]
        assert tickets[0]["status"] == "waiting" and tickets[1]["status"] == "seating"
        seated = [
            c.queue_seat(key, ticket, wait=5) for key, ticket in zip(keys, tickets, strict=True)
        ]
        assert all(s["status"] == "matched" and s["token"] and s["contributed"] for s in seated)
        mid = seated[0]["match_id"]
        assert mid is not None and seated[1]["match_id"] == mid
        assert seated[0]["commitment"] == seated[1]["commitment"] == tickets[1]["commitment"]
        served: list[dict[str, Any]] = [dict(e["event"]) for e in c.iter_events(mid)]
        kinds = [e["type"] for e in served]
        deal = kinds.index("round_started")
        first = served[kinds.index("entropy_committed")]
        assert first["commitment"] == seated[0]["commitment"] and first["secret"] is None
        mixed = [e["seat"] for e in served[:deal] if e["type"] == "entropy_contributed"]
        assert sorted(mixed) == [0, 1]
