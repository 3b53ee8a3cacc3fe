"""examples/bot.py against a live server: one bot among service bots, a bot given its token, and
four bot processes (each claiming an open seat with its own token) playing a whole match whose
exported log then passes the audit."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from types import ModuleType
from typing import Any

import httpx

from domain.audit import audit, parse_ndjson
from tests.integration.server import ROOT, Server

BOT = ROOT / "examples" / "bot.py"


def load_bot() -> ModuleType:
    spec = importlib.util.spec_from_file_location("example_bot", BOT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_bots(server: Server, match_id: str, *argsets: list[str]) -> list[str]:
    """Start one bot process per argument list at once; wait for all; return their stdouts."""
    url = f"{server.base}/matches/{match_id}"
    procs = [
        subprocess.Popen(
            [sys.executable, str(BOT), url, *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in argsets
    ]
    outs = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=240)
            assert proc.returncode == 0, (proc.returncode, out, err[-3000:])
            outs.append(out)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outs


def get(server: Server, path: str) -> Any:
    resp = httpx.get(server.base + path, timeout=30)
    assert resp.status_code == 200, resp.text
    ndjson = resp.headers["content-type"].startswith("application/x-ndjson")
    return resp.text if ndjson else resp.json()


def test_four_bot_processes_claim_open_seats_and_play_a_match_that_audits(
    server: Server,
) -> None:
    body = {"seats": [{"name": "open", "kind": "open"}] * 4, "starting_lives": 2}
    created = httpx.post(f"{server.base}/matches", json=body, timeout=30).json()
    mid = created["match_id"]
    assert created["seat_tokens"] == []
    outs = run_bots(server, mid, *([f"--seat={i}", f"--name=robo{i}"] for i in range(4)))
    final = get(server, f"/matches/{mid}")
    assert final["view"]["status"] == "over"
    winner = final["view"]["winner"]
    assert all(f"seat {winner} (robo{winner}) won" in out for out in outs), outs
    export = get(server, f"/matches/{mid}/export")
    # record lines (the last line is the seal, when the server signs)
    lines = [r["record"] for r in map(json.loads, export.splitlines()) if "record" in r]
    claims = [ln for ln in lines if ln["type"] == "seat_claimed"]
    assert sorted((c["data"]["seat"], c["data"]["name"]) for c in claims) == [
        (i, f"robo{i}") for i in range(4)
    ]
    actors = {ln["meta"]["actor"] for ln in lines if ln["type"] in ("kept", "exchange_requested")}
    assert actors <= {f"seat:{i}" for i in range(4)} and len(actors) >= 2
    report = audit(parse_ndjson(export))
    assert report.ok, report


def test_one_bot_claims_a_seat_among_service_bots(sqlite_server: Server) -> None:
    body = {
        "seats": [
            {"name": "Bo", "kind": "bot", "bot_level": "basic"},
            {"name": "open", "kind": "open"},
            {"name": "Cy", "kind": "bot", "bot_level": "random"},
        ],
        "starting_lives": 3,
    }
    mid = httpx.post(f"{sqlite_server.base}/matches", json=body, timeout=30).json()["match_id"]
    (out,) = run_bots(sqlite_server, mid, ["--seat", "1", "--name", "Robo"])
    assert f"match {mid} over" in out
    assert get(sqlite_server, f"/matches/{mid}")["view"]["status"] == "over"


def test_a_bot_given_its_token_plays_its_seat(sqlite_server: Server) -> None:
    body = {
        "seats": [{"name": "Ann"}, {"name": "Bo", "kind": "bot", "bot_level": "basic"}],
        "starting_lives": 2,
    }
    created = httpx.post(f"{sqlite_server.base}/matches", json=body, timeout=30).json()
    token = created["seat_tokens"][0]["token"]
    (out,) = run_bots(sqlite_server, created["match_id"], ["--token", token])
    assert "over after round" in out


def test_bad_arguments_and_unknown_seats_fail_cleanly(sqlite_server: Server) -> None:
    bad = subprocess.run([sys.executable, str(BOT), "http://x/nomatch", "--seat", "0"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode == 2 and "not a match URL" in bad.stderr
    body = {"seats": [{"name": "a"}, {"name": "b"}]}
    mid = httpx.post(f"{sqlite_server.base}/matches", json=body, timeout=30).json()["match_id"]
    taken = subprocess.run(
        [sys.executable, str(BOT), f"{sqlite_server.base}/matches/{mid}", "--seat", "0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert taken.returncode == 1 and "seat-taken" in taken.stderr


def test_the_bot_uses_no_domain_code_and_chooses_sensibly() -> None:
    code = (
        f"import runpy, sys; sys.argv = ['bot', '--help']\n"
        f"try:\n    runpy.run_path({str(BOT)!r}, run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('domain', 'litestar', 'msgspec')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd="/", check=True, capture_output=True)
    bot = load_bot()

    def view(kind: str, hand: str, lives: int = 3, players: int = 4) -> dict[str, Any]:
        seats = [{"lives": lives, "in_round": i < players, "dead": False} for i in range(4)]
        return {"viewer": 0, "hand": hand, "seats": seats,
                "pending": {"seat": 0, "kind": kind, "choices": []}}  # fmt: skip

    assert bot.choose(view("turn", "lion#1")) == "exchange"
    assert bot.choose(view("turn", "fool#2")) == "exchange"
    assert bot.choose(view("turn", "9#1")) == "keep"
    assert bot.choose(view("turn", "4#1", lives=1)) == "keep"
    assert bot.choose(view("turn", "6#1", players=2)) == "exchange"
    assert bot.choose(view("dealer_turn", "2#2")) == "exchange"
    assert bot.choose(view("dealer_turn", "cuckoo#1")) == "keep"
    assert bot.choose(view("inn_choice", "zero#1")) == "inn_ask_pay"
    assert bot.choose(view("inn_response", "inn#1")) == "inn_accept"
    assert bot.parse_match_url("http://h:1/api/matches/abc/") == ("http://h:1/api", "abc")


def test_bot_processes_claim_open_seats_and_play_a_cucco21_game_to_its_end(
    server: Server,
) -> None:
    body = {
        "game": "cucco21",
        "seats": [
            {"name": "open", "kind": "open"},
            {"name": "open", "kind": "open"},
            {"name": "Bo", "kind": "bot", "bot_level": "basic"},
        ],
        "starting_chips": 4,
        "max_sets": 2,
    }
    created = httpx.post(f"{server.base}/matches", json=body, timeout=30).json()
    mid = created["match_id"]
    outs = run_bots(server, mid, *([f"--seat={i}", f"--name=robo{i}"] for i in range(2)))
    final = get(server, f"/matches/{mid}")
    view = final["view"]
    assert final["game"] == "cucco21" and view["status"] == "over" and view["winners"]
    names = ", ".join(f"seat {w} ({view['seats'][w]['name']})" for w in view["winners"])
    for seat, out in enumerate(outs):
        assert f"{names} won" in out, out
        assert f"seat {seat} has {view['seats'][seat]['chips']} chips" in out, out
    # the two claimed seats made choices of their own (not only the service's bot)
    page = get(server, f"/matches/{mid}/events?limit=1000")
    actors = {
        e["event"].get("seat") for e in page["events"] if e["event"]["type"] in ("kept", "asked")
    }
    assert {0, 1} <= actors


def test_the_cucco21_policy_answers_every_prompt_from_its_choices() -> None:
    bot = load_bot()
    base: dict[str, Any] = {"game": "cucco21", "viewer": 0, "hand": "3#1"}
    for choices, expected in (
        (["keep", "trade"], "trade"),
        (["refuse", "accept"], "refuse"),
        (["send_on", "accept"], "send_on"),
        (["claim", "decline"], "claim"),
        (["next_round"], "next_round"),
    ):
        view = {**base, "pending": {"seat": 0, "kind": "x", "choices": choices}}
        assert bot.choose(view) == expected
    high = {
        **base,
        "hand": "20#2",
        "pending": {"seat": 0, "kind": "turn", "choices": ["keep", "trade"]},
    }
    assert bot.choose(high) == "keep"


def test_two_bot_accounts_play_rated_games_through_the_queue(server: Server) -> None:
    """`examples/bot.py --key KEY --queue cucco21`, two processes: they are seated together,
    play their games to the end unattended, and the leaderboard rates both."""
    keys = [
        httpx.post(f"{server.base}/players", json={"name": f"qbot{i}", "kind": "bot"},
                   timeout=30).json()["key"]
        for i in range(2)
    ]  # fmt: skip
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                str(BOT),
                server.base,
                "--key",
                k,
                "--queue",
                "cucco21",
                "--games",
                "2",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for k in keys
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
        assert out.count("over after round") == 2, out
        assert not any(k in out + err for k in keys)  # the key is never printed
    board = httpx.get(f"{server.base}/leaderboard", params={"game": "cucco21"}, timeout=30)
    entries = board.json()["entries"]
    assert {e["player"]["name"] for e in entries} == {"qbot0", "qbot1"}
    assert all(e["rating"]["matches"] == 2 for e in entries)
    # each bot took its seat with entropy drawn after the table's commitment: every match's
    # first deck is mixed with both seats' entropy, contributed after that commitment
    over = httpx.get(f"{server.base}/matches", params={"status": "over"}, timeout=30).json()
    assert len(over["matches"]) == 2
    for match in over["matches"]:
        export = httpx.get(f"{server.base}/matches/{match['match_id']}/export", timeout=30).text
        records = [json.loads(line)["record"] for line in export.splitlines() if '"record"' in line]
        kinds = [r["type"] for r in records]
        first_deal = kinds.index("deck_shuffled")
        assert kinds.index("entropy_committed") < first_deal
        seats = {
            r["data"]["seat"]
            for r in records[:first_deal]
            if r["type"] == "entropy_contributed" and r["data"]["deck"] == 1
        }
        assert seats == {0, 1}, kinds[:first_deal]
