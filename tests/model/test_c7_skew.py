"""Calibration C7: the commercial tool's five skew presets on its published midrange example.

Published (DOMAIN.md C7): 40 x 450 GB 10K drives in RAID-5 plus 5 x 200 GB SSDs in RAID-5,
16 KB I/O, 70% reads: about 12,000 / 13,000 / 17,000 / 28,000 / 52,000 IOPS at skew levels
2 / 3.5 / 7 / 14 / 24 (a Storwize V7000 sized with Disk Magic 9.1).

The closest test configuration from our catalog (no midrange system, no 200 GB SSD):
- a DS8800 (4-way, 128 GB cache, 8 host ports, 2 DA pairs), one Easy Tier pool;
- the 40 HDDs as 5 ranks of `10k-450` in `raid5-7+p` (5 array sites of 8 drives; 15,750 GB);
- the SSD tier as one rank of the catalog's 146 GB SSD (`ssd-146`, same service times as every
  catalog SSD) in `raid5-6+p+s`: 876 GB usable, the nearest the catalog comes to the published
  5 x 200 GB RAID-5 (4 data drives, 800 GB). The DS8800 catalog entry offers only the 300 GB
  SSD (a rank of it holds 1,800 GB, more than twice the published SSD tier), so the test makes
  the 146 GB SSD available on the DS8800 in a copy of the catalog;
- one workload filling the HDD capacity (the data that existed before the SSDs were added; no
  allocation fraction is assumed), 16 KiB reads and writes, 70% reads, destage ratio 1 (no
  folding figure is published), read hit ratio 50% (not published: the *ratios* between
  levels do not depend on it, the absolute values do), skew `level` = the preset.

How much of the data the SSD tier holds is not published (C14: the published SSD tier is
5 x 200 GB, but not how much data the pool held), and it decides the ratios at high levels.
So C7 is reported as a band over the SSD's share of the data, 5% to 8% (DOMAIN.md C14): the
SSD rank's capacity is set to hold that share of the workload's data (the test's copy of the
catalog scales the SSD's capacity; its service and parallelism are unchanged), and the
published figure must fall inside the band, widened by the tolerance at each edge: ratios to
the skew-2 figure (10%) and absolute maxima (15%). Misses are strict xfails with the measured
band. Nothing here is fitted.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.prediction import Prediction
from diskmodel.scenario import Scenario

from ..support.builders import predict_one
from ..support.calibration import record

pytestmark = pytest.mark.calibration

LEVELS = (2.0, 3.5, 7.0, 14.0, 24.0)
PUBLISHED_IOPS = {2.0: 12_000, 3.5: 13_000, 7.0: 17_000, 14.0: 28_000, 24.0: 52_000}
RATIO_TOLERANCE = 0.10
ABSOLUTE_TOLERANCE = 0.15
HDD_CAPACITY_GB = 5 * 7 * 450.0
SSD_SHARES = (0.05, 0.08)
"""The band's edges: the SSD tier's share of the workload's data (DOMAIN.md C14)."""
SSD_DATA_DRIVES = 6  # raid5-6+p+s


@cache
def _catalog(ssd_share: float | None = None) -> Catalog:
    """The catalog with the 146 GB SSD offered on the DS8800 (as its 300 GB one is); with
    `ssd_share`, its capacity such that one SSD rank holds that share of the workload's data."""
    base = load_catalog()
    ds8800 = base.systems["ds8800-951"]
    ssd = base.drives["ssd-146"]
    packaging = {**ssd.packaging, "ds8800-951": base.drives["ssd-300"].packaging["ds8800-951"]}
    update: dict[str, Any] = {"packaging": packaging}
    if ssd_share is not None:
        update["capacity_gb"] = ssd_share * HDD_CAPACITY_GB / SSD_DATA_DRIVES
    drives = {**base.drives, "ssd-146": ssd.model_copy(update=update)}
    systems = {
        **base.systems,
        "ds8800-951": ds8800.model_copy(update={"drives": [*ds8800.drives, "ssd-146"]}),
    }
    return base.model_copy(update={"drives": drives, "systems": systems})


def c7_scenario(level: float, *, ssd_ranks: int = 1, ssd_share: float | None = None) -> Scenario:
    ranks: list[dict[str, Any]] = [{"drive": "10k-450", "raid": "raid5-7+p", "count": 5}]
    if ssd_ranks:
        ranks.append({"drive": "ssd-146", "raid": "raid5-6+p+s", "count": ssd_ranks})
    data = {
        "schema_version": 1,
        "name": f"C7 midrange example, skew {level:g}",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 128,
            "host_ports": 8,
            "da_pairs": 2,
        },
        "pools": [{"name": "pool", "easy_tier": "auto", "ranks": ranks}],
        "workloads": [
            {
                "name": "oltp",
                "pool": "pool",
                "iops": 1000,
                "read_fraction": 0.7,
                "read_hit_ratio": 0.5,
                "destage_ratio": 1.0,
                "read_size_kib": 16,
                "write_size_kib": 16,
                "capacity_gb": HDD_CAPACITY_GB,
                "skew": {"level": level},
            }
        ],
    }
    return Scenario.model_validate(data, context={"catalog": _catalog(ssd_share)})


@cache
def _prediction(level: float, ssd_share: float | None = None) -> Prediction:
    return predict_one(c7_scenario(level, ssd_share=ssd_share), catalog=_catalog(ssd_share))


def _band(value: Callable[[float | None], float]) -> tuple[float, float]:
    """The lowest and highest of `value` over the band's edges of the SSD's share of the data
    (the maxima rise with the share, so the edges bound it)."""
    edges = [value(share) for share in SSD_SHARES]
    return min(edges), max(edges)


def _outside(published: float, band: tuple[float, float], tolerance: float) -> float:
    """0 when `published` lies inside `band` widened by `tolerance` at each edge; else the
    error of the band's nearer edge against it (negative: the model is low)."""
    low, high = band[0] * (1 - tolerance), band[1] * (1 + tolerance)
    if published < low:
        return band[0] / published - 1.0
    if published > high:
        return band[1] / published - 1.0
    return 0.0


def _ratio(level: float) -> tuple[float, float]:
    predicted = _prediction(level).max_iops / _prediction(2.0).max_iops
    return predicted, PUBLISHED_IOPS[level] / PUBLISHED_IOPS[2.0]


# Measured with the peak-to-mean reading of the level (docs/tiering.md), each drive a
# load-dependent station (command queueing credited in the open solution too) and Easy Tier
# keeping the SSD tier at or under its utilisation target (0.8) at every load. At one share,
# 5.6% (the 146 GB SSD's), the ratios at 14 and 24 were 1.95 and 2.93 (-16.6% and -32.3%):
# the band over 5-8% takes in 14's.
_RATIO_GAPS = {
    24.0: "predicted 2.78-2.97 over the SSD's share of the data (5-8%) vs published 4.33 "
    "(the band's top -31.5%)",
}
_ABSOLUTE_GAPS = {
    2.0: "predicted 7,550-8,050 over the SSD's share of the data (5-8%) vs published 12,000 "
    "(the band's top -32.9%)",
    3.5: "predicted 8,130-9,070 vs published 13,000 (the band's top -30.3%)",
    7.0: "predicted 9,680-11,980 vs published 17,000 (the band's top -29.5%)",
    14.0: "predicted 13,730-20,970 vs published 28,000 (the band's top -25.1%)",
    24.0: "predicted 22,400 at every share vs published 52,000 (-56.9%)",
}
_RATIO_WHY = (
    "at skew 24 the SSD rank is the bottleneck whatever its capacity: Easy Tier keeps it at or "
    "under its utilisation target (80%), so the maximum is one SSD rank's, while the published "
    "tool lets the SSD carry far more of the load (the SSD's service and parallelism are "
    "estimates)"
)
_ABSOLUTE_WHY = (
    "each HDD is credited the reordering of at most 2 commands, the queue at which C9's "
    "published rank capability (IBM SG24-6452 Table B-3, 212 disk operations/s per 15K drive "
    "at 100% busy) is reproduced, and destages are ordered over the NVS (C12's gain, about 1.95 "
    "here; the absolute figures were 60-69% low before): the 40 10K drives then saturate at "
    "about 7,600 host IOPS at skew 2, and 12,000 would need 1.57 times what they can do with "
    "this scenario's unpublished inputs (50% read hits, no write folding). The published tool's "
    "hit ratio and destage assumptions are not published; nothing is fitted to them. (With "
    "the drive gain credited to a queue of 64, 2.4x C9, the absolute figures came within 2-15% "
    "at levels 2-7.) At skew 24 the SSD rank's utilisation target binds (see the ratio's gap)"
)


def _case(level: float, gaps: dict[float, str], why: str) -> Any:
    if level not in gaps:
        return level
    reason = f"known gap: {gaps[level]} because {why}"
    return pytest.param(level, marks=pytest.mark.xfail(strict=True, reason=reason))


@pytest.mark.parametrize("level", [_case(level, _RATIO_GAPS, _RATIO_WHY) for level in LEVELS[1:]])
def test_c7_ratio_to_skew_2_over_the_ssd_share(level: float) -> None:
    band = _band(
        lambda share: _prediction(level, share).max_iops / _prediction(2.0, share).max_iops
    )
    published = PUBLISHED_IOPS[level] / PUBLISHED_IOPS[2.0]
    error = _outside(published, band, RATIO_TOLERANCE)
    record(
        "C7",
        f"max IOPS at skew {level:g} / at skew 2, SSD 5-8% of data: {band[0]:.3f}-{band[1]:.3f}",
        (band[0] + band[1]) / 2,
        f"{published:.2f}",
        f"{error:+.1%}",
        f"band ± {RATIO_TOLERANCE:.0%}",
    )
    assert error == 0.0


@pytest.mark.parametrize("level", [_case(level, _ABSOLUTE_GAPS, _ABSOLUTE_WHY) for level in LEVELS])
def test_c7_absolute_max_iops_over_the_ssd_share(level: float) -> None:
    band = _band(lambda share: _prediction(level, share).max_iops)
    published = PUBLISHED_IOPS[level]
    error = _outside(published, band, ABSOLUTE_TOLERANCE)
    record(
        "C7",
        f"max IOPS at skew {level:g}, SSD 5-8% of data: {band[0]:,.0f}-{band[1]:,.0f}",
        (band[0] + band[1]) / 2,
        f"{published:,}",
        f"{error:+.1%}",
        f"band ± {ABSOLUTE_TOLERANCE:.0%}",
    )
    assert error == 0.0


def test_c7_more_skew_never_lowers_max_iops() -> None:
    """The property the published figures show: each preset above the last carries more."""
    tops = [_prediction(level).max_iops for level in LEVELS]
    assert all(b > a for a, b in itertools.pairwise(tops))
    without_ssd = predict_one(c7_scenario(2.0, ssd_ranks=0), catalog=_catalog()).max_iops
    assert tops[0] > without_ssd
