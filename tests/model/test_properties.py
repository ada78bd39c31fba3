"""Invariants of the storage model over random configurations (hypothesis).

More hardware never raises the response time at the same load; a higher read hit ratio never
hurts; results are finite with utilisations below 1 up to saturation; maximum throughput
scales with the rank count while ranks are the bottleneck; Little's law in closed systems.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from diskmodel.catalog import load_catalog
from diskmodel.components import cache
from diskmodel.components.cache import project_read_hit_ratio
from diskmodel.prediction import Prediction

from ..support.builders import predict_one, with_data

CATALOG = load_catalog()
SETTINGS = settings(max_examples=25, deadline=None)
HDD_RAID = ["raid5-7+p", "raid5-6+p+s", "raid6-6+p+q", "raid10-4x2"]


@st.composite
def configurations(draw: st.DrawFn) -> dict[str, Any]:
    """A DS8800 with one pool of identical HDD ranks and one open workload (a load fraction)."""
    drive = draw(st.sampled_from(["15k-146", "15k-300", "10k-600", "nl-3tb"]))
    raid = draw(st.sampled_from(HDD_RAID))
    count = draw(st.integers(1, 12))
    da_pairs = draw(st.integers(1, 3))
    fmt = CATALOG.raid_formats[raid]
    pool_gb = count * fmt.data_drives * CATALOG.drives[drive].capacity_gb
    return {
        "schema_version": 1,
        "name": "prop",
        "system": {
            "model": "ds8800-951",
            "processor_ways": draw(st.sampled_from([2, 4])),
            "cache_gb": 128,
            "host_ports": draw(st.integers(1, 16)),
            "da_pairs": da_pairs,
        },
        "pools": [
            {
                "name": "p",
                "easy_tier": "off",
                "ranks": [{"drive": drive, "raid": raid, "count": count}],
            }
        ],
        "workloads": [
            {
                "name": "w",
                "pool": "p",
                "iops": 1000.0,
                "read_fraction": draw(st.floats(0.0, 1.0)),
                "read_hit_ratio": draw(st.floats(0.0, 0.95)),
                "destage_ratio": draw(st.floats(0.1, 1.0)),
                "read_size_kib": draw(st.sampled_from([4, 8, 16, 64])),
                "write_size_kib": draw(st.sampled_from([4, 8, 16, 64])),
                "read_sequential_fraction": draw(st.sampled_from([0.0, 0.0, 0.3])),
                "write_sequential_fraction": draw(st.sampled_from([0.0, 0.0, 0.3])),
                "capacity_gb": pool_gb * draw(st.floats(0.05, 1.0)),
            }
        ],
    }


def _at_load(data: dict[str, Any], fraction: float) -> tuple[dict[str, Any], float]:
    """The configuration with its workload at `fraction` of its own maximum rate."""
    top = predict_one(with_data(data)).max_iops
    out = copy.deepcopy(data)
    out["workloads"][0]["iops"] = fraction * top
    return out, fraction * top


def _response(data: dict[str, Any], hits: list[float] | None = None) -> Prediction:
    return predict_one(with_data(data), hits)


def _no_worse(better: Prediction, base: Prediction) -> None:
    assert base.response_time_ms is not None
    assert better.response_time_ms is not None
    assert better.response_time_ms <= base.response_time_ms * (1 + 1e-9)
    assert better.max_iops >= base.max_iops * (1 - 1e-9)


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95))
def test_finite_and_below_one_up_to_saturation(data: dict[str, Any], fraction: float) -> None:
    loaded, _ = _at_load(data, fraction)
    p = _response(loaded)
    assert not p.saturated
    assert p.response_time_ms is not None
    assert math.isfinite(p.response_time_ms)
    assert p.response_time_ms > 0
    for c in p.components:
        assert 0 <= c.utilization < 1
        assert c.response_time_ms is not None
        assert math.isfinite(c.response_time_ms)
        assert c.response_time_ms >= c.service_time_ms
    assert all(pt.response_time_ms is None or pt.response_time_ms > 0 for pt in p.curve)


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95), st.integers(1, 8))
def test_more_host_ports_never_hurt(data: dict[str, Any], fraction: float, extra: int) -> None:
    loaded, _ = _at_load(data, fraction)
    more = copy.deepcopy(loaded)
    more["system"]["host_ports"] += extra
    _no_worse(_response(more), _response(loaded))


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95))
def test_more_da_pairs_never_hurt(data: dict[str, Any], fraction: float) -> None:
    loaded, _ = _at_load(data, fraction)
    more = copy.deepcopy(loaded)
    more["system"]["da_pairs"] += 1
    _no_worse(_response(more), _response(loaded))


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95), st.integers(1, 2))
def test_more_ranks_never_hurt(data: dict[str, Any], fraction: float, steps: int) -> None:
    """Ranks added in balanced steps (2 x DA pairs: both servers, every DA pair alike)."""
    loaded, _ = _at_load(data, fraction)
    more = copy.deepcopy(loaded)
    more["pools"][0]["ranks"][0]["count"] += steps * 2 * loaded["system"]["da_pairs"]
    _no_worse(_response(more), _response(loaded))


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95))
def test_more_cache_never_hurts(data: dict[str, Any], fraction: float) -> None:
    loaded, _ = _at_load(data, fraction)
    more = copy.deepcopy(loaded)
    more["system"]["processor_ways"] = 4
    more["system"]["cache_gb"] = 384
    w = loaded["workloads"][0]
    hits = [project_read_hit_ratio(w["read_hit_ratio"], 128, 384)]
    _no_worse(_response(more, hits), _response(loaded))


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95), st.floats(0.0, 1.0))
def test_higher_hit_ratio_never_hurts(data: dict[str, Any], fraction: float, gain: float) -> None:
    loaded, _ = _at_load(data, fraction)
    h = loaded["workloads"][0]["read_hit_ratio"]
    better = copy.deepcopy(loaded)
    better["workloads"][0]["read_hit_ratio"] = h + gain * (1 - h)
    _no_worse(_response(better), _response(loaded))


@SETTINGS
@given(configurations(), st.floats(0.05, 0.95))
def test_a_faster_drive_never_hurts(data: dict[str, Any], fraction: float) -> None:
    """Nearline -> 15K -> SSD: same RAID format and rank count, data that fits on the SSDs."""
    ranks = data["pools"][0]["ranks"][0]
    assume(ranks["raid"] != "raid6-6+p+q")  # not offered on SSD ranks
    fmt = CATALOG.raid_formats[ranks["raid"]]
    ssd_gb = ranks["count"] * fmt.data_drives * CATALOG.drives["ssd-300"].capacity_gb
    data["workloads"][0]["capacity_gb"] = min(data["workloads"][0]["capacity_gb"], ssd_gb)
    ranks["drive"] = "nl-3tb"
    loaded, _ = _at_load(data, fraction)
    previous = _response(loaded)
    for faster in ("15k-300", "ssd-300"):
        swapped = copy.deepcopy(loaded)
        swapped["pools"][0]["ranks"][0]["drive"] = faster
        better = _response(swapped)
        _no_worse(better, previous)
        previous = better


@SETTINGS
@given(configurations(), st.integers(2, 3))
def test_max_iops_scales_with_ranks_while_ranks_limit(data: dict[str, Any], factor: int) -> None:
    """k times the ranks, capacity, DA pairs and cache (same occupancy, same balance): k times
    the rate. Each rank keeps the same NVS for its ordered destages to sort over (its share of
    its server's NVS) as long as that share is below the per-rank limit, a fraction of the
    server's NVS: the base has enough ranks for that (fewer, and more cache would give each
    rank more to sort: a little faster than k times), and an even number, so that the servers
    own the same number of ranks."""
    system = load_catalog().systems[data["system"]["model"]]
    group = data["pools"][0]["ranks"][0]
    # An even count: the two servers own the same number of ranks, before and after.
    ranks = 2 * max(math.ceil(group["count"] / 2), math.ceil(1 / system.nvs_rank_limit_fraction))
    data["workloads"][0]["capacity_gb"] *= ranks / group["count"]
    group["count"] = ranks
    base = _response(data)
    assume(base.bottleneck_kind == "rank")
    more = copy.deepcopy(data)
    more["pools"][0]["ranks"][0]["count"] *= factor
    more["workloads"][0]["capacity_gb"] *= factor
    more["system"]["cache_gb"] = data["system"]["cache_gb"] * factor
    more["system"]["host_ports"] = 16
    more["system"]["processor_ways"] = 4
    assume(data["system"]["da_pairs"] * factor <= 8)
    more["system"]["da_pairs"] = data["system"]["da_pairs"] * factor
    assert cache.rank_nvs_bytes(system, data["system"]["cache_gb"], ranks // 2) == (
        pytest.approx(cache.rank_nvs_bytes(system, more["system"]["cache_gb"], ranks * factor // 2))
    )
    scaled = _response(more)
    assume(scaled.bottleneck_kind == "rank")
    assert scaled.max_iops == base.max_iops * factor or math.isclose(
        scaled.max_iops, base.max_iops * factor, rel_tol=1e-9
    )


@settings(max_examples=10, deadline=None)
@given(configurations(), st.integers(1, 48), st.sampled_from([0.0, 20.0]))
def test_littles_law_in_closed_systems(data: dict[str, Any], n: int, think_ms: float) -> None:
    w = data["workloads"][0]
    del w["iops"]
    if think_ms:
        w["users"], w["think_time_ms"] = n, think_ms
    else:
        w["queue_depth"] = n
    p = _response(data)
    assert p.closed is not None
    x, r = p.closed.iops, p.closed.response_time_ms
    assert n == math.floor(n)
    assert math.isclose(n, x * (r + think_ms) / 1e3, rel_tol=1e-9)
    assert p.response_time_ms is not None
    assert math.isclose(p.response_time_ms, r, rel_tol=1e-9)
    assert all(0 <= c.utilization <= 1 for c in p.components)
