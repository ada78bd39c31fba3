"""Small scenarios built in Python for model tests (no files): one place, so tests stay short."""

from __future__ import annotations

import copy
from typing import Any

from diskmodel.analyses import predict_configuration
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.prediction import Prediction
from diskmodel.scenario import Scenario

BASE: dict[str, Any] = {
    "schema_version": 1,
    "name": "test",
    "system": {
        "model": "ds8800-951",
        "processor_ways": 4,
        "cache_gb": 128,
        "host_ports": 8,
        "da_pairs": 2,
    },
    "pools": [
        {
            "name": "p",
            "easy_tier": "off",
            "ranks": [{"drive": "15k-300", "raid": "raid5-7+p", "count": 4}],
        }
    ],
    "workloads": [
        {
            "name": "oltp",
            "pool": "p",
            "iops": 3000,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.5,
            "destage_ratio": 0.573,
            "read_size_kib": 4,
            "write_size_kib": 4,
            "capacity_gb": 4000,
        }
    ],
}


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A deep copy of scenario data `base` with dotted-path changes (`system.lcus.0.aliases`:
    a list's item by its index)."""
    data = copy.deepcopy(base)
    for dotted, value in changes.items():
        node: Any = data
        steps = dotted.split(".")
        for step in steps[:-1]:
            node = node[int(step)] if isinstance(node, list) else node[step]
        last = steps[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return data


def ssd_and_15k(ssd_ranks: int, hdd_ranks: int) -> dict[str, Any]:
    """A copy of `BASE` whose pool is an Easy Tier pool of `ssd_ranks` 300 GB SSD ranks
    (RAID-5 6+P+S) and `hdd_ranks` 300 GB 15K ranks (RAID-5 7+P), for the tests to add their
    own workloads to."""
    data: dict[str, Any] = copy.deepcopy(BASE)
    data["pools"][0]["easy_tier"] = "auto"
    data["pools"][0]["ranks"] = [
        {"drive": "ssd-300", "raid": "raid5-6+p+s", "count": ssd_ranks},
        {"drive": "15k-300", "raid": "raid5-7+p", "count": hdd_ranks},
    ]
    return data


def scenario(**changes: Any) -> Scenario:
    """The base scenario with dotted-path changes, e.g. scenario(**{"system.host_ports": 4})."""
    return Scenario.model_validate(changed(BASE, **changes), context={"catalog": load_catalog()})


def with_data(data: dict[str, Any]) -> Scenario:
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def predict_one(
    s: Scenario, hit_ratios: list[float] | None = None, catalog: Catalog | None = None
) -> Prediction:
    """One configuration's Prediction (growth from the scenario), optionally with the read hit
    ratios replaced (as a cache projection would) or another catalog."""
    hits = None if hit_ratios is None else [(h, "given by the test") for h in hit_ratios]
    config = resolve(s, catalog or load_catalog(), hit_ratios=hits)
    factors = s.analyses.growth.factors if s.analyses.growth else ()
    return predict_configuration(config, factors)


def solver(s: Scenario) -> Solver:
    """The operating-point solver of a scenario's baseline."""
    return Solver(resolve(s, load_catalog()))
