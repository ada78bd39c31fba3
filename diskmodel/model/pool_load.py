"""One pool at given host rates: its workloads' demands on the tiers, its ranks timed for its
mix, each tier split over its ranks at a placement, the DA pairs' work, and how far each tier's
path is from the pool's utilisation target (`PoolAtLoad.headroom`): what placing the pool at a
load (`model.layout`) asks of it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.cached import cached_property
from diskmodel.configuration import Configuration, PoolConfig, Rank, WorkloadConfig
from diskmodel.model.costs import OpCosts, costed_span, drive_work_at
from diskmodel.model.pool_ranks import PoolRanks
from diskmodel.model.rank_shares import RankShare, TierCapacities, split_tier
from diskmodel.model.rank_times import DriveTimes, PoolTimes, TierTimes
from diskmodel.tiering.curves import SegmentSkew
from diskmodel.tiering.placement import place_pool
from diskmodel.tiering.records import PoolPlacement, Tier, WorkloadDemand
from diskmodel.tiering.skew import UNIFORM, SkewCurve
from diskmodel.units import MB
from diskmodel.workload import IoMix

_WORK_KEPT = 4096
_SPLITS_KEPT = 4096
_DRIVE_TIMES_KEPT = 16384
_work: dict[tuple[float, bytes], float] = {}
"""`drive_work_at` by its inputs, the utilisation target and the gain's bytes: a calibration's
evaluations and a sizing search's candidates ask for the same few gains again and again, each
answer a bisection of some forty steps."""


def shortfall_of(headroom: float) -> float:
    """How far a tier's `headroom` (`PoolAtLoad.headroom`) falls short of 1: <= 0 when the
    tier is at or under its target (a hair of tolerance against rounding)."""
    return 1.0 - headroom * (1 + 1e-9)


def forget_work() -> None:
    """Forget the drives' work at their targets (`_work`): `layout.forget_placements` calls it."""
    _work.clear()


def _work_at(utilization: float, gain: np.ndarray) -> float:
    """`costs.drive_work_at(utilization, gain)`, kept by its inputs (`_work`)."""
    key = (float(utilization), np.ascontiguousarray(gain, dtype=np.float64).tobytes())
    found = _work.get(key)
    if found is None:
        if len(_work) >= _WORK_KEPT:
            _work.clear()
        found = _work[key] = drive_work_at(utilization, gain)
    return found


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
    if placement.names == tuple(w.name for w in demands):
        # The placement's table, in the demands' order: the first of the highest, as max
        # finds it, and its capacity on each tier.
        k = int(np.argmax(placement.column(tier, "small_io_iops")))
        top = demands[k]
        held = dict(
            zip((s.tier for s in placement.tiers), placement.table[k, :, 0].tolist(), strict=True)
        )
    else:
        top = max(demands, key=lambda w: placement.workload(w.name).on(tier).small_io_iops)
        held = {s.tier: s.capacity_used_gb for s in placement.workload(top.name).tiers}
    faster = sum(held[t] for t in tiers[: tiers.index(tier)])
    here = held[tier]
    c_lo = min(max(faster / top.capacity_gb, 0.0), 1.0)
    c_hi = min((faster + here) / top.capacity_gb, 1.0)
    if c_hi - c_lo <= 1e-9:
        return UNIFORM
    return SegmentSkew(top.skew, c_lo, c_hi)


@dataclass
class _DaLoads:
    """`PoolAtLoad._da_loads` at one placement: the pool's busy fraction of each DA pair, per
    tier the DA busy time per unit of its small-I/O rate, and per tier the sequential work
    of its drives (`seq_drive`), worked out when asked (the slowest tier's never is in a
    ceiling search); for that, per tier with sequential work its ranks' data shares and its
    members' MB rates."""

    da_busy: np.ndarray
    per_tier: dict[str, np.ndarray]
    times: dict[str, TierTimes]
    sequential: dict[str, tuple[np.ndarray, np.ndarray]]
    _seq_drive: dict[str, list[float]] = field(default_factory=dict)

    def seq_drive(self, tier: str) -> list[float]:
        """For each of `tier`'s ranks in order, the offered work (busy seconds per second at
        queue length one) of one drive from sequential work (prefetch, full-stripe destage)."""
        found = self._seq_drive.get(tier)
        if found is None:
            times = self.times[tier]
            held = self.sequential.get(tier)
            if held is None:
                # No sequential work on the tier's ranks: the products below would all be
                # +0.0 (the MB rates are finite and >= 0).
                found = [0.0] * len(times.indices)
            else:
                data, mb = held
                found = (data * (times.seq_drive_s @ mb)).tolist()
            self._seq_drive[tier] = found
        return found


@dataclass(frozen=True)
class PoolAtLoad:
    """What placing one pool needs: its configuration, ranks, workloads (index, workload, host
    rate) and the shared operation costs; per-rank drive times memoised (ranks of a kind on one
    span share them, and a placement search asks for them many times)."""

    pool: PoolConfig
    placed_ranks: PoolRanks
    members: tuple[tuple[int, WorkloadConfig, float], ...]
    costs: OpCosts
    da_pairs: int
    _memo: dict[tuple[str, str, float], DriveTimes] = field(
        default_factory=dict, compare=False, repr=False
    )
    # The same (rank, span) asked again and again in a placement search: found without
    # rounding or building the kind key (that lookup dominated the search's time).
    _by_rank: dict[tuple[int, float], DriveTimes] = field(
        default_factory=dict, compare=False, repr=False
    )
    # `_da_loads` of the last placement asked (the placement, its shares and the answer).
    _last_da: list[tuple[PoolPlacement, Mapping[int, RankShare], _DaLoads]] = field(
        default_factory=list, compare=False, repr=False
    )

    @cached_property
    def _members_key(self) -> tuple[tuple[int, float], ...]:
        """What of the pool's workloads at their rates its shared timings are kept by
        (`_key_of_members`)."""
        return _key_of_members(self.costs, self.members)

    @cached_property
    def _times(self) -> PoolTimes:
        return self.costs.shared(("pool times", *self._members_key), self._new_times)

    def _new_times(self) -> PoolTimes:
        return PoolTimes(self.costs, self.members)

    @cached_property
    def _kinds(self) -> dict[tuple[str, str], tuple[float, list[float], list[float]]]:
        """Per rank kind (drive, RAID format): the DA pair's busy time per small I/O and the
        sequential times (`PoolTimes`), shared like `_times`."""
        return self.costs.shared(("kind times", *self._members_key), dict)

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The pool's ranks, in rank order."""
        return self.placed_ranks.ranks

    @cached_property
    def _tier_times(self) -> dict[str, TierTimes]:
        """The pool's ranks by tier (those with ranks), timed where the span does not matter,
        once per rank kind."""
        by_kind = self._kinds
        for tier in self.placed_ranks.tiers.values():
            for kind, r in zip(tier.drives, tier.firsts, strict=True):
                if kind not in by_kind:
                    by_kind[kind] = (
                        self._times.small_io_da_time_s(r),
                        *self._times.sequential_times_s(r),
                    )
        return {t: TierTimes.of(tier, by_kind) for t, tier in self.placed_ranks.tiers.items()}

    def drive_times(self, rank: Rank, span: float) -> DriveTimes:
        fast = self._by_rank.get((rank.index, span))
        if fast is not None:
            return fast
        # Timed at the span its costs are (`costed_span`: an HDD's rounded to the key's 9
        # digits, so that the order the placement search asked in sets no result; an SSD's
        # at 1, its times the same on every span).
        rounded = costed_span(rank.drive, span)
        key = (rank.drive.name, rank.raid.name, rounded)
        found = self._memo.get(key)
        if found is None:
            found = DriveTimes(
                self._times.small_io_drive_time_s(rank, rounded),
                _work_at(
                    self.pool.utilization_target,
                    self.costs.gain(rank, rounded, self.costs.queue_limit(rank)),
                ),
            )
            self._memo[key] = found
        self._by_rank[(rank.index, span)] = found
        return found

    def demands(self) -> list[WorkloadDemand]:
        out = []
        # Per host I/O, by cost inputs (`OpCosts.kept`: the mix and any FlashCopy work): the
        # back-end small I/O and the MB moved, the same for 64 volumes of one database.
        per_host: dict[int, tuple[float, float]] = {}
        for i, w, rate in self.members:
            mix = w.mix
            kept = self.costs.kept(i, mix)
            found = per_host.get(kept)
            if found is None:
                mb_per_io = (
                    mix.fractions["read_miss"] + mix.fractions["sequential_read"]
                ) * mix.read_bytes + (
                    mix.fractions["random_write"] + mix.fractions["sequential_write"]
                ) * mix.write_bytes
                # Easy Tier counts a FlashCopy's track copies as the source's small I/O.
                backend = mix.backend_small_io_per_host_io(1.0)
                small = backend + self.costs.flashcopy_small_io_per_host_io(i, mix)
                found = per_host[kept] = (small, mb_per_io)
            small_per_io, mb_per_io = found
            out.append(
                WorkloadDemand(
                    name=w.name,
                    capacity_gb=w.capacity_gb,
                    small_io_iops=rate * small_per_io,
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
            skew = _tier_skew(placement, self.pool.tiers, t, demands)
            key = (self._tier_kinds[t], used_gb, skew, self.pool.rebalanced)
            try:
                kept = self._splits.get(key)
                keep = True
            except TypeError:  # a curve that cannot be hashed (never kept)
                kept, keep = None, False
            if kept is None:
                split = split_tier(
                    ranks, used_gb, skew, self.service, rebalanced=self.pool.rebalanced
                )
                kept = tuple(split[r.index] for r in ranks)
                if keep:
                    if len(self._splits) >= _SPLITS_KEPT:
                        self._splits.clear()
                    self._splits[key] = kept
            shares.update(zip(self._tier_times[t].indices, kept, strict=True))
        return shares

    @cached_property
    def _tier_kinds(self) -> dict[str, tuple[tuple[str, str, bool], ...]]:
        """Per tier, its ranks' kinds (drive and RAID format names, whether added) in rank
        order: with the tier's data and skew, everything `split_tier` reads of them but the
        drive times (its ranks' capacities are their drives' and formats' figures, which a
        name stands for in every configuration that shares the costs: `OpCosts.shared`)."""
        return {
            t: tuple((r.drive.name, r.raid.name, r.added) for r in tier.ranks)
            for t, tier in self.placed_ranks.tiers.items()
        }

    @cached_property
    def _splits(self) -> dict[tuple[object, ...], tuple[RankShare, ...]]:
        """`split_tier`'s answers (each rank's share, in rank order) by the tier's rank kinds,
        data, skew and whether it is rebalanced, shared with every configuration whose drive
        times are this pool's (`pools_at`): a sizing search's candidates that differ in the DA
        pairs or another tier split a tier of the same ranks at the same data alike."""
        return self.costs.shared(("splits", self.pool.utilization_target, *self._members_key), dict)

    @cached_property
    def _by_capacity_tiers(self) -> dict[str, TierCapacities]:
        """The tiers whose ranks split by capacity whatever their data (`spreads_by_capacity`),
        with their capacities."""
        return {
            t: tier.by_capacity
            for t, tier in self.placed_ranks.tiers.items()
            if tier.by_capacity is not None
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
        if not ceilings:
            return list(self._free_tiers)
        return [
            tier
            if tier.name not in ceilings
            else Tier(tier.name, tier.capacity_gb, ceilings[tier.name])
            for tier in self._free_tiers
        ]

    @cached_property
    def _free_tiers(self) -> tuple[Tier, ...]:
        """The pool's tiers without load ceilings (`tiers`: a ceiling search makes one tier
        anew per probe, the tier it searches)."""
        return tuple(
            Tier(t, cap) for t, cap in zip(self.pool.tiers, self.pool.tier_capacity_gb, strict=True)
        )

    def _da_loads(self, placement: PoolPlacement, shares: Mapping[int, RankShare]) -> _DaLoads:
        """At a placement: the pool's busy fraction of each DA pair; per tier the DA busy time
        per unit of the tier's small-I/O rate; per tier, for each of its ranks in order, the
        offered work (busy seconds per second at queue length one) of one drive from
        sequential work (prefetch, full-stripe destage). Read-only: the last placement's are
        kept (its tiers' headroom and then its DA work are asked for in turn)."""
        last = self._last_da
        if last and last[0][0] is placement and last[0][1] is shares:
            return last[0][2]
        found = self._da_loads_at(placement, shares)
        last[:] = [(placement, shares, found)]
        return found

    def _da_loads_at(self, placement: PoolPlacement, shares: Mapping[int, RankShare]) -> _DaLoads:
        da_busy = np.zeros(self.da_pairs)
        per_tier: dict[str, np.ndarray] = {}
        sequential: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for t in self.pool.tiers:
            times = self._tier_times.get(t)
            if times is None:
                per_tier[t] = np.zeros(self.da_pairs)
                continue
            by_capacity = self._by_capacity_tiers.get(t)
            if by_capacity is not None:  # the split's shares (`split`), known beforehand
                data = by_capacity.fractions
                per_x = self._da_per_small_io_by_capacity[t]
            else:
                held = [shares[i] for i in times.indices]
                small = np.array([share.small_io_share for share in held])
                data = np.array([share.data_share for share in held])
                per_x = np.bincount(
                    times.da_pair, weights=small * times.small_da_s, minlength=self.da_pairs
                )
            # No sequential work on the tier's ranks: the products below would all be +0.0
            # (the MB rates are finite and >= 0), which leave the DA pairs' busy time as it
            # is, to the bit.
            if times.sequential:
                mb = self._mb_rates(placement, t)
                seq_a = data * (times.seq_da_s @ mb)
                da_busy += np.bincount(times.da_pair, weights=seq_a, minlength=self.da_pairs)
                sequential[t] = data, mb
            per_tier[t] = per_x
            da_busy += placement.on(t).small_io_iops * per_x
        return _DaLoads(da_busy, per_tier, self._tier_times, sequential)

    @cached_property
    def _da_per_small_io_by_capacity(self) -> dict[str, np.ndarray]:
        """Per tier split by capacity, each DA pair's busy time per unit of the tier's small-I/O
        rate (`_da_loads`; the same at every placement). Read-only."""
        out = {}
        for t, by_capacity in self._by_capacity_tiers.items():
            times = self._tier_times[t]
            weights = by_capacity.fractions * times.small_da_s
            out[t] = np.bincount(times.da_pair, weights=weights, minlength=self.da_pairs)
            out[t].setflags(write=False)
        return out

    @cached_property
    def _names(self) -> tuple[str, ...]:
        return tuple(w.name for _, w, _ in self.members)

    @cached_property
    def _rates(self) -> np.ndarray:
        return np.array([rate for _, _, rate in self.members], dtype=np.float64)

    def _mb_rates(self, placement: PoolPlacement, tier: str) -> np.ndarray:
        """Each member's MB share on `tier` times its host rate, in member order."""
        if placement.names == self._names:  # the placement's column, in member order
            return placement.column(tier, "mb_share") * self._rates
        return np.array(
            [placement.workload(w.name).on(tier).mb_share * rate for _, w, rate in self.members]
        )

    def da_busy(self, placement: PoolPlacement, shares: Mapping[int, RankShare]) -> np.ndarray:
        """The busy fraction of each DA pair this pool's work causes at a placement."""
        return self._da_loads(placement, shares).da_busy

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
        return shortfall_of(self.headroom(tier, placement, shares, background_da))

    def free_room(
        self,
        placement: PoolPlacement,
        shares: Mapping[int, RankShare],
        background_da: np.ndarray,
    ) -> float:
        """The factor by which every rate may grow before any tier but the slowest passes
        the pool's utilisation target at this placement, held fixed: the smallest of their
        `headroom`s (inf with none)."""
        room = math.inf
        for t in self.pool.tiers[:-1]:
            room = min(room, self.headroom(t, placement, shares, background_da))
        return room

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
        loads = self._da_loads(placement, shares)
        mine, per_tier = loads.da_busy, loads.per_tier
        x = placement.on(tier).small_io_iops
        out = math.inf
        held = self._tier_times.get(tier)
        if held is not None:
            # Ranks of a kind holding one share (one object per group: `TierCapacities`,
            # `split_tier`) with the same sequential work are the same drive: timed once.
            timed = set()
            for r, seq in zip(held.ranks, loads.seq_drive(tier), strict=True):
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


_SKEW_FREE = (
    "_members_key",
    "_times",
    "_kinds",
    "_tier_times",
    "_by_capacity_tiers",
    "_da_per_small_io_by_capacity",
    "_names",
    "_rates",
    "_free_tiers",
)
"""`PoolAtLoad`'s cached figures that read neither the workloads' skew curves nor anything
but their mixes and rates (`PoolAtLoad.for_members`)."""

PoolsTimed = dict[tuple[str, bytes], PoolAtLoad]
"""Pools at loads (by the pool's name and the host rates' bytes) of configurations whose pools,
ranks, DA pairs, operation costs (one `OpCosts`) and workloads are the same but for the
workloads' skew curves: what `pools_at` shares between them (`PoolAtLoad.for_members`)."""


def _key_of_members(
    costs: OpCosts, members: tuple[tuple[int, WorkloadConfig, float], ...]
) -> tuple[tuple[int, float], ...]:
    """Everything of a pool's workloads at their rates that `PoolTimes` reads besides the
    shared costs: each member's cost-inputs group (`OpCosts.kept`: its mix and copy work, so
    its operations) and rate, in member order (the busy times are summed in that order)."""
    return tuple((costs.kept(i, w.mix), rate) for i, w, rate in members)


def _with_members(
    found: PoolAtLoad, members: tuple[tuple[int, WorkloadConfig, float], ...]
) -> PoolAtLoad:
    """`found`'s pool at the same rates with `members`, the same workloads but for their skew
    curves (which only `demands` and `split` read): the drive times and what was worked out
    from the ranks and the workloads' mixes and rates (`_SKEW_FREE`) are `found`'s."""
    out = PoolAtLoad(
        found.pool,
        found.placed_ranks,
        members,
        found.costs,
        found.da_pairs,
        found._memo,
        found._by_rank,
    )
    for name in _SKEW_FREE:
        if name in found.__dict__:
            out.__dict__[name] = found.__dict__[name]
    return out


def pools_at(
    config: Configuration, rates: ArrayLike, costs: OpCosts, timed: PoolsTimed | None = None
) -> Iterator[PoolAtLoad]:
    """Each pool that holds a workload, with its ranks and its workloads at `rates`, in file
    order (the order in which pools see each other's DA work). With `timed` (kept for
    configurations that differ from `config` at most in the workloads' skew curves: `costs`
    is theirs too), a pool timed there at these rates lends its times (`_with_members`)."""
    rate = np.asarray(rates, dtype=np.float64)
    exact = rate.tobytes() if timed is not None else b""
    for pool_config in config.pools:
        members = tuple(
            (i, w, float(rate[i]))
            for i, w in enumerate(config.workloads)
            if w.pool == pool_config.name
        )
        if not members:
            continue
        found = None if timed is None else timed.get((pool_config.name, exact))
        if found is not None:
            yield _with_members(found, members)
            continue
        # The drive times by rank kind and span are the same for every configuration whose
        # costs, pool workloads' cost inputs and rates and utilisation target are these.
        key = _key_of_members(costs, members)
        drive_times: dict[tuple[str, str, float], DriveTimes] = costs.shared(
            ("drive times", pool_config.utilization_target, *key), dict
        )
        if len(drive_times) >= _DRIVE_TIMES_KEPT:
            drive_times.clear()  # a long search's ceilings probe spans without end
        pool = PoolAtLoad(
            pool_config,
            PoolRanks.of(
                tuple(r for r in config.ranks if r.pool == pool_config.name),
                rebalanced=pool_config.rebalanced,
            ),
            members,
            costs,
            config.hardware.da_pairs,
            drive_times,
        )
        pool.__dict__["_members_key"] = key  # worked out above (the cached property's value)
        if timed is not None:
            timed[(pool_config.name, exact)] = pool
        yield pool
