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

Measured 2026-11-29 05:09-05:11 UTC (eleventh session; load average 1.4-2.4, one helper at
work), after every term was measured again on its own (the tools are named in each
constant's docstring; `python -m bench budget_terms` measures them again) and the estimate
mended where it priced work that is not done, or missed work that is:

- `SOLVE_S` 3 to 2.5 ms: a point from nothing costs 1.1-1.7 ms idle (and `PLACEMENT_S` per tier
  and workload), 2.0 ms at load average 3; one at a load of its own on a solver that placed
  before 0.4-1.5 ms. At 2 ms a one-workload calibration evaluation fell under its work in a
  busy hour.
- `RESOLVE_S` 3 to 1 ms and `RESOLVE_WORKLOAD_S` 0.2 to 0.04 ms: a resolution costs 0.35 ms
  and 15 us a workload. The catalog band's screens, each a resolution, a point and two probes,
  were priced at 3-4 times their cost (`bench budget_terms`: 0.9-3.9 ms a screen for
  one or two workloads, 13.6 ms for 64).
- A saturation search where no placement follows the load is one probe (the network's scale
  gives the maximum at once), not `SATURATION_POINTS`: the 15K pool's band was priced at
  1.04 s for 0.03 s of work.
- `STARTUP_WORKLOAD_S`, new, 20 ms a workload: the file, the checks and the report grow with
  the workloads (14 ms each). The new row "open, Easy Tier off, 64 workloads" was estimated
  at 1.70 s for 2.11 s of work, below it; 64 closed workloads with Easy Tier off (1.20x, the
  lowest row) had room only because `STARTUP_S` is priced over its measure.
- `CLOSED_EXACT_CUSTOMERS` 3,072 to 2,048, by its own rule on today's closed points.
- The batched search's two shares measured directly (`bench budget_terms`: each batch's CPU
  fitted to its configurations and its new back ends), 0.047 and 0.29 of the new `_sizing_s`,
  where they had been scaled by the search's speed-ups since 2026-11-28 and had drifted to
  3.03x in a quiet hour.
- The calibration rows are timed after a full collection (`gc.collect`): the estimates of
  every case above leave this process a heap whose due collection (35 ms) landed in the five
  evaluations of the one-workload row, 3 ms each, and read 0.33-0.46x.

"ratio" is this run's; "quiet" the same estimates against the CPU seconds of a run at
03:34-03:36 (load average 1.0-2.0, before the helpers started; an in-process calibration row
is not shown there); "before" that run's own ratio, with the estimates before. All 30 rows
met, 1.22-2.60x, 1.42-2.90x against the quiet run (before: 4 of 29 not met, 1.20-3.15x):

    case                                               est. s  CPU s ratio quiet before
    open, Easy Tier off, 1 workload                      1.77   0.98  1.80  1.62   1.65
    open, Easy Tier, 1 workload                          1.80   1.28  1.41  1.42   1.44
    open, Easy Tier, 1 workload, catalog band            3.00   1.80  1.67  1.66   1.89
    open, Easy Tier, 1 workload, 2,000 points            7.23   3.20  2.26  2.30   2.62
    open, Easy Tier, 8 workloads                         2.15   1.49  1.45  1.42   1.35
    open, Easy Tier off, 64 workloads                    3.03   1.92  1.58     -      -
    open, Easy Tier, 64 workloads                        4.97   2.33  2.13  2.08   1.57
    open, Easy Tier, 64 workloads, catalog band          9.23   3.55  2.60  2.44   2.41
    open, 64 workloads in 8 Easy Tier pools              4.97   2.57  1.94  1.81   1.36
    open, 8 pools, 200 points, 8 alternatives           12.29   4.96  2.48  2.43   2.61
    open, 8 alternatives x 8 growth factors              4.27   2.59  1.65  1.65   1.83
    closed, Easy Tier off, 64 customers                  2.04   1.35  1.51  1.55   1.57
    closed, Easy Tier, 64 customers                      5.15   2.40  2.14  2.11   2.12
    closed, Easy Tier, 2,048 customers                  17.77  10.36  1.72  1.72   1.86
    closed, Easy Tier off, 100,000 customers             3.67   2.44  1.50  1.57   1.88
    closed, Easy Tier, 100,000 customers                25.57  16.20  1.58  1.65   2.22
    closed, Easy Tier, 100,000 customers, catalog band  89.83  51.39  1.75  1.83   2.62
    closed, 64 workloads x 64 customers, Easy Tier off   4.45   3.27  1.36  1.45   1.20
    closed, 64 workloads x 64 customers, Easy Tier      22.67  11.15  2.03  2.14   2.56
    shipped: ds8800-15k-pool                             2.69   1.40  1.93  2.20   2.87
    shipped: ds8800-oltp-application                     4.99   2.03  2.46  2.90   3.10
    shipped: ds8800-measured-peaks                       5.10   2.15  2.37  2.70   3.08
    sizing: ds8800-size-for-growth                       3.16   1.51  2.09  2.31   2.66
    sizing: 106,496 configurations (batched search)     25.03  14.22  1.76  1.96   3.07
    calibration: 1 workload(s), open                     0.00   0.00  1.22     -   2.28
    calibration: 1 workload(s), closed, 64 each          0.28   0.12  2.34     -   2.45
    calibration: 8 workload(s), open                     0.01   0.01  1.61     -   2.70
    calibration: 8 workload(s), closed, 64 each          0.90   0.46  1.97     -   2.06
    calibration: 64 workload(s), open                    0.04   0.03  1.71     -   2.43
    calibration: 64 workload(s), closed, 64 each         3.02   1.42  2.13     -   3.15

Nearest the edges: the application in a quiet hour (2.90x: its closed points, priced by
`CLOSED_SETTLED`), and the one-workload calibration evaluation (1.22x here, 1.10-1.5x in
separate runs at load average 2-4: the thinnest, a point from nothing at `SOLVE_S`). The
earlier tables follow, as they were measured.

Measured 2026-11-28 17:41-17:46 UTC (a busy hour, other helpers at work: load average
3.9-4.6, CPU seconds 5-15% over a quick hour's), this branch: a closed point priced by the
rounds it will take (`analyses.closed_rounds`, `budget.CLOSED_SETTLED`), `budget.
CLOSED_EXACT_CUSTOMERS` 3,072 and a calibration evaluation's point priced with its placement
from nothing (`budget.planned_point_s`); every result the same to the bit. "CPU s" and
"ratio" are that run's; "17:36" and "17:27" the same estimates against two more whole runs'
CPU seconds (17:36-17:40, load average 3.9-4.4; 17:27-17:35, 2.2-5.2; an evaluation row's
ratio scaled by how its estimate changed since); "met?" over all three; "16:17" the ratio of
the estimates before, at 16:17-16:19 in a quick hour (load average 0.6-1.3; that table, with
its "13:40" and "12:56" columns, is in this file's history):

    case                                                est. s  CPU s ratio met? 17:36 17:27 16:17
    open, Easy Tier off, 1 workload                       1.80   1.17  1.54  met  1.50  1.48  1.73
    open, Easy Tier, 1 workload                           1.83   1.46  1.25  met  1.27  1.25  1.44
    open, Easy Tier, 1 workload, catalog band             3.41   2.46  1.39  met  1.43  1.45  1.59
    open, Easy Tier, 1 workload, 2,000 points             8.24   4.34  1.90  met  1.89  1.88  2.08
    open, Easy Tier, 8 workloads                          2.05   1.65  1.24  met  1.27  1.23  1.40
    open, Easy Tier, 64 workloads                         3.74   2.19  1.71  met  1.68  1.56  1.84
    open, Easy Tier, 64 workloads, catalog band           9.11   4.57  1.99  met  2.10  1.98  2.39
    open, 64 workloads in 8 Easy Tier pools               3.74   2.05  1.83  met  1.82  1.71  1.89
    open, 8 pools, 200 points, 8 alternatives            13.21   5.17  2.55  met  2.43  2.41  2.63
    open, 8 alternatives x 8 growth factors               4.74   3.50  1.35  met  1.38  1.35  1.51
    closed, Easy Tier off, 64 customers                   2.07   1.53  1.35  met  1.33  1.33  1.57
    closed, Easy Tier, 64 customers                       5.18   2.80  1.85  met  1.77  1.84  2.02
    closed, Easy Tier, 2,048 customers                   19.20  14.27  1.35  met  1.34  1.36  1.54
    closed, Easy Tier off, 100,000 customers              4.41   2.72  1.62  met  1.66  1.62  2.03
    closed, Easy Tier, 100,000 customers                 34.38  22.32  1.54  met  1.55  1.53  2.05
    closed, Easy Tier, 100,000 customers, catalog band  128.53  72.28  1.78  met  1.76  1.72  2.44
    closed, 64 workloads x 64 customers, Easy Tier off    3.66   3.04  1.21  met  1.23  1.19  1.44
    closed, 64 workloads x 64 customers, Easy Tier       27.01  13.58  1.99  met  1.96  1.87  2.42
    shipped: ds8800-15k-pool                              3.49   1.47  2.37  met  2.33  2.24  2.53
    shipped: ds8800-oltp-application                      6.16   2.56  2.40  met  2.43  2.52  3.63
    shipped: ds8800-measured-peaks                        5.83   2.90  2.01  met  2.30  2.33  2.59
    sizing: ds8800-size-for-growth                        3.64   2.02  1.80  met  1.86  1.96  2.17
    sizing: 106,496 configurations (batched search)      67.39  33.17  2.03  met  2.06  2.07  2.34
    calibration: 1 workload(s), open                      0.01   0.00  1.56  met  1.68  1.76  1.94
    calibration: 1 workload(s), closed, 64 each           0.29   0.14  2.06  met  1.96  2.02  2.08
    calibration: 8 workload(s), open                      0.01   0.01  1.96  met  1.85  1.96  1.60
    calibration: 8 workload(s), closed, 64 each           0.90   0.67  1.34  met  1.30  1.32  1.34
    calibration: 64 workload(s), open                     0.06   0.04  1.47  met  1.49  1.52  1.21
    calibration: 64 workload(s), closed, 64 each          4.43   1.91  2.32  met  2.18  2.30  3.06

Measured again 2026-11-28 18:20-18:23 UTC in a quick hour (load average 0.8-1.3), after
the open solves were batched across configurations, placement work shared between them and
the batched search's two shares scaled by 0.66 to match (`budget.SEARCH_SOLVE_SHARE`): all 29
rows met, 1.20-2.67x; the large space 45.82 s estimated against 21.11 s (2.17x; 3.12x before
the shares were scaled), the application 2.67x, 64 closed workloads' calibration 2.29x; the
other rows within 0.2 of the 17:41 column above.

Measured 2026-11-29 02:52-02:54 UTC (tenth session, AMD EPYC host, load average 1.5-1.9),
after that day's sizing and solve speed-ups, `budget.CLOSED_SETTLED` measured again by its rule
(0.6 to 0.44: the application's costliest closed point now 0.365 of the price) and the batched
search's two shares scaled by the large space's measured 0.944: 27 rows met, 1.16-2.95x; not
met: the application 3.02x (2.89x in the run before, 02:47: it sits at the edge; 3.31x before
the change) and 64 closed workloads' calibration evaluation 3.13x (3.07-3.15x in three runs).
The latter's price follows `CLOSED_EXACT_CUSTOMERS`, which the lowest row (64 closed workloads
with Easy Tier off, 1.13-1.16x) also rests on: lowering it to meet the one would put the other
near 1.0, under the work in a busier hour. The rows drift upward as the code gets faster and
the estimate does not (the shipped 15K pool 2.84x, the measured peaks 2.91x, the large space
2.95x): the constants want measuring again, term by term, in a quiet hour.

What moved since 16:17, and why:

- The shipped application scenario, 3.63x (not met) to 2.40-2.52x: its 27 closed points,
  the band's 13 planned points among them, settle in two rounds (counted in-process), where
  the closed price held the worst case's 5-15. That is now known before solving: the most
  its users can pass, N / (Z + D_cpu) = 500 x 20 I/Os / (200 + 4 ms) = 49,020 I/O/s at its
  500 users and the host CPUs' 80,000 at any, is under the rate at which its SSD tier's
  ceiling would first bind with the data placed by heat to capacity (86,212 I/O/s;
  `model.layout.free_headroom`), and at 500 users under the lowest such rate of the catalog
  band's configurations too (50,376 I/O/s, every estimate at the end that lowers it); such a
  point is priced at 0.6 of the closed price (its costliest point, 1,575 streams, measured at
  0.49). In a quick hour (2.26 s at 16:17, and the estimate's own placements, 0.04 s) about
  2.7x.
- 64 closed workloads' calibration evaluation, 3.06x (not met) to 2.18-2.32x: its 4,096
  customers (no think time: its 9 rounds cannot be told beforehand) were priced as 4,096,
  where a closed solution's cost is flat from about 1,800 customers on (the exact method
  held to its budget, the saddle point above it: 2.6-2.9 s a point from 1,805 to 131,072
  customers, 13 rounds each, counted in-process); priced now up to 3,072.
- With that, the rows past 3,072 customers: 100,000 customers 1.53-1.78x (2.03-2.44x), 64
  closed workloads 1.19-1.23x with Easy Tier off (1.44x; about 1.3x in a quick hour: the
  least room of any row now) and 1.87-1.99x with it on (2.42x), 2,048 customers 1.34-1.36x
  (1.54x: its sweep reaches 4,096).
- 64 open workloads' calibration evaluation: 1.21x at 16:17 and 0.99x (below the work) at
  17:36 before its point was priced with its placement from nothing: a calibration forgets
  the layouts, the pools timed and the drives' work between evaluations, which a
  prediction's points share (counted in-process: 39 ms a point against `_point_s`'s 22 ms).
- Every other row 5-20% lower than at 16:17 for the busier hour, not the estimate.

Before this (16:17, the same table with the estimates before): not met were the application
scenario (3.63x) and 64 closed workloads' calibration evaluation (3.06x), both closed points
priced on the worst case's closed cost per station and customer, which holds the ten or more
rounds of placement and closed solution its population takes to settle.

Measured 2026-11-28 12:56-12:59 UTC on the shared 2-core machine (load average 1.5-2.5),
after the sizing search was priced by its open configurations and their back ends, a
configuration resolved again at what its resolution costs, a front-end estimate's band
screen without placements and a saturation search's probes as placements rather than solved
points (`analyses.budget`); the large space's row from the whole table at 12:40-12:45
(load average 1.1-4.8), the application row from three later runs with the estimate of the
last change (a closed system's band beginning priced at its closed point alone). "Before" is
the same table at 11:11-11:25 with main 9a20eb5's estimates (a slower hour); the calibration
rows with each evaluation's layouts forgotten, as a calibration's changed workloads forget
them (* not met) (its ratios are the column "12:56" of the table above).

The large space's row was estimated at 117.79 s before (54.48 s measured): priced at the
21,870 configurations its bounds leave open, each at 0.3 of a fresh solve, it put the run
at 61 s over two processes, and `diskmodel size` refused it. Now the open configurations at
the measured cost of one whose back end's layouts are made (`SEARCH_SOLVE_SHARE`) and their
2,835 distinct back ends at the cost of placing one (`SEARCH_BACK_END_SHARE`): 95.8 s, 50 s
over the two processes, accepted. The open count is still a proxy, not a bound, for what
the search solves (9,968 here, 2,509 of them open; the rest are proven to break the service
level but could be on the front): the ratio rests on it being about twice the solved count.

The 64-workload band case was 3.37x (3.12x in a quick hour at 12:40 with only the first two
changes): the band was priced at 12.7 s for about 2 s of work. Counted in-process (12:37,
12:53): it solves 7 whole beginnings (the centre, two contributors at both ends, the two
corners) of the 21 priced (`BAND_PASSING` of its 24-26 estimates pass, up to 7 of 23-26
measured elsewhere), each 67-103 ms against 331 ms priced, because a saturation probe
places the data and adds up the utilisations but solves no response: 4.8 ms for 64
identical workloads against `_point_s`'s 22.2 ms; its 73 resolutions 0.1 s against 3.1 s
priced; its 18 front-end screens read the central configuration's layouts. Each of these is
now priced as it is measured (`PROBE_PLACEMENT_S`, `RESOLVE_S`, `front_end_estimates`).

The 8-closed calibration row moved with the machine, not the estimate (0.90 s both times;
measured 0.95 s at 11:11, 0.71 and 0.77 s at 12:45 and 12:59): it stays the closed row with
the least room, its closed points taking the most rounds of any case.

Still nearest the corridor's edges: the shipped application scenario (2.92-2.96 in three runs
at 13:01, load average 0.9; 3.01 at 12:59 with 8.26 estimated, 3.30 at 12:45, 2.74 at 11:11,
3.44 at 08:45): its closed points settle in one round, the worst case's in ten, and its band
solves each of its 13 beginnings' closed points in about 34 ms against 164 ms priced
(`CLOSED_STATION_S` and `CLOSED_CUSTOMER_S` are measured on the worst case's 160 stations,
Easy Tier placing, and lowering them would put 8 closed workloads, 0.95-1.26x, below the
work); and the open one-workload case (1.07x), whose constants the others leave no room to
lower.

With main at eb51790 merged in (a trial merge, 13:05-13:08, load average 1.7-2.1; the
large space not run): every row as above within 10% but three just over 3, whose estimates
this branch leaves as they were while main's run got faster (its charts drawn ahead, Erlang B
in floats): "open, 8 pools, 200 points, 8 alternatives" 13.21 s for 4.22 s (3.13x; 7.69 s on
this branch at 12:56: a long curve's points below the load where a tier's ceiling binds share
one placement, which `PLACEMENT_S` prices at every point), the application scenario 8.20 s for
2.69 s (3.05x) and 64 closed workloads' calibration evaluation 5.80 s for 1.93 s (3.01x).

Before (main 5312683, the same kind of cases): the estimate counted a point's placement as the
square of the workloads in a pool and every customer of a closed sweep, and not the catalog
band: 64 open workloads 45 s estimated for about 3-6 s, 100,000 customers with Easy Tier
692 s estimated for 23 s (30x) and 142 s with it off for 2.6 s (55x), while 2,048 customers
with the band ran 56 s against an estimate of 30 s (below the work). At 08:45 the shipped
application scenario was 3.4x (its closed points settle in one round, the worst case's in
ten, and which it will be is known only once a tier's ceiling binds or not).

The batched sizing row (measured alone, 2026-11-28 08:33, load average 2, main cb8a1dc):
before, every configuration was priced as a fresh full solve, 1,963 s for 66 s of work
(30x). Not a row, and NOT met: the 10,368-configuration subset of
tests/analyses/test_sizing_batch.py is estimated at 29.6 s (7,100 open over 639 back ends;
40.4 s at 9a20eb5, 62 s and 201 s before) and runs in about 6 s CPU (4.5 s for the search:
2,112 solved at 2.1 ms each, fewer ranks than the large space's): its open count is 3.4 times
what the search solves, against 2.2 times on the large space.
"""

from __future__ import annotations

import gc
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.bench_report import ROOT, timed_child
from bench.bench_worst_case import scenario
from diskmodel.analyses.budget import estimate
from diskmodel.api import load_scenario
from diskmodel.catalog import load_catalog

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
    """`n` alternatives, each its own configuration (the first workload at its own rate).
    They all set the same cache until 2026-11-28: since configurations that build the same
    networks share them (`model.operating.builds_for`), seven of those eight solved only part
    of a configuration of their own (0.2 of one in the 200-point case, 0.8 with 8 growth
    factors, measured in process), so the rows no longer measured eight alternatives. An
    alternative that repeats another is still priced in full: the estimate stays above it."""
    return [
        {"name": f"rate {i}", "set": {"workloads.0.iops": 2000 + 100 * (i + 1)}} for i in range(n)
    ]


CASES: dict[str, tuple[str, dict[str, Any] | Path]] = {
    "open, Easy Tier off, 1 workload": ("run", scenario(easy_tier="off", analyses=_NO_BAND)),
    "open, Easy Tier, 1 workload": ("run", scenario(analyses=_NO_BAND)),
    "open, Easy Tier, 1 workload, catalog band": ("run", scenario()),
    "open, Easy Tier, 1 workload, 2,000 points": (
        "run",
        scenario(analyses={"curve": {"points": 2000}, **_NO_BAND}),
    ),
    "open, Easy Tier, 8 workloads": ("run", scenario(workloads=8, analyses=_NO_BAND)),
    "open, Easy Tier off, 64 workloads": (
        "run",
        scenario(easy_tier="off", workloads=64, analyses=_NO_BAND),
    ),
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
    done, cpu, _ = timed_child(command)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip()[-300:])
    return cpu


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
            # The rows above leave this process a heap that a calibration would not have (the
            # estimates of every case): collected here, so that a full collection it is due
            # does not land in the few evaluations timed (one of 35 ms made a one-workload
            # evaluation of 3 ms read 9-11 ms, and the row 0.33-0.46x).
            gc.collect()
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
