"""Fewer garbage collections while a sizing search runs (`paced`).

A search makes some 40,000 small container objects per 30 configurations (records, operating
points, dictionaries of kept work) and frees nearly all of them by reference counting: the
cyclic collector finds about 80 per search. With CPython's default threshold (a young
collection every 700 net allocations) it still ran some 8 collections per search, and every
tenth of the middle generation a full one over the whole heap (the catalog, the modules, the
kept work): about 2 ms of a 35 ms search of ds8800-size-ssd-for-1ms.yaml (measured with
`gc.callbacks`, 2026-11-28). While a search runs, the young generation is collected every
`SEARCH_THRESHOLD` net allocations instead: the same objects are collected, later; the
memory held by cyclic garbage meanwhile is bounded by that count.

The threshold is the process's (`gc.set_threshold`), so searches in several threads share
one raise: the first to start raises it, the last to end puts back what it found, unless
something else set another threshold meanwhile (then that one stays).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

SEARCH_THRESHOLD = 10_000
"""Net allocations between two young collections while a search runs (CPython's default is
700). Measured on ds8800-size-ssd-for-1ms.yaml, 100 searches a run, against 34.4-34.8 ms a
search: 2,000 saved about 0.3 ms, 10,000 about 1.4 ms, 30,000 and 100,000 within 0.3 ms of
10,000 (noise). Then about 0.7 ms a search goes to collections, from 2.0-2.2 ms."""


class _Pacing:
    """How many searches run now, and the threshold found before the first of them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.found: tuple[int, ...] = ()
        self.set: tuple[int, ...] = ()


_PACING = _Pacing()


@contextmanager
def paced() -> Iterator[None]:
    """Young collections every `SEARCH_THRESHOLD` net allocations (or the process's own
    threshold where it is higher) while the block runs (module docstring)."""
    with _PACING.lock:
        if _PACING.running == 0:
            _PACING.found = gc.get_threshold()
            first, *rest = _PACING.found
            _PACING.set = (max(first, SEARCH_THRESHOLD), *rest)
            gc.set_threshold(*_PACING.set)
        _PACING.running += 1
    try:
        yield
    finally:
        with _PACING.lock:
            _PACING.running -= 1
            if _PACING.running == 0 and gc.get_threshold() == _PACING.set:
                gc.set_threshold(*_PACING.found)
