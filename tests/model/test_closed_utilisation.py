"""Utilisation in the closed solution: a drive's busy fraction, ranks of mixed widths.

The pool of DOMAIN.md C3 (scenarios/ds8800-c3-baseline.yaml): 8 RAID-5 6+P+S ranks (7 active
drives) and 8 RAID-5 7+P ranks (8 active drives) of 15K drives, load spread by capacity (6 vs
7 data drives), so each 7+P drive carries (7/8) / (6/7) = 2% more operations than a 6+P+S
drive. Host queue depth 256, closed, command queueing credited.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from diskmodel.catalog import load_catalog
from diskmodel.components.raid import active_drives
from diskmodel.prediction import Prediction

from ..support.builders import BASE, predict_one, solver, with_data


def _c3_pool() -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["system"]["host_ports"] = 4
    data["pools"][0]["ranks"] = [
        {"drive": "15k-146", "raid": "raid5-6+p+s", "count": 8},
        {"drive": "15k-146", "raid": "raid5-7+p", "count": 8},
    ]
    workload = data["workloads"][0]
    del workload["iops"]
    workload.update(queue_depth=256, read_hit_ratio=0.1, destage_ratio=1.0, capacity_gb=12000)
    return data


@pytest.fixture(scope="module")
def c3() -> Prediction:
    return predict_one(with_data(_c3_pool()))


def test_busy_drives_are_ordered_like_their_back_end_load(c3: Prediction) -> None:
    """A drive carrying more operations is busy at least as long: each 7+P drive carries 2%
    more than a 6+P+S drive, so its utilisation is not lower (it was 0.72 vs 0.80 when the
    command-queueing credit was the gain at the mean queue rounded up, 3 vs 2 requests)."""
    per_drive = {r.name: r.backend_iops / active_drives_of(r.raid) for r in c3.ranks}
    util = {r.name: r.utilization for r in c3.ranks}
    wide = [r.name for r in c3.ranks if r.raid == "raid5-7+p"]
    spared = [r.name for r in c3.ranks if r.raid == "raid5-6+p+s"]
    assert min(per_drive[w] for w in wide) > max(per_drive[s] for s in spared) * 1.01
    assert min(util[w] for w in wide) > max(util[s] for s in spared)
    # A busier drive also has the longer response time.
    response = {c.name: c.response_time_ms or 0.0 for c in c3.components}
    assert min(response[w] for w in wide) > max(response[s] for s in spared)


def test_busiest_component_of_the_closed_solution_is_the_open_bottlenecks_kind(
    c3: Prediction,
) -> None:
    """The open analysis names the station that saturates first (a 7+P rank: the most work
    per drive); the closed solution's busiest component is a rank of that same kind."""
    assert c3.closed is not None
    busiest = max(c3.components, key=lambda c: c.utilization)
    rank = {r.name: r for r in c3.ranks}
    assert c3.bottleneck in rank
    assert busiest.name in rank
    assert (rank[busiest.name].drive, rank[busiest.name].raid) == (
        rank[c3.bottleneck].drive,
        rank[c3.bottleneck].raid,
    )


def test_command_queueing_never_makes_a_drive_busier_than_fcfs() -> None:
    """A drive's utilisation lies above zero and at most its work at queue-length-one speed
    (throughput times busy time per I/O): reordering shortens operations, never lengthens
    them, and it serves destages and reads alike."""
    point = solver(with_data(_c3_pool())).planned_point()
    net = point.network
    fcfs = point.rates @ net.work  # busy seconds per second at queue-length-one speed
    for info in net.ranks:
        k = info.station
        assert 0.0 < point.utilization[k] <= min(fcfs[k], 1.0) * (1 + 1e-12)
        assert point.speed_factor[k] <= 1.0 + 1e-12


def active_drives_of(raid_name: str) -> int:
    return active_drives(load_catalog().raid_formats[raid_name])


def test_utilization_law_holds_in_the_closed_solution(c3: Prediction) -> None:
    """Issue 17 item 10: the closed JSON broke U = X S for ranks (1.011 against a reported
    0.929) because it printed the open service time, without the command-queueing credit. Each
    station's service time is now the busy time per operation at the closed point's own queue,
    so the law holds at every station, in the solver and in the Prediction."""
    point = solver(with_data(_c3_pool())).planned_point()
    servers = point.network.servers
    assert point.utilization == pytest.approx(point.arrival * point.service_s / servers, rel=1e-9)
    utilization = [c.utilization for c in c3.components]
    service_ms = [c.service_time_ms for c in c3.components]
    np.testing.assert_allclose(utilization, point.utilization, rtol=1e-9)
    np.testing.assert_allclose(service_ms, point.service_s * 1e3, rtol=1e-9)
