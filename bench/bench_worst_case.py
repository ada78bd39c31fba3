"""The costliest scenarios diskmodel accepts (issue 17 item 6), each in a fresh process.

    .venv/bin/python -m bench worst_case

For each shape: the work estimate that validation judges it by (`diskmodel.analyses.budget`),
the CPU seconds and peak memory of the prediction, and whether the estimate bounded it. A
shape whose estimate is over the limit is refused by validation; its row shows how long the
refusal took. The table in docs/SECURITY.md is this benchmark's output.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

_RUN = """
import json, resource, sys, time
import diskmodel
from diskmodel.catalog import load_catalog
from diskmodel.scenario import ScenarioError
from diskmodel.analyses.budget import estimate
start = time.process_time()
try:
    scenario = diskmodel.load_scenario(sys.argv[1])
except ScenarioError as exc:
    print(json.dumps({"refused": str(exc)[:200], "cpu_s": time.process_time() - start}))
    raise SystemExit(0)
work = estimate(scenario, load_catalog()).seconds
diskmodel.predict(scenario)
print(json.dumps({
    "estimate_s": work,
    "cpu_s": time.process_time() - start,
    "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
}))
"""

_TIERS = (("15k-300", "raid5-7+p", 16), ("ssd-300", "raid5-6+p+s", 2), ("nl-3tb", "raid6-6+p+q", 4))


def scenario(
    *,
    pools: int = 1,
    workloads: int = 1,
    easy_tier: str = "auto",
    queue_depth: int | None = None,
    analyses: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A DS8800 with `pools` three-tier pools (22 ranks each) and `workloads` spread over them."""
    out: list[dict[str, Any]] = []
    for w in range(workloads):
        load: dict[str, Any] = {"queue_depth": queue_depth} if queue_depth else {"iops": 2000}
        out.append(
            {
                "name": f"w{w}",
                "pool": f"p{w % pools}",
                "read_fraction": 0.7,
                "read_hit_ratio": 0.4,
                "destage_ratio": 0.6,
                "read_size_kib": 8,
                "write_size_kib": 8,
                "capacity_gb": 1000,
                "skew": {"level": "high"},
                **load,
            }
        )
    return {
        "schema_version": 1,
        "name": "worst case",
        "system": {
            "model": "ds8800-951",
            "processor_ways": 4,
            "cache_gb": 128,
            "host_ports": 128,
            "da_pairs": 8,
        },
        "pools": [
            {
                "name": f"p{p}",
                "easy_tier": easy_tier,
                "ranks": [{"drive": d, "raid": r, "count": c} for d, r, c in _TIERS],
            }
            for p in range(pools)
        ],
        "workloads": out,
        "analyses": analyses or {},
    }


def _alternatives(n: int) -> list[dict[str, Any]]:
    return [{"name": f"cache {i}", "set": {"system.cache_gb": 256}} for i in range(n)]


CASES: dict[str, dict[str, Any]] = {
    "1 workload, 3 tiers, 60 points": scenario(),
    "1 workload, 2,000 points": scenario(analyses={"curve": {"points": 2000}}),
    "64 workloads in one 3-tier pool, 12 points": scenario(
        workloads=64, analyses={"curve": {"points": 12}}
    ),
    "64 workloads in 8 pools, 60 points": scenario(pools=8, workloads=64),
    "8 pools x 1 workload, 200 points, 8 alternatives": scenario(
        pools=8, workloads=8, analyses={"curve": {"points": 200}, "compare": _alternatives(8)}
    ),
    "64 alternatives x 64 growth factors": scenario(
        analyses={
            "compare": _alternatives(64),
            "growth": {"factors": [1 + 0.05 * i for i in range(64)]},
        }
    ),
    "closed, queue depth 64": scenario(queue_depth=64, analyses={"curve": {"points": 12}}),
    "closed, queue depth 2,048": scenario(queue_depth=2048, analyses={"curve": {"points": 12}}),
    "closed, queue depth 4,096": scenario(queue_depth=4096, analyses={"curve": {"points": 12}}),
    "64 closed workloads x queue depth 64, Easy Tier off": scenario(
        workloads=64, queue_depth=64, easy_tier="off", analyses={"curve": {"points": 12}}
    ),
    "64 closed workloads x queue depth 64, one 3-tier pool": scenario(
        workloads=64, queue_depth=64, analyses={"curve": {"points": 12}}
    ),
}


def main() -> int:
    print(f"{'shape':58} {'estimate s':>10} {'CPU s':>7} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in CASES.items():
            path = Path(tmp) / "case.yaml"
            path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
            done = subprocess.run(
                [sys.executable, "-c", _RUN, str(path)], capture_output=True, text=True
            )
            if done.returncode != 0:
                print(f"{name:58} failed: {done.stderr.strip().splitlines()[-1][:100]}")
                continue
            r = json.loads(done.stdout.strip().splitlines()[-1])
            if "refused" in r:
                print(f"{name:58} {'> limit':>10} {r['cpu_s']:7.2f} {'':>8}  refused")
                continue
            bounded = "bounded" if r["estimate_s"] >= r["cpu_s"] else "UNDER-ESTIMATED"
            print(
                f"{name:58} {r['estimate_s']:10.1f} {r['cpu_s']:7.1f} "
                f"{r['max_rss_mb']:8.0f}  {bounded}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
