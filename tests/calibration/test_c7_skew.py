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

The maximum IOPS is compared with the published figures as ratios to the skew-2 figure
(tolerance 10% each) and absolutely (tolerance 15%); misses are strict xfails with the
measured error. Nothing here is fitted.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import pytest

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.prediction import Prediction
from diskmodel.scenario import Scenario

from ..model.builders import predict_one
from .conftest import record

pytestmark = pytest.mark.calibration

LEVELS = (2.0, 3.5, 7.0, 14.0, 24.0)
PUBLISHED_IOPS = {2.0: 12_000, 3.5: 13_000, 7.0: 17_000, 14.0: 28_000, 24.0: 52_000}
RATIO_TOLERANCE = 0.10
ABSOLUTE_TOLERANCE = 0.15
HDD_CAPACITY_GB = 5 * 7 * 450.0


@cache
def _catalog() -> Catalog:
    """The catalog with the 146 GB SSD offered on the DS8800 (as its 300 GB one is)."""
    base = load_catalog()
    ds8800 = base.systems["ds8800-951"]
    ssd = base.drives["ssd-146"]
    packaging = {**ssd.packaging, "ds8800-951": base.drives["ssd-300"].packaging["ds8800-951"]}
    drives = {**base.drives, "ssd-146": ssd.model_copy(update={"packaging": packaging})}
    systems = {
        **base.systems,
        "ds8800-951": ds8800.model_copy(update={"drives": [*ds8800.drives, "ssd-146"]}),
    }
    return base.model_copy(update={"drives": drives, "systems": systems})


def c7_scenario(level: float, *, ssd_ranks: int = 1) -> Scenario:
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
    return Scenario.model_validate(data, context={"catalog": _catalog()})


@cache
def _prediction(level: float) -> Prediction:
    return predict_one(c7_scenario(level), catalog=_catalog())


def _ratio(level: float) -> tuple[float, float]:
    predicted = _prediction(level).max_iops / _prediction(2.0).max_iops
    return predicted, PUBLISHED_IOPS[level] / PUBLISHED_IOPS[2.0]


# Measured with the peak-to-mean reading of the level (docs/tiering.md), each drive a
# load-dependent station (command queueing credited in the open solution too) and Easy Tier
# keeping the SSD tier at or under its utilisation target (0.8) at every load.
_RATIO_GAPS = {
    14.0: "predicted 1.95 vs published 2.33 (-16.6%)",
    24.0: "predicted 2.93 vs published 4.33 (-32.3%; -21.7% before destages were ordered, which "
    "raised the HDD-bound skew-2 maximum by 60% and the SSD-bound skew-24 one by 38%)",
}
_ABSOLUTE_GAPS = {
    2.0: "predicted 7,640 vs published 12,000 (-36.4%)",
    3.5: "predicted 8,300 vs published 13,000 (-36.2%)",
    7.0: "predicted 10,100 vs published 17,000 (-40.8%)",
    14.0: "predicted 14,900 vs published 28,000 (-46.9%)",
    24.0: "predicted 22,400 vs published 52,000 (-56.9%)",
}
_RATIO_WHY = (
    "the SSD tier holds 5.6% of the data and Easy Tier keeps it at or under its utilisation "
    "target: at high levels the published tool lets the SSD carry far more of the load than "
    "one SSD rank at 80% busy does here (the SSD's service and parallelism are estimates)"
)
_ABSOLUTE_WHY = (
    "each HDD is credited the reordering of at most 2 commands, the queue at which C9's "
    "published rank capability (IBM SG24-6452 Table B-3, 212 disk operations/s per 15K drive "
    "at 100% busy) is reproduced, and destages are ordered over the NVS (C12's gain, about 1.95 "
    "here; the absolute figures were 60-69% low before): the 40 10K drives then saturate at "
    "7,640 host IOPS at skew 2, and 12,000 would need 1.57 times what they can do with this "
    "scenario's unpublished inputs (50% read hits, no write folding). The published tool's "
    "hit ratio and destage assumptions are not published; nothing is fitted to them. (With "
    "the drive gain credited to a queue of 64, 2.4x C9, the absolute figures came within 2-15% "
    "at levels 2-7.)"
)


def _ratio_case(level: float) -> Any:
    if level in _RATIO_GAPS:
        reason = f"known gap: {_RATIO_GAPS[level]} because {_RATIO_WHY}"
        return pytest.param(level, marks=pytest.mark.xfail(strict=True, reason=reason))
    return level


@pytest.mark.parametrize("level", [_ratio_case(level) for level in LEVELS[1:]])
def test_c7_ratio_to_skew_2(level: float) -> None:
    predicted, published = _ratio(level)
    error = predicted / published - 1.0
    record(
        "C7",
        f"max IOPS at skew {level:g} / at skew 2",
        predicted,
        f"{published:.2f}",
        f"{error:+.1%}",
        f"{RATIO_TOLERANCE:.0%}",
    )
    assert abs(error) <= RATIO_TOLERANCE


def _absolute_case(level: float) -> Any:
    if level not in _ABSOLUTE_GAPS:
        return level
    reason = f"known gap: {_ABSOLUTE_GAPS[level]} because {_ABSOLUTE_WHY}"
    return pytest.param(level, marks=pytest.mark.xfail(strict=True, reason=reason))


@pytest.mark.parametrize("level", [_absolute_case(level) for level in LEVELS])
def test_c7_absolute_max_iops(level: float) -> None:
    predicted = _prediction(level).max_iops
    error = predicted / PUBLISHED_IOPS[level] - 1.0
    record(
        "C7",
        f"max IOPS at skew {level:g}",
        predicted,
        f"{PUBLISHED_IOPS[level]:,}",
        f"{error:+.1%}",
        f"{ABSOLUTE_TOLERANCE:.0%}",
    )
    assert abs(error) <= ABSOLUTE_TOLERANCE


def test_c7_more_skew_never_lowers_max_iops() -> None:
    """The property the published figures show: each preset above the last carries more."""
    tops = [_prediction(level).max_iops for level in LEVELS]
    assert all(b > a for a, b in itertools.pairwise(tops))
    without_ssd = predict_one(c7_scenario(2.0, ssd_ranks=0), catalog=_catalog()).max_iops
    assert tops[0] > without_ssd
