"""One answer per question: every view of a configuration at a load comes from one operating
point (issue 10). Properties over random scenarios (hypothesis), including Easy Tier pools
whose placement follows the load and closed workloads, and the inconsistencies found before as
regression tests."""

from __future__ import annotations

import copy
import itertools
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import diskmodel
from diskmodel.catalog import load_catalog
from diskmodel.model.saturation import SATURATION_TOL
from diskmodel.prediction import Prediction

from ..conftest import SCENARIOS
from ..support.builders import predict_one, solver, with_data
from ..support.shipped import predicted

CATALOG = load_catalog()
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
EXAMPLE = Path(__file__).parents[2] / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"


@st.composite
def scenarios(draw: st.DrawFn, closed: bool = False, users: bool = False) -> dict[str, Any]:
    """A DS8800 pool of 15K ranks, with or without SSD ranks under Easy Tier, and one or two
    workloads (open at a fraction of nothing in particular: the tests scale them)."""
    hdd = draw(st.integers(2, 8))
    ssd = draw(st.integers(0, 2))
    easy = draw(st.sampled_from(["auto", "off"]))
    ranks = [{"drive": "15k-300", "raid": "raid5-7+p", "count": hdd}]
    if ssd:
        ranks.append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": ssd})
    pool_gb = hdd * 7 * 300 + ssd * 6 * 300
    n_workloads = draw(st.integers(1, 2))
    workloads = []
    for i in range(n_workloads):
        w: dict[str, Any] = {
            "name": f"w{i}",
            "pool": "p",
            "read_fraction": draw(st.floats(0.3, 1.0)),
            "read_hit_ratio": draw(st.floats(0.0, 0.8)),
            "destage_ratio": draw(st.floats(0.3, 1.0)),
            "capacity_gb": pool_gb * draw(st.floats(0.1, 0.9)) / n_workloads,
            "skew": {"level": draw(st.sampled_from([2.0, 7.0, 14.0, 24.0]))},
        }
        if users:
            w["users"] = draw(st.integers(200, 2000))
            w["think_time_ms"] = draw(st.floats(20.0, 500.0))
        elif closed:
            w["queue_depth"] = draw(st.integers(1, 64))
        else:
            w["iops"] = draw(st.floats(200.0, 3000.0))
        workloads.append(w)
    return {
        "schema_version": 1,
        "name": "coherence",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 128,
            "host_ports": 8,
            "da_pairs": draw(st.integers(1, 2)),
        },
        "pools": [{"name": "p", "easy_tier": easy, "ranks": ranks}],
        "workloads": workloads,
        "analyses": {"curve": {"points": 12}},
    }


def _scaled(data: dict[str, Any], fraction: float) -> tuple[dict[str, Any], Prediction]:
    """The scenario with its open rates scaled so the planned load is `fraction` of the
    maximum, and its prediction."""
    top = predict_one(with_data(data))
    out = copy.deepcopy(data)
    total = sum(w["iops"] for w in out["workloads"])
    for w in out["workloads"]:
        w["iops"] *= fraction * top.max_iops / total
    return out, predict_one(with_data(out))


# Where Easy Tier's load ceiling binds, demoting warm extents leaves the faster tier fewer,
# hotter extents on a shorter span (faster seeks) at the same utilisation, which can lower the
# mean response a little before the slower tier's growing load raises it again: measured at
# most 2.1% (scenarios/ent-nearline-growth.yaml, 8,400 to 9,300 IOPS). Elsewhere the curve
# never falls.
EASY_TIER_DIP = 0.03


def _curve_is_monotone(p: Prediction) -> None:
    loads = [pt.iops for pt in p.curve]
    assert loads == sorted(loads)
    for a, b in itertools.pairwise(p.curve):
        if a.response_time_ms is None or b.response_time_ms is None:
            continue
        moved = {(t.pool, t.tier): t.small_io_share for t in a.tiers} != {
            (t.pool, t.tier): t.small_io_share for t in b.tiers
        }
        slack = EASY_TIER_DIP if moved else 1e-9
        assert b.response_time_ms >= a.response_time_ms * (1 - slack)


# --------------------------------------------------------------------------- properties


@SETTINGS
@given(scenarios(), st.floats(0.05, 0.9))
def test_the_planned_point_lies_on_the_curve(data: dict[str, Any], fraction: float) -> None:
    """The curve passes through the planned load with the planned response time, and an
    operating point solved on its own at that load gives the same answer."""
    scaled, p = _scaled(data, fraction)
    assume(p.response_time_ms is not None)
    on_curve = [pt for pt in p.curve if math.isclose(pt.iops, p.planned_iops, rel_tol=1e-12)]
    assert len(on_curve) == 1
    assert on_curve[0].response_time_ms == pytest.approx(p.response_time_ms, rel=1e-9)
    alone = solver(with_data(scaled)).open_point(np.array([w["iops"] for w in scaled["workloads"]]))
    assert alone.response_s * 1e3 == pytest.approx(p.response_time_ms, rel=1e-9)
    _curve_is_monotone(p)


@SETTINGS
@given(scenarios(), st.lists(st.floats(0.1, 3.0), min_size=1, max_size=4))
def test_growth_saturates_exactly_past_the_maximum(
    data: dict[str, Any], factors: list[float]
) -> None:
    data["analyses"]["growth"] = {"factors": factors}
    _, p = _scaled(data, 0.5)
    for g in p.growth:
        ratio = g.iops / p.max_iops
        assume(abs(ratio - 1.0) > 1e-3)  # the boundary itself is a matter of rounding
        assert g.saturated == (ratio > 1.0)
        assert (g.response_time_ms is None) or not g.saturated


@SETTINGS
@given(scenarios())
def test_response_never_falls_along_the_curve(data: dict[str, Any]) -> None:
    _curve_is_monotone(predict_one(with_data(data)))


@SETTINGS
@given(scenarios(closed=True))
def test_a_closed_sweep_point_is_the_closed_solution_at_that_population(
    data: dict[str, Any],
) -> None:
    data["workloads"] = data["workloads"][:1]
    p = predict_one(with_data(data))
    assert p.closed is not None
    point = p.closed.curve[len(p.closed.curve) // 2]
    alone = copy.deepcopy(data)
    alone["workloads"][0]["queue_depth"] = point.population
    q = predict_one(with_data(alone))
    assert q.closed is not None
    assert q.closed.iops == pytest.approx(point.iops, rel=1e-9)
    assert q.closed.response_time_ms == pytest.approx(point.response_time_ms, rel=1e-9)


@SETTINGS
@given(scenarios(closed=True))
def test_closed_throughput_never_exceeds_the_open_maximum(data: dict[str, Any]) -> None:
    p = predict_one(with_data(data))
    assert p.closed is not None
    # The closed throughput approaches the bottleneck's capacity from below (equal to rounding
    # where the population is deep). Where Easy Tier's placement follows the load, the maximum
    # is itself found to SATURATION_TOL (a failing case: 18,142.2359 closed against a maximum
    # of 18,142.2351, 4.5e-8 apart), so the bound holds to that.
    bound = p.max_iops * (1 + SATURATION_TOL)
    assert p.closed.iops <= bound
    assert all(pt.iops <= bound for pt in p.closed.curve)


@SETTINGS
@given(scenarios(users=True))
def test_open_and_closed_agree_at_equal_throughput(data: dict[str, Any]) -> None:
    """The same stations in both solutions: at the throughput a closed system of many users
    settles at, the open network's mean response time matches the closed one while no
    station is busier than 75%. Operations of different lengths at one station (SSD reads and
    writes, reads and ordered destages at a drive) wait in proportion to their own service in
    both (processor-sharing semantics); when the open solution queued every operation behind
    the station's mean, SSD pools differed by up to 10.4% and, once destages were ordered, HDD
    pools by 14%; now 0.44% worst over 80 random configurations (this strategy at
    max_examples=80). (With few I/Os in flight the two differ by design: R = N / X in the
    closed system, while an open stream at X builds the queues a Poisson stream builds.)"""
    sv = solver(with_data(data))
    closed = sv.planned_point()
    assume(not closed.nvs_full and closed.utilization.max() <= 0.75)
    opened = sv.open_point(closed.rates)
    assume(not opened.nvs_full and not opened.saturated)
    assert opened.response_s == pytest.approx(closed.response_s, rel=0.01)


@SETTINGS
@given(scenarios(), st.floats(0.05, 0.9))
def test_tier_shares_are_the_back_end_split(data: dict[str, Any], fraction: float) -> None:
    """A tier's share of the small back-end I/O is the share of the drive operations its ranks
    carry (one workload, no sequential work, every rank RAID-5: the same drive operations per
    back-end I/O on every tier)."""
    data["workloads"] = data["workloads"][:1]
    _, p = _scaled(data, fraction)
    assume(not p.saturated)
    pool_ops = sum(t.backend_iops for t in p.tiers)
    for t in p.tiers:
        assert t.small_io_share == pytest.approx(t.backend_iops / pool_ops, rel=1e-6, abs=1e-9)


@SETTINGS
@given(scenarios(), st.floats(0.05, 0.9))
def test_every_planning_limit_holds_up_to_its_load_and_no_further(
    data: dict[str, Any], fraction: float
) -> None:
    scaled, p = _scaled(data, fraction)
    sv = solver(with_data(scaled))
    unit = np.array([w["iops"] for w in scaled["workloads"]])
    unit = unit / unit.sum()
    from diskmodel.analyses.limits import limits

    for limit, result in zip(limits(sv.config.service_level), p.service_level.limits, strict=True):
        if result.max_iops is None or result.max_iops <= 0:
            continue
        assert limit.met(sv.open_point(unit * result.max_iops * (1 - 1e-3)))
        past = sv.open_point(unit * result.max_iops * (1 + 1e-3))
        assert not limit.met(past)
        # It fails by its own measure (the ceiling or the target crossed), not only because
        # the load saturates some other component there.
        value = limit.value(past)
        assert value is None or value > limit.target, (limit.label, value)
    assert p.service_level.max_iops <= p.max_iops * (1 + 1e-9)


# --------------------------------------------------------------------------- regressions


def test_bundled_example_planned_point_on_its_curve() -> None:
    """The bundled example said 0.593 ms at the planned point and 0.927 ms on its own curve
    at the same load: each view placed the data for a different load."""
    sp = predicted(EXAMPLE)
    for p in sp.configurations:
        (point,) = [pt for pt in p.curve if pt.iops == p.planned_iops]
        assert point.response_time_ms == p.response_time_ms
        _curve_is_monotone(p)
        assert p.service_level.max_iops <= p.max_iops


def test_growth_and_sweep_say_saturated_only_past_the_maximum() -> None:
    """Growth said "saturated" from 30,000 IOPS on a configuration whose maximum was 39,900,
    and the SSD sweep marked a point saturated below its own maximum."""
    data = diskmodel.load_scenario(EXAMPLE).model_dump(mode="python")
    data["analyses"] = {
        "curve": {"points": 12},
        "growth": {"factors": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0]},
        "tier_sweep": {
            "pool": "oltp",
            "drive": "ssd-300",
            "raid": "raid5-6+p+s",
            "counts": [0, 1, 2],
        },
    }
    sp = diskmodel.predict(with_data(data))
    for g in sp.baseline.growth:
        assert g.saturated == (g.iops > sp.baseline.max_iops)
    for point in sp.tier_sweep:
        assert point.saturated == (point.max_iops < 9000)


def test_closed_curve_solves_each_population_on_its_own() -> None:
    """The closed curve reported every n < N from the one solution for N: 99 IOPS at 10.06 ms
    for n = 1 on the DS8800 C3 baseline, where n = 1 alone gives 290 IOPS at 3.45 ms."""
    path = next(p for p in SCENARIOS if p.name == "ds8800-c3-baseline.yaml")
    data = diskmodel.load_scenario(path).model_dump(mode="python")
    data["analyses"] = {"curve": {"points": 12}}
    p = predict_one(with_data(data))
    assert p.closed is not None
    first = p.closed.curve[0]
    assert first.population == 1
    data["workloads"][0]["queue_depth"] = 1
    alone = predict_one(with_data(data))
    assert alone.closed is not None
    assert first.iops == pytest.approx(alone.closed.iops, rel=1e-9)
    # One I/O in flight: the drive's own service plus the front end, no queueing.
    assert 2.5 < first.response_time_ms < 4.5


def test_closed_easy_tier_keeps_the_ssd_tier_under_its_target() -> None:
    """Closed workloads were placed with no load limits: the SSD tier and its DA pair ran at
    100% while the HDDs sat under 10% busy."""
    data = diskmodel.load_scenario(EXAMPLE).model_dump(mode="python")
    data["analyses"] = {"curve": {"points": 12}}
    w = data["workloads"][0]
    del w["iops"]
    w["queue_depth"] = 256
    p = predict_one(with_data(data))
    target = data["pools"][0]["easy_tier"]["utilization_target"]
    ssd = [r for r in p.ranks if r.tier == "ssd"]
    hdd = [r for r in p.ranks if r.tier == "enterprise"]
    # Placed for the rate the closed system settles at (converged to 0.1%).
    assert max(r.utilization for r in ssd) <= target * 1.01
    # The HDDs take the data beyond the SSDs' ceiling (they sat under 10% in the defect), and
    # the system runs into a real limit (both DA pairs, at queue depth 256).
    assert max(r.utilization for r in hdd) > 0.25
    assert max(c.utilization for c in p.components) > 0.99


def test_unequal_closed_workloads_are_placed_by_their_own_rates() -> None:
    """Tier shares of closed workloads were computed with a rate of 1.0 each, so a 75/25
    back-end split was ranked and reported as 50/50."""
    data = diskmodel.load_scenario(EXAMPLE).model_dump(mode="python")
    data["analyses"] = {"curve": {"points": 12}}
    base = data["workloads"][0]
    del base["iops"]
    big = {**copy.deepcopy(base), "name": "big", "queue_depth": 48, "capacity_gb": 10000}
    small = {**copy.deepcopy(base), "name": "small", "queue_depth": 16, "capacity_gb": 10000}
    data["workloads"] = [big, small]
    sv = solver(with_data(data))
    point = sv.planned_point()
    rates = point.rates
    assert rates[0] == pytest.approx(3 * rates[1], rel=1e-9)
    placement = point.network.layout["oltp"].placement
    big_io = sum(s.small_io_iops for s in placement.workload("big").tiers)
    small_io = sum(s.small_io_iops for s in placement.workload("small").tiers)
    assert big_io / small_io == pytest.approx(3.0, rel=2e-3)


def test_every_shipped_scenario_is_coherent() -> None:
    for path in SCENARIOS:
        sp = predicted(path)
        for p in sp.configurations:
            _curve_is_monotone(p)
            if p.closed is None and p.response_time_ms is not None:
                (point,) = [pt for pt in p.curve if pt.iops == p.planned_iops]
                assert point.response_time_ms == p.response_time_ms
            if p.closed is not None:
                assert p.closed.iops <= p.max_iops * (1 + 1e-9)
                # The planned population is a point of the sweep (an application's sweep goes on
                # past it, to show the knee).
                (at,) = [pt for pt in p.closed.curve if pt.population == p.closed.population]
                assert at.iops == p.closed.iops
            for g in p.growth:
                assert g.saturated == (g.iops > p.max_iops * (1 + 1e-9)) or math.isclose(
                    g.iops, p.max_iops, rel_tol=1e-3
                )


def test_a_ceiling_never_reached_before_saturation_does_not_bind() -> None:
    """Found: C5's pool before its two ranks are added saturates its ranks at about 8,660
    IOPS with the host adapters, processors and DA pairs far under 70%, yet each of those
    ceilings was reported as holding up to 8,661 IOPS (the saturated last point of the curve
    failed every limit, so a crossing was searched below it). A ceiling the load never
    reaches before saturation holds up to saturation: no load of its own."""
    path = SCENARIOS[0].parent / "c5-auto-rebalance.yaml"
    sp = predicted(path)
    before = next(p for p in sp.configurations if p.name == "before adding the 2 ranks")
    by_label = {r.label: r for r in before.service_level.limits}
    for kind in ("host adapter", "processor", "DA pair"):
        result = by_label[f"{kind} utilisation ≤ 70%"]
        assert result.max_iops is None, (kind, result.max_iops)
        assert result.value is not None
        assert result.value < 0.7
    assert before.service_level.binding == "rank (per drive) utilisation ≤ 70%"
