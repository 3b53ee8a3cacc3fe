"""The TypeScript bot (examples/ts-bot) against a live server, on both databases: built as its
README says (``npm install``, types generated from docs/openapi.json by openapi-typescript,
``tsc``), it registers its own account and plays 50 rated games of Cucco 21 through the
queue, choosing at random, head to head with ``examples/bot.py`` as the expert; the server is
restarted while they play. The expert ends above it on the leaderboard, and ``cuccu ratings
rebuild`` gives the very same leaderboard. A shorter run has it play Cuccù.

Cucco 21 rather than Cuccù for the 50 games, although Cuccù is about five times faster (a
two-seat match lasts about 4 rounds, a Cucco 21 game with the queue's default 15 chips about
25): the expert's rule beats random play in 95 % of two-seat Cucco 21 games but only 78 % of
Cuccù matches (300 simulated of each), and at 78 % OpenSkill leaves the random bot level with
or above the expert after 50 games in 0.5 % of series (4,000 simulated), which would make the
test fail now and then; at 95 %, in none.

Node.js and npm are needed (and the npm registry, for ``npm install``): without them the tests
are skipped, except under ``CI=true``, where that is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.cli import main as cuccu_main
from tests.integration.server import ROOT, Server

pytestmark = pytest.mark.serial  # 100 games and a server restart: it runs alone

TS_BOT = ROOT / "examples" / "ts-bot"
PY_BOT = ROOT / "examples" / "bot.py"
GAME = "cucco21"
GAMES = 50
#: restart the server once this many games are over
RESTART_AFTER = 15


def node_or_skip() -> None:
    """Node.js 20 or later and npm, else skip (fail under CI=true)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    version = ""
    if node is not None:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    major = re.match(r"v(\d+)\.", version)
    if npm is not None and major is not None and int(major.group(1)) >= 20:
        return
    why = f"the TypeScript bot needs Node.js 20+ and npm (node: {version or 'missing'}, " + (
        f"npm: {'found' if npm else 'missing'})"
    )
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(why)
    pytest.skip(why)


def run(args: list[str], cwd: Path, timeout: float) -> None:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])


@pytest.fixture(scope="module")
def ts_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The bot built in a copy of the repository's layout (its ``generate`` script reads
    ``../../docs/openapi.json``): its compiled entry point."""
    node_or_skip()
    root = tmp_path_factory.mktemp("ts-bot")
    (root / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "openapi.json", root / "docs" / "openapi.json")
    here = root / "examples" / "ts-bot"
    shutil.copytree(
        TS_BOT, here, ignore=shutil.ignore_patterns("node_modules", "dist", "openapi.ts")
    )
    npm = shutil.which("npm")
    assert npm is not None
    run([npm, "install", "--no-package-lock", "--no-audit", "--no-fund"], here, timeout=600)
    run([npm, "run", "build"], here, timeout=300)
    yield here / "dist" / "bot.js"


def test_the_package_pins_its_tools_and_needs_no_runtime_dependency() -> None:
    """Only the type generator, the compiler and Node's types, at exact versions: the bot
    runs on the platform alone (fetch, web streams, its own SSE parser)."""
    package = json.loads((TS_BOT / "package.json").read_text())
    assert "dependencies" not in package
    tools = package["devDependencies"]
    assert set(tools) == {"openapi-typescript", "typescript", "@types/node"}
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", v) for v in tools.values()), tools
    assert not (TS_BOT / "package-lock.json").exists()


def leaderboard(server: Server) -> dict[str, Any]:
    resp = httpx.get(f"{server.base}/leaderboard", params={"game": GAME}, timeout=30)
    assert resp.status_code == 200, resp.text
    board: dict[str, Any] = resp.json()
    return board


def games_over(server: Server) -> int:
    try:
        entries = leaderboard(server)["entries"]
    except (httpx.HTTPError, AssertionError):
        return 0
    return min((e["rating"]["matches"] for e in entries), default=0)


def test_the_ts_bot_plays_50_rated_games_against_the_expert_through_a_restart(
    ts_bot: Path, server: Server, tmp_path: Path
) -> None:
    started = time.monotonic()
    resp = httpx.post(
        f"{server.base}/players", json={"name": "py-expert", "kind": "bot"}, timeout=30
    )
    assert resp.status_code == 201, resp.text
    expert_key = resp.json()["key"]
    key_file = tmp_path / "ts-random.key"
    node = shutil.which("node")
    assert node is not None
    table = ["--queue", GAME, "--seats", "2", "--games", str(GAMES)]
    procs = {
        "ts": subprocess.Popen(
            [node, str(ts_bot), server.base, *table, "--policy", "random", "--seed", "7",
             "--key-file", str(key_file), "--name", "ts-random"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ),
        "py": subprocess.Popen(
            [sys.executable, str(PY_BOT), server.base, "--key", expert_key, *table],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ),
    }  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while games_over(server) < RESTART_AFTER:
            assert all(p.poll() is None for p in procs.values()), "a bot stopped early"
            assert time.monotonic() < deadline, "the bots are not getting through their games"
            time.sleep(0.5)
        server.stop()  # the bots lose their streams and long polls mid-game
        time.sleep(1)
        server.start()
        outs = {}
        for name, p in procs.items():
            try:
                outs[name] = p.communicate(timeout=max(1.0, deadline + 300 - time.monotonic()))
            except subprocess.TimeoutExpired:  # the other may say why: kill, read, report
                p.kill()
                outs[name] = p.communicate()
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
    for name, p in procs.items():
        out, err = outs[name]
        others = {n: e[-3000:] for n, (_, e) in outs.items() if n != name}
        server_said = "".join(server.output)[-3000:]
        assert p.returncode == 0, (name, out[-2000:], err[-3000:], others, server_said)
        assert out.count(" over after round ") == GAMES, (name, out[-2000:])
    ts_out, ts_err = outs["ts"]
    assert "asking again" in ts_err, ts_err[-3000:]  # it lived through the restart
    ts_key = key_file.read_text().strip()
    assert ts_key.startswith("cuccu_key_")
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    everything = "".join(o + e for o, e in outs.values())
    assert ts_key not in everything and expert_key not in everything  # keys never printed

    board = leaderboard(server)
    ratings = {e["player"]["name"]: e["rating"] for e in board["entries"]}
    assert set(ratings) == {"py-expert", "ts-random"}
    assert all(r["matches"] == GAMES for r in ratings.values()), ratings
    expert, random = ratings["py-expert"], ratings["ts-random"]
    assert expert["ordinal"] > random["ordinal"] and expert["mu"] > random["mu"], ratings
    assert board["entries"][0]["player"]["name"] == "py-expert"

    assert cuccu_main(["--database-url", server.database_url, "ratings", "rebuild"]) == 0
    assert leaderboard(server) == board
    print(
        f"\n{GAME}, {GAMES} games on {server.database_url.split(':')[0]} in "
        f"{time.monotonic() - started:.0f} s: expert mu {expert['mu']:.2f} "
        f"ordinal {expert['ordinal']:.2f}; random mu {random['mu']:.2f} "
        f"ordinal {random['ordinal']:.2f}"
    )


def test_the_parser_passes_its_own_tests(ts_bot: Path) -> None:
    """``npm test``: the SSE parser against the standard's cases (line ends split across
    chunks, comments, messages without data, ids, a stream cut off or gone silent)."""
    npm = shutil.which("npm")
    assert npm is not None
    run([npm, "test"], ts_bot.parents[1], timeout=120)


def test_two_ts_bots_play_cuccu_with_their_rules_and_refuse_bad_arguments(
    ts_bot: Path, sqlite_server: Server, tmp_path: Path
) -> None:
    """The other game and the other policy, with keys from ``CUCCU_API_KEY``."""
    node = shutil.which("node")
    assert node is not None
    bad = subprocess.run([node, str(ts_bot), sqlite_server.base, "--games", "2"],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bad.returncode == 2 and "--queue GAME is required" in bad.stderr
    keys = []
    for name in ("ts-simple", "ts-dice"):
        resp = httpx.post(
            f"{sqlite_server.base}/players", json={"name": name, "kind": "bot"}, timeout=30
        )
        keys.append(resp.json()["key"])
    procs = [
        subprocess.Popen(
            [node, str(ts_bot), sqlite_server.base, "--queue", "cuccu", "--games", "3",
             "--policy", policy, "--seed", "3"],
            env={**os.environ, "CUCCU_API_KEY": key},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for key, policy in zip(keys, ("simple", "random"), strict=True)
    ]  # fmt: skip
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-3000:]
        assert (
            len(re.findall(r"over after round \d+: seat \d \(.*\) won; seat \d has \d lives", out))
            == 3
        )
    board = httpx.get(
        f"{sqlite_server.base}/leaderboard", params={"game": "cuccu"}, timeout=30
    ).json()
    assert {e["player"]["name"]: e["rating"]["matches"] for e in board["entries"]} == {
        "ts-simple": 3,
        "ts-dice": 3,
    }
