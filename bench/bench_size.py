"""`diskmodel size`: candidates screened per second by the vectorised bounds, configurations
solved exactly per second, and what pruning saves (issue 14 item 4), each row against a
target, times also as multiples of one `import numpy` in a fresh interpreter (measured at the
start of this run, as bench_queueing does).

    .venv/bin/python -m bench size

1. **Screen**: `analyses.size_bounds.screen` (numpy over every candidate at once: the
   utilisation, saturation and response-time bounds in every growth period) over a synthetic
   space of 131,072 configurations of the OLTP pool of scenarios/ds8800-size-for-growth.yaml
   (0-31 SSD ranks x 4-128 15K ranks x 1-8 DA pairs x 2-16 host ports x 2- or 4-way),
   beyond the 512 a scenario may ask to solve. Target: 100,000 candidates per second on the
   project's 2-core machine (issue 14's goal for the open solution), in one process.
2. **Exact**: the exhaustive search (`prune=False`) of that scenario with more options (SSD
   ranks 0-7, 15K ranks 12-28, 2 or 4 DA pairs: 80 configurations, each at the planned load
   and 3 growth periods), in one process and over the cores. Targets: the rates this
   search had before the bounds (180/s in one process, 280/s over two, 2026-11-25), so that
   the exact path did not get slower.
3. **Pruned**: the same search with the bounds: configurations offered per second (solved +
   skipped). Target: at least the exhaustive rate of this run (the bounds pay for
   themselves); the detail says how many were skipped.

CPU-bound work on a shared machine: a second run varies by about 20%, more under load.
Measured 2026-11-25 on the shared 2-core machine under load (load average 3.5-5, three other
workers): screen 930,000 candidates/s (131,072 in 141 ms, 0.53 x import numpy): met; exact
48/s in one process and 65/s over two (not met; main at 82bb18a gave 97/s and 71/s a minute
before, and back-to-back runs of either ranged 46-97/s: the exact path is unchanged, the
machine was busy); pruned 68/s and 71/s offered, 11 and 10 of the 80 skipped: met. Again at
17:54 (load average 5.9): screen 760,000/s; exact 74/s and 57/s against main's (28d58ca) 71/s
and 57/s back to back; pruned 86/s and 72/s.
"""

from __future__ import annotations

import itertools
import os
import statistics
import time

import numpy as np

from diskmodel.analyses import size_bounds as bounds
from diskmodel.analyses import size_profile, size_try
from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog
from diskmodel.scenario import Scenario

from .bench_queueing import Row, import_numpy_s, show
from .bench_report import ROOT

SCENARIO = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
SCREEN_TARGET_PER_S = 100_000
EXACT_TARGET_PER_S = (180.0, 280.0)
"""Configurations solved per second before the bounds (bench size, 2026-11-25): in one
process, and over the cores (two on the project's machine)."""


def _bigger() -> Scenario:
    data = load_scenario(SCENARIO).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.3, "per": "year", "periods": 3}
    data["analyses"]["size"]["ranks"] = [
        {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": list(range(8))},
        {"pool": "oltp", "drive": "15k-300", "raid": "raid5-7+p", "counts": [12, 16, 20, 24, 28]},
    ]
    return Scenario.model_validate(data, context={"catalog": load_catalog()})


def _screen_inputs() -> tuple[
    list[size_profile.Profile], bounds.Space, tuple[size_profile.RankKind, ...], list, bounds.Limits
]:
    """The synthetic space and what the screen needs of it (two processor options)."""
    scenario = _bigger().corner("central")
    catalog = load_catalog()
    growth = scenario.analyses.growth
    assert growth is not None
    periods = ("now", *growth.labels)
    context = size_try.SizingContext(scenario, catalog, None, periods, tuple(growth.multipliers))
    kinds = size_profile.rank_kinds(
        catalog,
        scenario.system.model,
        [("oltp", "15k-300", "raid5-7+p"), ("oltp", "ssd-300", "raid5-6+p+s")],
    )
    profiles = []
    for ways in (2, 4):
        data = scenario.model_dump(mode="python", exclude_none=True)
        data["system"]["processor_ways"] = ways
        data["analyses"] = {}
        variant = Scenario.model_validate(data, context={"catalog": catalog})
        config = size_try.sized_configuration(variant, context)
        profiles.append(size_profile.profile(config, catalog, kinds))
    grid = np.array(
        list(
            itertools.product(
                range(2),  # processor option
                range(4, 129, 4),  # 15K ranks
                range(32),  # SSD ranks
                range(1, 9),  # DA pairs
                range(2, 17, 2),  # host ports
            )
        ),
        dtype=np.float64,
    )
    space = bounds.Space(
        profile=grid[:, 0].astype(np.int64),
        host_ports=grid[:, 4],
        da_pairs=grid[:, 3],
        ranks=grid[:, 1:3],
    )
    workloads = [(w.pool, w.capacity_gb, w.skew) for w in config.workloads]
    level = scenario.service_level
    limits = bounds.Limits(
        level.response_time_ms * 1e-3,
        level.utilization.host_adapter,
        level.utilization.processor,
        level.utilization.device_adapter,
        level.utilization.rank,
        tuple(growth.multipliers),
        periods,
    )
    return profiles, space, kinds, workloads, limits


def screen_rows() -> list[Row]:
    profiles, space, kinds, workloads, limits = _screen_inputs()
    n = len(space.profile)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        result = bounds.screen(profiles, space, kinds, workloads, limits)
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    rate = n / seconds
    return [
        Row(
            f"screen {n:,} candidates (bounds, 4 periods)",
            seconds,
            f">= {SCREEN_TARGET_PER_S:,} candidates/s",
            rate >= SCREEN_TARGET_PER_S,
            f"{rate:,.0f}/s; {int(result.fails.sum()):,} proved to break the service level, "
            f"{int(result.saturated.sum()):,} saturated now",
        )
    ]


def search_rows() -> list[Row]:
    scenario = _bigger()
    size_scenario(scenario, workers=1)  # warm-up: tables built once per process
    rows = []
    exhaustive_rate = {}
    cores = min(os.cpu_count() or 1, 8)
    for workers in sorted({1, cores}):
        start = time.perf_counter()
        result = size_scenario(scenario, workers=workers, prune=False)
        seconds = time.perf_counter() - start
        n = len(result.candidates)
        rate = n / seconds
        exhaustive_rate[workers] = rate
        target = EXACT_TARGET_PER_S[0 if workers == 1 else 1]
        rows.append(
            Row(
                f"exact: {n} configurations, {workers} process(es)",
                seconds,
                f">= {target:g} configurations/s",
                rate >= target,
                f"{rate:,.0f} configurations/s",
            )
        )
    for workers in sorted({1, cores}):
        start = time.perf_counter()
        result = size_scenario(scenario, workers=workers, prune=True)
        seconds = time.perf_counter() - start
        offered = len(result.candidates) + len(result.pruned)
        rate = offered / seconds
        rows.append(
            Row(
                f"pruned: {offered} configurations, {workers} process(es)",
                seconds,
                f">= exact ({exhaustive_rate[workers]:,.0f}/s)",
                rate >= exhaustive_rate[workers],
                f"{rate:,.0f} configurations/s; {len(result.pruned)} skipped, "
                f"{len(result.candidates)} solved",
            )
        )
    return rows


def main() -> None:
    numpy_s = import_numpy_s()
    print(f"bench size (import numpy: {numpy_s * 1e3:.0f} ms)")
    show("1. vectorised screen", screen_rows(), numpy_s)
    show("2-3. the search, exact and pruned (wall clock)", search_rows(), numpy_s)
