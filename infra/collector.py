"""Python's garbage collector in a server process: what was loaded at start-up is frozen
out of its scans, and young objects are collected less often.

A move allocates a few thousand short-lived objects (the ORM's rows, the events, each
seat's view and legal commands, JSON), so Python's default gen-0 threshold of 700 runs a
collection several times per move, and every so often a full one walks the whole heap:
Django, DRF, Channels, the engines' tables. ``gc.freeze()`` after start-up moves all of
that into a generation no collection scans (as Instagram's Django servers do), and a
higher threshold makes the young collections rarer; reference counting still frees
everything that is not in a cycle at once. It trims the tail latency of moves, not their
throughput (docs/performance.md).

``GC_THRESHOLD``: the three thresholds (default ``20000,20,20``), or ``off`` for Python's.
"""

from __future__ import annotations

import gc
import os

DEFAULT_THRESHOLD = "20000,20,20"


def threshold_from(value: str) -> tuple[int, int, int] | None:
    """``GC_THRESHOLD``'s value as thresholds; None for ``off``."""
    if value.strip().lower() == "off":
        return None
    parts = [int(part) for part in value.split(",")]
    if len(parts) != 3 or min(parts) < 1:
        raise ValueError(f"GC_THRESHOLD takes three positive integers or off, not {value!r}")
    first, second, third = parts
    return first, second, third


def tune_after_start_up() -> None:
    """Call once, when the application is loaded and before it serves."""
    threshold = threshold_from(os.environ.get("GC_THRESHOLD", DEFAULT_THRESHOLD))
    if threshold is None:
        return
    gc.collect()  # what start-up left as garbage goes now, not into the frozen set
    gc.freeze()
    gc.set_threshold(*threshold)
