"""Work kept between configurations by everything it reads (`layout.placements_for`,
`operating.builds_for`, `network_build._back_end_flows`).

What such work reads is a large tuple of frozen records (pools, ranks, workloads, hardware),
compared with `==`; hashing it at every ask would cost about as much as comparing it. So a
cheap hashable part of it (a few counts and rates), the bucket, picks the few entries to
compare in full. The last `buckets` buckets asked for are kept, and the last `per_bucket`
entries asked for in each.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """Values by a key compared with `==`, found through a hashable bucket (module docstring).
    Safe from several threads (a Dask worker with threads runs the sizing search's tasks in
    threads of one process): the bookkeeping is done under a lock, `make()` outside it, so
    two threads may both make a value for one key; each is that key's, and the first kept
    is found after."""

    def __init__(self, *, buckets: int, per_bucket: int) -> None:
        self._buckets: OrderedDict[Hashable, list[tuple[object, V]]] = OrderedDict()
        self._most, self._per_bucket = buckets, per_bucket
        self._lock = threading.Lock()

    def get(self, bucket: Hashable, key: object, make: Callable[[], V]) -> V:
        """The value kept for `key` (in `bucket`), or `make()`'s, kept from now on."""
        with self._lock:
            kept = self._bucket(bucket)
            for i, (other, value) in enumerate(kept):
                if other == key:
                    kept.append(kept.pop(i))  # the last asked for is kept longest
                    return value
        value = make()
        with self._lock:
            kept = self._bucket(bucket)
            kept.append((key, value))
            del kept[: -self._per_bucket]
        return value

    def _bucket(self, bucket: Hashable) -> list[tuple[object, V]]:
        """The entries of `bucket`, now the last bucket asked for (a new one, the oldest
        forgotten beyond `buckets`). Under the lock: between a thread's look-up and its move
        to the end another could forget the bucket (a KeyError from `move_to_end`, seen on a
        two-thread Dask cluster)."""
        kept = self._buckets.get(bucket)
        if kept is None:
            kept = self._buckets[bucket] = []
            if len(self._buckets) > self._most:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(bucket)
        return kept

    def clear(self) -> None:
        with self._lock:
            self._buckets.clear()
