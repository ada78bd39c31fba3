"""The work estimate against the work (issue 30 item 6).

    .venv/bin/python -m bench budget

`diskmodel.analyses.budget.estimate` says, before anything is solved, how many CPU seconds a
`diskmodel run` (or `diskmodel size`) of a scenario will take, and validation refuses a run it
puts over `MAX_WORK_S`. For each case below: the estimate, the CPU seconds (user + system) of
the whole command in a fresh process (imports, catalog, prediction, report: what the estimate
covers), their ratio, and whether 1 <= ratio <= 3 (the estimate never below the work, and
never so far above it that it refuses what would have run). A case the estimate would refuse
is measured all the same: the child lifts the bound (`MAX_WORK_S` set to infinity) before it
runs the command.

The cases cover open and closed loads, Easy Tier off and on (one pool of one, 8 and 64
workloads, and 8 pools), curve points, alternatives and growth factors, small and large
closed populations (up to 100,000 customers, the issue's refused case), the catalog band
(on by default) and sizing. The machine is shared: CPU seconds of a second run vary by
10-30%, more under load, which is why the estimate aims at about twice the work.

Measured 2026-11-28 11:11-11:25 UTC on the shared 2-core machine (load average about 1, but a
slow hour: the session's first commit ran `run` 35% slower than the same commit at 08:49),
after the shared layouts (`model.layout.placements_for`), the cheaper Easy Tier probe, the
batched search over two processes, the catalog band forked beside the prediction and the
calibration's re-resolve (the calibration rows with each evaluation's layouts forgotten, as a
calibration's changed workloads forget them):

    case                                                 estimated s measured s  ratio  met?
    open, Easy Tier off, 1 workload                             1.80       1.34   1.34  met
    open, Easy Tier, 1 workload                                 1.83       1.73   1.06  met
    open, Easy Tier, 1 workload, catalog band                   3.59       2.89   1.25  met
    open, Easy Tier, 1 workload, 2,000 points                   8.24       5.16   1.60  met
    open, Easy Tier, 8 workloads                                2.05       1.83   1.12  met
    open, Easy Tier, 64 workloads                               3.74       2.48   1.51  met
    open, Easy Tier, 64 workloads, catalog band                16.43       4.88   3.37  NOT MET
    open, 64 workloads in 8 Easy Tier pools                     3.74       3.39   1.11  met
    open, 8 pools, 200 points, 8 alternatives                  13.21       8.54   1.55  met
    open, 8 alternatives x 8 growth factors                     4.74       4.57   1.04  met
    closed, Easy Tier off, 64 customers                         2.07       1.80   1.15  met
    closed, Easy Tier, 64 customers                             5.18       3.57   1.45  met
    closed, Easy Tier, 2,048 customers                         20.59      18.00   1.14  met
    closed, Easy Tier off, 100,000 customers                    5.08       3.47   1.46  met
    closed, Easy Tier, 100,000 customers                       42.74      28.31   1.51  met
    closed, Easy Tier, 100,000 customers, catalog band        166.66      87.82   1.90  met
    closed, 64 workloads x 64 customers, Easy Tier off          4.06       3.95   1.03  met
    closed, 64 workloads x 64 customers, Easy Tier             31.92      18.46   1.73  met
    shipped: ds8800-15k-pool                                    3.56       1.93   1.84  met
    shipped: ds8800-oltp-application                            8.40       3.06   2.74  met
    shipped: ds8800-measured-peaks                              6.05       3.30   1.83  met
    sizing: ds8800-size-for-growth                              3.83       2.46   1.55  met
    sizing: 106,496 configurations (batched search)           117.79      54.48   2.16  met
    calibration: 1 workload(s), open                            0.01       0.00   1.73  met
    calibration: 1 workload(s), closed, 64 each                 0.29       0.20   1.42  met
    calibration: 8 workload(s), open                            0.01       0.01   2.18  met
    calibration: 8 workload(s), closed, 64 each                 0.90       0.95   0.95  NOT MET
    calibration: 64 workload(s), open                           0.06       0.03   2.40  met
    calibration: 64 workload(s), closed, 64 each                5.83       2.60   2.24  met

Not met: the 64-workload band case (3.37x: the band's host adapter and processor estimates now
place nothing, their layouts shared with the central configuration's, and 64 workloads place
at about two thirds of the cost `PLACEMENT_S` was measured at, while 64 workloads in 8 pools,
at 1.11x, leave no room to lower it), and one calibration evaluation of 8 closed workloads
(0.95x; 1.01x in the run 10 minutes before, 1.26x at 08:45: its closed points take the most
rounds of any case, and this hour the machine was slow). The application scenario, 3.44x at
08:45, is 2.74x here.

Before (main 5312683, the same kind of cases): the estimate counted a point's placement as the
square of the workloads in a pool and every customer of a closed sweep, and not the catalog
band: 64 open workloads 45 s estimated for about 3-6 s, 100,000 customers with Easy Tier
692 s estimated for 23 s (30x) and 142 s with it off for 2.6 s (55x), while 2,048 customers
with the band ran 56 s against an estimate of 30 s (below the work). At 08:45 the shipped
application scenario was 3.4x (its closed points settle in one round, the worst case's in
ten, and which it will be is known only once a tier's ceiling binds or not).

The batched sizing row (measured alone, 2026-11-28 08:33, load average 2, main cb8a1dc):
before, every configuration was priced as a fresh full solve, 1,963 s for 66 s of work
(30x). Now the bounds' pass plus the configurations it leaves open (21,870, of which the
search solves 9,968) at `SEARCH_SOLVE_SHARE` of a fresh solve. Not a row, and NOT met: the
10,368-configuration subset of tests/analyses/test_sizing_batch.py is estimated at 62 s and
runs in about 6 s CPU (4.5 s for the search: 7,100 open, 2,112 solved at 2.1 ms each, fewer
ranks than the large space's 6.6 ms); before, 201 s.
"""

from __future__ import annotations

import itertools
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.bench_worst_case import scenario
from diskmodel.analyses.budget import estimate
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import runpy, sys
from diskmodel.analyses import budget
budget.MAX_WORK_S = float("inf")
sys.argv = ["diskmodel", *sys.argv[1:]]
runpy.run_module("diskmodel", run_name="__main__")
"""

_NO_BAND = {"catalog_band": False}
EVALUATIONS = 5


def _alternatives(n: int) -> list[dict[str, Any]]:
    return [{"name": f"cache {i}", "set": {"system.cache_gb": 256}} for i in range(n)]


CASES: dict[str, tuple[str, dict[str, Any] | Path]] = {
    "open, Easy Tier off, 1 workload": ("run", scenario(easy_tier="off", analyses=_NO_BAND)),
    "open, Easy Tier, 1 workload": ("run", scenario(analyses=_NO_BAND)),
    "open, Easy Tier, 1 workload, catalog band": ("run", scenario()),
    "open, Easy Tier, 1 workload, 2,000 points": (
        "run",
        scenario(analyses={"curve": {"points": 2000}, **_NO_BAND}),
    ),
    "open, Easy Tier, 8 workloads": ("run", scenario(workloads=8, analyses=_NO_BAND)),
    "open, Easy Tier, 64 workloads": ("run", scenario(workloads=64, analyses=_NO_BAND)),
    "open, Easy Tier, 64 workloads, catalog band": ("run", scenario(workloads=64)),
    "open, 64 workloads in 8 Easy Tier pools": (
        "run",
        scenario(pools=8, workloads=64, analyses=_NO_BAND),
    ),
    "open, 8 pools, 200 points, 8 alternatives": (
        "run",
        scenario(
            pools=8,
            workloads=8,
            analyses={"curve": {"points": 200}, "compare": _alternatives(8), **_NO_BAND},
        ),
    ),
    "open, 8 alternatives x 8 growth factors": (
        "run",
        scenario(
            analyses={
                "compare": _alternatives(8),
                "growth": {"factors": [1 + 0.1 * i for i in range(8)]},
                **_NO_BAND,
            }
        ),
    ),
    "closed, Easy Tier off, 64 customers": (
        "run",
        scenario(easy_tier="off", queue_depth=64, analyses=_NO_BAND),
    ),
    "closed, Easy Tier, 64 customers": ("run", scenario(queue_depth=64, analyses=_NO_BAND)),
    "closed, Easy Tier, 2,048 customers": ("run", scenario(queue_depth=2048, analyses=_NO_BAND)),
    "closed, Easy Tier off, 100,000 customers": (
        "run",
        scenario(easy_tier="off", queue_depth=100_000, analyses=_NO_BAND),
    ),
    "closed, Easy Tier, 100,000 customers": (
        "run",
        scenario(queue_depth=100_000, analyses=_NO_BAND),
    ),
    "closed, Easy Tier, 100,000 customers, catalog band": (
        "run",
        scenario(queue_depth=100_000),
    ),
    "closed, 64 workloads x 64 customers, Easy Tier off": (
        "run",
        scenario(workloads=64, queue_depth=64, easy_tier="off", analyses=_NO_BAND),
    ),
    "closed, 64 workloads x 64 customers, Easy Tier": (
        "run",
        scenario(workloads=64, queue_depth=64, analyses=_NO_BAND),
    ),
    "shipped: ds8800-15k-pool": ("run", ROOT / "scenarios" / "ds8800-15k-pool.yaml"),
    "shipped: ds8800-oltp-application": (
        "run",
        ROOT / "scenarios" / "ds8800-oltp-application.yaml",
    ),
    "shipped: ds8800-measured-peaks": ("run", ROOT / "scenarios" / "ds8800-measured-peaks.yaml"),
    "sizing: ds8800-size-for-growth": (
        "size",
        ROOT / "scenarios" / "ds8800-size-for-growth.yaml",
    ),
    "sizing: 106,496 configurations (batched search)": (
        "size",
        ROOT / "scenarios" / "sizing" / "ds8800-size-large-space.yaml",
    ),
}


def _child_cpu_s(command: list[str]) -> float:
    """CPU seconds (user + system) of `command` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-300:])
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(command: str, path: Path, out: Path) -> float:
    """CPU seconds of `diskmodel <command> path`, the work bound lifted."""
    args = [command, str(path), "--quiet", "--force", "--out", str(out)]
    return _child_cpu_s([sys.executable, "-c", _CHILD, *args])


def rows(cases: dict[str, tuple[str, dict[str, Any] | Path]]) -> Iterator[tuple[str, float, float]]:
    """(case, estimated s, measured s) of each case, one at a time."""
    from diskmodel.analyses import budget

    catalog = load_catalog()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for label, (command, data) in cases.items():
            if isinstance(data, Path):
                path = data
            else:
                path = tmp / "case.yaml"
                path.write_text(json.dumps(data), encoding="utf-8")  # JSON is YAML
            limit, budget.MAX_WORK_S = budget.MAX_WORK_S, float("inf")
            try:
                estimated = estimate(load_scenario(path, catalog), catalog).seconds
            finally:
                budget.MAX_WORK_S = limit
            yield label, estimated, measure(command, path, tmp / "out.html")


def evaluation_rows() -> Iterator[tuple[str, float, float]]:
    """What calibration prices each model evaluation at, per interval (`planned_point_s`: a
    planned point resolved and solved on a fresh solver) against its CPU seconds in this
    process (the mean of `EVALUATIONS`, after one to warm the drives' tables)."""
    from diskmodel.analyses.budget import planned_point_s
    from diskmodel.configuration import resolve
    from diskmodel.model import Solver
    from diskmodel.model.layout import forget_placements
    from diskmodel.scenario import Scenario

    catalog = load_catalog()
    for workloads in (1, 8, 64):
        for queue_depth in (None, 64):
            data = scenario(workloads=workloads, queue_depth=queue_depth, analyses=_NO_BAND)
            s = Scenario.model_validate(data, context={"catalog": catalog})
            Solver(resolve(s, catalog)).planned_point()
            start = time.process_time()
            for _ in range(EVALUATIONS):
                # A calibration's evaluations change the workloads, so none finds its layouts
                # made already by the one before (`layout.placements_for`): forget them.
                forget_placements()
                Solver(resolve(s, catalog)).planned_point()
            measured = (time.process_time() - start) / EVALUATIONS
            load = "open" if queue_depth is None else f"closed, {queue_depth} each"
            label = f"calibration: {workloads} workload(s), {load}"
            yield label, planned_point_s(s, catalog), measured


def main() -> int:
    print(
        f"{'case':52} {'estimated s':>11} {'measured s':>10} {'ratio':>6}  1 <= ratio <= 3",
        flush=True,
    )
    met_all = True
    for label, estimated, measured in itertools.chain(rows(CASES), evaluation_rows()):
        ratio = estimated / measured
        met = 1.0 <= ratio <= 3.0
        met_all &= met
        print(
            f"{label:52} {estimated:11.2f} {measured:10.2f} {ratio:6.2f}  "
            f"{'met' if met else 'NOT MET'}",
            flush=True,
        )
    return 0 if met_all else 1


if __name__ == "__main__":
    raise SystemExit(main())
