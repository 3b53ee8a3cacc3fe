"""Crash points: places where a test makes the server die at once, to prove what survives.

A test arms one with ``CUCCU_CRASH_AT`` (comma-separated names, read with the settings); the
process then SIGKILLs itself, and the process group it leads (its bot workers), the first time
it reaches the point, as a power cut or the kernel's OOM killer would: no cleanup, no answer
sent. Unset (always, outside tests), every point is a no-op check of an empty set.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterable
from typing import Final

#: after the commit whose events end a match, before the answer is sent (issue 19: the seal
#: was once written in a separate step here, and a kill left the match unsigned for ever)
CRASH_AFTER_FINAL_COMMIT: Final = "after-final-commit"

#: every crash point the service has
CRASH_POINTS: Final = frozenset({CRASH_AFTER_FINAL_COMMIT})

_armed: frozenset[str] = frozenset()


def arm(points: Iterable[str]) -> None:
    """Arm these crash points for this process (the settings checked their names)."""
    global _armed
    _armed = frozenset(points)


def crash_point(name: str, *, armed: bool = True) -> None:
    """Die here, by SIGKILL, if ``name`` is armed (and the caller's condition holds)."""
    if not armed or name not in _armed:
        return
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpid(), signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGKILL)
    os._exit(137)  # PID 1 of a container ignores its own SIGKILL: exit without cleanup
