"""Inputs as ranges, the rest of issue 13 item 3: a range on the planned rate (a corner, like
the others), and ranges on the read fraction and the sequential fractions, which move the
answer either way and are sampled (analyses/band.py). The sampled band is an inner estimate;
here it is checked against a brute-force grid, where it holds every point tried."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diskmodel.analyses import predict_configuration, predict_scenario
from diskmodel.analyses.band import HYPERCUBE_POINTS, sample_count, sample_points
from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.report.json_result import to_json
from diskmodel.report.text import band_sentence

from ..support.builders import BASE, with_data
from .test_band import assert_band_holds

CATALOG = load_catalog()
REL = 1e-9
"""Rounding between the band's figures and the same operating points solved here."""


def _data(tiered: bool = False, **workload: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    if tiered:
        data["pools"][0]["easy_tier"] = "auto"
        data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 2})
        data["workloads"][0]["skew"] = {"level": 9.0}
    data["workloads"][0].update(workload)
    return data


def _point(data: dict[str, Any]) -> tuple[float, float]:
    """Response (ms, inf where saturated) at the planned load and the maximum, solved here
    from the operating points, not through the band."""
    solver = Solver(resolve(with_data(data), CATALOG))
    planned = solver.planned_point()
    response = np.inf if planned.saturated else planned.response_s * 1e3
    maximum, _ = solver.saturation(planned.rates / planned.total_iops)
    return float(response), float(maximum)


def test_a_range_on_the_planned_rate_moves_the_planned_point() -> None:
    """iops: [2400, 3600]: the prediction at 3000; the band's pessimistic end at 3600, its
    optimistic end at 2400. One workload: its mix, and so its maximum, does not move."""
    ranged = predict_scenario(with_data(_data(iops=[2400, 3600])), CATALOG).baseline
    middle = predict_scenario(with_data(_data(iops=3000)), CATALOG).baseline
    high = predict_scenario(with_data(_data(iops=3600)), CATALOG).baseline
    low = predict_scenario(with_data(_data(iops=2400)), CATALOG).baseline
    assert ranged.planned_iops == pytest.approx(3000)
    assert ranged.response_time_ms == pytest.approx(middle.response_time_ms, rel=REL)
    band = ranged.band
    assert band is not None
    assert band.inputs == (("workloads.oltp.iops", 2400.0, 3600.0),)
    assert band.response_time_ms == pytest.approx(
        (high.response_time_ms, low.response_time_ms), rel=REL
    )
    assert band.max_iops == pytest.approx((middle.max_iops, middle.max_iops), rel=REL)
    assert "planned rate high" in band.method
    assert not band.sampled


def _sampled(tiered: bool = False) -> dict[str, Any]:
    return _data(
        tiered,
        read_hit_ratio=[0.3, 0.5],
        read_fraction=[0.3, 0.9],
        read_sequential_fraction=[0.0, 0.4],
    )


@pytest.mark.parametrize("tiered", [False, True], ids=["one tier", "easy tier"])
def test_the_sampled_band_holds_the_central_prediction(tiered: bool) -> None:
    scenario = with_data(_sampled(tiered))
    p = predict_scenario(scenario, CATALOG).baseline
    middle = _data(tiered, read_hit_ratio=0.4, read_fraction=0.6, read_sequential_fraction=0.2)
    assert p.response_time_ms == pytest.approx(
        predict_scenario(with_data(middle), CATALOG).baseline.response_time_ms, rel=REL
    )
    band = p.band
    assert band is not None
    assert band.sampled
    assert [key for key, _, _ in band.inputs] == [
        "workloads.oltp.read_hit_ratio",
        "workloads.oltp.read_fraction",
        "workloads.oltp.read_sequential_fraction",
    ]
    assert sample_count(scenario) == 1 + 4 + HYPERCUBE_POINTS
    assert "13 samples" in band.method
    assert "Latin hypercube of 8 points, numpy seed 13" in band.method
    assert "inner estimate" in band.method
    assert_band_holds(p)


@pytest.mark.parametrize("tiered", [False, True], ids=["one tier", "easy tier"])
def test_the_sampled_envelope_holds_every_point_of_a_grid(tiered: bool) -> None:
    """Brute force: a 9 x 9 grid over read fraction 0.3-0.9 and sequential reads 0-0.4, each
    point at the hit ratio's pessimistic (0.3) and optimistic (0.5) end. The sample is 13
    points; the band holds every grid point's response time and maximum to rounding (here
    the extremes lie on the box's corners, which the sample holds: an inner estimate that
    happens to be exact, not a bound in general)."""
    band = predict_scenario(with_data(_sampled(tiered)), CATALOG).baseline.band
    assert band is not None
    worst, best = band.response_time_ms
    assert worst is not None
    assert best is not None
    for fraction, sequential in itertools.product(
        np.linspace(0.3, 0.9, 9), np.linspace(0.0, 0.4, 9)
    ):
        inputs = {"read_fraction": float(fraction), "read_sequential_fraction": float(sequential)}
        slow, slow_max = _point(_data(tiered, read_hit_ratio=0.3, **inputs))
        fast, fast_max = _point(_data(tiered, read_hit_ratio=0.5, **inputs))
        assert slow <= worst * (1 + REL), inputs
        assert best <= fast * (1 + REL), inputs
        assert band.max_iops[0] <= slow_max * (1 + REL), inputs
        assert fast_max <= band.max_iops[1] * (1 + REL), inputs


def test_the_sampled_curve_and_planning_maximum_against_a_grid() -> None:
    """The curve's band and the planning maximum come from whole predictions at the samples
    with the extreme response time and maximum only (cost: a whole prediction's limit search
    is most of its time). On a 5 x 5 grid of the one-tier case the planning maximum and the
    pessimistic curve hold every grid point but near saturation, where a read and sequential
    fraction inside the range is slower than any sample kept, by up to 3.7% measured (since a
    stream's operations pay a seek when other work breaks them, the sequential fraction's
    effect is no longer monotone); the optimistic curve misses by up to 3.5% measured (0.75%
    before that change; 8% in the Easy Tier case; 5% even with every sample's curve). Known
    gaps of the inner estimate, bounded here as measured so that they cannot grow unnoticed."""
    p = predict_scenario(with_data(_sampled()), CATALOG).baseline
    band = p.band
    assert band is not None
    loads = [c.iops for c in p.curve]
    missed = slower = 0.0
    for fraction, sequential in itertools.product(
        np.linspace(0.3, 0.9, 5), np.linspace(0.0, 0.4, 5)
    ):
        inputs = {"read_fraction": float(fraction), "read_sequential_fraction": float(sequential)}
        for hit, pessimistic in ((0.3, True), (0.5, False)):
            config = resolve(with_data(_data(read_hit_ratio=hit, **inputs)), CATALOG)
            planning = predict_configuration(config).service_level.max_iops
            solver = Solver(config)
            mix = solver.planned_rates() / solver.planned_rates().sum()
            points = solver.open_points(mix[:, None] * np.asarray(loads)[None, :])
            for b, point in zip(band.curve, points, strict=True):
                if point.saturated:
                    continue
                ms = point.response_s * 1e3
                if pessimistic:
                    if b.pessimistic_ms is not None:
                        slower = max(slower, (ms - b.pessimistic_ms) / b.pessimistic_ms)
                elif b.optimistic_ms is not None:
                    missed = max(missed, (b.optimistic_ms - ms) / ms)
            if pessimistic:
                assert band.planning_max_iops[0] <= planning * (1 + REL), inputs
            else:
                assert planning <= band.planning_max_iops[1] * (1 + REL), inputs
    assert missed < 0.04
    assert slower < 0.04


def test_the_samples_are_reproducible_and_fill_the_box() -> None:
    """The middle, the 2^d corners (d <= 3) and a Latin hypercube: one point in each eighth of
    every range; the same points on every run."""
    ranges = [("a", 0.2, 0.6), ("b", 0.0, 0.4)]
    points = sample_points(ranges)
    assert points == sample_points(ranges)
    assert points[0] == pytest.approx({"a": 0.4, "b": 0.2})
    corners = {(p["a"], p["b"]) for p in points[1:5]}
    assert corners == {(0.2, 0.0), (0.2, 0.4), (0.6, 0.0), (0.6, 0.4)}
    cube = points[5:]
    assert len(cube) == HYPERCUBE_POINTS
    for key, low, high in ranges:
        strata = sorted(int((p[key] - low) / (high - low) * HYPERCUBE_POINTS) for p in cube)
        assert strata == list(range(HYPERCUBE_POINTS))
    four = sample_points([(k, 0.0, 1.0) for k in "abcd"])
    assert len(four) == 1 + HYPERCUBE_POINTS  # beyond three ranges, no corners
    assert sample_points([]) == [{}]


@settings(max_examples=8, deadline=None)
@given(
    middle=st.floats(0.35, 0.85),
    narrow=st.floats(0.02, 0.1),
    wider=st.floats(0.01, 0.1),
)
def test_a_wider_sampled_range_gives_a_wider_band(
    middle: float, narrow: float, wider: float
) -> None:
    def band_of(half: float) -> Any:
        data = _data(read_fraction=[middle - half, middle + half], destage_ratio=[0.5, 0.7])
        return predict_scenario(with_data(data), CATALOG).baseline.band

    n, w = band_of(narrow), band_of(narrow + wider)
    assert w.max_iops[0] <= n.max_iops[0] * (1 + REL)
    assert n.max_iops[1] <= w.max_iops[1] * (1 + REL)
    if n.response_time_ms[0] is not None and w.response_time_ms[0] is not None:
        assert n.response_time_ms[0] <= w.response_time_ms[0] * (1 + REL)
    assert w.response_time_ms[1] <= n.response_time_ms[1] * (1 + REL)


def test_the_sampled_band_is_written_shown_and_checked(tmp_path: Any) -> None:
    from ruamel.yaml import YAML
    from typer.testing import CliRunner

    from diskmodel.cli import app
    from diskmodel.report.html import build_report

    data = _data(iops=[2400, 3600], read_fraction=[0.6, 0.8])
    sp = predict_scenario(with_data(data), CATALOG)
    band = json.loads(to_json(sp))["configurations"][0]["band"]
    assert band["inputs"] == [
        ["workloads.oltp.iops", 2400, 3600],
        ["workloads.oltp.read_fraction", 0.6, 0.8],
    ]
    assert band["method"].startswith("corners and a sample")
    assert sp.baseline.band is not None
    assert "over a sample: an inner estimate" in band_sentence(sp.baseline.band)
    chart = next(c for c in build_report(sp, generated="").charts if c.key == "chart-response")
    assert "over a sample of the read and sequential fractions" in chart.caption

    path = tmp_path / "ranged.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "2,400-3,600" in text
    assert "60%-80%" in text
    assert "workloads.oltp.iops 2400 to 3600; workloads.oltp.read_fraction 0.6 to 0.8" in text
    assert "the read and sequential fractions sampled" in text


def test_an_alternative_samples_around_its_own_prediction() -> None:
    data = _sampled()
    data["analyses"] = {"compare": [{"name": "bigger cache", "set": {"system.cache_gb": 384}}]}
    sp = predict_scenario(with_data(data), CATALOG)
    for p in (sp.baseline, *sp.alternatives):
        assert p.band is not None
        assert p.band.sampled
        assert_band_holds(p)


def test_the_band_holds_a_planning_maximum_that_peaks_inside_the_range() -> None:
    """The shipped 15K pool at 8,000-10,000 IOPS and 60-80% reads: its planning maximum (the
    5 ms target binds) can peak inside the range, beyond every sample extreme in response time
    or maximum (it did near the middle read fraction: 25,116 IOPS against 25,132 at the middle,
    before destages were costed with the reads that break their sweep). The middle sample is
    always among the whole predictions, so the band holds the prediction."""
    from pathlib import Path

    from diskmodel.yamlio import load_yaml

    path = Path(__file__).resolve().parents[2] / "scenarios" / "ds8800-15k-pool.yaml"
    data = dict(load_yaml(path).data)
    data["workloads"] = [dict(data["workloads"][0], iops=[8000, 10000], read_fraction=[0.6, 0.8])]
    data["analyses"] = {"curve": {"points": 20}}
    p = predict_scenario(with_data(data), CATALOG).baseline
    assert p.band is not None
    assert p.band.planning_max_iops[1] >= p.service_level.max_iops * (1 - REL)
    assert_band_holds(p)
