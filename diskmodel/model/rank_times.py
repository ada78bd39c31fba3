"""Per-rank times for placing a pool (`PoolTimes`): the busy seconds one of a rank's drives and
its DA pair spend per back-end small I/O routed to the rank, mixed over the pool's workloads,
and the sequential work (prefetch, full-stripe destage) per host I/O of a workload, from the
shared operation costs (`OpCosts`). Workloads of the same cost inputs are timed once and the
mix is added one workload at a time, so a pool of 64 volumes of one database costs about what
one volume does and gives the same floats as timing each volume.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import numpy as np

from diskmodel.cached import cached_property
from diskmodel.configuration import Rank, WorkloadConfig
from diskmodel.model.costs import OpCost, OpCosts, OpShape, costed_span
from diskmodel.model.pool_ranks import TierRanks
from diskmodel.workload import IoMix

_Op = TypeVar("_Op", OpCost, OpShape)

Members = tuple[tuple[int, WorkloadConfig, float], ...]
"""A pool's workloads: (index, workload, host rate)."""

KindTimes = tuple[float, list[float], list[float]]
"""A rank kind's DA time per small I/O and, per member, its sequential times per drive and at
the DA pair (`PoolTimes`)."""


@dataclass(frozen=True)
class _Mixing:
    """What mixing a station's busy time over a pool's workloads needs, whatever the rank:
    the workloads that send small I/O (a rate > 0 and small I/O per host I/O > 0, or every
    workload with no rate anywhere), each with its weight (its rate, or 1) and its group of
    cost inputs (`OpCosts.kept`: workloads of one group have the same busy times), one
    workload of each group, and the weighted small I/O per host I/O summed in member order."""

    weights: tuple[float, ...]
    groups: tuple[int, ...]  # each weighed workload's group
    firsts: tuple[tuple[int, WorkloadConfig], ...]  # per group, its first weighed workload
    small: float

    @classmethod
    def of(cls, costs: OpCosts, members: Members) -> _Mixing:
        weighted = any(rate > 0 for _, _, rate in members)
        per_host_of: dict[int, float] = {}
        group_of: dict[int, int] = {}
        firsts: list[tuple[int, WorkloadConfig]] = []
        weights: list[float] = []
        groups: list[int] = []
        small = 0.0
        for w, workload, rate in members:
            weight = rate if weighted else 1.0
            kept = costs.kept(w, workload.mix)
            per_host = per_host_of.get(kept)
            if per_host is None:
                per_host = per_host_of[kept] = workload.mix.backend_small_io_per_host_io(1.0)
            if per_host <= 0.0 or weight <= 0.0:
                continue
            group = group_of.get(kept)
            if group is None:
                group = group_of[kept] = len(firsts)
                firsts.append((w, workload))
            weights.append(weight)
            groups.append(group)
            small += weight * per_host
        return cls(tuple(weights), tuple(groups), tuple(firsts), small)

    def per_small_io(self, busy_of: Callable[[int, WorkloadConfig], float]) -> float:
        """Busy seconds per back-end small I/O: `busy_of(index, workload)` (a station's busy
        time per host I/O of a workload) weighted by the workloads' rates over their small
        I/O per host I/O, asked once per group. The weighted busy times are added in member
        order (a running sum, as one workload at a time): the same float. In Python floats
        (a handful of groups and members: numpy's per-call cost dominated), the same
        roundings as the arrays' product and running sum: every term is >= 0 (weights > 0,
        busy times sums from 0), so starting the sum at 0.0 changes no bit."""
        if self.small <= 0.0:
            return 0.0
        busy = [busy_of(w, workload) for w, workload in self.firsts]
        total = 0.0
        for weight, group in zip(self.weights, self.groups, strict=True):
            total += weight * busy[group]
        return float(total) / self.small


@dataclass(frozen=True)
class PoolTimes:
    """A pool's workloads (`Members`) timed on its ranks from the shared operation costs: the
    busy seconds one of a rank's drives and its DA pair spend per back-end small I/O routed to
    the rank, mixed over the workloads by their host rates (with no rate anywhere, by equal
    weights), and each workload's sequential work per host I/O. Workloads of the same cost
    inputs (`OpCosts.kept`: 64 volumes of one database) are timed once."""

    costs: OpCosts
    members: Members

    @cached_property
    def _mixing(self) -> _Mixing:
        return _Mixing.of(self.costs, self.members)

    @property
    def _busy(self) -> dict[tuple[object, ...], tuple[float, ...]]:
        """Each workload's busy seconds per host I/O at a station of a rank kind, by the
        station, drive and RAID format names (and for a drive's small I/O, the span it is
        costed at) and the workload's cost-inputs group (`OpCosts.kept`): rate-free, kept
        with the costs (`OpCosts.busy`)."""
        return self.costs.busy

    def small_io_drive_time_s(self, rank: Rank, span: float) -> float:
        """Busy time of one of a rank's active drives per back-end small I/O routed to the
        rank, its data on `span` of each drive.

        A small I/O is a read miss or a random destage (the unit of
        `WorkloadDemand.small_io_iops`); its drive operations (`OpCosts`, random ones) spread
        over the active drives."""
        costs = self.costs
        at = ("drive", rank.drive.name, rank.raid.name, costed_span(rank.drive, span))
        busy = self._small_io_busy_s(
            at, lambda w, mix: costs.of(w, mix, rank, span), lambda op: op.drive.mean_s
        )
        return busy / rank.active_drives

    def small_io_da_time_s(self, rank: Rank) -> float:
        """Busy time of the rank's DA pair per back-end small I/O routed to the rank (the same
        on any span of its data)."""
        costs = self.costs
        return self._small_io_busy_s(
            ("da", rank.drive.name, rank.raid.name),
            lambda w, mix: costs.span_free(w, mix, rank),
            lambda op: op.da.mean_s,
        )

    def _small_io_busy_s(
        self,
        at: tuple[object, ...],
        ops_of: Callable[[int, IoMix], Sequence[_Op]],
        part_s: Callable[[_Op], float],
    ) -> float:
        """The members' busy seconds per small I/O at one part (`part_s` of each random
        operation `ops_of` gives), each workload's kept by `at` and its cost-inputs group."""
        costs, kept = self.costs, self._busy

        def busy_of(w: int, workload: WorkloadConfig) -> float:
            key = (*at, costs.kept(w, workload.mix))
            found = kept.get(key)
            if found is None:
                fractions = workload.mix.fractions
                found = kept[key] = (
                    sum(
                        fractions[op.io_class] * op.count * part_s(op)
                        for op in ops_of(w, workload.mix)
                        if not op.sequential
                    ),
                )
            return found[0]

        return self._mixing.per_small_io(busy_of)

    def sequential_times_s(self, rank: Rank) -> tuple[list[float], list[float]]:
        """Per workload, in member order, the (drive, DA) busy seconds per host I/O if all its
        sequential work (prefetch, full-stripe destage) landed on `rank`: per drive, and at
        the DA pair. A stream's operation broken by other work seeks over the data's span; it
        is costed over the whole stroke here (the span is what the placement decides), which
        overstates it by at most the short-stroking of that seek."""
        costs, kept = self.costs, self._busy
        at = ("sequential", rank.drive.name, rank.raid.name)
        drive, da = [], []
        for w, workload, _ in self.members:
            key = (*at, costs.kept(w, workload.mix))
            found = kept.get(key)
            if found is None:
                found = kept[key] = _sequential_times_s(costs, w, workload, rank)
            drive.append(found[0])
            da.append(found[1])
        return drive, da


def _sequential_times_s(
    costs: OpCosts, w: int, workload: WorkloadConfig, rank: Rank
) -> tuple[float, float]:
    """`PoolTimes.sequential_times_s` of one workload."""
    fractions = workload.mix.fractions
    # Costed over the whole stroke only where the workload sends the rank sequential work:
    # the operations' shapes say which without costing the drive at a span no placement may
    # give it (`OpCosts.of` is `span_free` costed, in the same order).
    sequential = any(op.sequential for op in costs.span_free(w, workload.mix, rank))
    ops = [op for op in costs.of(w, workload.mix, rank, 1.0) if op.sequential] if sequential else []
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


class TierTimes(NamedTuple):
    """A tier's ranks timed for the pool's mix where the span of their data does not matter
    (the DA pair's work, and the sequential work on a drive: only a random operation's seek is
    short-stroked), in rank order: the ranks and their indices, and as arrays each rank's DA
    pair, the DA pair's busy seconds per back-end small I/O routed to it, and per host I/O of
    each member workload (columns) the sequential work if it all landed on the rank, per drive
    and at the DA pair (empty where none is: `sequential`); and whether any of that sequential
    work is not 0."""

    ranks: tuple[Rank, ...]
    indices: tuple[int, ...]
    da_pair: np.ndarray
    small_da_s: np.ndarray
    seq_drive_s: np.ndarray
    seq_da_s: np.ndarray
    sequential: bool

    @classmethod
    def of(cls, tier: TierRanks, by_kind: dict[tuple[str, str], KindTimes]) -> TierTimes:
        """The ranks of `tier`, each timed as its kind (drive and RAID format names) is in
        `by_kind`: each figure made once per kind and gathered per rank (the same floats)."""
        kinds = [by_kind[drive] for drive in tier.drives]
        at = tier.drive_of
        # In Python floats (numpy's `any` cost more than the test).
        sequential = any(x != 0.0 for k in kinds for x in (*k[1], *k[2]))
        return cls(
            tier.ranks,
            tier.indices,
            tier.da_pair,
            np.array([k[0] for k in kinds])[at],
            np.array([k[1] for k in kinds])[at] if sequential else _NO_SEQUENTIAL,
            np.array([k[2] for k in kinds])[at] if sequential else _NO_SEQUENTIAL,
            sequential,
        )


_NO_SEQUENTIAL = np.zeros((0, 0))
_NO_SEQUENTIAL.setflags(write=False)
"""`TierTimes`' sequential times where no rank of the tier has any (never read then: a sizing
search times a pool's tiers anew for every configuration it tries)."""
