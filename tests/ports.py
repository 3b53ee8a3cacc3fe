"""Loopback ports for the servers the tests start, safe when tests run in parallel (xdist).

A port found free with ``bind(("127.0.0.1", 0))`` and released is free only until someone else
binds it: the kernel hands out ports of that (ephemeral) range to every ``bind(0)`` and every
outgoing connection on the machine, so another worker's probe or a client socket could take
it before the server the test starts binds it. These ports come from below the ephemeral
range instead, where the kernel never assigns one by itself, and each xdist worker draws from
its own slice of it, so two workers of a run never hand out the same port. A port is still
checked free before it is handed out (something else on the machine may listen there), and a
server that loses its port anyway is restarted on another (``Server.start``).
"""

from __future__ import annotations

import itertools
import os
import random
import socket
from collections.abc import Iterator
from pathlib import Path

#: the lowest port handed out, and the slices the range below the ephemeral one is cut into
LOWEST = 10_000
SLICES = 32


def _ephemeral_low() -> int:
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        return int(text.split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def _worker_index() -> int:
    """This xdist worker's number (``gw3`` -> 3); 0 without xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = worker.removeprefix("gw")
    return int(digits) if digits.isdigit() else 0


def _candidates() -> Iterator[int]:
    """This process's ports, in order: its slice, from a random start (two runs of the suite
    on one machine rarely meet), round and round."""
    size = (_ephemeral_low() - LOWEST) // SLICES
    if size < 50:  # an unusual ephemeral range: nothing sensible to slice
        while True:
            yield 0
    first = LOWEST + (_worker_index() % SLICES) * size
    start = random.randrange(size)
    for offset in itertools.cycle(range(size)):
        yield first + (start + offset) % size


_PORTS = _candidates()


def _free(port: int) -> int | None:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
        bound: int = s.getsockname()[1]
        return bound


def free_port() -> int:
    """A loopback port no other worker of this run will be handed, free right now."""
    for _ in range(1_000):
        port = _free(next(_PORTS))
        if port is not None:
            return port
    raise RuntimeError("no free loopback port in this worker's slice")


def lost_port(output: str) -> bool:
    """Whether a server's output says it could not bind its port."""
    return "address already in use" in output.lower() or "errno 98" in output.lower()
