"""Per-rank times for placing a pool: the busy seconds one of a rank's drives and its DA pair
spend per back-end small I/O routed to the rank, mixed over the pool's workloads, and the
sequential work (prefetch, full-stripe destage) per host I/O of a workload, from the shared
operation costs (`OpCosts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from diskmodel.configuration import Rank, WorkloadConfig
from diskmodel.model.costs import OpCosts


def small_io_drive_time_s(
    costs: OpCosts, rank: Rank, span: float, members: Sequence[tuple[int, WorkloadConfig, float]]
) -> float:
    """Busy time of one of a rank's active drives per back-end small I/O routed to the rank.

    A small I/O is a read miss or a random destage (the unit of `WorkloadDemand.small_io_iops`);
    its drive operations (`OpCosts`, random ones) spread over the active drives. Mixed over the
    pool's workloads by their host rates (`members`: (index, workload, host rate)); with no
    rate anywhere, by equal weights.
    """

    # Workloads of the same cost inputs (`OpCosts.kept`) have the same busy time: summed once.
    seen: dict[int, float] = {}

    def busy_of(w: int, workload: WorkloadConfig) -> float:
        kept = costs.kept(w, workload.mix)
        found = seen.get(kept)
        if found is None:
            fractions = workload.mix.fractions
            found = seen[kept] = sum(
                fractions[op.io_class] * op.count * op.drive.mean_s
                for op in costs.of(w, workload.mix, rank, span)
                if not op.sequential
            )
        return found

    return _per_small_io(costs, members, busy_of) / rank.active_drives


def small_io_da_time_s(
    costs: OpCosts, rank: Rank, members: Sequence[tuple[int, WorkloadConfig, float]]
) -> float:
    """Busy time of the rank's DA pair per back-end small I/O routed to the rank (the same on
    any span of its data)."""

    def busy_of(w: int, workload: WorkloadConfig) -> float:
        fractions = workload.mix.fractions
        return sum(
            fractions[op.io_class] * op.count * op.da.mean_s
            for op in costs.span_free(w, workload.mix, rank)
            if not op.sequential
        )

    return _per_small_io(costs, members, busy_of)


def _per_small_io(
    costs: OpCosts,
    members: Sequence[tuple[int, WorkloadConfig, float]],
    busy_of: Callable[[int, WorkloadConfig], float],
) -> float:
    """Busy seconds per back-end small I/O, mixed over the pool's workloads by their host
    rates (`members`: (index, workload, host rate); with no rate anywhere, equal weights):
    `busy_of(index, workload)` is a station's busy time per host I/O of that workload, asked
    only of a workload that sends small I/O to the rank."""
    busy = small = 0.0
    weighted = any(rate > 0 for _, _, rate in members)
    # Workloads of the same cost inputs (`OpCosts.kept`: the same mix) have the same small
    # I/O per host I/O: worked out once.
    per_host_of: dict[int, float] = {}
    for w, workload, rate in members:
        weight = rate if weighted else 1.0
        kept = costs.kept(w, workload.mix)
        per_host = per_host_of.get(kept)
        if per_host is None:
            per_host = per_host_of[kept] = workload.mix.backend_small_io_per_host_io(1.0)
        if per_host <= 0.0 or weight <= 0.0:
            continue
        busy += weight * busy_of(w, workload)
        small += weight * per_host
    return busy / small if small > 0.0 else 0.0


def sequential_times_s(
    costs: OpCosts, w: int, workload: WorkloadConfig, rank: Rank
) -> tuple[float, float]:
    """(drive, DA) busy seconds per host I/O of `workload` if all its sequential work
    (prefetch, full-stripe destage) landed on `rank`: per drive, and at the DA pair. A
    stream's operation broken by other work seeks over the data's span; it is costed over
    the whole stroke here (the span is what the placement decides), which overstates it by
    at most the short-stroking of that seek."""
    fractions = workload.mix.fractions
    ops = [op for op in costs.of(w, workload.mix, rank, 1.0) if op.sequential]
    on_drive = sum(fractions[op.io_class] * op.count * op.drive.mean_s for op in ops)
    on_da = sum(fractions[op.io_class] * op.count * op.da.mean_s for op in ops)
    return on_drive / rank.active_drives, on_da


@dataclass(frozen=True)
class DriveTimes:
    """One rank (a drive type and RAID format) with its data on one span, timed for the pool's
    mix: one drive's busy seconds per back-end small I/O routed to the rank, and the offered
    work at which one of its drives reaches the utilisation target."""

    small_drive_s: float
    target_work: float


@dataclass(frozen=True)
class TierTimes:
    """A tier's ranks timed for the pool's mix where the span of their data does not matter
    (the DA pair's work, and the sequential work on a drive: only a random operation's seek is
    short-stroked), in rank order: the ranks and their indices, and as arrays each rank's DA
    pair, the DA pair's busy seconds per back-end small I/O routed to it, and per host I/O of
    each member workload (columns) the sequential work if it all landed on the rank, per drive
    and at the DA pair."""

    ranks: tuple[Rank, ...]
    indices: tuple[int, ...]
    da_pair: np.ndarray
    small_da_s: np.ndarray
    seq_drive_s: np.ndarray
    seq_da_s: np.ndarray
