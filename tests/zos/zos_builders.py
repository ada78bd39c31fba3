"""z/OS scenarios built in Python for the z/OS tests: FICON channels, LCUs, CKD volumes."""

from __future__ import annotations

from typing import Any

from diskmodel.catalog import load_catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model import Solver
from diskmodel.model.operating import OperatingPoint
from diskmodel.model.results import workloads
from diskmodel.prediction import WorkloadResult
from diskmodel.scenario import Scenario

from ..support.builders import changed

ZOS: dict[str, Any] = {
    "schema_version": 1,
    "name": "zos test",
    "system": {
        "model": "ds8800-951",
        "processor_ways": 4,
        "cache_gb": 128,
        "host_ports": 8,
        "da_pairs": 2,
        "ficon": {"channel": "ficon-express-8s", "channels": 4, "zhpf": True},
        "lcus": [{"name": "a", "pav": "none", "aliases": 0}],
    },
    "pools": [
        {
            "name": "p",
            "easy_tier": "off",
            "ranks": [{"drive": "15k-300", "raid": "raid5-7+p", "count": 8}],
        }
    ],
    "workloads": [
        {
            "name": "db2",
            "pool": "p",
            "iops": 4000,
            "read_fraction": 0.7,
            "read_hit_ratio": 0.8,
            "destage_ratio": 0.6,
            "capacity_gb": 350,
            "zos": {"lcus": ["a"], "volumes": 8, "volume_model": "3390-54"},
        }
    ],
}


def zos_data(**changes: Any) -> dict[str, Any]:
    """`ZOS` with dotted-path changes (`system.lcus.0.aliases`, `workloads.0.iops`)."""
    return changed(ZOS, **changes)


def zos_scenario(**changes: Any) -> Scenario:
    catalog = load_catalog()
    return Scenario.model_validate(zos_data(**changes), context={"catalog": catalog})


def zos_config(**changes: Any) -> Configuration:
    return resolve(zos_scenario(**changes), load_catalog())


def planned(config: Configuration) -> OperatingPoint:
    solver = Solver(config)
    return solver.open_point(solver.planned_rates())


def results(config: Configuration) -> tuple[WorkloadResult, ...]:
    return workloads(planned(config))
