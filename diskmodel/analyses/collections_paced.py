"""Fewer garbage collections, and no heap handed back and taken again, while a sizing search
runs (`paced`).

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

The heap (glibc's malloc): the open solution's arrays over every station of a batch's
networks are some 100 KB each (a drive's queue-length levels by the stations' entries), and
glibc gives the top of its heap back to the system whenever more than 128 KB of it is free
(`M_TRIM_THRESHOLD`), so each such array freed was given back and the next one faulted its
pages in again, zeroed: some 100-140 page faults a search of the shipped sizings, 0.2-0.3 ms
of system time, and each fresh page cold in the caches. While a search runs, freed memory
stays in the heap for the next array (`SEARCH_TRIM_BYTES`; up to `SEARCH_MMAP_BYTES` an
allocation comes from the heap, not a mapping of its own, which is given back at every
free): some 20 faults a search, and 3-4% less CPU time a search (paired, 2026-11-29).
After the last search, glibc's defaults (128 KB each) are set again, and the next free
beyond them gives the heap back as before. One thing is not put back: once either threshold
is set, glibc stops raising its mmap threshold by itself (it does so after a mapped block is
freed) and has no call to start again, so the process's later blocks over 128 KB are mapped
as they are at start-up. Where there is no glibc `mallopt` (other C libraries, other
systems) the heap is left as it is.
"""

from __future__ import annotations

import ctypes
import gc
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SEARCH_THRESHOLD = 10_000
"""Net allocations between two young collections while a search runs (CPython's default is
700). Measured on ds8800-size-ssd-for-1ms.yaml, 100 searches a run, against 34.4-34.8 ms a
search: 2,000 saved about 0.3 ms, 10,000 about 1.4 ms, 30,000 and 100,000 within 0.3 ms of
10,000 (noise). Then about 0.7 ms a search goes to collections, from 2.0-2.2 ms."""


SEARCH_TRIM_BYTES = 64 * 1024 * 1024
"""Free memory the heap keeps at its top while a search runs (glibc `M_TRIM_THRESHOLD`)."""
SEARCH_MMAP_BYTES = 32 * 1024 * 1024
"""Allocations up to this come from the heap while a search runs (glibc `M_MMAP_THRESHOLD`;
its largest allowed value on 64-bit systems): a batch of the large space solves 1,024
configurations together, and its arrays outgrow the default 128 KB."""
GLIBC_DEFAULT_BYTES = 128 * 1024
"""glibc's `M_TRIM_THRESHOLD` and `M_MMAP_THRESHOLD` before any are set (set back after)."""
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's `mallopt`, or None where the C library is another (musl's does nothing)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 (glibc's alone)
        found: Callable[[int, int], int] = libc.mallopt
    except (OSError, AttributeError):
        return None
    return found


_MALLOPT = _mallopt()


def _heap_kept(trim: int, mmap: int) -> None:
    """The heap's trim and mmap thresholds set (where glibc's `mallopt` is there)."""
    if _MALLOPT is not None:
        _MALLOPT(_M_TRIM_THRESHOLD, trim)
        _MALLOPT(_M_MMAP_THRESHOLD, mmap)


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
    threshold where it is higher), and freed memory kept in the heap, while the block runs
    (module docstring)."""
    with _PACING.lock:
        if _PACING.running == 0:
            _PACING.found = gc.get_threshold()
            first, *rest = _PACING.found
            _PACING.set = (max(first, SEARCH_THRESHOLD), *rest)
            gc.set_threshold(*_PACING.set)
            _heap_kept(SEARCH_TRIM_BYTES, SEARCH_MMAP_BYTES)
        _PACING.running += 1
    try:
        yield
    finally:
        with _PACING.lock:
            _PACING.running -= 1
            if _PACING.running == 0:
                _heap_kept(GLIBC_DEFAULT_BYTES, GLIBC_DEFAULT_BYTES)
                if gc.get_threshold() == _PACING.set:
                    gc.set_threshold(*_PACING.found)
