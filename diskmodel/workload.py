"""A workload's host I/O split into the classes the storage model treats differently.

Per host I/O of a workload (fractions sum to 1):
- read hit (random reads found in cache): read_fraction (1 - seq) hit_ratio;
- read miss (random reads staged from a rank): read_fraction (1 - seq) (1 - hit_ratio);
- sequential read (prefetched, so answered from cache): read_fraction seq;
- random write and sequential write (fast write to cache + NVS): write fraction split by
  `write_sequential_fraction`.
`read_hit_ratio` is the hit ratio of the random reads (with no sequential reads, the usual
case, it is the workload's read hit ratio). `destage_ratio` is destages per host write after
write folding (C2's "destage rate 17.2%" of host I/O at 30% writes is 0.172 / 0.30 = 0.573).
`backend_bytes`, when given, is the size of a random back-end operation (a read miss's stage, a
destage) where it differs from the host transfer: a host that coalesces small I/Os into larger
disk operations (IBM i: 8-12 KiB host I/Os into 60-100 KiB) makes host size / backend size
operations per host I/O, each of the back-end size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from diskmodel.units import KIB

IoClass = Literal["read_hit", "read_miss", "sequential_read", "random_write", "sequential_write"]
IO_CLASSES: tuple[IoClass, ...] = (
    "read_hit",
    "read_miss",
    "sequential_read",
    "random_write",
    "sequential_write",
)


@dataclass(frozen=True, slots=True)
class IoMix:
    """Fractions of a workload's host I/O per class, transfer sizes and destage ratio."""

    fractions: dict[IoClass, float]
    read_bytes: float
    write_bytes: float
    destage_ratio: float
    backend_bytes: float | None = None

    @classmethod
    def of(
        cls,
        *,
        read_fraction: float,
        read_hit_ratio: float,
        read_sequential_fraction: float,
        write_sequential_fraction: float,
        read_size_kib: float,
        write_size_kib: float,
        destage_ratio: float,
        backend_kib: float | None = None,
    ) -> IoMix:
        r, hit = read_fraction, read_hit_ratio
        rs, ws = read_sequential_fraction, write_sequential_fraction
        fractions: dict[IoClass, float] = {
            "read_hit": r * (1 - rs) * hit,
            "read_miss": r * (1 - rs) * (1 - hit),
            "sequential_read": r * rs,
            "random_write": (1 - r) * (1 - ws),
            "sequential_write": (1 - r) * ws,
        }
        backend = None if backend_kib is None else backend_kib * KIB
        return cls(fractions, read_size_kib * KIB, write_size_kib * KIB, destage_ratio, backend)

    def size_bytes(self, io_class: IoClass) -> float:
        return self.write_bytes if io_class.endswith("write") else self.read_bytes

    def backend_op(self, io_class: IoClass) -> tuple[float, float]:
        """(size of one random back-end operation, operations per host I/O of the class from
        coalescing or splitting): the host's size and 1 unless `backend_bytes` is given, and
        only for the random classes (sequential work is staged and destaged by track)."""
        size = self.size_bytes(io_class)
        if self.backend_bytes is None or io_class not in ("read_miss", "random_write"):
            return size, 1.0
        return self.backend_bytes, size / self.backend_bytes

    def backend_small_io_per_host_io(self, ops_per_destage: float) -> float:
        """Back-end random operations per host I/O (read misses + random destage operations)."""
        return (
            self.fractions["read_miss"] * self.backend_op("read_miss")[1]
            + self.fractions["random_write"]
            * self.destage_ratio
            * ops_per_destage
            * self.backend_op("random_write")[1]
        )
