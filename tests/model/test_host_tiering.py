"""Host-side tiering (issue 12 item 3): the host places the pool's data by its own read counts
(IBM i's ASP balancer), against Easy Tier's back-end counts."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from diskmodel.catalog import load_catalog
from diskmodel.configuration import resolve
from diskmodel.model.layout import layout
from diskmodel.scenario import ScenarioError

from ..support.builders import BASE, with_data


def _data(**pool: Any) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0].update(pool)
    data["pools"][0]["ranks"].append({"drive": "ssd-300", "raid": "raid5-6+p+s", "count": 1})
    reads = copy.deepcopy(data["workloads"][0])
    # All reads, all found in cache: no back-end I/O for Easy Tier to see, all host reads.
    reads.update(name="cached", read_fraction=1.0, read_hit_ratio=1.0, capacity_gb=1500)
    writes = data["workloads"][0]
    writes.update(name="writes", read_fraction=0.0, read_hit_ratio=0.0, capacity_gb=1500)
    data["workloads"] = [reads, writes]
    return data


def _ssd_gb(data: dict[str, Any], scale: float = 1.0) -> dict[str, float]:
    config = resolve(with_data(data), load_catalog())
    rates = [scale * (w.iops or 0.0) for w in config.workloads]
    placed = layout(config, rates)["p"].placement
    return {w.name: placed.workload(w.name).on("ssd").capacity_used_gb for w in config.workloads}


def test_the_host_ranks_by_its_reads_and_easy_tier_by_back_end_work() -> None:
    host = _ssd_gb(_data(easy_tier="off", host_tiering=True))
    easy = _ssd_gb(_data(easy_tier="auto"))
    assert host["cached"] > host["writes"]
    assert easy["writes"] > easy["cached"]


def test_the_hosts_placement_does_not_depend_on_the_load_level() -> None:
    data = _data(easy_tier="off", host_tiering=True)
    assert _ssd_gb(data, 0.1) == pytest.approx(_ssd_gb(data, 10.0), rel=1e-9)


def test_host_tiering_beside_easy_tier_is_refused() -> None:
    with pytest.raises((ScenarioError, ValueError)) as caught:
        with_data(_data(easy_tier="auto", host_tiering=True))
    assert "Easy Tier must be off here" in str(caught.value)
