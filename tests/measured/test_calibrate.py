"""Calibration (issue 13 item 2): known parameters recovered from the model's own output with
noise, within the reported intervals at about their stated rate; what the data cannot pin down
reported as such."""

from __future__ import annotations

import copy
import datetime as dt
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ruamel.yaml import YAML
from scipy.stats import binom

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.measured.budget import Evaluations
from diskmodel.measured.calibrate import calibrate
from diskmodel.measured.calibrated import calibrated_yaml
from diskmodel.measured.figures import mean_utilization, pool_backend_iops, pool_rank_utilization
from diskmodel.measured.identify import Parameter
from diskmodel.measured.intervals import Interval
from diskmodel.measured.peaks import Selection
from diskmodel.measured.problem import (
    FRONT_END_RANGE,
    Problem,
    system_unknowns,
    targets,
    workload_unknowns,
)
from diskmodel.model import results
from diskmodel.model.operating import Solver
from diskmodel.scenario import Scenario, load_scenario

from ..conftest import ROOT

pytestmark = pytest.mark.calibration

EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
TRUE = {"destage_ratio": 0.45, "skew.level": 9.0, "front_end_latency_us": 220.0}
"""What the measurements are made with; the front end's fixed time 220 us (not the catalog's
150 us) where a test says so, and then `_start(data, front_end=True)` gives it as the range
FRONT_END_RANGE to fit."""
LOADS = (6000, 12000, 20000, 30000, 40000, 50000)


def _data(front_end_us: float | None = None, **workload: Any) -> dict[str, Any]:
    """The example with the workload's settings (and a front-end latency, else the
    catalog's)."""
    data = load_scenario(EXAMPLE).model_dump(mode="python", exclude_none=True)
    data["analyses"] = {}
    if front_end_us is not None:
        data["system"]["front_end_latency_us"] = front_end_us
    data["workloads"][0].update(workload)
    return data


def _measured(
    data: dict[str, Any],
    noise: float,
    seed: int,
    loads: tuple[int, ...] = LOADS,
    hit_measured: bool = True,
    utilization: bool = False,
    write_response: bool = False,
    backend: bool = False,
    adapters: bool = False,
) -> list[Selection]:
    """The model's own response at each load, times seeded relative noise; with
    `utilization`, the pool's rank utilisation measured too, with `write_response` the
    writes' response time, with `backend` the pool's disk operations per second and with
    `adapters` the DA and host-port utilisations (the same noise)."""
    catalog = load_catalog()
    rng = np.random.default_rng(seed)
    out = []
    for k, iops in enumerate(loads):
        d = copy.deepcopy(data)
        d["workloads"][0]["iops"] = iops
        scenario = Scenario.model_validate(d, context={"catalog": catalog})
        point = Solver(resolve(scenario, catalog)).planned_point()
        response = results.workloads(point)[0].response_time_ms
        assert response is not None  # the loads measured are below saturation
        rt = response * (1 + rng.normal(0.0, noise))
        busy = None
        if utilization:
            busy = pool_rank_utilization(point, "oltp") * (1 + rng.normal(0.0, noise))
        write = None
        if write_response:
            write = results.workloads(point)[0].write_response_time_ms
            write = (write or 0.0) * (1 + rng.normal(0.0, noise))
        more: dict[str, float] = {}
        if backend:
            more["backend_iops"] = pool_backend_iops(point, "oltp") * (1 + rng.normal(0, noise))
        if adapters:
            for figure, kind in (("da", "device_adapter"), ("host_port", "host_adapter")):
                busy_kind = mean_utilization(point, kind) * (1 + rng.normal(0.0, noise))
                more[f"{figure}_utilization"] = busy_kind
        t = dt.datetime(2026, 11, 2, 10, k)
        hit = 0.4 if hit_measured else None
        row = Interval(
            t, "oltp", iops, 0.7, hit, 8, 8, rt, 30000, busy, write_response_ms=write, **more
        )
        out.append(Selection("io", t, (row,)))
    return out


def _start(data: dict[str, Any], front_end: bool = False) -> Scenario:
    guess = copy.deepcopy(data)
    if front_end:  # not known: fitted within its physical range
        guess["system"]["front_end_latency_us"] = list(FRONT_END_RANGE)
    guess["workloads"][0].update(destage_ratio=1.0, skew={"level": 3.0})
    return Scenario.model_validate(guess, context={"catalog": load_catalog()})


def test_noise_free_measurements_give_back_the_parameters() -> None:
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    fit = calibrate(_start(data), _measured(data, 0.0, 0))
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6


COVERAGE_SEEDS = int(os.environ.get("DISKMODEL_COVERAGE_SEEDS", "12"))
"""Seeded studies the coverage test runs (docs/measured.md gives the figures over 40:
`DISKMODEL_COVERAGE_SEEDS=40 pytest tests/measured/test_calibrate.py -k nominal`)."""


def _at_the_nominal_rate(inside: int, identified: int) -> bool:
    """Whether `inside` of `identified` 95% intervals holding the truth is within sampling
    error of 95%: at least the count a true 95% interval falls below only 2.5% of the time
    (binomial; 10 of 12, 35 of 40)."""
    return inside >= binom.ppf(0.025, identified, 0.95)


def test_reported_intervals_hold_the_truth_at_the_nominal_rate() -> None:
    """Six loads, 2% noise: the intervals of the identified parameters (linearised, or the
    profile where the linearised one is suspect) hold the truth at 95% within sampling error,
    and the skew level is identified in nearly every study (figures over 40 seeds in
    docs/measured.md)."""
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    start = _start(data)
    held = {key: [0, 0] for key in TRUE}
    for seed in range(COVERAGE_SEEDS):
        for p in calibrate(start, _measured(data, 0.02, seed)).parameters:
            if p.identified:
                assert p.low is not None
                assert p.high is not None
                held[p.key][1] += 1
                held[p.key][0] += p.low <= TRUE[p.key] <= p.high
    assert held["skew.level"][1] >= 0.8 * COVERAGE_SEEDS
    for key, (inside, identified) in held.items():
        if identified:
            assert _at_the_nominal_rate(inside, identified), (key, inside, identified)


def test_skew_in_a_pool_of_one_tier_is_not_identified() -> None:
    """Without SSD ranks placement does not depend on the skew: it must be reported as not
    identified, not as a confident number."""
    data = _data(destage_ratio=0.6)
    data["pools"][0]["ranks"] = [{"drive": "15k-300", "raid": "raid5-7+p", "count": 16}]
    fit = calibrate(_start(data), _measured(data, 0.01, 3, (4000, 8000, 12000, 16000)))
    skew = next(p for p in fit.parameters if p.key == "skew.level")
    assert not skew.identified
    assert skew.low is None
    assert skew.why


def test_the_calibrated_file_keeps_its_comments_and_sets_what_was_identified() -> None:
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    fit = calibrate(_start(data), _measured(data, 0.0, 0))
    text = EXAMPLE.read_text(encoding="utf-8")
    out = calibrated_yaml(text, fit, "a test's intervals")
    assert out.startswith("# diskmodel ")
    assert "against a test's intervals" in out.splitlines()[0]
    assert "# Balance the SSD ranks across the two servers" in out
    path = ROOT / "scenarios" / "calibrated.yaml"
    try:
        path.write_text(out, encoding="utf-8")
        again = load_scenario(path)
    finally:
        path.unlink()
    assert again.workloads[0].destage_ratio == pytest.approx(TRUE["destage_ratio"], rel=1e-3)
    assert again.workloads[0].skew is not None
    assert again.workloads[0].skew.level_value == pytest.approx(TRUE["skew.level"], rel=1e-3)
    assert again.calibration is not None
    assert again.calibration.measured == "a test's intervals"
    assert again.calibration.gate.passed
    assert [f.name for f in again.calibration.fitted] == [p.name for p in fit.parameters]


def test_a_hit_ratio_not_measured_is_fitted_within_its_range() -> None:
    """The data say nothing of the hit ratio: given as the range [0, 0.95], it is fitted (the
    response depends strongly on it) and the calibrated file replaces the range. With the
    destage ratio and the skew fitted beside it, the response times alone trade a little hit
    ratio for destage work (noise-free data fit to 5e-5 rms at 0.418): the fit's interval
    holds the truth and is a tenth of the range given."""
    data = _data(
        read_hit_ratio=0.4, destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]}
    )
    measured = _measured(data, 0.0, 0, hit_measured=False)
    guess = copy.deepcopy(data)
    guess["workloads"][0].update(read_hit_ratio=[0.0, 0.95], destage_ratio=1.0, skew={"level": 3})
    fit = calibrate(Scenario.model_validate(guess, context={"catalog": load_catalog()}), measured)
    hit = next(p for p in fit.parameters if p.key == "read_hit_ratio")
    assert hit.identified
    assert hit.low is not None
    assert hit.high is not None
    assert hit.low <= 0.4 <= hit.high
    assert hit.high - hit.low < 0.095
    assert hit.value == pytest.approx(0.4, abs=0.03)
    assert fit.rms_error < 0.01


def _destage_with_and_without(figure: str, seeds: int, **extra: Any) -> list[Parameter]:
    """The destage ratio fitted over `seeds` seeds (six loads, 2% noise) from the response
    times alone and with one more measured `figure` (the `_measured` flag in `extra`): with
    it, it is identified at least as often and its interval is under half as wide on
    average, and the figure is a residual of every fit. Returns the fits with the figure."""
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    start = _start(data)
    widths: dict[bool, list[float]] = {False: [], True: []}
    with_figure = []
    for seed in range(seeds):
        for given in (False, True):
            kwargs = extra if given else {}
            fit = calibrate(start, _measured(data, 0.02, seed, **kwargs))
            (p,) = [p for p in fit.parameters if p.key == "destage_ratio"]
            if given:
                assert any(r.figure == figure for r in fit.residuals)
                with_figure.append(p)
            if p.identified:
                assert p.low is not None
                assert p.high is not None
                widths[given].append(p.high - p.low)
    assert len(widths[True]) >= len(widths[False])
    assert np.mean(widths[True]) < 0.5 * np.mean(widths[False])
    return with_figure


def test_measured_rank_utilisation_pins_the_destage_ratio() -> None:
    """Issue 13 item 2: a measured utilisation is a fit target beside the response time. It
    sees the back-end work directly, so the destage ratio that response times leave loose is
    pinned: over 12 seeds (six loads, 2% noise) identified 12 times against 8, its 95%
    interval 0.059 wide on average against 0.298, holding the truth 12 of 12 times; checked
    here on 6 seeds."""
    for p in _destage_with_and_without("rank_utilization", seeds=6, utilization=True):
        assert p.identified


def test_noise_free_utilisation_and_response_give_back_the_parameters() -> None:
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    fit = calibrate(_start(data), _measured(data, 0.0, 0, utilization=True))
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6


LIGHT = (1000, 2000, 3000, 4000)
"""Loads at which the drives barely queue: every response is a fixed time plus the mix's."""


def test_front_end_latency_from_light_load_responses_alone_is_not_identified() -> None:
    """At light load the front end's fixed time and the skew (how much of the misses the SSDs
    take) both shift one workload's mean response by a constant: the fit cannot tell them
    apart, and must say so rather than report a number. The writes' response time (a fast
    write is front end only) separates them: the front-end latency is then identified and
    its interval holds the truth."""
    data = _data(
        TRUE["front_end_latency_us"],
        destage_ratio=TRUE["destage_ratio"],
        skew={"level": TRUE["skew.level"]},
    )
    start = _start(data, front_end=True)
    fit = calibrate(start, _measured(data, 0.02, 0, LIGHT))
    (front,) = [p for p in fit.parameters if p.key == "front_end_latency_us"]
    assert front.workload == "system"
    assert not front.identified
    assert front.low is None
    assert "skew.level" in front.why  # what it is confounded with
    fit = calibrate(start, _measured(data, 0.02, 0, LIGHT, write_response=True))
    (front,) = [p for p in fit.parameters if p.key == "front_end_latency_us"]
    assert front.identified
    assert front.low is not None
    assert front.high is not None
    assert front.low <= TRUE["front_end_latency_us"] <= front.high
    assert front.high - front.low < 0.1 * TRUE["front_end_latency_us"]
    assert any(r.figure == "write_response_ms" for r in fit.residuals)


@pytest.mark.xfail(
    strict=True,
    reason="known gap: seed 17's fit absorbs the noise (0.22% rms against 2% put in; s^2 on 3 "
    "degrees of freedom), so its intervals are narrow and wrong: front end 470.8 us, 95% 440.4 "
    "to 500 (its profile), true 220",
)
def test_front_end_from_one_workloads_response_alone_is_not_reported_confidently() -> None:
    """Issue 13: with the front end free and only one workload's overall response times (six
    loads, 2% noise), seed 17's fit (destage ratio 0.927, skew level 12.7, front end 470.8 us)
    reports all three identified and wrong. The linearised intervals are suspect (the front
    end's reaches its bound), and the profile walked is no wider: every interval built from
    s^2 estimated on 3 degrees of freedom has this tail. A known gap (docs/measured.md)."""
    data = _data(
        TRUE["front_end_latency_us"],
        destage_ratio=TRUE["destage_ratio"],
        skew={"level": TRUE["skew.level"]},
    )
    fit = calibrate(_start(data, front_end=True), _measured(data, 0.02, 17))
    (front,) = [p for p in fit.parameters if p.key == "front_end_latency_us"]
    if front.identified:
        assert front.low is not None
        assert front.high is not None
        assert front.low <= TRUE["front_end_latency_us"] <= front.high


def test_noise_free_write_responses_give_back_the_front_end_latency() -> None:
    data = _data(
        TRUE["front_end_latency_us"],
        destage_ratio=TRUE["destage_ratio"],
        skew={"level": TRUE["skew.level"]},
    )
    fit = calibrate(_start(data, front_end=True), _measured(data, 0.0, 0, write_response=True))
    assert {p.key for p in fit.parameters} == set(TRUE)
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6


def test_front_end_latency_intervals_hold_the_truth_at_about_their_rate() -> None:
    """Six loads, 2% noise on the response and the write response, the front-end latency
    fitted within [50, 500] us beside the destage ratio and skew: its 95% interval holds the
    true 220 us in at least 80% of 8 seeds, and the skew's too (measured over 40 seeds: the
    front-end latency identified in 40 and held 38 times, the skew level 39 of 40, the destage
    ratio 34 of the 35 it was identified in)."""
    data = _data(
        TRUE["front_end_latency_us"],
        destage_ratio=TRUE["destage_ratio"],
        skew={"level": TRUE["skew.level"]},
    )
    start = _start(data, front_end=True)
    held = {key: [0, 0] for key in TRUE}
    for seed in range(8):
        fit = calibrate(start, _measured(data, 0.02, seed, write_response=True))
        for p in fit.parameters:
            if p.identified:
                assert p.low is not None
                assert p.high is not None
                held[p.key][1] += 1
                held[p.key][0] += p.low <= TRUE[p.key] <= p.high
    assert held["front_end_latency_us"][1] == 8
    assert held["skew.level"][1] == 8
    for key in ("front_end_latency_us", "skew.level"):
        inside, identified = held[key]
        assert inside / identified >= 0.8, (key, inside, identified)


def test_a_measured_back_end_rate_pins_the_destage_ratio() -> None:
    """The pool's disk operations per second count the destages (four per random write on
    RAID-5) directly, so, like the rank utilisation, they pin the destage ratio that response
    times leave loose: identified in every one of 4 seeds (six loads, 2% noise) with an
    interval under half as wide on average as from the response times alone, and holding the
    truth (measured over 12 seeds: identified 12 times against 8, 0.029 wide on average
    against 0.298, holding the truth 12 of 12 times)."""
    for p in _destage_with_and_without("backend_iops", seeds=4, backend=True):
        assert p.identified
        assert p.low is not None
        assert p.high is not None
        assert p.low <= TRUE["destage_ratio"] <= p.high


def test_every_measured_figure_is_fitted_once_and_noise_free_gives_back_the_parameters() -> None:
    """Response, rank and adapter utilisations and the back-end rate together: each is a
    residual (the pool's and the system's once per interval), the fit reproduces them
    exactly and gives the parameters back."""
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    measured = _measured(data, 0.0, 0, utilization=True, backend=True, adapters=True)
    fit = calibrate(_start(data), measured)
    figures = [r.figure for r in fit.residuals]
    for figure in (
        "response_ms",
        "rank_utilization",
        "backend_iops",
        "da_utilization",
        "host_port_utilization",
    ):
        assert figures.count(figure) == len(LOADS), figure
    assert {r.scope for r in fit.residuals if r.figure == "da_utilization"} == {"system"}
    assert {r.scope for r in fit.residuals if r.figure == "backend_iops"} == {"oltp"}  # pool
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6


def test_a_scenario_front_end_latency_replaces_the_catalog_figure() -> None:
    """`system.front_end_latency_us` (what calibration writes) is the fixed time the model
    adds: 100 us more lengthens every I/O class's light-load response by exactly 0.1 ms, the
    inputs cite the scenario for it, and a range is used at its middle (and its high end in
    the pessimistic corner)."""
    catalog = load_catalog()

    def at(front: Any) -> tuple[Any, ...]:
        data = _data(destage_ratio=0.5, iops=500)
        if front is not None:
            data["system"]["front_end_latency_us"] = front
        scenario = Scenario.model_validate(data, context={"catalog": catalog})
        config = resolve(scenario, catalog)
        (result, *_) = results.workloads(Solver(config).planned_point())
        figure = next(f for f in config.inputs.figures if f.key == "front_end_latency_us")
        return result, figure, scenario

    catalog_default, figure, _ = at(None)
    assert figure.value == 150.0
    stated, figure, _ = at(250.0)
    assert figure.value == 250.0
    assert "scenario" in figure.provenance
    for a, b in zip(catalog_default.io_types, stated.io_types, strict=True):
        assert b.response_time_ms - a.response_time_ms == pytest.approx(0.1, abs=1e-4), a.io_type
    middle, _, scenario = at([200.0, 300.0])
    assert middle.response_time_ms == pytest.approx(stated.response_time_ms, rel=1e-12)
    assert scenario.corner("pessimistic").system.front_end_latency_us == 300.0
    assert ("system.front_end_latency_us", 200.0, 300.0) in scenario.ranges


PINNED = ROOT / "scenarios" / "ds8800-media-preference.yaml"
"""A pool with Easy Tier off and 3,000 GB of the workload pinned to its SSD ranks."""
SHARE = 0.5
"""The true share of the workload's back-end I/O its pinned data carries."""
PIN_LOADS = (3000, 6000, 9000, 12000, 15000, 18000)


def _pinned(share: Any, **workload: Any) -> dict[str, Any]:
    data = load_scenario(PINNED).model_dump(mode="python", exclude_none=True)
    data["analyses"] = {}
    data["workloads"][0]["pin"]["io_share"] = share
    data["workloads"][0].update(workload)
    return data


def _pinned_measured(
    loads: tuple[int, ...], noise: float, seed: int, hit_measured: bool = True
) -> list[Selection]:
    """The pinned workload's response at each load with the true share, times seeded noise."""
    catalog = load_catalog()
    rng = np.random.default_rng(seed)
    out = []
    for k, iops in enumerate(loads):
        scenario = Scenario.model_validate(_pinned(SHARE, iops=iops), context={"catalog": catalog})
        point = Solver(resolve(scenario, catalog)).planned_point()
        response = results.workloads(point)[0].response_time_ms
        assert response is not None  # the loads measured are below saturation
        rt = response * (1 + rng.normal(0.0, noise))
        t = dt.datetime(2026, 11, 2, 10, k)
        hit = 0.4 if hit_measured else None
        out.append(Selection("io", t, (Interval(t, "oltp", iops, 0.7, hit, 8, 8, rt, 30000),)))
    return out


def _pinned_start(**workload: Any) -> Scenario:
    """The allocation not known: the share as the range [0.05, 0.95]; destage ratio guessed."""
    data = _pinned([0.05, 0.95], destage_ratio=1.0, **workload)
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def test_noise_free_measurements_give_back_the_allocation() -> None:
    """The pinned data's share of the I/O, given as a range, is fitted and written back in
    place of the range; the skew does not matter once the pinned share is fitted and Easy
    Tier is off (the rest is spread by capacity), and is reported so."""
    fit = calibrate(_pinned_start(), _pinned_measured(PIN_LOADS, 0.0, 0))
    share = next(p for p in fit.parameters if p.key == "pin.io_share")
    assert share.identified
    assert share.value == pytest.approx(SHARE, rel=1e-4)
    skew = next(p for p in fit.parameters if p.key == "skew.level")
    assert not skew.identified
    assert skew.why == "the data do not depend on it"
    assert fit.rms_error < 1e-6
    text = PINNED.read_text(encoding="utf-8").replace(
        "pin: {tier: ssd, capacity_gb: 3000}",
        "pin: {tier: ssd, capacity_gb: 3000, io_share: [0.05, 0.95]}",
    )
    again = YAML(typ="safe").load(calibrated_yaml(text, fit, "calibrated by a test"))
    assert again["workloads"][0]["pin"]["io_share"] == pytest.approx(SHARE, rel=1e-4)
    Scenario.model_validate(again, context={"catalog": load_catalog()})


def test_allocation_intervals_hold_the_truth_at_about_their_rate() -> None:
    """Six loads, 2% noise: the pinned share's 95% interval holds the true 0.5 in at least 80%
    of 8 seeds, identified in every one (measured over 40 seeds: identified 40 times,
    holding the truth 39)."""
    start = _pinned_start()
    held = 0
    for seed in range(8):
        fit = calibrate(start, _pinned_measured(PIN_LOADS, 0.02, seed))
        (share,) = [p for p in fit.parameters if p.key == "pin.io_share"]
        assert share.identified
        assert share.low is not None
        assert share.high is not None
        held += share.low <= SHARE <= share.high
    assert held / 8 >= 0.8


def test_allocation_and_hit_ratio_both_unmeasured_at_light_load_are_not_identified() -> None:
    """At light load a larger share of the misses on SSD and fewer misses shorten the response
    alike: with the hit ratio not measured either, neither is reported as a number."""
    start = _pinned_start(read_hit_ratio=[0.0, 0.95])
    fit = calibrate(start, _pinned_measured(LIGHT, 0.02, 0, hit_measured=False))
    for key in ("pin.io_share", "read_hit_ratio"):
        (p,) = [p for p in fit.parameters if p.key == key]
        assert not p.identified, key
        assert p.low is None


def test_the_back_end_rate_counts_every_drive_operation() -> None:
    """The model's back-end rate of a pool is its drives' operations: one per read miss and,
    on RAID-5, four per destaged random write (two reads, two writes), so 6,000 IOPS of 8 KiB
    random I/O at 70% reads, a 40% hit ratio and 0.45 destages per write is 6,000 x (0.7 x 0.6
    + 0.3 x 0.45 x 4) = 5,760 operations per second, to 1e-9."""
    catalog = load_catalog()
    data = _data(destage_ratio=0.45, iops=6000)
    scenario = Scenario.model_validate(data, context={"catalog": catalog})
    point = Solver(resolve(scenario, catalog)).planned_point()
    expected = 6000 * (0.7 * 0.6 + 0.3 * 0.45 * 4)
    assert pool_backend_iops(point, "oltp") == pytest.approx(expected, rel=1e-9)


def test_a_measured_skew_curve_is_kept_not_fitted() -> None:
    """A skew given as points (or a heat map) is a measurement: calibration fits no level for
    that workload and the calibrated data keep the curve (before, the fit replaced it with a
    level)."""
    points = [[0.0, 0.0], [0.1, 0.6], [0.3, 0.85], [1.0, 1.0]]
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"points": points})
    guess = copy.deepcopy(data)
    guess["workloads"][0]["destage_ratio"] = 1.0
    start = Scenario.model_validate(guess, context={"catalog": load_catalog()})
    fit = calibrate(start, _measured(data, 0.0, 0))
    assert [p.key for p in fit.parameters] == ["destage_ratio"]
    (destage,) = fit.parameters
    assert destage.identified
    assert destage.value == pytest.approx(TRUE["destage_ratio"], rel=1e-4)
    assert fit.rms_error < 1e-6


def _easy_tier_pinned(skew: Any, seed: int) -> tuple[Scenario, list[Selection]]:
    """The pinned workload with Easy Tier auto placing the rest (and `skew`, or the example's
    level), measured at PIN_LOADS with 2% noise; and the start with the share not known."""
    catalog = load_catalog()
    rng = np.random.default_rng(seed)
    extra = {} if skew is None else {"skew": skew}
    selections = []
    for k, iops in enumerate(PIN_LOADS):
        data = _pinned(SHARE, iops=iops, **extra)
        data["pools"][0]["easy_tier"] = {"mode": "auto"}
        point = Solver(
            resolve(Scenario.model_validate(data, context={"catalog": catalog}), catalog)
        ).planned_point()
        response = results.workloads(point)[0].response_time_ms
        assert response is not None
        t = dt.datetime(2026, 11, 2, 10, k)
        rt = response * (1 + rng.normal(0.0, 0.02))
        selections.append(
            Selection("io", t, (Interval(t, "oltp", iops, 0.7, 0.4, 8, 8, rt, 30000),))
        )
    guess = _pinned([0.05, 0.95], destage_ratio=1.0, **extra)
    guess["pools"][0]["easy_tier"] = {"mode": "auto"}
    return Scenario.model_validate(guess, context={"catalog": catalog}), selections


def test_a_pinned_share_under_easy_tier_is_identified_where_the_skew_is_not() -> None:
    """With Easy Tier auto placing the rest of the workload beside its pinned data, the pinned
    share and the skew (how much of the rest Easy Tier puts on the SSD left over) both move
    the SSD's share of the I/O, and the linearised fit saw them as one (correlation -1.00) and
    reported neither. Their profiles tell them apart: the skew's is flat over its whole range
    (the share refitted follows it), not identified; the share's is bounded whatever the skew
    (the SSD left over is small beside the pinned 3,000 GB), and its interval holds the true
    0.5 (6 of 6 seeds: 0.33 to 0.65 at the widest). A measured skew curve (kept, not fitted)
    identifies the share too."""
    fit = calibrate(*_easy_tier_pinned(None, 0))
    share = next(p for p in fit.parameters if p.key == "pin.io_share")
    skew = next(p for p in fit.parameters if p.key == "skew.level")
    assert not skew.identified
    assert skew.low is None
    assert "flat" in skew.why
    assert share.identified
    assert share.low is not None
    assert share.high is not None
    assert share.low <= SHARE <= share.high
    points = [[0.0, 0.0], [0.1, 0.6], [0.3, 0.85], [1.0, 1.0]]
    fit = calibrate(*_easy_tier_pinned({"points": points}, 0))
    (share,) = [p for p in fit.parameters if p.key == "pin.io_share"]
    assert share.identified
    assert share.low is not None
    assert share.high is not None
    assert share.low <= SHARE <= share.high


def _shipped_week() -> tuple[Scenario, list[Selection]]:
    """The base scenario and the six intervals of docs/measured.md's calibration."""
    from diskmodel.measured import load_intervals, select

    measured = ROOT / "scenarios" / "measured"
    scenario = load_scenario(measured / "ds8800-measured-base.yaml")
    peaks = ["io", "mbs", "2026-11-04 10:00", "2026-11-07 14:00", "2026-11-05 20:00"]
    chosen = select(
        load_intervals(measured / "ds8800-week.csv"), [*peaks, "2026-11-06 12:00"], "week"
    )
    return scenario, chosen


def _shipped_problem(intervals: int, evaluations: int) -> Problem:
    """The fit of the first `intervals` of `_shipped_week`'s (both workloads' unknowns and the
    system's), allowed `evaluations` model evaluations."""
    scenario, chosen = _shipped_week()
    central = scenario.corner("central")
    unknowns = [*workload_unknowns(scenario, chosen, [0, 1]), *system_unknowns(scenario, ())]
    fitted = chosen[:intervals]
    problem = Problem(
        central,
        fitted,
        load_catalog(),
        ROOT / "scenarios" / "measured",
        unknowns,
        targets(central, fitted),
    )
    problem.budget = Evaluations(evaluations)
    return problem


def _readme_calibration() -> list[str]:
    """The README's `diskmodel calibrate` command, as its arguments."""
    import shlex

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    (line,) = [x for x in text.splitlines() if x.startswith(".venv/bin/diskmodel calibrate ")]
    return shlex.split(line.split("#", 1)[0])[1:]


def test_the_readme_calibration_identifies_its_parameters_at_its_least_and_passes(
    tmp_path: Path,
) -> None:
    """The README's command on the shipped week (two workloads in one Easy Tier pool, 3%
    noise, made with OLTP destage ratio 0.55 and skew 9, batch destage ratio 1 and no batch
    skew, front end 150 us), run as a user does: it passes its quality gate under --strict
    and identifies what the README says it does (the destage ratios' intervals holding the
    truth); the batch's skew, which no figure depends on while its data stay off the SSDs, is
    a warning. The fit reaches the least sum of squares a fit started at the true parameters
    reaches (before the look around the fit's end, a start with the front end at the middle
    of its range put the batch's data on the SSDs, skew 24, and the fit stayed in that valley:
    3.66% rms)."""
    from typer.testing import CliRunner

    from diskmodel.cli import app
    from diskmodel.measured.budget import Evaluations
    from diskmodel.measured.problem import Problem, system_unknowns, targets, workload_unknowns
    from diskmodel.measured.profile import bounded_least_squares

    args = _readme_calibration()
    scenario, chosen = _shipped_week()
    peaks = [args[i + 1] for i, a in enumerate(args) if a == "-p"]
    times = [s.time.isoformat(sep=" ", timespec="minutes") for s in chosen[2:]]
    assert peaks == ["io", "mbs", *times]
    assert "--strict" in args
    out = tmp_path / "calibrated.yaml"
    args[args.index("--out") + 1] = str(out)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    record = load_scenario(out).calibration
    assert record is not None
    assert record.gate.passed
    assert record.rms_error is not None
    assert record.rms_error < 0.03  # the noise put in: 3%
    assert [f.subject for f in record.gate.findings] == ["batch.skew.level"]
    assert not record.gate.findings[0].fails
    found = {p.name: p for p in record.fitted}
    identified = [name for name, p in found.items() if p.identified]
    assert identified == [
        "batch.destage_ratio",
        "oltp.destage_ratio",
        "oltp.skew.level",
        "system.front_end_latency_us",
    ]
    for name, true in (("oltp.destage_ratio", 0.55), ("batch.destage_ratio", 1.0)):
        p = found[name]
        assert p.low is not None
        assert p.high is not None
        assert p.low <= true <= p.high, name
    base_dir = ROOT / "scenarios" / "measured"
    central = scenario.corner("central")
    unknowns = [*workload_unknowns(scenario, chosen, [0, 1]), *system_unknowns(scenario, ())]
    problem = Problem(central, chosen, load_catalog(), base_dir, unknowns, targets(central, chosen))
    problem.budget = Evaluations(10**6)
    true = {
        "batch.destage_ratio": 1.0,
        "batch.skew.level": 1.0 + 1e-6,
        "oltp.destage_ratio": 0.55,
        "oltp.skew.level": 9.0,
        "system.front_end_latency_us": 150.0,
    }
    truth = np.array([true[u.name] for u in unknowns])
    from_truth = bounded_least_squares(problem.residuals, truth, problem.lo, problem.hi)
    at_fit = np.array([found[u.name].value for u in unknowns])
    assert problem.sum_of_squares(at_fit) <= float(from_truth.fun @ from_truth.fun) * 1.001
