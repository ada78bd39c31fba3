"""Skew curves and data placement: Easy Tier, capacity-proportional, pinned, auto-rebalance.

Pure functions on plain numbers (numpy/scipy only); the storage model turns a scenario's pools
and workloads into :class:`Tier` and :class:`WorkloadDemand` and reads back shares. See
docs/tiering.md for the meaning of a skew level and the placement rules.

Names are loaded from their submodules on first use (PEP 562), so that reading the
dependency-free `diskmodel.tiering.presets` (as scenario validation does) does not load scipy.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the real names, for type checkers and editors
    from diskmodel.tiering.heatmap import (
        HeatMap,
        HeatMapError,
        heatmap_from_counts,
        load_heatmap_csv,
    )
    from diskmodel.tiering.placement import (
        PoolPlacement,
        Preference,
        Tier,
        TierShare,
        WorkloadDemand,
        WorkloadPlacement,
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

_SOURCES = {
    "HeatMap": "heatmap",
    "HeatMapError": "heatmap",
    "LevelSkew": "skew",
    "MB_FOLLOWS_SMALL_IO_SHARE": "skew",
    "MixtureSkew": "skew",
    "PRESET_LEVELS": "skew",
    "PiecewiseSkew": "skew",
    "PoolPlacement": "placement",
    "Preference": "placement",
    "RankBefore": "rebalance",
    "RankLoad": "rebalance",
    "Rebalanced": "rebalance",
    "SegmentSkew": "skew",
    "SkewCurve": "skew",
    "Tier": "placement",
    "TierShare": "placement",
    "UNIFORM": "skew",
    "WorkloadDemand": "placement",
    "WorkloadPlacement": "placement",
    "derived_mb_curve": "skew",
    "heatmap_from_counts": "heatmap",
    "level_for_share": "skew",
    "load_heatmap_csv": "heatmap",
    "place_capacity_proportional": "placement",
    "place_easy_tier": "placement",
    "place_pinned": "placement",
    "place_pool": "placement",
    "rebalance": "rebalance",
    "skew_from_level": "skew",
    "spread_by_rotation": "rebalance",
}

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
    "Preference",
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
    "place_capacity_proportional",
    "place_easy_tier",
    "place_pinned",
    "place_pool",
    "rebalance",
    "skew_from_level",
    "spread_by_rotation",
]


def __getattr__(name: str) -> Any:
    if name not in _SOURCES:
        raise AttributeError(f"module 'diskmodel.tiering' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"diskmodel.tiering.{_SOURCES[name]}"), name)
    globals()[name] = value
    return value
