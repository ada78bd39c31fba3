"""The work bound's terms, each measured on its own (issue 30 item 6).

    .venv/bin/python -m bench budget_terms

`python -m bench budget` compares whole estimates with whole runs; when a row drifts, this
says which term did. Each unit the estimate prices (`diskmodel.analyses.budget`) is timed
here in CPU seconds beside its price, so a constant can be set from its own measure (1.3-2
times it under load, as the constants' docstrings say) rather than from the rows:

1. **Open units** on the worst-case bench's three-tier pool (`bench_worst_case.scenario`) of
   1, 8 and 64 workloads, and with Easy Tier off: a configuration resolved again with its
   solver (`RESOLVE_S`, `RESOLVE_WORKLOAD_S`), the planned point on a fresh solver and a
   probe (`Solver.carries`), both with the layouts forgotten, the costliest they can be
   (`SOLVE_S`, `PLACEMENT_S`, `PROBE_PLACEMENT_S`), a saturation search (`SATURATION_POINTS`
   probes where a placement follows the load) and a point at a load of its own on a solver
   that has placed before. The best of three rounds of 20.
2. **Closed points**: one planned closed point, the layouts forgotten, by workloads and
   customers each, Easy Tier off and on (`CLOSED_STATION_S`, `CLOSED_CUSTOMER_S`,
   `CLOSED_EXACT_CUSTOMERS`, `CLOSED_STATIC`), against `_closed_point_s`.
3. **Start-up by workloads**: the whole `diskmodel run` in a fresh process (as `bench budget`
   measures a row), Easy Tier off, open, 2 curve points, for 1, 8, 32 and 64 workloads: the
   slope is what `STARTUP_WORKLOAD_S` prices, the intercept `STARTUP_S`.
4. **The catalog band's parts** in a whole prediction: its screens and its solved
   beginnings, counted and timed, against `_catalog_band_s`.
5. **The batched sizing search's shares**: scenarios/sizing/ds8800-size-large-space.yaml
   searched in this process, each batch's CPU fitted by least squares to its configurations
   and its back ends new to the process (`SEARCH_SOLVE_SHARE`, `SEARCH_BACK_END_SHARE`, as
   shares of `_sizing_s`; the latter before its 1.46 placements a back end over two
   processes).

Measured 2026-11-29 03:40-03:45 UTC (load average 1.0-2.6), before the constants were set
from it:

    open units, ms (priced)     resolve+solver  planned point  probe        saturation
    Easy Tier off               0.35 (3.2)      1.14 (3.0)     1.06 (3.0)    0.79 (36.0)
    1 workload                  0.36 (3.2)      1.74 (3.3)     2.27 (3.1)   20.2  (37.1)
    8 workloads                 0.47 (4.6)      3.68 (5.4)     4.30 (3.7)   24.8  (44.6)
    64 workloads                1.29 (15.8)    20.6  (22.2)   20.6  (8.8)   48.2 (105.1)

A point at a load of its own after the first: 0.36, 1.54, 2.55 and 5.86 ms. Closed points
(one, layouts forgotten): Easy Tier off 0.02 s at 64 customers, 0.15-0.17 s from 4,096 on;
Easy Tier placing 0.12 s at 64, 1.45-1.93 s from 4,096 to 100,000 (the price then 4.37 s).
Start-up: 1.02, 1.15, 1.45-1.62 and 1.90 s for 1, 8, 32 and 64 workloads (JSON or block
YAML alike). The band: 0.9-3.9 ms a screen (13.6 ms for 64 workloads), 0.7-26 ms a solved
beginning (69 ms for 64); priced 1.04-5.37 s for 0.03-1.05 s of work. The constants set from
these, and the rows after, are in `bench_budget`'s docstring. The same table with them set
(03:58, load average 1.8-3.5), ms and (priced):

    open units          resolve+solver  planned point  probe        saturation
    Easy Tier off       0.35 (1.0)      1.12 (2.0)     1.07 (2.0)    0.80 (2.0)
    1 workload          0.36 (1.0)      1.77 (2.3)     2.30 (2.1)   21.1 (25.1)
    8 workloads         0.47 (1.3)      4.03 (4.4)     4.45 (2.7)   27.5 (32.6)
    64 workloads        1.34 (3.6)     23.1 (21.2)    22.3 (7.8)    54.5 (93.1)

The first point and probe with every layout forgotten can cost more than their price (64
workloads): a prediction's other points and a search's other probes cost a third of it or
less (a point at a load of its own 0.36, 1.65, 2.86 and 7.40 ms), which the prices average
over. Closed points 0.02-0.17 s with Easy Tier off (priced 0.02-0.24), 0.13-1.98 s with it
placing (0.28-2.98); start-up 1.02, 1.15, 1.42 and 1.84 s for 1, 8, 32 and 64 workloads
(priced 1.52, 1.66, 2.14, 2.78); the band 44 screens of 3.4 ms and 10 beginnings of 38 ms for
one workload (0.53 s; priced 0.98 s), 47 of 17.5 ms and 6 of 94 ms for 64 (1.39 s; 4.04 s).
The batched search (05:00-05:05, load average 2.0-2.6, two runs, after the day's sizing
speed-ups): 95 batches, 9,968 configurations, 1,288 back ends, 8.0-8.2 s; 0.52-0.55 ms a
configuration and 2.0-2.35 ms a back end: as shares of `_sizing_s` (11.84 ms once `SOLVE_S`
was set at 2.5 ms) 0.044-0.046 and 0.17-0.20 (times 1.46: 0.25-0.29), where the shares priced
were 0.062 and 0.31 of a 16.0 ms `_sizing_s` (scaled, not measured, since 2026-11-28).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.bench_budget import _NO_BAND, measure
from bench.bench_report import ROOT
from bench.bench_worst_case import scenario
from diskmodel.analyses import budget, size_batch, size_try
from diskmodel.analyses import catalog_band as band
from diskmodel.analyses.size import size_scenario
from diskmodel.api import load_scenario, predict
from diskmodel.catalog import Catalog, load_catalog
from diskmodel.configuration import resolve
from diskmodel.model import Solver
from diskmodel.model.layout import forget_placements
from diskmodel.scenario import Scenario

ROUNDS, EACH = 3, 20
SHAPES: dict[str, dict[str, Any]] = {
    "Easy Tier off": {"easy_tier": "off"},
    "1 workload": {},
    "8 workloads": {"workloads": 8},
    "64 workloads": {"workloads": 64},
}
CLOSED = ((1, 64), (1, 4096), (1, 100_000), (8, 64), (8, 512), (64, 16), (64, 64))


def _ms(work: Callable[[], object]) -> float:
    """CPU ms of one `work`, the best of `ROUNDS` means over `EACH`."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for _ in range(EACH):
            work()
        best = min(best, (time.process_time() - start) / EACH)
    return best * 1e3


def _validated(data: dict[str, Any], catalog: Catalog) -> Scenario:
    return Scenario.model_validate(data, context={"catalog": catalog})


def open_units(catalog: Catalog) -> None:
    print(
        f"{'open units, ms (priced)':24} {'resolve':>14} {'point':>14} {'probe':>14} "
        f"{'saturation':>15} {'own load':>9}"
    )
    for label, shape in SHAPES.items():
        _open_row(label, _validated(scenario(analyses=_NO_BAND, **shape), catalog), catalog)


def _open_row(label: str, s: Scenario, catalog: Catalog) -> None:
    config = resolve(s, catalog)
    solver = Solver(config)
    rates = solver.planned_rates()
    unit = rates / rates.sum()
    maximum = solver.saturation(unit)[0]
    loads = [maximum * f for f in (0.3, 0.5, 0.7, 0.8, 0.9, 0.95)]

    def fresh() -> Solver:
        forget_placements()
        return Solver(config)

    def own_loads() -> None:
        placed = fresh()
        for load in loads:
            placed.open_point(unit * load)

    base = _ms(fresh)
    resolved = _ms(lambda: Solver(resolve(s, catalog)))
    point = _ms(lambda: fresh().planned_point()) - base
    probe = _ms(lambda: fresh().carries(unit, maximum * 0.9)) - base
    search = _ms(lambda: fresh().saturation(unit)) - base
    own = (_ms(own_loads) - base) / len(loads)
    print(
        f"{label:24} {resolved:6.2f} ({budget._resolve_s(s) * 1e3:5.1f})"
        f" {point:6.2f} ({budget._point_s(s, catalog)[0] * 1e3:5.1f})"
        f" {probe:6.2f} ({budget._probe_s(s, catalog) * 1e3:5.1f})"
        f" {search:6.2f} ({budget._saturation_s(s, catalog) * 1e3:6.1f}) {own:9.2f}",
        flush=True,
    )


def closed_points(catalog: Catalog) -> None:
    print(f"\n{'closed point':36} {'s':>7} {'priced':>7}")
    for easy_tier in ("off", "auto"):
        for workloads, each in CLOSED:
            data = scenario(
                analyses=_NO_BAND, easy_tier=easy_tier, workloads=workloads, queue_depth=each
            )
            s = _validated(data, catalog)
            config = resolve(s, catalog)
            Solver(config).planned_point()
            seconds = float("inf")
            for _ in range(2):
                forget_placements()
                start = time.process_time()
                Solver(config).planned_point()
                seconds = min(seconds, time.process_time() - start)
            _, follows = budget._placing(s, catalog)
            price = budget._closed_point_s(s, workloads * each, follows)
            label = f"Easy Tier {easy_tier}, {workloads} x {each:,}"
            print(f"{label:36} {seconds:7.3f} {price:7.3f}", flush=True)


def startup(tmp: Path) -> None:
    print(f"\n{'start-up, whole run, s':36} {'CPU s':>7} {'priced':>7}")
    for workloads in (1, 8, 32, 64):
        data = scenario(
            analyses={"curve": {"points": 2}, **_NO_BAND}, easy_tier="off", workloads=workloads
        )
        path = tmp / "startup.yaml"
        path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
        seconds = min(measure("run", path, tmp / "out.html") for _ in range(3))
        price = budget.STARTUP_S + budget.STARTUP_WORKLOAD_S * workloads
        print(f"{f'{workloads} workloads':36} {seconds:7.3f} {price:7.3f}", flush=True)


def band_parts(catalog: Catalog, tmp: Path) -> None:
    print(f"\n{'catalog band':24} {'screens':>18} {'beginnings':>18} {'priced s':>9}")
    timed: dict[str, list[float]] = {}

    def timing(name: str) -> None:
        method = getattr(band.CatalogBandWork, name)

        def timed_method(self: band.CatalogBandWork, *args: Any) -> Any:
            start = time.process_time()
            out = method(self, *args)
            timed.setdefault(name, []).append(time.process_time() - start)
            return out

        setattr(band.CatalogBandWork, name, timed_method)

    kept = {name: getattr(band.CatalogBandWork, name) for name in ("_passes_screen", "_solve")}
    for name in kept:
        timing(name)
    try:
        _band_rows(catalog, tmp, timed)
    finally:
        for name, method in kept.items():
            setattr(band.CatalogBandWork, name, method)


def _band_rows(catalog: Catalog, tmp: Path, timed: dict[str, list[float]]) -> None:
    cases = {"1 workload": scenario(), "64 workloads": scenario(workloads=64)}
    for label, data in cases.items():
        path = tmp / "band.yaml"
        path.write_text(json.dumps(data), encoding="utf-8")
        s = load_scenario(path, catalog)
        timed.clear()
        forget_placements()
        predict(s, catalog=catalog, base_dir=tmp)
        screens, begun = timed.get("_passes_screen", []), timed.get("_solve", [])
        print(
            f"{label:24} {len(screens):3} x {1e3 * sum(screens) / max(len(screens), 1):5.1f} ms"
            f"     {len(begun):3} x {1e3 * sum(begun) / max(len(begun), 1):5.1f} ms"
            f"  {budget._catalog_band_s(s, catalog):9.2f}",
            flush=True,
        )


def search_shares(catalog: Catalog) -> None:
    path = ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml"
    s = load_scenario(path, catalog)
    seen: set[object] = set()
    batches: list[tuple[int, int, float]] = []
    inside = [0]
    solve = size_try.try_configurations

    def timed(jobs: Any, context: Any) -> Any:
        if inside[0]:  # a batch's own parts, timed with it
            return solve(jobs, context)
        new = {size_batch.back_end(job) for job in jobs} - seen
        seen.update(new)
        inside[0] += 1
        start = time.process_time()
        try:
            return solve(jobs, context)
        finally:
            batches.append((len(jobs), len(new), time.process_time() - start))
            inside[0] -= 1

    size_try.try_configurations = timed
    try:
        forget_placements()
        size_scenario(s, workers=1)
    finally:
        size_try.try_configurations = solve
    n, b, t = (np.array(column, dtype=np.float64) for column in zip(*batches, strict=True))
    (each, back_end), *_ = np.linalg.lstsq(np.c_[n, b], t, rcond=None)
    growth = s.analyses.growth
    per = budget._sizing_s(s, catalog, tuple(growth.multipliers) if growth else ())
    print(
        f"\nbatched search: {len(batches)} batches, {int(n.sum()):,} configurations, "
        f"{int(b.sum()):,} back ends, {t.sum():.2f} s; {each * 1e3:.3f} ms a configuration "
        f"(share {each / per:.4f}, priced {budget.SEARCH_SOLVE_SHARE}), {back_end * 1e3:.3f} ms "
        f"a back end (share {back_end / per:.4f}, x1.46 {1.46 * back_end / per:.4f}, priced "
        f"{budget.SEARCH_BACK_END_SHARE})",
        flush=True,
    )


def main() -> None:
    catalog = load_catalog()
    limit, budget.MAX_WORK_S = budget.MAX_WORK_S, float("inf")
    try:
        with tempfile.TemporaryDirectory() as name:
            open_units(catalog)
            closed_points(catalog)
            startup(Path(name))
            band_parts(catalog, Path(name))
            search_shares(catalog)
    finally:
        budget.MAX_WORK_S = limit


if __name__ == "__main__":
    main()
