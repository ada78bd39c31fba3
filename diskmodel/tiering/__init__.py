"""Skew curves and data placement: Easy Tier, capacity-proportional, pinned, auto-rebalance.

Pure functions on plain numbers (numpy/scipy only); the storage model turns a scenario's pools
and workloads into :class:`Tier` and :class:`WorkloadDemand` and reads back shares. See
docs/tiering.md for the meaning of a skew level and the placement rules.
"""

from diskmodel.tiering.heatmap import HeatMap, HeatMapError, heatmap_from_counts, load_heatmap_csv
from diskmodel.tiering.placement import (
    PoolPlacement,
    Tier,
    TierShare,
    WorkloadDemand,
    WorkloadPlacement,
    load_scale_at_ceilings,
    place_capacity_proportional,
    place_easy_tier,
    place_pinned,
    place_pool,
)
from diskmodel.tiering.rebalance import (
    RankBefore,
    RankLoad,
    Rebalanced,
    rebalance,
    spread_by_rotation,
)
from diskmodel.tiering.skew import (
    MB_FOLLOWS_SMALL_IO_SHARE,
    PRESET_LEVELS,
    UNIFORM,
    LevelSkew,
    MixtureSkew,
    PiecewiseSkew,
    SegmentSkew,
    SkewCurve,
    derived_mb_curve,
    level_for_share,
    skew_from_level,
)

__all__ = [
    "MB_FOLLOWS_SMALL_IO_SHARE",
    "PRESET_LEVELS",
    "UNIFORM",
    "HeatMap",
    "HeatMapError",
    "LevelSkew",
    "MixtureSkew",
    "PiecewiseSkew",
    "PoolPlacement",
    "RankBefore",
    "RankLoad",
    "Rebalanced",
    "SegmentSkew",
    "SkewCurve",
    "Tier",
    "TierShare",
    "WorkloadDemand",
    "WorkloadPlacement",
    "derived_mb_curve",
    "heatmap_from_counts",
    "level_for_share",
    "load_heatmap_csv",
    "load_scale_at_ceilings",
    "place_capacity_proportional",
    "place_easy_tier",
    "place_pinned",
    "place_pool",
    "rebalance",
    "skew_from_level",
    "spread_by_rotation",
]
