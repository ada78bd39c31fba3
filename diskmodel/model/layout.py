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

The parts: one pool at the rates, its tiers' headroom (`model.pool_load`); a tier split over
its ranks (`model.rank_shares`); the ranks' times per small I/O (`model.rank_times`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from diskmodel.cached import cached_property
from diskmodel.configuration import Configuration
from diskmodel.model.bracket import highest_within
from diskmodel.model.costs import OpCosts, forget_costs
from diskmodel.model.kept import Kept
from diskmodel.model.pool_load import (
    PoolAtLoad,
    PoolsTimed,
    forget_work,
    pools_at,
    shortfall_of,
)
from diskmodel.model.pool_ranks import forget_tier_ranks
from diskmodel.model.rank_shares import RankShare
from diskmodel.tiering.placement import forget_placers, placer_for
from diskmodel.tiering.ranking import forget_rankings
from diskmodel.tiering.records import PoolPlacement, WorkloadDemand

# A tier's load ceiling is searched to this fraction of the load it would hold without one:
# the response time at a steep point of the curve moves some 30 times the ceiling's relative
# error, so 1e-6 keeps a curve within about 2e-5 of the exact ceiling's (1e-4 moved it up
# to 0.13%); Brent's method gets there in about five probes.
_CEILING_TOL = 1e-6


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

    @cached_property
    def shares_key(self) -> tuple[object, ...]:
        """This pool's part of `network_key`, worked out once (a layout kept for a back end
        is read by every configuration that shares it: `placements_for`)."""
        pool = self.placement
        return (
            tuple(
                (s.capacity_used_gb, s.small_io_share, s.mb_share)
                for shares in (pool.tiers, *(w.tiers for w in pool.workloads))
                for s in shares
            ),
            tuple(
                (i, r.small_io_share, r.data_share, r.span_fraction)
                for i, r in sorted(self.ranks.items())
            ),
        )


Layout = Mapping[str, PoolLayout]


def network_key(placed: Layout) -> tuple[object, ...]:
    """Everything a network built on `placed` and the results read from it depend on, exactly:
    per pool, each workload's and the pool's share of the data, small I/O and MB on each tier,
    and each rank's shares and span (not the rates: a placement's shares are what the network
    is built from). Loads whose placements agree in these share one network: a tier held to a
    ceiling of 0 places the same data at every load of a mix."""
    return tuple((name, *pool.shares_key) for name, pool in placed.items())


def free_headroom(
    config: Configuration, rates: ArrayLike, costs: OpCosts, timed: PoolsTimed | None = None
) -> float:
    """The factor by which the workloads' `rates` may all grow (their ratios fixed) while no
    Easy Tier pool needs a load ceiling: below it the placement is the one that ignores the
    load (each pool's data by heat to capacity), so every load of this mix up to it shares one
    network. With the placement fixed every station's work is proportional to the rates, so
    the factor is the smallest of each tier's target over its load (`PoolAtLoad.headroom`)."""
    background_da = np.zeros(config.hardware.da_pairs)
    out = math.inf
    for pool in pools_at(config, rates, costs, timed):
        demands = pool.demands()
        placement, shares = pool.free_placement(demands)
        if pool.pool.placement_follows_load:
            out = min(out, pool.free_room(placement, shares, background_da))
        background_da = background_da + pool.da_busy(placement, shares)
    return out


def _settled(
    pool: PoolAtLoad, demands: Sequence[WorkloadDemand], background_da: np.ndarray
) -> tuple[PoolPlacement, dict[int, RankShare], dict[str, float], tuple[str, ...], float]:
    """Easy Tier's placement with every tier but the slowest at or under its utilisation
    target (`PoolAtLoad.shortfall` <= 0), and, when no tier needs a ceiling, the pool's
    free headroom (`free_headroom`'s smallest factor over its tiers; the placement is then
    the one that ignores the load), else nan.

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
    placer = placer_for(demands, easy_tier=True)
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
    bound: list[str] = []
    room = math.inf
    for t in pool.pool.tiers[:-1]:
        # `PoolAtLoad.shortfall`, its headroom kept: with no tier bound, the placement is the
        # one that ignores the load, and these are `free_headroom`'s figures for this pool.
        headroom = pool.headroom(t, placement, shares, background_da)
        over = shortfall_of(headroom)
        if over <= 0:
            if not bound:
                room = min(room, headroom)
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
    return placement, shares, dict(ceilings), tuple(bound), math.nan if bound else room


# --------------------------------------------------------------------------- shared


@dataclass
class Placements:
    """What one back end's placements gave, by the exact host rates (their bytes): the
    layouts (`layout`) and the headroom of the placement that ignores the load
    (`free_headroom`)."""

    layouts: dict[bytes, dict[str, PoolLayout]] = field(default_factory=dict)
    headroom: dict[bytes, float] = field(default_factory=dict)


_BACK_ENDS_KEPT = 128
_LOADS_KEPT = 32
_SAME_BUCKET_KEPT = 8
_placements: Kept[Placements] = Kept(buckets=_BACK_ENDS_KEPT, per_bucket=_SAME_BUCKET_KEPT)
"""Per back end (`placements_for`), the layouts made for it: the back ends of the last
`_BACK_ENDS_KEPT` buckets asked for (the last `_SAME_BUCKET_KEPT` of each), at most
`_LOADS_KEPT` loads of each."""


def placements_for(config: Configuration, costs: OpCosts) -> Placements:
    """The layouts made so far, by load, for configurations with `config`'s back end: the
    store a `Solver` reads before it places data and writes what it places.

    `layout` reads only the pools, the ranks (each with its drive as installed), the
    workloads, the DA pairs and what the operation costs are computed from (`OpCosts.inputs`):
    configurations that agree in these, whatever their host ports, host adapters, processor
    costs or FICON channels, place the same data at the same rates, to the bit. A sizing
    search's configurations that differ only in the front end, and the catalog band's
    estimates of a front-end figure, then place each load once."""
    inputs = (config.pools, config.ranks, config.workloads, config.hardware.da_pairs, costs.inputs)
    # A cheap hashable part picks the few back ends to compare in full (with ==).
    bucket = (
        config.hardware.da_pairs,
        len(config.ranks),
        costs.inputs.planned,
        costs.inputs.rank_nvs_bytes,
    )
    placements = _placements.get(bucket, inputs, Placements)
    if len(placements.layouts) >= _LOADS_KEPT:
        placements.layouts.clear()
    if len(placements.headroom) >= _LOADS_KEPT:
        placements.headroom.clear()
    return placements


_stores: list[Callable[[], None]] = [
    _placements.clear,
    forget_work,
    forget_rankings,
    forget_costs,
    forget_placers,
    forget_tier_ranks,
]
"""How to forget each store of work shared between configurations (`forget_placements`): the
layouts, the drives' work at their targets (`pool_load`), Easy Tier's rankings
(`tiering.ranking.ranked`), the operation costs and what is derived from them alone
(`costs.forget_costs`), the placers and their placements (`tiering.placement.placer_for`), the
tiers' ranks as gathered (`pool_ranks.TierRanks.of`), and those that modules above this one
register (`forget_also`: the builds, flows and host sums of `operating` and `network_build`)."""


def forget_also(forget: Callable[[], None]) -> None:
    """Have `forget_placements` also call `forget` (a store of a module above layout)."""
    _stores.append(forget)


def forget_placements() -> None:
    """Forget every back end's layouts, and every other store of work shared between
    configurations (`forget_also`): a benchmark that solves the same configuration again
    measures the work, as a fresh process or a changed configuration does, not the store."""
    for forget in _stores:
        forget()


# --------------------------------------------------------------------------- public


def layout(
    config: Configuration,
    rates: ArrayLike,
    costs: OpCosts | None = None,
    timed: PoolsTimed | None = None,
) -> dict[str, PoolLayout]:
    """Every pool's placement when the workloads run at the host `rates` (I/O per second, one
    per workload, closed ones at the rate they settle at). Pools without Easy Tier or with one
    tier do not depend on the rates beyond their ratios. `timed`: the pools timed at loads for
    configurations that differ from `config` at most in the workloads' skew curves, `costs`
    theirs (`pool_load.pools_at`)."""
    return layout_and_headroom(config, rates, costs, timed)[0]


def layout_and_headroom(
    config: Configuration,
    rates: ArrayLike,
    costs: OpCosts | None = None,
    timed: PoolsTimed | None = None,
) -> tuple[dict[str, PoolLayout], float]:
    """`layout`, and, when no Easy Tier pool needs a ceiling at `rates`, `free_headroom` at
    `rates` (else nan): the placement is then the one that ignores the load, and placing
    it has worked out every figure `free_headroom` reads (the same placements, shares and
    DA work, so the same headroom to the bit), at no further cost."""
    costs = costs or OpCosts(config)
    out: dict[str, PoolLayout] = {}
    room = math.inf
    # DA pairs are shared by the pools: each pool's ceilings see the DA work of the pools
    # placed before it as background (pools are placed in file order).
    background_da = np.zeros(config.hardware.da_pairs)
    for pool in pools_at(config, rates, costs, timed):
        demands = pool.demands()
        if pool.pool.placement_follows_load and any(rate > 0 for _, _, rate in pool.members):
            placement, shares, ceilings, bound, pool_room = _settled(pool, demands, background_da)
            if math.isnan(pool_room):
                room = math.nan
            elif not math.isnan(room):
                room = min(room, pool_room)
        else:
            placement, shares = pool.free_placement(demands)
            ceilings, bound = {}, ()
            if pool.pool.placement_follows_load and not math.isnan(room):
                room = min(room, pool.free_room(placement, shares, background_da))
        out[pool.pool.name] = PoolLayout(placement, shares, ceilings, bound)
        background_da = background_da + pool.da_busy(placement, shares)
    return out, room
