"""Where the data lie at a load: Easy Tier's placement for given host rates, under each tier's
utilisation target, and how a tier's data and small I/O spread over its ranks.

`layout(config, rates)` is the one function that places data; the operating point calls it
for the per-workload host rates it solves at, so every view of one configuration at one load
(planned point, curve, maximum, growth, sweeps) sees the same placement.

Per pool (docs/model.md §5, docs/tiering.md):

- Tiers fastest first (ssd, enterprise, nearline), each with its usable capacity. With Easy Tier
  on and two or more tiers, every tier but the slowest is kept at or under the pool's
  utilisation target on its whole path: each of its drives (a load-dependent station, so its
  busy probability, with its sequential work and its data on the span it actually has) and
  each DA pair its ranks hang on (with the work the pair's other ranks carry). A tier over the
  target at capacity gets a **load ceiling**: the back-end small-I/O rate (read misses +
  destage operations, `IoMix.backend_small_io_per_host_io(1)`) it may hold, the highest at
  which it stays within the target with the data as placed for it (`_settled`). Placement
  keeps every tier but the slowest under its ceiling (`tiering.place_pool`): Easy Tier demotes
  warm extents when a tier is over its capacity, so it never makes the SSD tier the
  bottleneck while slower tiers still have room.
- Within a tier. Easy Tier off: extents were spread without regard to heat, so each rank takes
  the tier's small I/O, MB and data in proportion to its capacity (ranks marked `added` too),
  all at the tier's occupied fraction. Easy Tier on: auto-rebalance (`tiering.rebalance`)
  until the ranks are equally busy. Before it, the ranks not marked `added` hold the tier's data
  (rotate extents, water-filled by capacity; any excess on the added ranks); moving extents
  off a rank leaves holes, so the original ranks keep their data span, and the ranks receiving
  extents fill from the start. The tier's skew is the segment of its dominant workload's curve
  the tier holds (`SegmentSkew`); the MB/s follow the data. Identical ranks none of which
  was added end exactly as capacity-proportional, which is computed directly.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.configuration import Configuration, PoolConfig, Rank, WorkloadConfig
from diskmodel.model.bracket import highest_within
from diskmodel.model.costs import OpCosts
from diskmodel.tiering.placement import (
    PoolPlacement,
    PoolPlacer,
    Tier,
    WorkloadDemand,
    place_pool,
)
from diskmodel.tiering.rebalance import RankBefore, rebalance, spread_by_rotation
from diskmodel.tiering.skew import UNIFORM, SegmentSkew, SkewCurve
from diskmodel.units import MB
from diskmodel.workload import IoMix

# Occupied fraction used for a rank that holds no data (it receives no I/O either; any valid
# fraction will do, it only keeps the seek formula's domain).
EMPTY_FRACTION = 1e-3
# A tier's data below this fraction of its capacity is placement rounding, not data.
_NO_DATA = 1e-12
# A tier's load ceiling is searched to this fraction of the load it would hold without one:
# the response time at a steep point of the curve moves some 30 times the ceiling's relative
# error, so 1e-6 keeps a curve within about 2e-5 of the exact ceiling's (1e-4 moved it up
# to 0.13%); Brent's method gets there in about five probes.
_CEILING_TOL = 1e-6


@dataclass(frozen=True)
class RankShare:
    """A rank's part of its tier: of the tier's small I/O, of its data (the MB/s follow the
    data), and the span its data occupy (fraction of the rank's capacity: short-stroking)."""

    small_io_share: float
    data_share: float
    span_fraction: float


@dataclass(frozen=True)
class PoolLayout:
    """A pool's placement over its tiers and ranks at one load.

    ceilings_iops: per tier whose utilisation target binds, the back-end small-I/O rate it may
    hold (empty when no tier is limited by load); bound: those tiers.
    """

    placement: PoolPlacement
    ranks: dict[int, RankShare]  # by Rank.index
    ceilings_iops: dict[str, float]
    bound: tuple[str, ...] = ()


Layout = Mapping[str, PoolLayout]


def network_key(placed: Layout) -> tuple[object, ...]:
    """Everything a network built on `placed` and the results read from it depend on, exactly:
    per pool, each workload's and the pool's share of the data, small I/O and MB on each tier,
    and each rank's shares and span (not the rates: a placement's shares are what the network
    is built from). Loads whose placements agree in these share one network: a tier held to a
    ceiling of 0 places the same data at every load of a mix."""
    return tuple(
        (
            name,
            tuple(
                (s.capacity_used_gb, s.small_io_share, s.mb_share)
                for shares in (pool.placement.tiers, *(w.tiers for w in pool.placement.workloads))
                for s in shares
            ),
            tuple(
                (i, r.small_io_share, r.data_share, r.span_fraction)
                for i, r in sorted(pool.ranks.items())
            ),
        )
        for name, pool in placed.items()
    )


# --------------------------------------------------------------------------- per-rank times


def small_io_drive_time_s(
    costs: OpCosts, rank: Rank, span: float, members: Sequence[tuple[int, WorkloadConfig, float]]
) -> float:
    """Busy time of one of a rank's active drives per back-end small I/O routed to the rank.

    A small I/O is a read miss or a random destage (the unit of `WorkloadDemand.small_io_iops`);
    its drive operations (`OpCosts`, random ones) spread over the active drives. Mixed over the
    pool's workloads by their host rates (`members`: (index, workload, host rate)); with no
    rate anywhere, by equal weights.
    """
    busy = small = 0.0
    weighted = any(rate > 0 for _, _, rate in members)
    for w, workload, rate in members:
        weight = rate if weighted else 1.0
        per_host = workload.mix.backend_small_io_per_host_io(1.0)
        if per_host <= 0.0 or weight <= 0.0:
            continue
        fractions = workload.mix.fractions
        busy += weight * sum(
            fractions[op.io_class] * op.count * op.drive.mean_s
            for op in costs.of(w, workload.mix, rank, span)
            if not op.sequential
        )
        small += weight * per_host
    if small <= 0.0:
        return 0.0
    return busy / small / rank.active_drives


def _small_io_da_time_s(
    costs: OpCosts, rank: Rank, members: Sequence[tuple[int, WorkloadConfig, float]]
) -> float:
    """Busy time of the rank's DA pair per back-end small I/O routed to the rank (the same on
    any span of its data)."""
    busy = small = 0.0
    weighted = any(rate > 0 for _, _, rate in members)
    for w, workload, rate in members:
        weight = rate if weighted else 1.0
        per_host = workload.mix.backend_small_io_per_host_io(1.0)
        if per_host <= 0.0 or weight <= 0.0:
            continue
        fractions = workload.mix.fractions
        busy += weight * sum(
            fractions[op.io_class] * op.count * op.da.mean_s
            for op in costs.span_free(w, workload.mix, rank)
            if not op.sequential
        )
        small += weight * per_host
    return busy / small if small > 0.0 else 0.0


def _sequential_times_s(
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


# --------------------------------------------------------------------------- within a tier


def _span(used_gb: float, capacity_gb: float) -> float:
    return min(max(used_gb / capacity_gb, EMPTY_FRACTION), 1.0)


def _data_before(ranks: Sequence[Rank], used_gb: float) -> list[float]:
    """Data per rank before auto-rebalance: on the original ranks by rotate extents (water-
    filled by capacity); what they cannot hold on the added ranks the same way."""
    original = [i for i, r in enumerate(ranks) if not r.added] or list(range(len(ranks)))
    added = [i for i in range(len(ranks)) if i not in original]
    on_original = min(used_gb, sum(ranks[i].capacity_gb for i in original))
    data = [0.0] * len(ranks)
    for i, gb in zip(
        original,
        spread_by_rotation(on_original, [ranks[i].capacity_gb for i in original]),
        strict=True,
    ):
        data[i] = gb
    rest = used_gb - on_original
    if added and rest > 0.0:
        caps = [ranks[i].capacity_gb for i in added]
        for i, gb in zip(added, spread_by_rotation(min(rest, sum(caps)), caps), strict=True):
            data[i] = gb
    return data


@dataclass(frozen=True)
class _Capacities:
    """A tier's ranks as (index, usable GB) in rank order, and their sum: what a split by
    capacity needs (kept per pool: a ceiling search splits its tiers at every probe)."""

    ranks: tuple[tuple[int, float], ...]
    total_gb: float

    @classmethod
    def of(cls, ranks: Sequence[Rank]) -> _Capacities:
        caps = tuple((r.index, r.capacity_gb) for r in ranks)
        return cls(caps, sum(gb for _, gb in caps))

    @cached_property
    def fractions(self) -> np.ndarray:
        """Each rank's share of the tier's small I/O and of its data, in rank order (`shares`
        as an array: the same at every placement)."""
        return np.array([gb / self.total_gb for _, gb in self.ranks])

    def shares(self, used_gb: float) -> dict[int, RankShare]:
        """Each rank's share when the tier's I/O and data follow capacity, on the tier's
        occupied fraction (one share per capacity)."""
        capacity = self.total_gb
        span = _span(used_gb, capacity)
        made: dict[float, RankShare] = {}
        for _, gb in self.ranks:
            if gb not in made:
                made[gb] = RankShare(gb / capacity, gb / capacity, span)
        return {i: made[gb] for i, gb in self.ranks}


def _by_capacity(ranks: Sequence[Rank], used_gb: float) -> dict[int, RankShare]:
    """Each rank's share when the tier's I/O and data follow capacity (`_Capacities`)."""
    return _Capacities.of(ranks).shares(used_gb)


def _spread_by_capacity(ranks: Sequence[Rank], *, rebalanced: bool) -> bool:
    """True when the tier ends as capacity spreads it whatever its data: no auto-rebalance,
    one rank, or identical ranks none of which was added (with the same data they are
    equally busy already)."""
    identical = len({(r.drive.name, r.raid.name) for r in ranks}) == 1 and not any(
        r.added for r in ranks
    )
    return not rebalanced or identical or len(ranks) == 1


def split_tier(
    ranks: Sequence[Rank],
    used_gb: float,
    skew: SkewCurve,
    service: Callable[[Rank, float], float],
    *,
    rebalanced: bool,
) -> dict[int, RankShare]:
    """Each rank's share of one tier's small I/O and data, and its span (module docstring).

    service(rank, span): busy time of one of its drives per small I/O (the rebalance target).
    """
    capacity = sum(r.capacity_gb for r in ranks)
    # A tier holding (to rounding) no data has nothing to rebalance.
    if _spread_by_capacity(ranks, rebalanced=rebalanced) or used_gb <= _NO_DATA * capacity:
        return _by_capacity(ranks, used_gb)
    data_before = _data_before(ranks, used_gb)
    if sum(data_before) <= _NO_DATA * capacity:
        return _by_capacity(ranks, used_gb)

    # Ranks of one kind holding the same data end alike (the rebalance is symmetric in them),
    # so each such group is rebalanced as one rank of m times the capacity, data and I/O whose
    # busy time per I/O is one member's over m: the same spans and utilisations, with a
    # rebalance over kinds instead of ranks (90 SSD ranks of two RAID formats: 2 groups).
    groups: dict[tuple[str, str, bool, float], list[Rank]] = {}
    for r, gb in zip(ranks, data_before, strict=True):
        groups.setdefault((r.drive.name, r.raid.name, r.added, gb), []).append(r)

    def timed(rank: Rank, members: int) -> Callable[[float], float]:
        return lambda span: service(rank, max(span, EMPTY_FRACTION)) / members

    before = [
        RankBefore(
            str(i),
            len(g) * g[0].capacity_gb,
            len(g) * min(key[3], g[0].capacity_gb),
            timed(g[0], len(g)),
        )
        for i, (key, g) in enumerate(groups.items())
    ]
    result = rebalance(before, 1.0, skew)
    total_gb = sum(load.data_gb for load in result.ranks)
    out: dict[int, RankShare] = {}
    for g, load in zip(groups.values(), result.ranks, strict=True):
        share = RankShare(
            load.small_io_share / len(g),
            load.data_gb / total_gb / len(g),
            min(max(load.span_fraction, EMPTY_FRACTION), 1.0),
        )
        out.update((r.index, share) for r in g)
    return out


def _host_reads(mix: IoMix) -> float:
    """Host reads per host I/O (random and sequential, cache hits included)."""
    f = mix.fractions
    return f["read_hit"] + f["read_miss"] + f["sequential_read"]


def _tier_skew(
    placement: PoolPlacement, tiers: Sequence[str], tier: str, demands: Sequence[WorkloadDemand]
) -> SkewCurve:
    """The skew of the data `tier` holds: the segment of its dominant workload's curve."""
    if not demands:
        return UNIFORM
    top = max(demands, key=lambda w: placement.workload(w.name).on(tier).small_io_iops)
    wp = placement.workload(top.name)
    faster = sum(wp.on(t).capacity_used_gb for t in tiers[: tiers.index(tier)])
    here = wp.on(tier).capacity_used_gb
    c_lo = min(max(faster / top.capacity_gb, 0.0), 1.0)
    c_hi = min((faster + here) / top.capacity_gb, 1.0)
    if c_hi - c_lo <= 1e-9:
        return UNIFORM
    return SegmentSkew(top.skew, c_lo, c_hi)


# --------------------------------------------------------------------------- one pool


@dataclass(frozen=True)
class _DriveTimes:
    """One rank (a drive type and RAID format) with its data on one span, timed for the pool's
    mix: one drive's busy seconds per back-end small I/O routed to the rank, and the offered
    work at which one of its drives reaches the utilisation target."""

    small_drive_s: float
    target_work: float


@dataclass(frozen=True)
class _TierTimes:
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


@dataclass(frozen=True)
class _Pool:
    """What placing one pool needs: its configuration, ranks, workloads (index, workload, host
    rate) and the shared operation costs; per-rank drive times memoised (ranks of a kind on one
    span share them, and a placement search asks for them many times)."""

    pool: PoolConfig
    ranks: tuple[Rank, ...]
    members: tuple[tuple[int, WorkloadConfig, float], ...]
    costs: OpCosts
    da_pairs: int
    _memo: dict[tuple[str, str, float], _DriveTimes] = field(
        default_factory=dict, compare=False, repr=False
    )
    # The same (rank, span) asked again and again in a placement search: found without
    # rounding or building the kind key (that lookup dominated the search's time).
    _by_rank: dict[tuple[int, float], _DriveTimes] = field(
        default_factory=dict, compare=False, repr=False
    )

    @cached_property
    def _tier_times(self) -> dict[str, _TierTimes]:
        """The pool's ranks by tier (those with ranks), timed where the span does not matter,
        once per rank kind."""
        by_kind: dict[tuple[str, str], tuple[float, list[float], list[float]]] = {}
        for r in self.ranks:
            key = (r.drive.name, r.raid.name)
            if key not in by_kind:
                seq = [_sequential_times_s(self.costs, w, wl, r) for w, wl, _ in self.members]
                by_kind[key] = (
                    _small_io_da_time_s(self.costs, r, self.members),
                    [d for d, _ in seq],
                    [a for _, a in seq],
                )
        tiers: dict[str, list[Rank]] = {}
        for r in self.ranks:
            tiers.setdefault(r.tier, []).append(r)
        out = {}
        for t, ranks in tiers.items():
            kinds = [by_kind[(r.drive.name, r.raid.name)] for r in ranks]
            out[t] = _TierTimes(
                tuple(ranks),
                tuple(r.index for r in ranks),
                np.array([r.da_pair for r in ranks]),
                np.array([k[0] for k in kinds]),
                np.array([k[1] for k in kinds]),
                np.array([k[2] for k in kinds]),
            )
        return out

    def drive_times(self, rank: Rank, span: float) -> _DriveTimes:
        fast = self._by_rank.get((rank.index, span))
        if fast is not None:
            return fast
        # Timed at the span rounded to the key's 9 digits: timed at the exact span, whichever
        # span within 5e-10 came first would set the times for the others, and a result would
        # depend on the order the placement search asked in.
        rounded = round(span, 9)
        key = (rank.drive.name, rank.raid.name, rounded)
        found = self._memo.get(key)
        if found is None:
            found = _DriveTimes(
                small_io_drive_time_s(self.costs, rank, rounded, self.members),
                self.costs.work_at(
                    self.pool.utilization_target,
                    self.costs.gain(rank, rounded, self.costs.queue_limit(rank)),
                ),
            )
            self._memo[key] = found
        self._by_rank[(rank.index, span)] = found
        return found

    def demands(self) -> list[WorkloadDemand]:
        out = []
        for _, w, rate in self.members:
            mix = w.mix
            mb_per_io = (
                mix.fractions["read_miss"] + mix.fractions["sequential_read"]
            ) * mix.read_bytes + (
                mix.fractions["random_write"] + mix.fractions["sequential_write"]
            ) * mix.write_bytes
            out.append(
                WorkloadDemand(
                    name=w.name,
                    capacity_gb=w.capacity_gb,
                    small_io_iops=rate * mix.backend_small_io_per_host_io(1.0),
                    mb_s=rate * mb_per_io / MB,
                    skew=w.skew,
                    mb_skew=w.mb_skew,
                    pin_tier=w.pin_tier,
                    preference=w.preference,
                    # A host that places its own data counts its reads, hits included.
                    heat_iops=rate * _host_reads(mix) if self.pool.host_tiering else None,
                )
            )
        return out

    def service(self, rank: Rank, span: float) -> float:
        return self.drive_times(rank, span).small_drive_s

    def split(
        self, placement: PoolPlacement, demands: Sequence[WorkloadDemand]
    ) -> dict[int, RankShare]:
        shares: dict[int, RankShare] = {}
        for t in self.pool.tiers:
            ranks = self._tier_times[t].ranks
            used_gb = placement.on(t).capacity_used_gb
            by_capacity = self._by_capacity_tiers.get(t)
            if by_capacity is not None:  # split_tier's answer, without the tier's skew
                shares.update(by_capacity.shares(used_gb))
                continue
            shares.update(
                split_tier(
                    ranks,
                    used_gb,
                    _tier_skew(placement, self.pool.tiers, t, demands),
                    self.service,
                    rebalanced=self.pool.rebalanced,
                )
            )
        return shares

    @cached_property
    def _by_capacity_tiers(self) -> dict[str, _Capacities]:
        """The tiers whose ranks split by capacity whatever their data (`_spread_by_capacity`),
        with their capacities."""
        return {
            t: _Capacities.of(times.ranks)
            for t, times in self._tier_times.items()
            if _spread_by_capacity(times.ranks, rebalanced=self.pool.rebalanced)
        }

    def free_placement(
        self, demands: Sequence[WorkloadDemand]
    ) -> tuple[PoolPlacement, dict[int, RankShare]]:
        """The placement that ignores the load: the data by heat to capacity where Easy Tier or
        the host ranks it (the host by its read counts, with no load ceiling: it does not see
        the storage's utilisation; so does Easy Tier's first generation, by back-end I/O
        density only), else by capacity."""
        ranked = self.pool.easy_tier or self.pool.host_tiering
        placement = place_pool(self.tiers(), demands, easy_tier=ranked)
        return placement, self.split(placement, demands)

    def tiers(self, ceilings: Mapping[str, float] | None = None) -> list[Tier]:
        """The pool's tiers for placement, each with its load ceiling where one is given."""
        given = ceilings or {}
        return [
            Tier(t, cap, given.get(t))
            for t, cap in zip(self.pool.tiers, self.pool.tier_capacity_gb, strict=True)
        ]

    def _da_loads(
        self, placement: PoolPlacement, shares: Mapping[int, RankShare]
    ) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, list[float]]]:
        """At a placement: the pool's busy fraction of each DA pair; per tier the DA busy time
        per unit of the tier's small-I/O rate; per tier, for each of its ranks in order, the
        offered work (busy seconds per second at queue length one) of one drive from
        sequential work (prefetch, full-stripe destage)."""
        da_busy = np.zeros(self.da_pairs)
        per_tier: dict[str, np.ndarray] = {}
        seq_drive: dict[str, list[float]] = {}
        for t in self.pool.tiers:
            times = self._tier_times.get(t)
            if times is None:
                per_tier[t] = np.zeros(self.da_pairs)
                continue
            mb = np.array(
                [placement.workload(w.name).on(t).mb_share * rate for _, w, rate in self.members]
            )
            by_capacity = self._by_capacity_tiers.get(t)
            if by_capacity is not None:  # the split's shares (`split`), known beforehand
                small = data = by_capacity.fractions
            else:
                held = [shares[i] for i in times.indices]
                small = np.array([share.small_io_share for share in held])
                data = np.array([share.data_share for share in held])
            seq_a = data * (times.seq_da_s @ mb)
            per_x = np.bincount(
                times.da_pair, weights=small * times.small_da_s, minlength=self.da_pairs
            )
            da_busy += np.bincount(times.da_pair, weights=seq_a, minlength=self.da_pairs)
            seq_drive[t] = (data * (times.seq_drive_s @ mb)).tolist()
            per_tier[t] = per_x
            da_busy += placement.on(t).small_io_iops * per_x
        return da_busy, per_tier, seq_drive

    def da_busy(self, placement: PoolPlacement, shares: Mapping[int, RankShare]) -> np.ndarray:
        """The busy fraction of each DA pair this pool's work causes at a placement."""
        return self._da_loads(placement, shares)[0]

    def shortfall(
        self,
        tier: str,
        placement: PoolPlacement,
        shares: Mapping[int, RankShare],
        background_da: np.ndarray,
    ) -> float:
        """How far `tier`'s headroom falls short of 1 at this placement; <= 0 when every
        station on its path is at or under the pool's utilisation target: each of its drives
        (its busy probability, from its small and sequential work with its data on the span
        it actually has) and each DA pair its ranks hang on, where moving the tier's I/O down
        would relieve that pair (what the tier sheds lands on the slowest tier, whose ranks
        may hang on the same pair)."""
        return 1.0 - self.headroom(tier, placement, shares, background_da) * (1 + 1e-9)

    def headroom(
        self,
        tier: str,
        placement: PoolPlacement,
        shares: Mapping[int, RankShare],
        background_da: np.ndarray,
    ) -> float:
        """The factor by which every rate may grow before `tier`'s path passes the pool's
        utilisation target at this placement, held fixed (`shortfall`): each station's
        work grows in proportion to the rates (inf when the tier carries no load)."""
        target = self.pool.utilization_target
        mine, per_tier, seq_drive = self._da_loads(placement, shares)
        x = placement.on(tier).small_io_iops
        out = math.inf
        held = self._tier_times.get(tier)
        if held is not None:
            # Ranks of a kind holding one share (one object per group: `_Capacities`,
            # `split_tier`) with the same sequential work are the same drive: timed once.
            timed = set()
            for r, seq in zip(held.ranks, seq_drive[tier], strict=True):
                share = shares[r.index]
                kind = (r.drive.name, r.raid.name, id(share), seq)
                if kind in timed:
                    continue
                timed.add(kind)
                times = self.drive_times(r, share.span_fraction)
                work = x * share.small_io_share * times.small_drive_s + seq
                if work > 0:
                    out = min(out, times.target_work / work)
        # Per DA pair, in Python floats (a handful of pairs: numpy's per-call cost dominated).
        slowest = self.pool.tiers[-1]
        here, there = per_tier[tier].tolist(), per_tier[slowest].tolist()
        da_busy = (background_da + mine).tolist()
        for a, b, busy in zip(here, there, da_busy, strict=True):
            # Rounding must not make a tier that moves no DA work look as if it did.
            if a - b > 1e-9 * max(a, b) and busy > 0:
                out = min(out, target / busy)
        return out


def free_headroom(config: Configuration, rates: ArrayLike, costs: OpCosts) -> float:
    """The factor by which the workloads' `rates` may all grow (their ratios fixed) while no
    Easy Tier pool needs a load ceiling: below it the placement is the one that ignores the
    load (each pool's data by heat to capacity), so every load of this mix up to it shares one
    network. With the placement fixed every station's work is proportional to the rates, so
    the factor is the smallest of each tier's target over its load (`_Pool.headroom`)."""
    background_da = np.zeros(config.hardware.da_pairs)
    out = math.inf
    for pool in _pools(config, rates, costs):
        demands = pool.demands()
        placement, shares = pool.free_placement(demands)
        if pool.pool.placement_follows_load:
            for t in pool.pool.tiers[:-1]:
                out = min(out, pool.headroom(t, placement, shares, background_da))
        background_da = background_da + pool.da_busy(placement, shares)
    return out


def _pools(config: Configuration, rates: ArrayLike, costs: OpCosts) -> Iterator[_Pool]:
    """Each pool that holds a workload, with its ranks and its workloads at `rates`, in file
    order (the order in which pools see each other's DA work)."""
    rate = np.asarray(rates, dtype=np.float64)
    for pool_config in config.pools:
        members = tuple(
            (i, w, float(rate[i]))
            for i, w in enumerate(config.workloads)
            if w.pool == pool_config.name
        )
        if members:
            yield _Pool(
                pool_config,
                tuple(r for r in config.ranks if r.pool == pool_config.name),
                members,
                costs,
                config.hardware.da_pairs,
            )


def _settled(
    pool: _Pool, demands: Sequence[WorkloadDemand], background_da: np.ndarray
) -> tuple[PoolPlacement, dict[int, RankShare], dict[str, float], tuple[str, ...]]:
    """Easy Tier's placement with every tier but the slowest at or under its utilisation
    target (`_Pool.shortfall` <= 0).

    Tiers are settled fastest first. A tier that is within its target when filled to capacity
    keeps its capacity; otherwise its load ceiling (the back-end small-I/O rate it may hold) is
    the highest at which it is within its target with the data as placed for that ceiling: its
    spans, the slower tiers' share and the DA pairs' other work all follow the placement.
    Holding less small I/O never makes a tier busier (fewer, hotter extents on a shorter span),
    so the ceiling is bracketed and narrowed (Brent's method on the shortfall, continuous in
    the ceiling: the data as placed follow it) to `_CEILING_TOL` of the load the tier would
    otherwise hold.
    """
    ceilings: dict[str, float] = {}
    placer = PoolPlacer(demands, easy_tier=True)
    # By ceilings: the placement at a tier's ceiling was the search's last passing probe.
    tried: dict[tuple[tuple[str, float], ...], tuple[PoolPlacement, dict[int, RankShare]]] = {}

    def placed(extra: Mapping[str, float]) -> tuple[PoolPlacement, dict[int, RankShare]]:
        given = {**ceilings, **extra}
        key = tuple(sorted(given.items()))
        if key not in tried:
            placement = placer.place(pool.tiers(given))
            tried[key] = placement, pool.split(placement, demands)
        return tried[key]

    def shortfall_at(t: str, ceiling: float) -> float:
        return pool.shortfall(t, *placed({t: ceiling}), background_da)

    placement, shares = placed({})
    bound = []
    for t in pool.pool.tiers[:-1]:
        over = pool.shortfall(t, placement, shares, background_da)
        if over <= 0:
            continue
        held = placement.on(t).small_io_iops
        figure = functools.partial(shortfall_at, t)
        # A tier over its target even with no small I/O (its sequential work, or a DA pair
        # the slower tiers keep busy) gets ceiling 0 in one probe.
        at_none = figure(0.0)
        if at_none > 0:
            lo = 0.0
        else:
            # The shortfall is 1 - target / work: far under the target it falls steeply
            # towards -inf and says little of where the crossing is, so the empty end enters
            # as at most a headroom of 2 (measured: 8% fewer probes than with its own value).
            lo = highest_within(figure, 0.0, max(at_none, -1.0), held, over, rel_tol=_CEILING_TOL)
        ceilings[t] = lo
        bound.append(t)
        placement, shares = placed({})
    return placement, shares, dict(ceilings), tuple(bound)


# --------------------------------------------------------------------------- public


def layout(
    config: Configuration, rates: ArrayLike, costs: OpCosts | None = None
) -> dict[str, PoolLayout]:
    """Every pool's placement when the workloads run at the host `rates` (I/O per second, one
    per workload, closed ones at the rate they settle at). Pools without Easy Tier or with one
    tier do not depend on the rates beyond their ratios."""
    costs = costs or OpCosts(config)
    out: dict[str, PoolLayout] = {}
    # DA pairs are shared by the pools: each pool's ceilings see the DA work of the pools
    # placed before it as background (pools are placed in file order).
    background_da = np.zeros(config.hardware.da_pairs)
    for pool in _pools(config, rates, costs):
        demands = pool.demands()
        if pool.pool.placement_follows_load and any(rate > 0 for _, _, rate in pool.members):
            placement, shares, ceilings, bound = _settled(pool, demands, background_da)
        else:
            placement, shares = pool.free_placement(demands)
            ceilings, bound = {}, ()
        out[pool.pool.name] = PoolLayout(placement, shares, ceilings, bound)
        background_da = background_da + pool.da_busy(placement, shares)
    return out
