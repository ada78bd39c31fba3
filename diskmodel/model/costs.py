"""Back-end operation costs of a workload's I/O classes on a rank: how many drive operations,
of what size, and how long each takes on a drive (with its data on a given span) and through the
DA pair. The network's flows and the placement's tier ceilings both use them, memoised per
configuration, so the drive physics is evaluated once per (workload, drive, RAID format, span).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.components import cache, destage, device_adapter, drive, raid
from diskmodel.components.drive import ServiceMoments
from diskmodel.configuration import Configuration, Rank
from diskmodel.queueing.station import load_dependent_rate_at
from diskmodel.workload import IO_CLASSES, IoClass, IoMix

FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class OpCost:
    """Drive operations of one I/O class at one rank, per host I/O of the class and per unit
    of the rank's share of the class's back-end work: count, size, and the service of one
    operation on one drive and through the DA pair."""

    io_class: IoClass
    count: float
    size_bytes: float
    write: bool
    sequential: bool
    drive: ServiceMoments
    da: ServiceMoments


@dataclass(frozen=True, slots=True)
class OpShape:
    """One operation of `OpCost` before the span of the rank's data is known: everything but
    a random operation's drive service (its seek is short-stroked to the span). `drive` is the
    service of a sequential operation, which does not depend on the span (None for a random
    one); `pending` the destages an ordered destage sorts over (random destages only)."""

    io_class: IoClass
    count: float
    size_bytes: float
    write: bool
    sequential: bool
    da: ServiceMoments
    drive: ServiceMoments | None
    pending: float | None


class OpCosts:
    """Per-rank operation costs, memoised: the network and the placement's tier ceilings ask
    for the same (mix, rank, span) many times (one call each would repeat the drive physics),
    and a ceiling search asks for one rank kind at many spans (what does not depend on the
    span is kept per rank kind)."""

    def __init__(self, config: Configuration) -> None:
        hw = config.hardware
        self._da = hw.system.device_adapter
        # NVS per drive: both servers' NVS over all drives. A server's own share differs by
        # the drives it owns, which moves the ordering gain by well under 1% at a DS8000's
        # thousands of pending destages per drive, and would make identical ranks differ.
        self._nvs_bytes = cache.nvs_bytes(hw.system, hw.cache_gb)
        self._drives = max(sum(r.active_drives for r in config.ranks), 1)
        self._cache: dict[tuple[int, str, str, float], tuple[OpCost, ...]] = {}
        self._shapes: dict[tuple[int, str, str], tuple[OpShape, ...]] = {}
        self._tables: dict[tuple[int, str, str, float], FloatArray] = {}

    def of(self, w: int, mix: IoMix, rank: Rank, span: float) -> tuple[OpCost, ...]:
        """Every back-end operation of workload `w`'s classes on `rank` with its data on
        `span` of each drive (short-stroking)."""
        # The costs are those of the span rounded to the key's 9 digits: computed at the exact
        # span, whichever span within 5e-10 came first would set them for the others, and a
        # result would depend on the order the placement search asked in.
        span = round(span, 9)
        key = (w, rank.drive.name, rank.raid.name, span)
        found = self._cache.get(key)
        if found is None:
            found = tuple(self._at_span(op, rank, span) for op in self.span_free(w, mix, rank))
            self._cache[key] = found
        return found

    def op_table(self, w: int, mix: IoMix, rank: Rank, span: float) -> FloatArray:
        """`of` as one row per operation, for the network's flows: the class's index in
        `IO_CLASSES`, its share of the workload's I/O, the count, whether it is sequential,
        host-visible (a read miss) and destage work (a write) as 0 or 1, the size, and the
        mean service on a drive and through the DA pair. Read-only: shared between callers."""
        span = round(span, 9)
        key = (w, rank.drive.name, rank.raid.name, span)
        found = self._tables.get(key)
        if found is None:
            rows = [
                (
                    IO_CLASSES.index(op.io_class),
                    mix.fractions[op.io_class],
                    op.count,
                    op.sequential,
                    op.io_class == "read_miss",
                    op.io_class.endswith("write"),
                    op.size_bytes,
                    op.drive.mean_s,
                    op.da.mean_s,
                )
                for op in self.of(w, mix, rank, span)
            ]
            found = np.array(rows, dtype=np.float64).reshape(len(rows), 9)
            found.setflags(write=False)
            self._tables[key] = found
        return found

    def pending_destages(self, rank: Rank, destage_bytes: float) -> float:
        """Destages waiting in NVS for each drive when NVS is full of dirty data
        (`cache.pending_destages_per_drive`): what ordered destage sorts over."""
        return cache.pending_destages_per_drive(
            self._nvs_bytes,
            self._drives,
            destage_bytes,
            max(round(rank.raid.random_write_writes), 1),
        )

    def span_free(self, w: int, mix: IoMix, rank: Rank) -> tuple[OpShape, ...]:
        """Every back-end operation of workload `w`'s classes on `rank` as far as it does not
        depend on the span of the rank's data (`of`, in the same order)."""
        key = (w, rank.drive.name, rank.raid.name)
        found = self._shapes.get(key)
        if found is None:
            found = tuple(self._shapes_built(mix, rank))
            self._shapes[key] = found
        return found

    def _shapes_built(self, mix: IoMix, rank: Rank) -> list[OpShape]:
        out = []
        for io_class in IO_CLASSES:
            if mix.fractions[io_class] <= 0:
                continue
            size, coalesced = mix.backend_op(io_class)
            for op in _backend_ops(io_class, rank, size, mix.destage_ratio):
                if op.count <= 0:
                    continue
                sequential = op.pattern != "random"
                out.append(
                    OpShape(
                        io_class,
                        op.count * coalesced,
                        op.size_bytes,
                        op.write,
                        sequential,
                        device_adapter.da_op_service(self._da, op.size_bytes),
                        drive.sequential_op(rank.drive, op.size_bytes, op.write)
                        if sequential
                        else None,
                        self.pending_destages(rank, op.size_bytes)
                        if not sequential and io_class == "random_write"
                        else None,
                    )
                )
        return out

    def _at_span(self, op: OpShape, rank: Rank, span: float) -> OpCost:
        moments = op.drive
        if moments is None and op.pending is not None:
            # Destages are ordered (IWC): each stop of the sweep seeks to the nearest pending
            # destage of its drive (components.destage, DOMAIN.md C12).
            moments = destage.ordered_destage_op(
                rank.drive, op.size_bytes, span, op.pending, op.write
            )
        elif moments is None:
            moments = drive.random_op(rank.drive, op.size_bytes, span, op.write)
        return OpCost(op.io_class, op.count, op.size_bytes, op.write, op.sequential, moments, op.da)


def _backend_ops(
    io_class: IoClass, rank: Rank, size: float, destage_ratio: float
) -> list[raid.DriveOps]:
    if io_class == "read_miss":
        return raid.read_miss_ops(rank.raid, size)
    if io_class == "sequential_read":
        return raid.prefetch_ops(size)
    if io_class == "random_write":
        return raid.random_destage_ops(rank.raid, size, destage_ratio)
    if io_class == "sequential_write":
        return raid.sequential_destage_ops(rank.raid, size, destage_ratio)
    return []  # read hits never reach the back end


@functools.lru_cache(maxsize=4096)
def _work_at(target: float, gain: bytes) -> float:
    return load_dependent_rate_at(target, np.frombuffer(gain))


def drive_work_at(utilization: float, gain: FloatArray) -> float:
    """Offered work (arrival rate x queue-length-one service) at which a drive with command
    queueing gain `gain` is busy the fraction `utilization` of the time (memoised: a placement
    asks for it per rank and round, with few distinct gains)."""
    return _work_at(float(utilization), np.ascontiguousarray(gain, dtype=np.float64).tobytes())


# The command-queueing gain is looked up on a grid of data spans (1% of the stroke): it changes
# by a few per cent over the whole stroke, so the grid moves it by well under 0.1%, and a curve
# whose placement follows the load then asks for a few dozen gains instead of one per load.
_SPAN_GRID = 100


# Gains already computed, by (catalog drive, grid span): a placement asks for one per rank and
# round, thousands per run, from a few dozen distinct keys. Catalog entries are not hashable
# (pydantic models with dict fields), so the key is the drive's identity, kept alive by the
# entry itself so that the identity cannot be reused.
_GAINS: dict[tuple[int, float], tuple[object, FloatArray]] = {}
_GAINS_KEPT = 4096


def drive_gain(rank: Rank, span: float) -> FloatArray:
    """alpha(1..D) of one of the rank's drives with its data on `span` (the gain of its
    random read: the host-visible operation at a rank). Read-only: shared between callers."""
    grid = max(round(span * _SPAN_GRID), 1) / _SPAN_GRID
    key = (id(rank.drive), grid)
    hit = _GAINS.get(key)
    if hit is not None and hit[0] is rank.drive:
        return hit[1]
    gain = drive.command_queueing_gain(
        rank.drive, drive.GAIN_READ_BYTES, grid, False, rank.drive.command_queue_depth
    )
    gain.setflags(write=False)
    if len(_GAINS) >= _GAINS_KEPT:
        _GAINS.clear()
    _GAINS[key] = (rank.drive, gain)
    return gain
