"""A server killed right after the commit that ends a rated match, before the ratings take it
in (the crash point ``after-final-commit``): the next start-up's catch-up pass rates it, on
both databases, with the numbers a rebuild from the log gives."""

from __future__ import annotations

from pathlib import Path

import httpx

from api.cli import main
from tests.api.helpers import bearer
from tests.integration.server import Server
from tests.integration.test_seal_crash import CRASH, died_by_sigkill, start

TABLE = {
    "seats": [
        {"name": "open", "kind": "open"},
        {"name": "open", "kind": "open"},
        {"name": "Bo", "kind": "bot", "bot_level": "random"},
    ],
    "starting_lives": 1,
    "seed": 11,
}


def play_until_the_server_dies(base: str, match_id: str, tokens: dict[int, str]) -> None:
    anyone = tokens[0]
    for _ in range(2_000):
        try:
            view = httpx.get(f"{base}/matches/{match_id}", headers=bearer(anyone), timeout=30)
            pending = view.json()["view"]["pending"]
            assert pending is not None, "the match ended without reaching the crash point"
            seat = pending["seat"]
            token = anyone if seat is None else tokens[seat]
            own = httpx.get(f"{base}/matches/{match_id}", headers=bearer(token), timeout=30)
            choice = own.json()["view"]["pending"]["choices"][0]
            resp = httpx.post(
                f"{base}/matches/{match_id}/commands", json={"type": choice},
                headers=bearer(token), timeout=30,
            )  # fmt: skip
        except httpx.HTTPError:
            return
        assert resp.status_code == 200, resp.text
    raise AssertionError("the match did not end")


def test_a_rated_match_cut_off_by_a_crash_is_rated_at_the_next_start(
    database_url: str, servers: list[Server], tmp_path: Path
) -> None:
    key = tmp_path / "signing.key"
    server = start(database_url, key, servers, CRASH)
    base = server.base
    keys = [
        httpx.post(f"{base}/players", json={"name": n}, timeout=30).json()["key"]
        for n in ("crash-ann", "crash-bob")
    ]
    mid = httpx.post(f"{base}/matches", json=TABLE, timeout=30).json()["match_id"]
    tokens = {}
    for seat, k in enumerate(keys):
        claimed = httpx.post(
            f"{base}/matches/{mid}/seats/{seat}/claim", json={"name": f"p{seat}"},
            headers=bearer(k), timeout=30,
        )  # fmt: skip
        assert claimed.status_code == 201, claimed.text
        tokens[seat] = claimed.json()["token"]
    play_until_the_server_dies(base, mid, tokens)
    died_by_sigkill(server)

    server = start(database_url, key, servers)
    board = httpx.get(f"{server.base}/leaderboard", params={"game": "cuccu"}, timeout=30).json()
    assert {e["player"]["name"] for e in board["entries"]} == {"crash-ann", "crash-bob"}
    assert all(e["rating"]["matches"] == 1 for e in board["entries"])
    assert main(["--database-url", database_url, "ratings", "rebuild"]) == 0
    again = httpx.get(f"{server.base}/leaderboard", params={"game": "cuccu"}, timeout=30).json()
    assert again == board
