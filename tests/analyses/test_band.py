"""Inputs as ranges (issue 13 item 3): the prediction at the middle of every range, a band
from the pessimistic to the optimistic corner that holds it and widens with the ranges."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from diskmodel.analyses import predict_scenario
from diskmodel.catalog import load_catalog
from diskmodel.prediction import Prediction
from diskmodel.report.json_result import to_json
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, with_data


def _tiered(hit: Any, destage: Any, level: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto"
    data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 2})
    w = data["workloads"][0]
    w.update(read_hit_ratio=hit, destage_ratio=destage, skew={"level": level})
    return data


def test_the_prediction_is_at_the_middle_of_every_range() -> None:
    ranged = predict_scenario(with_data(_tiered([0.3, 0.5], [0.4, 0.8], [6.0, 12.0])))
    middle = predict_scenario(with_data(_tiered(0.4, 0.6, 9.0)))
    assert ranged.baseline.response_time_ms == pytest.approx(middle.baseline.response_time_ms)
    assert ranged.baseline.max_iops == pytest.approx(middle.baseline.max_iops)
    assert middle.baseline.band is None
    band = ranged.baseline.band
    assert band is not None
    assert [key for key, _, _ in band.inputs] == [
        "workloads.oltp.read_hit_ratio",
        "workloads.oltp.destage_ratio",
        "workloads.oltp.skew.level",
    ]


def test_the_band_holds_the_central_prediction() -> None:
    assert_band_holds(
        predict_scenario(with_data(_tiered([0.3, 0.5], [0.4, 0.8], [6.0, 12.0]))).baseline
    )


def assert_band_holds(p: Prediction) -> None:
    """The prediction (at the middle of every range) lies inside its band: response time,
    maximum, planning maximum and every curve point."""
    band = p.band
    assert band is not None
    worst, best = band.response_time_ms
    assert worst is not None
    assert best is not None
    assert p.response_time_ms is not None
    assert best <= p.response_time_ms <= worst
    assert band.max_iops[0] <= p.max_iops <= band.max_iops[1]
    assert band.planning_max_iops[0] <= p.service_level.max_iops <= band.planning_max_iops[1]
    central = {c.iops: c.response_time_ms for c in p.curve}
    for b in band.curve:
        mid = central[b.iops]
        if mid is not None and b.pessimistic_ms is not None and b.optimistic_ms is not None:
            assert b.optimistic_ms <= mid * (1 + 1e-9)
            assert mid <= b.pessimistic_ms * (1 + 1e-9)


def test_a_wider_range_gives_a_wider_band() -> None:
    narrow = predict_scenario(with_data(_tiered([0.35, 0.45], [0.5, 0.7], [8.0, 10.0])))
    wide = predict_scenario(with_data(_tiered([0.3, 0.5], [0.4, 0.8], [6.0, 12.0])))
    n, w = narrow.baseline.band, wide.baseline.band
    assert n is not None
    assert w is not None
    assert w.max_iops[0] <= n.max_iops[0] <= n.max_iops[1] <= w.max_iops[1]
    assert w.response_time_ms[1] <= n.response_time_ms[1]  # type: ignore[operator]
    assert n.response_time_ms[0] <= w.response_time_ms[0]  # type: ignore[operator]


def test_the_band_is_written_to_json_and_shaded_in_the_report() -> None:
    from diskmodel.report.html import build_report

    sp = predict_scenario(with_data(_tiered([0.3, 0.5], 0.6, 9.0)), load_catalog())
    data = json.loads(to_json(sp))
    band = data["configurations"][0]["band"]
    assert band["inputs"] == [["workloads.oltp.read_hit_ratio", 0.3, 0.5]]
    chart = next(c for c in build_report(sp, generated="").charts if c.key == "chart-response")
    assert "shaded band" in chart.caption


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"read_hit_ratio": [0.5, 0.3]}, "read_hit_ratio: a range is [low, high] with low < high"),
        ({"destage_ratio": [0.2, 1.5]}, "destage_ratio[1]: 1.5 is not allowed: must be less"),
        ({"skew": {"level": [12, 6]}}, "a skew level range is [low, high]"),
        ({"read_size_kib": [16, 8]}, "read_size_kib: a range is [low, high] with low < high"),
        ({"write_size_kib": [0, 8]}, "write_size_kib[0]: 0 is not allowed: must be greater than 0"),
        ({"read_fraction": [0.8, 0.6]}, "read_fraction: a range is [low, high] with low < high"),
        ({"read_fraction": [0.6, 1.2]}, "read_fraction[1]: 1.2 is not allowed: must be less"),
        (
            {"write_sequential_fraction": [-0.1, 0.2]},
            "write_sequential_fraction[0]: -0.1 is not allowed: must be greater than or equal to 0",
        ),
        (
            {"iops": [12000, 8000]},
            "iops: a range of the planned rate is [low, high] with low < high (the curve's span "
            "is iops_range)",
        ),
        (
            {"iops_range": [12000, 8000]},
            "iops_range (the curve's span, not a range of the planned rate: give that as iops: "
            "[low, high]) must be",
        ),
    ],
)
def test_a_bad_range_gets_one_clear_message(
    change: dict[str, Any], message: str, tmp_path: Any
) -> None:
    """Through the file, as a planner meets it: one line, at the key, saying what to fix (a
    range is not also read as a number, nor a number as a range)."""
    from ruamel.yaml import YAML

    from diskmodel.scenario import load_scenario

    data = _tiered(0.4, 0.6, 9.0)
    data["workloads"][0].update(change)
    path = tmp_path / "ranged.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(data, f)
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    lines = str(caught.value).splitlines()
    assert len(lines) == 1, lines
    assert message in lines[0]


def test_check_shows_the_ranges(tmp_path: Any) -> None:
    from ruamel.yaml import YAML
    from typer.testing import CliRunner

    from diskmodel.cli import app

    path = tmp_path / "ranged.yaml"
    with path.open("w", encoding="utf-8") as f:
        YAML().dump(_tiered([0.3, 0.5], 0.6, [6.0, 12.0]), f)
    result = CliRunner().invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "30%-50%" in text
    assert "Inputs given as ranges: workloads.oltp.read_hit_ratio 0.3 to 0.5" in text


def test_every_alternative_gets_its_own_band_around_its_own_prediction() -> None:
    data = _tiered([0.3, 0.5], [0.4, 0.8], [6.0, 12.0])
    data["analyses"] = {
        "compare": [
            {"name": "bigger cache", "set": {"system.cache_gb": 384}},
            {"name": "hit ratio known", "set": {"workloads.oltp.read_hit_ratio": 0.45}},
        ]
    }
    sp = predict_scenario(with_data(data), load_catalog())
    cache, known = sp.alternatives
    for p in (sp.baseline, cache, known):
        assert p.band is not None
        worst, best = p.band.response_time_ms
        assert worst is not None
        assert best is not None
        assert p.response_time_ms is not None
        assert best <= p.response_time_ms <= worst
    # The bigger cache projects each corner's hit ratio: its band sits below the baseline's.
    assert cache.band is not None
    assert sp.baseline.band is not None
    assert cache.band.response_time_ms[0] <= sp.baseline.band.response_time_ms[0]
    # An alternative that sets the hit ratio keeps the other ranges only.
    assert known.band is not None
    assert [key for key, _, _ in known.band.inputs] == [
        "workloads.oltp.destage_ratio",
        "workloads.oltp.skew.level",
    ]


def _sized(read: Any, write: Any) -> dict[str, Any]:
    data = _tiered(0.4, 0.6, 9.0)
    data["workloads"][0].update(read_size_kib=read, write_size_kib=write)
    return data


def test_transfer_sizes_as_ranges_bound_the_answer_and_widen_with_the_range() -> None:
    """Longer transfers are more work at every station an I/O visits (ports, cards, DA pairs,
    drives, the write copy), so the long ends are the pessimistic corner: the band holds the
    prediction at the middle sizes and widens with the ranges."""
    middle = predict_scenario(with_data(_sized(16.0, 12.0))).baseline
    narrow = predict_scenario(with_data(_sized([12.0, 20.0], [8.0, 16.0]))).baseline
    wide = predict_scenario(with_data(_sized([4.0, 28.0], [4.0, 20.0]))).baseline
    assert narrow.response_time_ms == pytest.approx(middle.response_time_ms)
    assert narrow.max_iops == pytest.approx(middle.max_iops)
    n, w = narrow.band, wide.band
    assert n is not None
    assert w is not None
    assert [key for key, _, _ in n.inputs] == [
        "workloads.oltp.read_size_kib",
        "workloads.oltp.write_size_kib",
    ]
    assert n.max_iops[0] < middle.max_iops < n.max_iops[1]
    worst, best = n.response_time_ms
    assert worst is not None
    assert best is not None
    assert middle.response_time_ms is not None
    assert best < middle.response_time_ms < worst
    assert w.max_iops[0] <= n.max_iops[0] <= n.max_iops[1] <= w.max_iops[1]
    assert w.response_time_ms[1] <= n.response_time_ms[1]  # type: ignore[operator]
    assert n.response_time_ms[0] <= w.response_time_ms[0]  # type: ignore[operator]


def test_a_skew_range_may_name_presets() -> None:
    """A named preset range: [intermediate, high] is the presets' 7 to 14."""
    named = with_data(_tiered(0.4, 0.6, ["intermediate", "high"]))
    assert named.workloads[0].skew is not None
    assert named.workloads[0].skew.level == (7.0, 14.0)
    data = _tiered(0.4, 0.6, ["high", "intermediate"])
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(data)
    assert "two numbers or preset names with low < high" in str(caught.value)


def test_an_input_left_out_is_listed_as_a_default_beside_ranges() -> None:
    """Resolving the ranges at their middle replaces only the ranges: a destage ratio left out
    is still listed with the 1.0 used (issue 13: it had been dropped from the list, as if
    given, by every scenario; measured-peaks' batch workload and db2-logs' batch showed it)."""
    from diskmodel.configuration import resolve

    data = _tiered([0.3, 0.5], 0.6, 9.0)
    del data["workloads"][0]["destage_ratio"]
    keys = [d.key for d in resolve(with_data(data)).inputs.defaults]
    assert "workloads.oltp.destage_ratio" in keys
    assert "workloads.oltp.read_hit_ratio" not in keys
