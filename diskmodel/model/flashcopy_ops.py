"""FlashCopy's back-end operations on a rank, per host I/O of its source workload
(`model.costs` adds them to the workload's own).

NOCOPY (and COPY's writes ahead of the background copy): each destage that is the first to
its track since the copy was taken reads the old track on the source rank and writes it on
the target rank, before the destage itself (copy-on-write at destage): per host write,
`copies` = destage ratio x first-write share (`configuration.copy_services`) track reads
(`read_miss_ops` of one 64 KiB track) and track writes (`random_destage_ops`: the target's
RAID reads and writes of a track). COPY also reads the whole source and writes the target in
the background: its bytes per second, taken per host I/O at the workload's planned rate (so
the curve scales it with the load), read as a stream of tracks (`prefetch_ops`) and written in full
stripes (`sequential_destage_ops`). The target volumes are in the source's pool, on the same
ranks in the same proportions, so every operation lands where the workload's own do.

The operations are destage work: a destage waits for its track's copy, and the host waits for
neither unless NVS fills.
"""

from __future__ import annotations

from diskmodel.components import raid
from diskmodel.components.replication import FlashCopyWork
from diskmodel.configuration import Rank
from diskmodel.workload import IoClass, IoMix

CARRIERS: tuple[IoClass, ...] = ("random_write", "sequential_write", "sequential_read", "read_hit")
"""The I/O classes a workload's FlashCopy work is attributed to, the first it has: its writes
(which cause it); a read-only workload's background copy goes with its reads that never wait
for the back end (never a read miss, which the host waits for)."""


def carrier(mix: IoMix) -> IoClass | None:
    """The class FlashCopy's operations are counted under (`CARRIERS`), None if none."""
    return next((c for c in CARRIERS if mix.fractions[c] > 0), None)


def flashcopy_ops(
    work: FlashCopyWork, mix: IoMix, rank: Rank, planned_iops: float | None
) -> list[raid.DriveOps]:
    """FlashCopy's drive operations on `rank` per host I/O of the source workload (module
    docstring)."""
    f = mix.fractions
    writes = f["random_write"] + f["sequential_write"]
    copies = writes * work.source_reads_per_write
    ops: list[raid.DriveOps] = []
    if copies > 0:
        for op in raid.read_miss_ops(rank.raid, work.track_bytes):
            ops.append(raid.DriveOps(op.count * copies, op.size_bytes, op.write, op.pattern))
        ops += raid.random_destage_ops(rank.raid, work.track_bytes, copies)
    if work.background_bytes_per_s > 0 and planned_iops:
        per_io = work.background_bytes_per_s / planned_iops
        ops += [
            *raid.prefetch_ops(rank.raid, per_io, 1),
            *raid.sequential_destage_ops(rank.raid, per_io, 1.0),
        ]
    return [op for op in ops if op.count > 0]
