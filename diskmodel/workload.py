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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from diskmodel.components.cache import KIB

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
        return cls(fractions, read_size_kib * KIB, write_size_kib * KIB, destage_ratio)

    def size_bytes(self, io_class: IoClass) -> float:
        return self.write_bytes if io_class.endswith("write") else self.read_bytes

    def backend_small_io_per_host_io(self, ops_per_destage: float) -> float:
        """Back-end random operations per host I/O (read misses + random destage operations)."""
        return (
            self.fractions["read_miss"]
            + self.fractions["random_write"] * self.destage_ratio * ops_per_destage
        )
