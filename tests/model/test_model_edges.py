"""Numerical edges of the whole model: the planned load at its extremes, mixes at 0 and 1.

Each case predicts a scenario and checks the JSON result with the fuzz invariants (finite,
non-negative numbers; utilisations and fractions in [0, 1]) plus what the edge itself implies.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel import predict
from diskmodel.errors import UserError
from diskmodel.report.json_result import to_json
from diskmodel.scenario import Scenario, validate_scenario
from diskmodel.yamlio import Located, parse_yaml

from ..support.invariants import check_result_json
from ..support.scenarios import VALID

BASE: dict[str, Any] = parse_yaml(VALID, "VALID").data


def scenario(**workload: Any) -> Scenario:
    data = copy.deepcopy(BASE)
    data["workloads"][0].update(workload)
    data["workloads"][0] = {k: v for k, v in data["workloads"][0].items() if v is not None}
    return validate_scenario(Located(data=data, source="edge.yaml"))


def solve(s: Scenario) -> dict[str, Any]:
    data = check_result_json(to_json(predict(s)))
    return dict(data["configurations"][0])


@pytest.mark.parametrize("read_fraction", [0.0, 1.0])
@pytest.mark.parametrize("read_hit_ratio", [0.0, 1.0])
def test_all_reads_or_all_writes_and_hit_ratios_zero_or_one(
    read_fraction: float, read_hit_ratio: float
) -> None:
    config = solve(scenario(iops=500, read_fraction=read_fraction, read_hit_ratio=read_hit_ratio))
    assert not config["saturated"]
    assert config["response_time_ms"] > 0
    backend = sum(r["backend_iops"] for r in config["ranks"])
    if read_fraction == 1.0 and read_hit_ratio == 1.0:
        # Every read hits and there are no writes: the drives see nothing.
        assert backend == 0.0
        assert all(r["utilization"] == 0.0 for r in config["ranks"])
    else:
        assert backend > 0.0


def test_a_thousandth_of_an_io_per_second_is_the_unloaded_response() -> None:
    light = solve(scenario(iops=1e-3))
    lighter = solve(scenario(iops=2e-3))
    assert light["response_time_ms"] == pytest.approx(lighter["response_time_ms"], rel=1e-5)
    assert max(c["utilization"] for c in light["components"]) < 1e-5


def test_a_billion_ios_per_second_saturates_without_nan() -> None:
    config = solve(scenario(iops=1e9))
    assert config["saturated"]
    assert config["response_time_ms"] is None
    assert config["max_iops"] < 1e9


@pytest.mark.parametrize(("factor", "saturated"), [(1 - 1e-9, False), (1 + 1e-9, True)])
def test_within_a_billionth_of_saturation(factor: float, saturated: bool) -> None:
    # Random read misses only: the bottleneck is a rank serving reads (no destage, so no NVS
    # limit), and its utilisation is 1 - 1e-9 or just past 1.
    mix = {"read_fraction": 1.0, "read_hit_ratio": 0.0}
    top = solve(scenario(**mix))["max_iops"]
    config = solve(scenario(iops=top * factor, **mix))
    assert config["saturated"] is saturated
    bottleneck = max(c["utilization"] for c in config["components"])
    if saturated:
        assert bottleneck == 1.0
        assert config["response_time_ms"] is None
    else:
        # rho = 1 - 1e-9 at the bottleneck: a huge but finite response time.
        assert bottleneck == pytest.approx(1.0, abs=1e-8)
        assert config["response_time_ms"] > 1e6


def test_a_tier_with_no_ranks_in_a_sweep() -> None:
    data = parse_yaml(
        VALID + "analyses:\n  tier_sweep: {pool: p0, drive: ssd-300, raid: raid5-7+p, "
        "counts: [0, 1]}\n",
        "edge.yaml",
    )
    result = predict(validate_scenario(data))
    check_result_json(to_json(result))
    none, one = result.tier_sweep
    assert none.tier_small_io_share == 0.0
    assert 0.0 < one.tier_small_io_share <= 1.0


def test_a_workload_larger_than_every_pool_is_a_user_error() -> None:
    data = copy.deepcopy(BASE)
    data["pools"].append(copy.deepcopy(data["pools"][0]) | {"name": "p1"})
    data["workloads"][0]["capacity_gb"] = 3000  # each pool holds 4 x 7 x 146 = 4,088 GB ...
    data["workloads"].append(
        data["workloads"][0] | {"name": "w1", "pool": "p1", "capacity_gb": 2000}
    )
    validate_scenario(Located(data=data, source="edge.yaml"))  # ... so this fits
    data["workloads"][0]["capacity_gb"] = 5000  # more than either pool, less than both
    with pytest.raises(UserError, match=r"edge\.yaml.*pool 'p0' need 5,000 GB .* 4,088 GB"):
        validate_scenario(Located(data=data, source="edge.yaml"))


@pytest.mark.parametrize("population", [1, 1024])
def test_closed_populations_from_one_to_a_thousand(population: int) -> None:
    config = solve(scenario(iops=None, queue_depth=population))
    closed = config["closed"]
    assert closed["population"] == population
    assert closed["iops"] > 0
    # Little's law: population = throughput x response time.
    assert closed["iops"] * closed["response_time_ms"] / 1000 == pytest.approx(population, rel=1e-6)
