"""`diskmodel size`: configurations tried per second (issue 14 item 4), in one process and
spread over the cores, on a larger search than the shipped one.

    .venv/bin/python -m bench size

The search is the shipped scenarios/ds8800-size-for-growth.yaml with more options (SSD ranks
0-7, 15K ranks 12-28, 2 or 4 DA pairs: 80 configurations, each at the planned load and 3
growth periods). CPU-bound work on a shared machine: the ratio between the two is what to
read, and a second run varies by about 20%. Measured 2026-11-25 (2 cores): about 180
configurations per second in one process, 280 over two (each process gets the search's
scenario and catalog once; when they went with every configuration, two processes were no
faster than one: 150-180 per second).
"""

from __future__ import annotations

import os
import time

from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.scenario import Scenario

from .bench_report import ROOT

SCENARIO = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"


def _bigger() -> Scenario:
    data = load_scenario(SCENARIO).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.3, "per": "year", "periods": 3}
    data["analyses"]["size"]["ranks"] = [
        {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": list(range(8))},
        {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [12, 16, 20, 24, 28]},
    ]
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def main() -> None:
    scenario = _bigger()
    size_scenario(scenario, workers=1)  # warm-up: tables built once per process
    rows = []
    for workers in (1, min(os.cpu_count() or 1, 8)):
        start = time.perf_counter()
        result = size_scenario(scenario, workers=workers)
        seconds = time.perf_counter() - start
        rows.append((workers, len(result.candidates), seconds))
    print("bench size: configurations tried per second (wall clock)")
    for workers, n, seconds in rows:
        print(
            f"  {workers} process(es): {n} configurations in {seconds:.2f} s = {n / seconds:.0f}/s"
        )
