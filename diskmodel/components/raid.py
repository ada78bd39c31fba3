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
- a sequential read's prefetch stages whole 64 KiB tracks, as many per drive operation as one
  host read asks for (at least one): SARC stages "a track or a set of tracks" and AMP adapts
  the prefetch degree per stream so that the stream never waits (DOMAIN.md C13), so a stream
  of 256 KiB reads is staged in 256 KiB operations.

A rank's operations are spread evenly over its active drives (data + redundancy: parity is
rotated in RAID-5/6 and reads alternate between the copies in RAID-10); spares are idle.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from diskmodel.catalog import Drive, RaidFormat
from diskmodel.components.cache import TRACK_BYTES, prefetch_ops_per_read, staged_bytes
from diskmodel.components.drive import sequential_op
from diskmodel.units import MB


@dataclass(frozen=True, slots=True)
class DriveOps:
    """`count` drive operations of `size_bytes` each, per host I/O of one class. A stream's
    read passes over more of the drive than it delivers where parity strips lie between its
    data (RAID-5/6): `media_bytes` per operation go under the head (default: `size_bytes`)."""

    count: float
    size_bytes: float
    write: bool
    pattern: Literal["random", "sequential"]
    media_bytes: float | None = None

    @property
    def drive_bytes(self) -> float:
        """Bytes the drive passes under its head for one operation."""
        return self.size_bytes if self.media_bytes is None else self.media_bytes


def active_drives(raid: RaidFormat) -> int:
    """Drives of a rank that serve I/O: data + redundancy (spares are idle)."""
    return raid.data_drives + raid.redundancy_drives


def read_miss_ops(raid: RaidFormat, request_bytes: float) -> list[DriveOps]:
    """A random read miss: `read_miss_ops` reads of the staged size."""
    return [DriveOps(raid.read_miss_ops, staged_bytes(request_bytes), False, "random")]


def prefetch_tracks(request_bytes: float) -> int:
    """Tracks one prefetch operation stages for a stream of `request_bytes` reads: the
    request rounded up to whole tracks, at least one (module docstring)."""
    return max(1, math.ceil(request_bytes / TRACK_BYTES - 1e-9))


def prefetch_ops(
    raid: RaidFormat, request_bytes: float, tracks_per_op: int | None = None
) -> list[DriveOps]:
    """A sequential host read: its bytes prefetched in drive reads of `tracks_per_op` 64 KiB
    tracks each (by default `prefetch_tracks`), request_bytes / (tracks x 64 KiB) operations
    per host read. On RAID-5/6 the stream skips the parity strips between its data on each
    drive but they still pass under the head: (data + redundancy) / data of the bytes per
    operation (RAID-10 reads either copy: no skipping)."""
    tracks = prefetch_tracks(request_bytes) if tracks_per_op is None else tracks_per_op
    if tracks < 1:
        raise ValueError("tracks_per_op must be >= 1")
    op_bytes = tracks * TRACK_BYTES
    passed = 1.0 if raid.level == 10 else active_drives(raid) / raid.data_drives
    count = prefetch_ops_per_read(request_bytes) / tracks
    return [DriveOps(count, op_bytes, False, "sequential", op_bytes * passed)]


def sequential_read_mb_s(
    drive: Drive, raid: RaidFormat, tracks_per_op: int = 1, stream_share: float = 0.0
) -> float:
    """Sequential read rate of one rank (MB/s, decimal) with every active drive busy
    prefetching `tracks_per_op` tracks per operation: active drives x bytes per operation /
    E[S] (`drive.sequential_op`, its data over the whole drive). Parity strips are skipped by
    the prefetch but occupy the drives' time in RAID-5/6 (they rotate under the head), so the
    data rate is scaled by data / (data + redundancy); RAID-10 reads either copy, all drives
    deliver data. At `stream_share` 1 (a stream alone on its drives) it is the media rate."""
    op_bytes = tracks_per_op * TRACK_BYTES
    service_s = sequential_op(drive, op_bytes, False, 1.0, stream_share).mean_s
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
