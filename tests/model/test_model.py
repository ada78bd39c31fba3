"""The assembled model: operational laws, response composition, saturation, closed systems."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import diskmodel
from diskmodel.model.shared_drive import drive_alpha
from diskmodel.prediction import ScenarioPrediction
from diskmodel.scenario import Scenario

from ..support.builders import BASE, predict_one, scenario, solver, with_data


def predict(s: Scenario) -> ScenarioPrediction:
    return diskmodel.predict(s)


def test_utilization_law_at_every_station() -> None:
    """U_k = X_k S_k / c_k at every station, with S_k the busy time per operation at this load
    (a drive with a queue serves faster than at queue length one, so S_k is not a constant)."""
    point = solver(scenario()).planned_point()
    servers = point.network.servers
    np.testing.assert_allclose(
        point.utilization, point.arrival * point.service_s / servers, rtol=1e-9, atol=1e-15
    )
    p = predict_one(scenario())
    got = np.array([c.utilization for c in p.components])
    np.testing.assert_allclose(got, point.utilization, rtol=1e-12)
    for c, k in zip(p.components, range(len(servers)), strict=True):
        assert c.service_time_ms == pytest.approx(point.service_s[k] * 1e3, rel=1e-12)


def test_breakdown_adds_up_to_the_response_time() -> None:
    p = predict_one(scenario())
    (w,) = p.workloads
    assert sum(v for v in w.breakdown_ms.values() if v is not None) == pytest.approx(
        w.response_time_ms, rel=1e-12
    )
    for t in w.io_types:
        assert sum(t.breakdown_ms.values()) == pytest.approx(t.response_time_ms, rel=1e-12)
    assert p.response_time_ms == pytest.approx(w.response_time_ms)


def test_host_visible_paths() -> None:
    """Hits and fast writes never wait for the back end; a read miss waits for DA and drive."""
    p = predict_one(scenario())
    types = {t.io_type: t for t in p.workloads[0].io_types}
    for name in ("read_hit", "random_write"):
        assert types[name].breakdown_ms["rank"] == 0.0
        assert types[name].breakdown_ms["device_adapter"] == 0.0
    miss = types["read_miss"].breakdown_ms
    assert miss["rank"] > 3.0  # at least a drive's service time, ms
    assert miss["device_adapter"] > 0.0
    assert types["random_write"].response_time_ms < 0.5


def test_curve_rises_to_saturation() -> None:
    p = predict_one(scenario())
    times = [pt.response_time_ms for pt in p.curve]
    assert p.curve[-1].saturated
    assert times[-1] is None
    finite = [t for t in times[:-1] if t is not None]
    assert len(finite) == len(times) - 1
    assert all(b > a for a, b in itertools.pairwise(finite))
    assert p.curve[-1].iops == pytest.approx(p.max_iops)


def test_max_iops_is_where_the_bottleneck_saturates() -> None:
    s = scenario()
    p = predict_one(s)
    sv = solver(s)
    below = sv.open_point(np.array([p.max_iops * (1 - 1e-6)]))
    above = sv.open_point(np.array([p.max_iops * (1 + 1e-6)]))
    assert not below.saturated
    assert above.saturated
    # Just below, the drives carry the destages too: NVS fills (writes then wait for it), but
    # the reads still have a steady state.
    reads = [g for g, (_, c) in enumerate(below.network.times.keys) if "read" in c]
    assert np.isfinite(below.class_response_s[reads]).all()
    assert below.utilization.max() > 0.99
    assert below.network.stations[below.busiest].name == p.bottleneck


def test_past_saturation_nothing_is_infinite_or_nan() -> None:
    s = scenario(**{"workloads.0.iops": 1e6})
    p = predict_one(s)
    assert p.saturated
    assert p.response_time_ms is None
    assert any(c.saturated and c.response_time_ms is None for c in p.components)
    assert all(0 <= c.utilization <= 1 for c in p.components)
    data = json.loads(diskmodel.to_json(predict(s)))  # refuses NaN / inf
    assert data["configurations"][0]["response_time_ms"] is None


def test_write_heavy_load_fills_nvs() -> None:
    """All writes, RAID-6: the destage path is the limit; past it NVS is full, writes wait."""
    s = scenario(
        **{
            "workloads.0.read_fraction": 0.0,
            "workloads.0.destage_ratio": 1.0,
            "workloads.0.iops": 600,
            "pools.0.ranks": [{"drive": "15k-300", "raid": "raid6-6+p+q", "count": 4}],
        }
    )
    p = predict_one(s)
    assert p.destage_limited
    assert p.bottleneck_kind == "rank"
    assert not p.nvs_full  # 600 writes/s (3,600 drive ops/s) is below the destage limit
    # Hosts see fast writes until then: response far below a drive access.
    assert p.response_time_ms is not None
    assert p.response_time_ms < 0.5
    over = predict_one(
        s.model_copy(
            update={"workloads": [s.workloads[0].model_copy(update={"iops": 2 * p.max_iops})]}
        )
    )
    assert over.nvs_full
    assert over.workloads[0].write_response_time_ms is None


def test_closed_system_obeys_littles_law() -> None:
    data = json.loads(json.dumps(BASE))
    w = data["workloads"][0]
    del w["iops"]
    w["queue_depth"] = 64
    p = predict_one(with_data(data))
    assert p.closed is not None
    assert p.closed.population * 1e3 / p.closed.iops == pytest.approx(
        p.closed.response_time_ms, rel=1e-9
    )
    # Per-visit waits recovered from MVA residence times recompose the same response time.
    assert p.workloads[0].response_time_ms == pytest.approx(p.closed.response_time_ms, rel=1e-6)
    rates = [pt.iops for pt in p.closed.curve]
    assert rates == sorted(rates)
    assert all(0 <= c.utilization <= 1 for c in p.components)


def test_users_with_think_time() -> None:
    data = json.loads(json.dumps(BASE))
    w = data["workloads"][0]
    del w["iops"]
    w["users"] = 200
    w["think_time_ms"] = 50.0
    p = predict_one(with_data(data))
    assert p.closed is not None
    assert p.closed.population_kind == "users"
    n, x, r, z = 200, p.closed.iops, p.closed.response_time_ms, 50.0
    assert n == pytest.approx(x * (r + z) / 1e3, rel=1e-9)
    assert x < n / (z / 1e3)  # never more than users / think time


def test_compare_projects_the_hit_ratio_when_the_cache_changes() -> None:
    data = json.loads(json.dumps(BASE))
    data["analyses"] = {
        "compare": [
            {"name": "more cache", "set": {"system.cache_gb": 384}},
            {
                "name": "more cache, stated hits",
                "set": {"system.cache_gb": 384, "workloads.oltp.read_hit_ratio": 0.5},
            },
        ]
    }
    sp = predict(with_data(data))
    base, more, stated = sp.configurations
    assert base.workloads[0].read_hit_ratio == 0.5
    assert more.workloads[0].read_hit_ratio == pytest.approx(1 - 0.5 * 3 ** (-1 / 3))
    # The hit ratio used is carried to the inputs the report shows, with how it was obtained.
    assert more.inputs.workloads[0].read_hit_ratio == more.workloads[0].read_hit_ratio
    assert "projected" in more.inputs.workloads[0].read_hit_ratio_basis
    assert base.inputs.workloads[0].read_hit_ratio_basis == "as given"
    assert stated.workloads[0].read_hit_ratio == 0.5
    assert more.response_time_ms < base.response_time_ms


def test_inputs_are_carried_not_derived_again() -> None:
    """A hit ratio of 0.1 is 0.1 in the prediction and its JSON (it was 0.09999999999999999
    when the report derived it again from the I/O class fractions)."""
    s = scenario(**{"workloads.0.read_hit_ratio": 0.1})
    p = predict_one(s)
    assert p.workloads[0].read_hit_ratio == 0.1
    assert p.inputs.workloads[0].read_hit_ratio == 0.1
    assert "0.09999" not in diskmodel.to_json(predict(s))


def test_growth_sweep() -> None:
    data = json.loads(json.dumps(BASE))
    data["analyses"] = {"growth": {"factors": [1, 2, 100]}}
    sp = predict(with_data(data))
    one, two, hundred = sp.baseline.growth
    assert one.response_time_ms == pytest.approx(sp.baseline.response_time_ms)
    assert two.response_time_ms > one.response_time_ms
    assert hundred.saturated
    assert hundred.response_time_ms is None
    assert not hundred.meets_service_level


def test_open_work_at_a_drive_is_reduced_exactly() -> None:
    """An open stream sharing a load-dependent drive with closed customers: the rate
    multipliers the drive presents to the closed class, against the mixed product form summed
    by hand."""
    gain = np.array([1.0, 1.3, 1.5, 1.6])
    a = 0.7  # open work, in units of the queue-length-one service
    n_max = 6
    alpha = drive_alpha(gain, a, n_max)
    full = np.concatenate([gain, np.full(600, gain[-1])])

    def g(k: int) -> float:
        return float(1.0 / np.prod(full[:k]))

    h = [sum(math.comb(m + j, j) * a**j * g(m + j) for j in range(500)) for m in range(n_max + 1)]
    expected = [h[m - 1] / h[m] for m in range(1, n_max + 1)]
    np.testing.assert_allclose(alpha, expected[: len(alpha)], rtol=1e-9)
    # Held beyond: alpha(D) (1 - r), the top speed less the open stream's share.
    assert expected[-1] == pytest.approx(gain[-1] * (1 - a / gain[-1]), rel=1e-9)
    # No open work: the drive's own gain; a single server (alpha = 1): D / (1 - rho).
    np.testing.assert_allclose(drive_alpha(gain, 0.0, 3), gain[:3], rtol=1e-12)
    np.testing.assert_allclose(drive_alpha(np.array([1.0]), 0.3, 5), 0.7, rtol=1e-12)


def test_tier_sweep_adds_ranks_to_the_pool() -> None:
    data = json.loads(json.dumps(BASE))
    data["analyses"] = {
        "tier_sweep": {"pool": "p", "drive": "15k-300", "raid": "raid5-7+p", "counts": [0, 4, 200]}
    }
    sp = predict(with_data(data))
    none, four, too_many = sp.tier_sweep
    assert none.max_iops == pytest.approx(sp.baseline.max_iops)
    assert four.max_iops > none.max_iops
    assert four.response_time_ms < none.response_time_ms
    assert too_many.error is not None  # 204 ranks do not fit 2 DA pairs
    assert json.loads(diskmodel.to_json(sp))["tier_sweep"][2]["error"]


def test_growth_of_a_closed_system_multiplies_the_population() -> None:
    data = json.loads(json.dumps(BASE))
    w = data["workloads"][0]
    del w["iops"]
    w["queue_depth"] = 16
    data["analyses"] = {"growth": {"factors": [1, 4]}}
    sp = predict(with_data(data))
    one, four = sp.baseline.growth
    assert sp.baseline.closed is not None
    assert one.iops == pytest.approx(sp.baseline.closed.iops)
    assert four.iops > one.iops
    assert four.response_time_ms > one.response_time_ms
    assert not four.saturated


def test_easy_tier_moves_back_end_load_to_the_ssd_tier() -> None:
    """Skewed I/O: with Easy Tier the SSD rank takes far more than its capacity share of the
    small back-end I/O, and the response time falls against capacity-proportional placement."""
    ranks = [
        {"drive": "15k-300", "raid": "raid5-7+p", "count": 4},
        {"drive": "ssd-300", "raid": "raid5-7+p", "count": 1},
    ]
    common = {
        "pools.0.ranks": ranks,
        "workloads.0.skew": {"level": "high"},
        "workloads.0.iops": 4000,
    }
    auto = predict_one(scenario(**{**common, "pools.0.easy_tier": "auto"}))
    off = predict_one(scenario(**{**common, "pools.0.easy_tier": "off"}))
    ssd_auto = next(t for t in auto.tiers if t.tier == "ssd")
    ssd_off = next(t for t in off.tiers if t.tier == "ssd")
    capacity_share = ssd_off.capacity_gb / (ssd_off.capacity_gb + 4 * 7 * 300)
    assert ssd_off.small_io_share == pytest.approx(capacity_share, rel=1e-6)
    assert ssd_auto.small_io_share > 3 * capacity_share
    assert auto.response_time_ms < off.response_time_ms
    assert auto.max_iops > off.max_iops
