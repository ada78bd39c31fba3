"""Work kept between configurations by everything it reads (`layout.placements_for`,
`operating.builds_for`, `network_build._back_end_flows`).

What such work reads is a large tuple of frozen records (pools, ranks, workloads, hardware),
compared with `==`; hashing it at every ask would cost about as much as comparing it. So a
cheap hashable part of it (a few counts and rates), the bucket, picks the few entries to
compare in full. The last `buckets` buckets asked for are kept, and the last `per_bucket`
entries asked for in each.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """Values by a key compared with `==`, found through a hashable bucket (module docstring)."""

    def __init__(self, *, buckets: int, per_bucket: int) -> None:
        self._buckets: OrderedDict[Hashable, list[tuple[object, V]]] = OrderedDict()
        self._most, self._per_bucket = buckets, per_bucket

    def get(self, bucket: Hashable, key: object, make: Callable[[], V]) -> V:
        """The value kept for `key` (in `bucket`), or `make()`'s, kept from now on."""
        kept = self._buckets.get(bucket)
        if kept is None:
            kept = self._buckets[bucket] = []
            if len(self._buckets) > self._most:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(bucket)
        for i, (other, value) in enumerate(kept):
            if other == key:
                kept.append(kept.pop(i))  # the last asked for is kept longest
                return value
        value = make()
        kept.append((key, value))
        del kept[: -self._per_bucket]
        return value

    def clear(self) -> None:
        self._buckets.clear()
