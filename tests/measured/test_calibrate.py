"""Calibration (issue 13 item 2): known parameters recovered from the model's own output with
noise, within the reported intervals at about their stated rate; what the data cannot pin down
reported as such."""

from __future__ import annotations

import copy
import datetime as dt
from typing import Any

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.measured.calibrate import calibrate, calibrated_yaml, pool_rank_utilization
from diskmodel.measured.intervals import Interval
from diskmodel.measured.peaks import Selection
from diskmodel.model import results
from diskmodel.model.operating import Solver
from diskmodel.scenario import Scenario, load_scenario

from ..conftest import ROOT

EXAMPLE = ROOT / "scenarios" / "ds8800-15k-plus-2-ssd.yaml"
TRUE = {"destage_ratio": 0.45, "skew.level": 9.0}
LOADS = (6000, 12000, 20000, 30000, 40000, 50000)


def _data(**workload: Any) -> dict[str, Any]:
    data = load_scenario(EXAMPLE).model_dump(mode="python", exclude_none=True)
    data["analyses"] = {}
    data["workloads"][0].update(workload)
    return data


def _measured(
    data: dict[str, Any],
    noise: float,
    seed: int,
    loads: tuple[int, ...] = LOADS,
    hit_measured: bool = True,
    utilization: bool = False,
) -> list[Selection]:
    """The model's own response at each load, times seeded relative noise; with
    `utilization`, the pool's rank utilisation measured too (the same noise)."""
    catalog = load_catalog()
    rng = np.random.default_rng(seed)
    out = []
    for k, iops in enumerate(loads):
        d = copy.deepcopy(data)
        d["workloads"][0]["iops"] = iops
        scenario = Scenario.model_validate(d, context={"catalog": catalog})
        point = Solver(resolve(scenario, catalog)).planned_point()
        rt = results.workloads(point)[0].response_time_ms * (1 + rng.normal(0.0, noise))
        busy = None
        if utilization:
            busy = pool_rank_utilization(point, "oltp") * (1 + rng.normal(0.0, noise))
        t = dt.datetime(2026, 11, 2, 10, k)
        hit = 0.4 if hit_measured else None
        row = Interval(t, "oltp", iops, 0.7, hit, 8, 8, rt, 30000, busy)
        out.append(Selection("io", t, (row,)))
    return out


def _start(data: dict[str, Any]) -> Scenario:
    guess = copy.deepcopy(data)
    guess["workloads"][0].update(destage_ratio=1.0, skew={"level": 3.0})
    return Scenario.model_validate(guess, context={"catalog": load_catalog()})


def test_noise_free_measurements_give_back_the_parameters() -> None:
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    fit = calibrate(_start(data), _measured(data, 0.0, 0))
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6


def test_reported_intervals_hold_the_truth_at_about_their_rate() -> None:
    """Six loads, 2% noise, 12 seeds: the linearised 95% intervals are checked to hold the
    true value in at least 80% of the fits that identify it (measured over 40 seeds: 88% for
    the destage ratio, identified in 26, and 92.5% for the skew level, identified in all)."""
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    start = _start(data)
    held = {key: [0, 0] for key in TRUE}
    for seed in range(12):
        for p in calibrate(start, _measured(data, 0.02, seed)).parameters:
            if p.identified:
                assert p.low is not None
                assert p.high is not None
                held[p.key][1] += 1
                held[p.key][0] += p.low <= TRUE[p.key] <= p.high
    assert held["skew.level"][1] >= 10
    for key, (inside, identified) in held.items():
        if identified:
            assert inside / identified >= 0.8, (key, inside, identified)


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
    out = calibrated_yaml(text, fit, "calibrated by a test")
    assert out.startswith("# calibrated by a test\n")
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


def test_a_hit_ratio_not_measured_is_fitted_within_its_range() -> None:
    """The data say nothing of the hit ratio: given as the range [0, 0.95], it is fitted (the
    response depends strongly on it) and the calibrated file replaces the range."""
    data = _data(
        read_hit_ratio=0.4, destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]}
    )
    measured = _measured(data, 0.0, 0, hit_measured=False)
    guess = copy.deepcopy(data)
    guess["workloads"][0].update(read_hit_ratio=[0.0, 0.95], destage_ratio=1.0, skew={"level": 3})
    fit = calibrate(Scenario.model_validate(guess, context={"catalog": load_catalog()}), measured)
    hit = next(p for p in fit.parameters if p.key == "read_hit_ratio")
    assert hit.identified
    assert hit.value == pytest.approx(0.4, abs=0.01)
    assert fit.rms_error < 0.01


def test_measured_rank_utilisation_pins_the_destage_ratio() -> None:
    """Issue 13 item 2: a measured utilisation is a fit target beside the response time. It
    sees the back-end work directly, so the destage ratio that response times leave loose is
    pinned: over 12 seeds (six loads, 2% noise) identified 12 times against 8, its 95%
    interval 0.059 wide on average against 0.297, holding the truth 12 of 12 times; checked
    here on 6 seeds."""
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    start = _start(data)
    widths: dict[bool, list[float]] = {False: [], True: []}
    for seed in range(6):
        for util in (False, True):
            fit = calibrate(start, _measured(data, 0.02, seed, utilization=util))
            (p,) = [p for p in fit.parameters if p.key == "destage_ratio"]
            if util:
                assert p.identified
                assert any(r.figure == "rank_utilization" for r in fit.residuals)
            if p.identified:
                assert p.low is not None
                assert p.high is not None
                widths[util].append(p.high - p.low)
    assert len(widths[True]) >= len(widths[False])
    assert np.mean(widths[True]) < 0.5 * np.mean(widths[False])


def test_noise_free_utilisation_and_response_give_back_the_parameters() -> None:
    data = _data(destage_ratio=TRUE["destage_ratio"], skew={"level": TRUE["skew.level"]})
    fit = calibrate(_start(data), _measured(data, 0.0, 0, utilization=True))
    for p in fit.parameters:
        assert p.identified
        assert p.value == pytest.approx(TRUE[p.key], rel=1e-4)
    assert fit.rms_error < 1e-6
