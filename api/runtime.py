"""Process-wide tuning of the API server: the garbage collector's thresholds.

A command allocates a few hundred container objects (the folded state, events, views, the
response), and CPython's default thresholds (700, 10, 10) ran a young-generation collection
every few requests and a full one, over every match state the process keeps, every few
thousand: 8-10 % of the CPU of a command in the API process (docs/LOAD.md §10). Nearly
everything a request allocates is freed by reference counting; the collector is only needed
for the rare cycle, so it may run much less often. Cyclic garbage then lives a little longer
(at most the objects of a few dozen requests).
"""

from __future__ import annotations

import gc

#: young objects before a collection, then young collections per middle one, middle per full
GC_THRESHOLDS = (10_000, 50, 100)


def tune_gc() -> None:
    """Apply :data:`GC_THRESHOLDS` to this process (idempotent)."""
    gc.set_threshold(*GC_THRESHOLDS)
