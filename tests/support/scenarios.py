"""Scenarios the tests of several folders start from: one valid file's text, and a small
scenario whose names are given (for the names fuzzed into reports)."""

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
