"""Process-wide tuning of the API server: the garbage collector's thresholds.

A command allocates hundreds of container objects (the folded state, events, views, the
response). With CPython's default thresholds (700, 10, 10) the collector ran a young-generation
collection about every request and a full one, over every object the process keeps (match
states included), every few hundred: 60-75 µs of the ~1 ms of CPU a command costs the
application itself, 11-17 µs with the thresholds below (``bench/app_cpu.py``, docs/LOAD.md
§10). Nearly everything a request allocates is freed by reference counting; the
collector is only needed for the rare cycle, so it may run much less often. Cyclic garbage
then lives a little longer (the objects of a few dozen requests at most).
"""

from __future__ import annotations

import gc

#: young objects before a collection, then young collections per middle one, middle per full
GC_THRESHOLDS = (10_000, 50, 100)


def tune_gc() -> None:
    """Apply :data:`GC_THRESHOLDS` to this process (idempotent)."""
    gc.set_threshold(*GC_THRESHOLDS)
