"""CPU per command of the API application alone: no server, no database, no network.

    python bench/app_cpu.py [--commands 3000] [--root DIR]

Drives the Litestar app with ASGI calls on the in-memory store of the service tests
(tests/service/fakes.py), in the pattern of ``bench/api_load.py``'s clients: create a match
(one human seat against three ``basic`` bots), read it once, then send the human's commands
with ``expected_version`` until the match ends. Prints the CPU time of the app per command
(every request counted, as the service figure counts them) and the part of it spent in the
garbage collector. On a shared box this varies far less than a throughput; compare runs
made back to back (``--root`` runs another checkout's app, e.g. ``git archive`` of main).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

# the benchmarks' shared parts, from this checkout (appended: another checkout's ``--root``
# application, put first on the path later, still wins for everything else)
sys.path.append(str(Path(__file__).resolve().parent.parent))
from bench.asgi_calls import HUMAN_VS_BOTS, call  # noqa: E402


class Clock:
    """CPU seconds spent inside the app, and inside the garbage collector meanwhile."""

    def __init__(self) -> None:
        self.app = 0.0
        self.gc = 0.0
        self._gc_start = 0.0
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.process_time()
        else:
            self.gc += time.process_time() - self._gc_start

    def spent(self, seconds: float) -> None:
        """CPU seconds of one of the app's calls."""
        self.app += seconds


async def run(commands: int) -> None:
    from api.app import create_app
    from api.bots_pool import BotPool
    from api.service import MatchService
    from api.settings import Settings
    from tests.service.fakes import InMemoryStore

    app = create_app(Settings(rate_limit_per_second=0, bot_workers=0))
    store = InMemoryStore()
    app.state.store, app.state.sealer = store, None
    app.state.service = MatchService(store, bots=BotPool(0))
    tune = getattr(sys.modules.get("api.runtime"), "tune_gc", None)
    if tune is not None:  # what the app's lifespan does where it has it
        tune()
    rng = random.Random(1)
    clock = Clock()
    warm, done = commands // 10, 0
    while done < warm + commands:
        status, body = await call(
            app, "POST", "/matches", json.dumps(HUMAN_VS_BOTS).encode(), spent=clock.spent
        )
        assert status == 201, body
        created = json.loads(body)
        mid, token = created["match_id"], created["seat_tokens"][0]["token"]
        status, body = await call(app, "GET", f"/matches/{mid}", token=token, spent=clock.spent)
        assert status == 200, body
        current = json.loads(body)
        version, pending = current["version"], current["view"]["pending"]
        while pending is not None:
            command = {"type": rng.choice(pending["choices"]), "expected_version": version}
            status, body = await call(
                app, "POST", f"/matches/{mid}/commands", json.dumps(command).encode(), token,
                spent=clock.spent,
            )  # fmt: skip
            assert status == 200, body
            reply = json.loads(body)
            version, pending = reply["version"], reply["view"]["pending"]
            done += 1
            if done == warm:
                clock.app = clock.gc = 0.0
    print(
        f"app CPU per command: {clock.app / commands * 1e6:.0f} µs, of which garbage collection "
        f"{clock.gc / commands * 1e6:.0f} µs ({commands} commands; GC thresholds "
        f"{gc.get_threshold()})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    asyncio.run(run(args.commands))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
