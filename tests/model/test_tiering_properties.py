"""Properties of Easy Tier inside the whole storage model (issue 5), on random DS8800 pools.

- more capacity on a faster tier (one more SSD rank) never lowers the maximum throughput;
- a higher skew level never lowers the SSD tier's share of small I/O;
- every pool's small-I/O and MB/s shares over its tiers sum to 1;
- placement never puts more data on a tier than it holds;
- with one tier, Easy Tier and no Easy Tier give the same answer.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diskmodel.catalog import load_catalog
from diskmodel.prediction import Prediction
from diskmodel.scenario import Scenario

from ..support.builders import predict_one

CATALOG = load_catalog()
SETTINGS = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
HDD = {"15k-300": 7 * 300.0, "10k-450": 7 * 450.0}


@st.composite
def pools(draw: st.DrawFn) -> dict[str, Any]:
    """A DS8800 with one pool of HDD ranks (RAID-5 7+P) and 0-2 SSD ranks, one workload."""
    drive = draw(st.sampled_from(sorted(HDD)))
    hdd_ranks = draw(st.integers(2, 8))
    ssd_ranks = draw(st.integers(0, 2))
    return {
        "drive": drive,
        "hdd_ranks": hdd_ranks,
        "ssd_ranks": ssd_ranks,
        "level": draw(st.floats(1.5, 30.0)),
        "read_fraction": draw(st.floats(0.3, 1.0)),
        "read_hit_ratio": draw(st.floats(0.0, 0.8)),
        "size_kib": draw(st.sampled_from([4, 8, 16])),
        "fill": draw(st.floats(0.3, 1.0)),
        "easy_tier": "auto",
    }


def scenario(p: dict[str, Any]) -> Scenario:
    ranks: list[dict[str, Any]] = [
        {"drive": p["drive"], "raid": "raid5-7+p", "count": p["hdd_ranks"]}
    ]
    if p["ssd_ranks"]:
        ranks.append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": p["ssd_ranks"]})
    hdd_gb = p["hdd_ranks"] * HDD[p["drive"]]
    data = {
        "schema_version": 1,
        "name": "property pool",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 128,
            "host_ports": 8,
            "da_pairs": 2,
        },
        "pools": [{"name": "pool", "easy_tier": p["easy_tier"], "ranks": ranks}],
        "workloads": [
            {
                "name": "w",
                "pool": "pool",
                "iops": 500,
                "read_fraction": p["read_fraction"],
                "read_hit_ratio": p["read_hit_ratio"],
                "destage_ratio": 0.6,
                "read_size_kib": p["size_kib"],
                "write_size_kib": p["size_kib"],
                # Data that fits on the HDDs alone, so every SSD count holds it.
                "capacity_gb": p["fill"] * hdd_gb,
                "skew": {"level": p["level"]},
            }
        ],
    }
    return Scenario.model_validate(data, context={"catalog": CATALOG})


def _predict(p: dict[str, Any]) -> Prediction:
    return predict_one(scenario(p))


def _ssd_share(prediction: Prediction) -> float:
    return sum(t.small_io_share for t in prediction.tiers if t.tier == "ssd")


@SETTINGS
@given(pools())
def test_another_ssd_rank_never_lowers_max_iops(p: dict[str, Any]) -> None:
    fewer = _predict({**p, "ssd_ranks": min(p["ssd_ranks"], 1)})
    more = _predict({**p, "ssd_ranks": min(p["ssd_ranks"], 1) + 1})
    assert more.max_iops >= fewer.max_iops * (1 - 1e-9)


@SETTINGS
@given(pools(), st.floats(1.0, 10.0))
def test_higher_skew_never_lowers_the_ssd_share(p: dict[str, Any], more: float) -> None:
    p = {**p, "ssd_ranks": max(p["ssd_ranks"], 1), "level": min(p["level"], 20.0)}
    low = _ssd_share(_predict(p))
    high = _ssd_share(_predict({**p, "level": p["level"] + more}))
    assert high >= low - 1e-9


@SETTINGS
@given(pools())
def test_shares_sum_to_one_and_fit_the_tiers(p: dict[str, Any]) -> None:
    prediction = _predict(p)
    assert math.isclose(sum(t.small_io_share for t in prediction.tiers), 1.0, abs_tol=1e-9)
    assert math.isclose(sum(t.mb_share for t in prediction.tiers), 1.0, abs_tol=1e-9)
    for t in prediction.tiers:
        assert t.used_gb <= t.capacity_gb * (1 + 1e-9)
        assert 0.0 <= t.utilization <= 1.0
    placed = sum(t.used_gb for t in prediction.tiers)
    assert math.isclose(placed, scenario(p).workloads[0].capacity_gb, rel_tol=1e-9)


@SETTINGS
@given(pools())
def test_one_tier_easy_tier_changes_nothing(p: dict[str, Any]) -> None:
    auto = _predict({**p, "ssd_ranks": 0})
    off = _predict({**p, "ssd_ranks": 0, "easy_tier": "off"})
    # Equal up to the rounding of the rotate-extents water-filling (a root found by Brent's method).
    assert math.isclose(auto.max_iops, off.max_iops, rel_tol=1e-9)
    assert auto.response_time_ms is not None
    assert off.response_time_ms is not None
    assert math.isclose(auto.response_time_ms, off.response_time_ms, rel_tol=1e-9)
    for a, o in zip(auto.ranks, off.ranks, strict=True):
        assert math.isclose(a.backend_iops, o.backend_iops, rel_tol=1e-9)
