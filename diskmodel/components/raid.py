"""RAID ranks: the drive operations one host operation costs on the back end.

From the catalog's RAID format (DOMAIN.md item 5):
- a random read miss reads `read_miss_ops` (1) operation of the staged size from one drive;
- a random write's destage reads `random_write_reads` and writes `random_write_writes`
  blocks of the written size (RAID-5: read data and parity, write both, 2 + 2; RAID-6 3 + 3;
  RAID-10 0 + 2). The read and the later write of the same block are modelled as independent
  random operations: the DS8000 computes parity in the device adapter between them and the
  drive serves other requests meanwhile;
- a sequential write destages whole stripes: every data byte costs
  `sequential_write_ops_per_data_op` = (data + redundancy) / data drive bytes, written a
  64 KiB track per operation, no reads;
- a sequential read's prefetch reads `tracks_per_op` 64 KiB tracks per drive operation
  (SARC stages "a track or a set of tracks" and AMP adapts how many per stream, DOMAIN.md
  C13; the model passes the degree, 1 by default).

A rank's operations are spread evenly over its active drives (data + redundancy: parity is
rotated in RAID-5/6 and reads alternate between the copies in RAID-10); spares are idle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from diskmodel.catalog import Drive, RaidFormat
from diskmodel.components.cache import TRACK_BYTES, prefetch_ops_per_read, staged_bytes
from diskmodel.components.drive import sequential_op
from diskmodel.units import MB


@dataclass(frozen=True, slots=True)
class DriveOps:
    """`count` drive operations of `size_bytes` each, per host I/O of one class."""

    count: float
    size_bytes: float
    write: bool
    pattern: Literal["random", "sequential"]


def active_drives(raid: RaidFormat) -> int:
    """Drives of a rank that serve I/O: data + redundancy (spares are idle)."""
    return raid.data_drives + raid.redundancy_drives


def read_miss_ops(raid: RaidFormat, request_bytes: float) -> list[DriveOps]:
    """A random read miss: `read_miss_ops` reads of the staged size."""
    return [DriveOps(raid.read_miss_ops, staged_bytes(request_bytes), False, "random")]


def prefetch_ops(request_bytes: float, tracks_per_op: int = 1) -> list[DriveOps]:
    """A sequential host read: its bytes prefetched in drive reads of `tracks_per_op` 64 KiB
    tracks each (request_bytes / (tracks_per_op x 64 KiB) operations per host read)."""
    if tracks_per_op < 1:
        raise ValueError("tracks_per_op must be >= 1")
    op_bytes = tracks_per_op * TRACK_BYTES
    return [
        DriveOps(
            prefetch_ops_per_read(request_bytes) / tracks_per_op, op_bytes, False, "sequential"
        )
    ]


def sequential_read_mb_s(
    drive: Drive, raid: RaidFormat, tracks_per_op: int = 1, contiguous: bool = False
) -> float:
    """Sequential read rate of one rank (MB/s, decimal) with every active drive busy
    prefetching `tracks_per_op` tracks per operation: active drives x bytes per operation /
    E[S] (`drive.sequential_op`). Parity strips are skipped by the prefetch but occupy the
    drives' time in RAID-5/6 (they rotate under the head), so the data rate is scaled by
    data / (data + redundancy); RAID-10 reads either copy, all drives deliver data.
    Bounded by active drives x media rate (`contiguous=True`: every operation continues where
    the previous one ended, no positioning)."""
    op_bytes = tracks_per_op * TRACK_BYTES
    service_s = sequential_op(drive, op_bytes, False, contiguous).mean_s
    per_drive_mb_s = op_bytes / service_s / MB
    useful = 1.0 if raid.level == 10 else raid.data_drives / active_drives(raid)
    return active_drives(raid) * per_drive_mb_s * useful


def random_destage_ops(
    raid: RaidFormat, request_bytes: float, destage_ratio: float
) -> list[DriveOps]:
    """Per random host write: destage_ratio destages, each reads + writes per the format."""
    size = staged_bytes(request_bytes)
    ops = []
    if raid.random_write_reads > 0:
        ops.append(DriveOps(destage_ratio * raid.random_write_reads, size, False, "random"))
    ops.append(DriveOps(destage_ratio * raid.random_write_writes, size, True, "random"))
    return ops


def sequential_destage_ops(
    raid: RaidFormat, request_bytes: float, destage_ratio: float
) -> list[DriveOps]:
    """Per sequential host write: its bytes written in full stripes, 64 KiB per operation."""
    drive_bytes = destage_ratio * request_bytes * raid.sequential_write_ops_per_data_op
    return [DriveOps(drive_bytes / TRACK_BYTES, TRACK_BYTES, True, "sequential")]
