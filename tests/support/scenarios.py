"""Scenarios the tests of several folders start from: one valid file's text, a small scenario
whose names are given (for the names fuzzed into reports), and the worst-case bench's pool
made quick to solve, open or driven by an application (for the work estimate's tests)."""

from __future__ import annotations

import textwrap
from typing import Any

from diskmodel.scenario import Scenario, validate_scenario
from diskmodel.yamlio import Located

VALID = textwrap.dedent(
    """\
    schema_version: 1
    name: test
    system:
      model: ds8800-951
      processor_ways: 4
      cache_gb: 128
      host_ports: 4
      da_pairs: 2
    pools:
      - name: p0
        easy_tier: auto
        ranks:
          - {drive: 15k-146, raid: raid5-7+p, count: 4}
    workloads:
      - name: oltp
        pool: p0
        iops: 5000
        read_fraction: 0.7
        read_hit_ratio: 0.5
        capacity_gb: 1000
    """
)


def scenario_with_names(names: list[str], description: str) -> Scenario:
    data: dict[str, Any] = {
        "schema_version": 1,
        "name": names[0],
        "description": description,
        "system": {"model": "ds8800-951", "cache_gb": 128, "host_ports": 4, "da_pairs": 1},
        "pools": [
            {"name": names[1], "ranks": [{"drive": "15k-146", "raid": "raid5-7+p", "count": 2}]}
        ],
        "workloads": [
            {
                "name": names[2],
                "pool": names[1],
                "iops": 800,
                "read_fraction": 0.7,
                "read_hit_ratio": 0.5,
                "capacity_gb": 500,
            }
        ],
        "analyses": {
            "curve": {"points": 5},
            "compare": [
                {"name": names[3], "set": {"system.cache_gb": 64, "system.processor_ways": 2}}
            ],
        },
    }
    return validate_scenario(Located(data=data, source="fuzzed.yaml"))


def worst_case_small(**changes: Any) -> dict[str, Any]:
    """The worst-case bench's three-tier pool behind 16 ports and 4 DA pairs (quick to solve),
    as scenario data (`bench.bench_worst_case.scenario`)."""
    from bench.bench_worst_case import scenario

    data = scenario(**changes)
    data["system"].update(host_ports=16, da_pairs=4)
    return data


def worst_case_application(users: int, **changes: Any) -> dict[str, Any]:
    """`worst_case_small`'s pool, its workload driven by an application of `users` users (50
    ms think, 1 ms CPU on 16 CPUs, 10 I/Os a transaction). Up to about 313 users its rate stays
    under the pool's first Easy Tier ceiling (about 58,000 I/O/s); at 400 it passes it."""
    data = worst_case_small(**changes)
    workload = data["workloads"][0]
    del workload["iops"]
    workload["ios_per_transaction"] = 10
    data["application"] = {
        "name": "orders",
        "users": users,
        "think_time_ms": 50,
        "cpu_ms_per_transaction": 1,
        "cpus": 16,
    }
    return data
