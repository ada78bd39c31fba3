"""Tiers inside the storage model: Easy Tier's steady state under each tier's load ceiling,
and how a tier's data and small I/O spread over its ranks (auto-rebalance).

Per pool (docs/model.md §5, docs/tiering.md):

- Tiers fastest first (ssd, enterprise, nearline), each with its usable capacity. With
  `easy_tier: auto` and two or more tiers, each tier also gets a **load ceiling**: the back-end
  small-I/O rate (read misses + destages, as `IoMix.backend_small_io_per_host_io(1)`) at which
  its busiest drive reaches utilisation 1, from the model's own drive service times
  (`components.drive.random_op` at the rank's span, the longest it has in the rounds of
  `_settled_placement`; the RAID operations of `components.raid`) and the split of the
  tier's load over its ranks (below). Placement at a given load keeps every tier under its
  ceiling (`tiering.place_pool`), so Easy Tier never makes the SSD tier the bottleneck while
  the slower tiers still have headroom;
  `max_load_scale` is the largest growth of the planned load the tiers can carry
  (`tiering.load_scale_at_ceilings`). Ceilings count small random work only: sequential
  prefetch and full-stripe destages still load the ranks, and the full model at that placement
  says where the system saturates.
- Within a tier. `easy_tier: off`: extents were spread without regard to heat, so each rank
  takes the tier's small I/O, MB and data in proportion to its capacity (ranks marked `added`
  too: capacity-proportional allocation, nothing more), all at the tier's occupied fraction.
  `easy_tier: auto`: auto-rebalance (`tiering.rebalance`) until the ranks are equally busy.
  Before it, the ranks not marked `added` hold the tier's data (rotate extents, water-filled
  by capacity; any excess on the added ranks); moving extents off a rank leaves holes, so the
  original ranks keep their data span, and the ranks receiving extents fill from the start.
  A rank's busy time per small I/O as a function of its span is the model's HDD service time
  with short-stroking. The tier's skew is the segment of its dominant workload's curve the
  tier holds (`SegmentSkew`); the MB/s follow the data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from diskmodel.catalog import Catalog, Drive, RaidFormat
from diskmodel.components import drive, raid
from diskmodel.scenario import Pool, RankPlacement, Scenario, Workload, expand_ranks
from diskmodel.tiering.heatmap import read_heatmap
from diskmodel.tiering.placement import (
    PoolPlacement,
    Tier,
    WorkloadDemand,
    load_scale_at_ceilings,
    place_pool,
)
from diskmodel.tiering.rebalance import RankBefore, rebalance, spread_by_rotation
from diskmodel.tiering.skew import (
    UNIFORM,
    PiecewiseSkew,
    SegmentSkew,
    SkewCurve,
    derived_mb_curve,
    skew_from_level,
)
from diskmodel.workload import IoMix

TIER_ORDER = ("ssd", "enterprise", "nearline")
"""Tiers fastest first, the order Easy Tier fills them."""
# Occupied fraction used for a rank that holds no data (it receives no I/O either; any valid
# fraction will do, it only keeps the seek formula's domain).
EMPTY_FRACTION = 1e-3
# A tier's data below this fraction of its capacity is placement rounding, not data.
_NO_DATA = 1e-12
# Rounds of ceiling spans (see `_settled_placement`): spans only grow, so ceilings only fall;
# the shipped scenarios settle in two.
_SPAN_ROUNDS = 4
# Service time per small I/O of a rank that no workload's mix defines (no read misses and no
# random destages anywhere): a 4 KiB random read, only to keep the ceiling finite.
_PROBE_BYTES = 4096.0


@dataclass(frozen=True)
class PoolRank:
    """One rank as placement sees it: where it is, what it is, whether it was added empty."""

    placement: RankPlacement
    drive: Drive
    raid: RaidFormat
    capacity_gb: float
    added: bool

    @property
    def tier(self) -> str:
        return self.drive.tier


@dataclass(frozen=True)
class RankShare:
    """A rank's part of its tier: of the tier's small I/O, of its data (the MB/s follow the
    data), and the span its data occupy (fraction of the rank's capacity: short-stroking)."""

    small_io_share: float
    data_share: float
    span_fraction: float


@dataclass(frozen=True)
class PoolLayout:
    """A pool's placement over its tiers and ranks.

    ceilings_iops: per tier, the back-end small-I/O rate it can carry (Easy Tier pools with
    two or more tiers; empty otherwise); load_scale: the multiple of the planned rates the
    placement is for (None: placed without ceilings).
    """

    placement: PoolPlacement
    tier_names: tuple[str, ...]
    ranks: dict[int, RankShare]  # by RankPlacement.index
    ceilings_iops: dict[str, float]
    load_scale: float | None


def rank_capacity_gb(rank: RankPlacement, catalog: Catalog) -> float:
    return catalog.raid_formats[rank.raid].data_drives * catalog.drives[rank.drive].capacity_gb


def pool_ranks(scenario: Scenario, catalog: Catalog) -> list[PoolRank]:
    """Every rank of the system (in `expand_ranks` order) with its `added` flag."""
    added = [g.added for pool in scenario.pools for g in pool.ranks for _ in range(g.count)]
    return [
        PoolRank(
            r,
            catalog.drives[r.drive],
            catalog.raid_formats[r.raid],
            rank_capacity_gb(r, catalog),
            flag,
        )
        for r, flag in zip(expand_ranks(scenario), added, strict=True)
    ]


def skew_curves(workload: Workload, base_dir: Path | None) -> tuple[SkewCurve, SkewCurve | None]:
    """The workload's small-I/O curve and its MB curve (None: derived by placement)."""
    skew = workload.skew
    if skew is None:
        return UNIFORM, None
    seq = skew.sequential_level
    if skew.heatmap is not None:
        heat = read_heatmap(skew.heatmap, base_dir)
        return heat.small_io, heat.mb if seq is None else derived_mb_curve(heat.small_io, seq)
    small: SkewCurve
    if skew.points is not None:
        small = PiecewiseSkew.from_points([list(p) for p in skew.points])
    else:
        level = skew.level_value
        small = skew_from_level(level if level is not None else 1.0)
    return small, derived_mb_curve(small, seq) if seq is not None else None


def _host_rate(workload: Workload) -> float:
    # Closed workloads have no planned rate; placement then only needs the ratios.
    return workload.iops or 1.0


def small_io_drive_time_s(
    d: Drive, fmt: RaidFormat, mixes_rates: Sequence[tuple[IoMix, float]], span: float
) -> float:
    """Busy time of one of a rank's active drives per back-end small I/O routed to the rank.

    A small I/O is a read miss or a random destage (the unit of `WorkloadDemand.small_io_iops`);
    it costs the rank `raid.read_miss_ops` or `raid.random_destage_ops` drive operations, each
    `drive.random_op` at the occupied `span`, spread over the active drives. Mixed over the
    workloads by their host rates (`mixes_rates`: (mix, host I/O per second)).
    """
    busy = small = 0.0
    for mix, rate in mixes_rates:
        per_host = mix.backend_small_io_per_host_io(1.0)
        if per_host <= 0.0 or rate <= 0.0:
            continue
        ops = [(mix.fractions["read_miss"], op) for op in raid.read_miss_ops(fmt, mix.read_bytes)]
        ops += [
            (mix.fractions["random_write"], op)
            for op in raid.random_destage_ops(fmt, mix.write_bytes, mix.destage_ratio)
        ]
        busy += rate * sum(
            frac * op.count * drive.random_op(d, op.size_bytes, span, op.write).mean_s
            for frac, op in ops
        )
        small += rate * per_host
    if small <= 0.0:
        return drive.random_op(d, _PROBE_BYTES, span, False).mean_s / raid.active_drives(fmt)
    return busy / small / raid.active_drives(fmt)


def _span(used_gb: float, capacity_gb: float) -> float:
    return min(max(used_gb / capacity_gb, EMPTY_FRACTION), 1.0)


def _data_before(ranks: Sequence[PoolRank], used_gb: float) -> list[float]:
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


def split_tier(
    ranks: Sequence[PoolRank],
    used_gb: float,
    skew: SkewCurve,
    mixes_rates: Sequence[tuple[IoMix, float]],
    *,
    rebalanced: bool,
) -> dict[int, RankShare]:
    """Each rank's share of one tier's small I/O and data, and its span (module docstring)."""
    capacity = sum(r.capacity_gb for r in ranks)

    def by_capacity() -> dict[int, RankShare]:
        span = _span(used_gb, capacity)
        return {
            r.placement.index: RankShare(r.capacity_gb / capacity, r.capacity_gb / capacity, span)
            for r in ranks
        }

    # A tier holding (to rounding) no data has nothing to rebalance.
    if not rebalanced or used_gb <= _NO_DATA * capacity or len(ranks) == 1:
        return by_capacity()
    data_before = _data_before(ranks, used_gb)
    if sum(data_before) <= _NO_DATA * capacity:
        return by_capacity()

    def service(rank: PoolRank) -> Callable[[float], float]:
        return lambda span: small_io_drive_time_s(
            rank.drive, rank.raid, mixes_rates, max(span, EMPTY_FRACTION)
        )

    before = [
        RankBefore(str(r.placement.index), r.capacity_gb, min(gb, r.capacity_gb), service(r))
        for r, gb in zip(ranks, data_before, strict=True)
    ]
    result = rebalance(before, 1.0, skew)
    total_gb = sum(load.data_gb for load in result.ranks)
    return {
        r.placement.index: RankShare(
            load.small_io_share,
            load.data_gb / total_gb,
            min(max(load.span_fraction, EMPTY_FRACTION), 1.0),
        )
        for r, load in zip(ranks, result.ranks, strict=True)
    }


def _tier_skew(
    placement: PoolPlacement,
    tier_names: Sequence[str],
    tier: str,
    demands: Sequence[WorkloadDemand],
) -> SkewCurve:
    """The skew of the data `tier` holds: the segment of its dominant workload's curve."""
    if not demands:
        return UNIFORM
    top = max(demands, key=lambda w: placement.workload(w.name).on(tier).small_io_iops)
    wp = placement.workload(top.name)
    faster = sum(wp.on(t).capacity_used_gb for t in tier_names[: tier_names.index(tier)])
    here = wp.on(tier).capacity_used_gb
    c_lo = min(max(faster / top.capacity_gb, 0.0), 1.0)
    c_hi = min((faster + here) / top.capacity_gb, 1.0)
    if c_hi - c_lo <= 1e-9:
        return UNIFORM
    return SegmentSkew(top.skew, c_lo, c_hi)


def _demands(
    scenario: Scenario,
    pool: Pool,
    mixes: Sequence[IoMix],
    base_dir: Path | None,
    scale: float,
) -> list[tuple[int, WorkloadDemand]]:
    out = []
    for w, workload in enumerate(scenario.workloads):
        if workload.pool != pool.name:
            continue
        small, mb = skew_curves(workload, base_dir)
        mix = mixes[w]
        rate = _host_rate(workload) * scale
        mb_per_io = (
            mix.fractions["read_miss"] + mix.fractions["sequential_read"]
        ) * mix.read_bytes + (
            mix.fractions["random_write"] + mix.fractions["sequential_write"]
        ) * mix.write_bytes
        out.append(
            (
                w,
                WorkloadDemand(
                    name=workload.name,
                    capacity_gb=workload.capacity_gb,
                    small_io_iops=rate * mix.backend_small_io_per_host_io(1.0),
                    mb_s=rate * mb_per_io / 1e6,
                    skew=small,
                    mb_skew=mb,
                    pin_tier=workload.pin_tier,
                ),
            )
        )
    return out


@dataclass(frozen=True)
class _PoolInputs:
    pool: Pool
    ranks: list[PoolRank]
    tier_names: tuple[str, ...]
    capacity_gb: dict[str, float]
    mixes_rates: list[tuple[IoMix, float]]

    @property
    def ceilings_apply(self) -> bool:
        return self.pool.easy_tier.mode == "auto" and len(self.tier_names) > 1


def _pool_inputs(
    scenario: Scenario, pool: Pool, ranks: Sequence[PoolRank], mixes: Sequence[IoMix]
) -> _PoolInputs:
    mine = [r for r in ranks if r.placement.pool == pool.name]
    names = tuple(t for t in TIER_ORDER if any(r.tier == t for r in mine))
    caps = {t: sum(r.capacity_gb for r in mine if r.tier == t) for t in names}
    mixes_rates = [
        (mixes[w], _host_rate(wl))
        for w, wl in enumerate(scenario.workloads)
        if wl.pool == pool.name
    ]
    return _PoolInputs(pool, mine, names, caps, mixes_rates)


def _split_all(
    inputs: _PoolInputs, placement: PoolPlacement, demands: Sequence[WorkloadDemand]
) -> dict[int, RankShare]:
    shares: dict[int, RankShare] = {}
    for t in inputs.tier_names:
        in_tier = [r for r in inputs.ranks if r.tier == t]
        shares.update(
            split_tier(
                in_tier,
                placement.on(t).capacity_used_gb,
                _tier_skew(placement, inputs.tier_names, t, demands),
                inputs.mixes_rates,
                rebalanced=inputs.pool.easy_tier.mode == "auto",
            )
        )
    return shares


def _ceilings(
    inputs: _PoolInputs, shares: dict[int, RankShare], spans: dict[int, float]
) -> dict[str, float]:
    """Per tier: the small-I/O rate at which its busiest drive reaches utilisation 1, each
    rank's drives timed with their data over `spans[rank index]`."""
    out = {}
    for t in inputs.tier_names:
        busiest = max(
            shares[r.placement.index].small_io_share
            * small_io_drive_time_s(r.drive, r.raid, inputs.mixes_rates, spans[r.placement.index])
            for r in inputs.ranks
            if r.tier == t
        )
        out[t] = 1.0 / busiest if busiest > 0.0 else float(np.inf)
    return out


def _wider(spans: dict[int, float], shares: dict[int, RankShare]) -> dict[int, float]:
    return {i: max(span, shares[i].span_fraction) for i, span in spans.items()}


def _settled_placement(
    inputs: _PoolInputs,
    demands: Sequence[WorkloadDemand],
    place: Callable[[list[Tier]], PoolPlacement],
) -> tuple[PoolPlacement, dict[int, RankShare], dict[str, float]]:
    """Placement under ceilings timed at spans no shorter than the ranks end with.

    A rank's span (short-stroking) depends on the placement its ceiling produces: a tier
    stopped by its ceiling leaves data to the slower tiers and lengthens their spans. Starting
    from the spans of the placement without ceilings, each round times the ceilings at the
    longest span seen so far for each rank and places again (`place`). Spans only grow, so
    the ceilings only fall and the rounds settle; the ceilings are never above what the ranks
    carry at the spans they end with.
    """
    tiers = [Tier(t, inputs.capacity_gb[t]) for t in inputs.tier_names]
    free = place_pool(tiers, demands, easy_tier=True)
    shares = _split_all(inputs, free, demands)
    spans = {i: share.span_fraction for i, share in shares.items()}
    placement, ceilings = free, {}
    for _ in range(_SPAN_ROUNDS):
        ceilings = _ceilings(inputs, shares, spans)
        placement = place(_ceiling_tiers(inputs, ceilings))
        shares = _split_all(inputs, placement, demands)
        wider = _wider(spans, shares)
        if all(wider[i] <= spans[i] * (1.0 + 1e-9) for i in spans):
            break
        spans = wider
    return placement, shares, ceilings


def _ceiling_tiers(inputs: _PoolInputs, ceilings: dict[str, float]) -> list[Tier]:
    return [Tier(t, inputs.capacity_gb[t], ceilings[t]) for t in inputs.tier_names]


def layout_pools(
    scenario: Scenario,
    catalog: Catalog,
    mixes: Sequence[IoMix],
    base_dir: Path | None,
    load_scale: float | None = 1.0,
) -> dict[str, PoolLayout]:
    """Placement per pool at `load_scale` times the planned rates (None, or any workload
    closed: without ceilings).

    Ceilings come from the rank split and spans of the placement (`_settled_placement`);
    pools without Easy Tier or with one tier are placed once, without ceilings.
    """
    ranks = pool_ranks(scenario, catalog)
    # Closed workloads have no planned rate to hold against a ceiling: no ceilings then.
    closed = any(w.iops is None for w in scenario.workloads)
    out: dict[str, PoolLayout] = {}
    for pool in scenario.pools:
        inputs = _pool_inputs(scenario, pool, ranks, mixes)
        demands = [d for _, d in _demands(scenario, pool, mixes, base_dir, 1.0)]
        if not demands:
            continue
        tiers = [Tier(t, inputs.capacity_gb[t]) for t in inputs.tier_names]
        easy = pool.easy_tier.mode == "auto"
        placement = place_pool(tiers, demands, easy_tier=easy)
        shares = _split_all(inputs, placement, demands)
        ceilings: dict[str, float] = {}
        used_scale = None
        if inputs.ceilings_apply and load_scale is not None and not closed:
            scaled = [d for _, d in _demands(scenario, pool, mixes, base_dir, load_scale)]
            placement, shares, ceilings = _settled_placement(inputs, scaled, _placed_at(scaled))
            used_scale = load_scale
        out[pool.name] = PoolLayout(placement, inputs.tier_names, shares, ceilings, used_scale)
    return out


def _placed_at(demands: Sequence[WorkloadDemand]) -> Callable[[list[Tier]], PoolPlacement]:
    """Easy Tier's placement of `demands` under the given tiers' ceilings."""
    return lambda tiers: place_pool(tiers, demands, easy_tier=True)


def _placed_at_the_limit(
    demands: Sequence[WorkloadDemand], scales: list[float]
) -> Callable[[list[Tier]], PoolPlacement]:
    """Easy Tier's placement at the largest load the tiers' ceilings allow; appends that
    load's multiple of `demands` to `scales`."""

    def place(tiers: list[Tier]) -> PoolPlacement:
        scale, placement = load_scale_at_ceilings(tiers, demands, easy_tier=True)
        scales.append(float(scale))
        return placement

    return place


def max_load_scale(
    scenario: Scenario, catalog: Catalog, mixes: Sequence[IoMix], base_dir: Path | None
) -> float | None:
    """How far the planned load can grow with every tier of every Easy Tier pool under its
    ceiling, Easy Tier placing for that load (`tiering.load_scale_at_ceilings`); the smallest
    over the pools. None when no pool's placement depends on the load (no Easy Tier pool with
    two or more tiers) or a workload has no planned rate (closed)."""
    if any(w.iops is None for w in scenario.workloads):
        return None
    ranks = pool_ranks(scenario, catalog)
    scales = []
    for pool in scenario.pools:
        inputs = _pool_inputs(scenario, pool, ranks, mixes)
        demands = [d for _, d in _demands(scenario, pool, mixes, base_dir, 1.0)]
        if not demands or not inputs.ceilings_apply:
            continue
        found: list[float] = []
        _settled_placement(inputs, demands, _placed_at_the_limit(demands, found))
        scales.append(found[-1])
    finite = [s for s in scales if np.isfinite(s) and s > 0.0]
    return min(finite) if finite else None
