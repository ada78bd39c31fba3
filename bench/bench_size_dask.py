"""`diskmodel size --scheduler` against one process (issue 30 item 3): does a local Dask
cluster of four worker processes pay on this machine, and is its answer byte-identical?

    .venv/bin/python -m bench size_dask

0. **The whole search of a 1,000,000-configuration space** (`_million`: the shipped
   scenarios/sizing/ds8800-size-large-space.yaml widened to exactly the 10^6 an
   `analyses.size` section may offer) three ways: in one process (`workers=1`), over the
   default 2-process pool (`workers=2`) and on a local Dask cluster of four worker processes
   (`scheduler=` its address, as `diskmodel size --scheduler` gives it). Wall and CPU seconds
   of the search (CPU: this process's, plus the pool's processes by `RUSAGE_CHILDREN` once
   they end, or the Dask workers' by psutil); the JSON (`sizing_json`) built apart, the same
   work every way, and the three compared byte for byte. Target: the cluster faster than one
   process, the pool shown beside it. The pool and one process run before the cluster starts
   (its idle workers would share the cores).
1. **The bounds over the same 10^6**: always in the search's own process (numpy over the
   whole space; shipping it would cost more than it takes). Target: >= 100,000/s.
2. **Full evaluations of the configurations that survive them**: the first 384 the search
   would solve (cheapest first, not saturated), in one process and on the cluster, sent as
   the search sends a batch (two tasks per worker, each back end's configurations in one
   task, `SizingRunner.run`); the median of `ROUNDS` cold runs in turn, the work kept
   between configurations forgotten in this process and on the workers before each. Target:
   the cluster faster than one process.
3. **A whole search** of 2,160 configurations (the growth scenario, past the 512 where the
   batched search starts): the JSON in one process and on the cluster, byte for byte.

Measured 2026-11-28 on the shared 2-core machine, three runs (load average: 1, 5, 15 min).
The 10^6 search settles every configuration the same way every way: 26,002 solved in full,
973,998 skipped by proven bounds (batches of 1,000, `size_batch.batch_size`); the JSON is
787 MB, sha256 b89113b409dc..., identical three ways in every run (met); building it takes
41-69 s in this process, not counted in the search's time.

    run (start)    way              wall s   CPU s (this process)   vs one process
    Dask's profiler on in the workers (before `cluster.PROFILER`):
    15:11 (6.2)    one process       155.7   123.2 (123.2)
           (4.0)   2-process pool    104.8   128.9                   1.49x
           (4.0)   4 Dask workers    201.0   255.8                   0.77x  NOT met
    15:30 (8.2)    one process       165.5   125.3 (125.3)
           (2.3)   2-process pool    131.0   136.4 (12.1)            1.26x
           (2.3)   4 Dask workers    145.2   219.2 (21.8)            1.14x  met (unfair load)
    paused for the search (`cluster.PROFILER`):
    15:48 (1.1)    one process       119.5   117.1 (117.1)
           (1.4)   2-process pool     68.9   121.5 (11.3)            1.74x
           (1.4)   4 Dask workers    104.5   181.8 (18.6)            1.14x  met

Not round trips: a batch of 1,000 is 8 tasks of 125 configurations (about 0.6 s each),
about 27 batches in all, where a round trip is milliseconds. The cost was CPU: with Dask's
statistical profiler sampling the workers' deep stacks every 10 ms the search took
1.75-2.1x the CPU of one process for the same 26,002 solves, and the cluster beat one
process only in the run where one process had load 8 to itself. Measured apart on 1,500
survivors spread over the cost order (1,421 back ends; load 1-2): 10.1 s CPU and 10.2 s
wall in one process, 11.3 s and 10.9 s over the pool, on two Dask workers 14.3 s and 13.8 s
with the profiler and 11.4 s and 6.8 s without it; `cluster.dask_client` now pauses it.
What is left (1.55x the CPU of one process, the pool 1.04x): four busy processes share two
cores, each keeps its own tables and placements (`model.kept`), built cold and a quarter as
likely to hold a configuration's back end as one process is, and the LocalCluster's
scheduler runs in this process (18.6 s against the pool's 11.3 s). On two cores four workers
give at most what two give, less that CPU: the pool is the better runner here, the cluster
the one for cores of its own. The bounds over 10^6: 512,000-812,000/s (met); the 384
survivors 1.03-1.28x on the cluster (met); the 2,160-configuration search byte-identical
(met), 0.62-1.12x.

2026-11-29, what row 2's cluster time is made of (the first 384 survivors, 86 back ends, 8
tasks of 48; measured inside the tasks, this process timed apart; load 1-2.6): a round trip of
8 empty tasks 17 ms; each task 12-25 ms of CPU, but 30-100 ms of wall, since four worker
processes and this one (the client and the LocalCluster's scheduler, 18-37 ms of CPU a run)
share two cores; the tasks' CPU in all 140-155 ms against one process's 93-113 ms for the
same solves (1.4x: the same solves on two workers took 100-115 ms, 1.0x, so the extra is
four processes on two cores, not the work). The batch had been cut into tasks of
consecutive configurations in the cost order, which put each back end's configurations in
up to every task (17-48 back ends a task), each worker placing them again: the search now
keeps each back end's configurations in one task (`size_batch.back_end`, 10-11 a task;
the tasks' CPU 127-140 ms against 143-165 ms, one process 128 ms). So on an idle 2-core
machine the cluster can at best do ~150 ms of worker CPU and ~30 ms of its own over two
cores, ~90 ms against one process's ~105 ms (at most ~1.15x), and any other load on the two
cores takes more from the five processes than from one. This row is the search's own way
of sending a batch (the real search sends batches of 1,000, `size_batch.batch_size`, as
these tasks; it keeps no small batch in-process), so it is not made smaller or larger here.
`python -m bench size_dask` at 03:59-04:06 UTC (load 2.1-7.3, three other sessions at
work): row 2 1,754/s against 2,174/s (0.81x, medians of 5 cold runs; runs 145-336 ms
against 118-525 ms): NOT met. Apart from the bench: 1.13-1.39x at 03:40 (load ~1, single
runs that found the warm-up's work kept), 0.55-0.87x cold at 03:42-03:43 (load 1.3-2.6). Not
met on 2 cores shared with other work; a cluster with cores of its own is what it is for.
The whole 10^6 search in the same run: 0.66x one process, the pool 1.84x; the JSON
identical three ways.

2026-11-29, thirteenth session: the search's tasks held to the workers each host's cores
hold (`cluster.working_workers`: two of the four here, the others idle; with loose
restrictions Dask's work stealing gave the idle ones tasks, 7.0 of 35.9 s of the workers'
CPU), and the search's own work in this process cut (`OfferedSpace.choices` names the
974,000 skipped configurations a choice at a time; `pareto_front` settles every candidate a
strictly cheaper one beats by a running minimum; this process's CPU over the pool 10.4 s to
5.3 s). Three runs of `python -m bench size_dask` (load 1.2-2.8):

    run (commits)                        one process   pool            Dask             row 2
    08:50 (tasks held, loosely)          36.3 s        19.0 s (1.92x)  37.2 s (0.98x)   1.04x
    09:10 (held strictly, choices,       27.2 s        14.1 s (1.93x)  24.9 s (1.09x)   1.00x
           the front's running minimum)
    09:32 (the same)                     32.0 s        14.8 s (2.16x)  25.3 s (1.26x)   0.99x

The JSON identical three ways in every run (sha256 d31dd20ff9d3). Row 2 is level, 0.99-1.04x
(met in the first run only; its target is faster than one process): two workers' tasks of
48-96 configurations each still pay a round trip and this process's scheduler on the same
two cores.
"""

from __future__ import annotations

import hashlib
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from diskmodel.analyses import cluster, size_batch
from diskmodel.analyses.size import SizingResult, size_scenario
from diskmodel.analyses.size_space import OfferedSpace, space_cost
from diskmodel.analyses.size_try import SizingContext, SizingJob, SizingRunner
from diskmodel.catalog import load_catalog
from diskmodel.model.layout import forget_placements
from diskmodel.report.json_result import sizing_json
from diskmodel.scenario import Scenario
from diskmodel.scenario.loading import load_scenario

from .bench_queueing import Row, import_numpy_s, show
from .bench_report import ROOT
from .bench_size import LARGE, SCREEN_TARGET_PER_S

GROWTH = ROOT / "scenarios" / "ds8800-size-for-growth.yaml"
WORKERS = 4
SAMPLE = 384


def _million() -> Scenario:
    """scenarios/sizing/ds8800-size-large-space.yaml widened to exactly 1,000,000
    configurations (the most an `analyses.size` section may offer): 0-24 SSD ranks (25),
    8-56 300 GB 15K ranks in steps of 2 (25), 0-16 146 GB 15K ranks in steps of 4 (5), 1-8
    DA pairs (8), 4-40 host ports in steps of 4 (10), both processor options and both system
    models (2 x 2)."""
    catalog = load_catalog()
    data = load_scenario(LARGE, catalog).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.25, "per": "year", "periods": 3}
    size = data["analyses"]["size"]
    size["ranks"][0]["counts"] = list(range(25))
    size["ranks"][1]["counts"] = list(range(8, 57, 2))
    size["ranks"][2]["counts"] = list(range(0, 17, 4))
    size["da_pairs"] = list(range(1, 9))
    size["host_ports"] = list(range(4, 41, 4))
    return Scenario.model_validate(data, context={"catalog": catalog})


def _growth_2160() -> Scenario:
    catalog = load_catalog()
    data = load_scenario(GROWTH, catalog).model_dump(mode="python", exclude_none=True)
    data["analyses"]["growth"] = {"rate": 0.3, "per": "year", "periods": 3}
    size = data["analyses"]["size"]
    size["ranks"] = [
        {"pool": "oltp", "drive": "ssd-300", "raid": "raid5-6+p+s", "counts": list(range(10))},
        {
            "pool": "oltp",
            "drive": "15k-300",
            "raid": "raid5-7+p",
            "counts": [8, 12, 16, 20, 24, 32],
        },
    ]
    size["da_pairs"] = [1, 2, 3, 4, 6, 8]
    size["host_ports"] = [4, 8, 16]
    size["processor_ways"] = [2, 4]
    return Scenario.model_validate(data, context={"catalog": catalog})


def _context(scenario: Scenario) -> SizingContext:
    growth = scenario.analyses.growth
    assert growth is not None
    assert scenario.analyses.size is not None
    return SizingContext(
        scenario,
        load_catalog(),
        None,
        ("now", *growth.labels),
        tuple(growth.multipliers),
        prices=scenario.analyses.size.prices,
        base=scenario.model_dump(mode="python"),
    )


ROUNDS = 5
"""Cold runs of row 2, one process and the cluster in turn (the median of each): one run is
about 0.1 s, which a shared machine's load moves by more than the difference judged."""


def _forget_everywhere(address: str) -> None:
    """The work kept between configurations forgotten in this process and on every worker of
    the cluster at `address` (`model.layout.forget_placements`), so that each run of row 2
    solves its configurations for the first time, as the search's first batch does, and not
    the last run's again; the tables a process builds once are kept, warm on both sides."""
    import distributed

    forget_placements()
    with distributed.Client(address, timeout=cluster.DASK_CONNECT_TIMEOUT_S) as client:
        client.run(forget_placements)


def rows(address: str) -> list[Row]:
    scenario = _million().corner("central")
    context = _context(scenario)
    start = time.perf_counter()
    space = OfferedSpace(scenario)
    cost = space_cost(space, context.catalog)
    screen = size_batch.space_screen(space, context)
    screen_s = time.perf_counter() - start
    n = len(space)
    out = [
        Row(
            f"bounds over {n:,} configurations",
            screen_s,
            f">= {SCREEN_TARGET_PER_S:,.0f}/s",
            n / screen_s >= SCREEN_TARGET_PER_S,
            f"{n / screen_s:,.0f}/s; {int(screen.saturated.sum()):,} saturated now",
        )
    ]
    order = np.lexsort((np.arange(n), cost.power, cost.key))
    take = order[~screen.saturated[order]][:SAMPLE]
    jobs = [SizingJob({}, choice, False, offered=True) for choice in space.choices(take)]
    here_times, there_times = [], []
    with SizingRunner(context, 1, None) as one, SizingRunner(context, 1, address) as runner:
        tasks = runner.slots * size_batch.TASKS_PER_WORKER
        list(one.run(jobs[:8]))  # warm-up: tables built once per process
        list(runner.run(jobs[: 4 * tasks], tasks, together=size_batch.back_end))  # and there
        for _ in range(ROUNDS):
            _forget_everywhere(address)
            start = time.perf_counter()
            here = list(one.run(jobs))
            here_times.append(time.perf_counter() - start)
            _forget_everywhere(address)
            start = time.perf_counter()
            there = list(runner.run(jobs, tasks, together=size_batch.back_end))
            there_times.append(time.perf_counter() - start)
    here_s, there_s = statistics.median(here_times), statistics.median(there_times)
    out += [
        Row(
            f"{SAMPLE} survivors solved, one process",
            here_s,
            "(the reference)",
            None,
            f"{SAMPLE / here_s:,.0f} solved/s (median of {ROUNDS} cold runs)",
        ),
        Row(
            f"{SAMPLE} survivors, {WORKERS} Dask workers, {tasks} tasks",
            there_s,
            "faster than one process",
            there_s < here_s,
            f"{SAMPLE / there_s:,.0f} solved/s ({here_s / there_s:.2f}x; runs "
            f"{', '.join(f'{t * 1e3:.0f}' for t in there_times)} ms against "
            f"{', '.join(f'{t * 1e3:.0f}' for t in here_times)}); "
            f"results {'identical' if here == there else 'DIFFERENT'}",
        ),
    ]
    search = _growth_2160()
    start = time.perf_counter()
    local = sizing_json(size_scenario(search, workers=1))
    local_s = time.perf_counter() - start
    start = time.perf_counter()
    remote = sizing_json(size_scenario(search, scheduler=address))
    remote_s = time.perf_counter() - start
    out.append(
        Row(
            "2,160-configuration search, Dask against one process",
            remote_s,
            "byte-identical JSON",
            local == remote,
            f"one process {local_s:.1f} s, cluster {remote_s:.1f} s ({local_s / remote_s:.2f}x)",
        )
    )
    return out


@dataclass(frozen=True)
class Whole:
    """One whole search of the 10^6 space, one way: its search's wall and CPU seconds (the
    CPU of this process and of the processes that solved for it, where counted), what it
    settled, and its JSON (digest and size; building the JSON is the same work every way, in
    this process, timed apart)."""

    way: str
    wall_s: float
    cpu_s: float
    cpu_here_s: float  # of it, this process's (the search, its bounds; a LocalCluster's scheduler)
    cpu_note: str
    solved: int
    skipped: int
    digest: str
    json_mb: float
    json_s: float


def _whole(way: str, search: Callable[[], SizingResult], others_cpu: Callable[[], float]) -> Whole:
    """`search()` timed, its CPU the sum of this process's and `others_cpu()`'s growth."""
    cpu0, others0 = time.process_time(), others_cpu()
    start = time.perf_counter()
    result = search()
    wall = time.perf_counter() - start
    here = time.process_time() - cpu0
    cpu = here + others_cpu() - others0
    start = time.perf_counter()
    text = sizing_json(result)
    json_s = time.perf_counter() - start
    digest = hashlib.sha256(text.encode()).hexdigest()
    return Whole(
        way,
        wall,
        cpu,
        here,
        "",
        len(result.candidates),
        len(result.pruned),
        digest,
        len(text) / 1e6,
        json_s,
    )


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for (the
    process pool's, once it is shut down)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _live_children_cpu() -> Callable[[], float]:
    """A counter of the CPU seconds of this process's live children (the Dask workers), by
    psutil; 0 when psutil is not installed (then said in the row)."""
    try:
        import psutil
    except ImportError:
        return lambda: 0.0
    me = psutil.Process()

    def cpu() -> float:
        total = 0.0
        for child in me.children(recursive=True):
            try:
                t = child.cpu_times()
            except psutil.NoSuchProcess:
                continue
            total += t.user + t.system
        return total

    return cpu


def whole_here(scenario: Scenario) -> list[Whole]:
    """The whole search of `scenario` in this process and over the default 2-process pool."""
    one = _whole("one process", lambda: size_scenario(scenario, workers=1), lambda: 0.0)
    pool = _whole("2-process pool", lambda: size_scenario(scenario, workers=2), _children_cpu)
    return [one, pool]


def whole_on(scenario: Scenario, address: str) -> Whole:
    """The whole search of `scenario` on the cluster at `address` (its workers this
    process's children: a LocalCluster)."""
    try:
        import psutil  # noqa: F401

        note = ""
    except ImportError:
        note = "workers' CPU not counted (no psutil)"
    way = f"{WORKERS} Dask workers"
    # The search's results are due within DASK_RESULTS_TIMEOUT_S (300 s) in all, five times
    # what `diskmodel size` allows a run (`analyses.budget`, which refuses this scenario at
    # the command line on fewer than 7 workers: about 381 s estimated); the bench calls the
    # search directly, so it gives the cluster as long as one process may take here.
    allowed = cluster.DASK_RESULTS_TIMEOUT_S
    cluster.DASK_RESULTS_TIMEOUT_S = 3600.0
    try:
        whole = _whole(
            way, lambda: size_scenario(scenario, scheduler=address), _live_children_cpu()
        )
    finally:
        cluster.DASK_RESULTS_TIMEOUT_S = allowed
    return Whole(**{**whole.__dict__, "cpu_note": note})


def whole_rows(ways: list[Whole], uptimes: list[str]) -> list[Row]:
    """The rows of the whole search, one way each; the cluster's judged against one process,
    the pool's shown beside it."""
    one, pool, dask = ways
    same = one.digest == pool.digest == dask.digest and (
        one.solved,
        one.skipped,
    ) == (dask.solved, dask.skipped)
    out = []
    for w, load in zip(ways, uptimes, strict=True):
        detail = (
            f"{w.cpu_s:.1f} s CPU ({w.cpu_here_s:.1f} in this process"
            f"{'; ' + w.cpu_note if w.cpu_note else ''}); "
            f"{w.solved:,} solved, {w.skipped:,} skipped; JSON {w.json_mb:,.0f} MB in "
            f"{w.json_s:.1f} s, sha256 {w.digest[:12]}; load {load}"
        )
        if w is one:
            out.append(
                Row(f"whole 10^6 search, {w.way}", w.wall_s, "(the reference)", None, detail)
            )
        elif w is pool:
            out.append(
                Row(
                    f"whole 10^6 search, {w.way}",
                    w.wall_s,
                    "(shown beside it)",
                    None,
                    f"{one.wall_s / w.wall_s:.2f}x one process; {detail}",
                )
            )
        else:
            out.append(
                Row(
                    f"whole 10^6 search, {w.way}",
                    w.wall_s,
                    "faster than one process",
                    w.wall_s < one.wall_s,
                    f"{one.wall_s / w.wall_s:.2f}x one process, "
                    f"{pool.wall_s / w.wall_s:.2f}x the pool; {detail}",
                )
            )
    out.append(
        Row(
            "whole 10^6 search, JSON of the three ways",
            0.0,
            "byte-identical",
            same,
            "identical" if same else "DIFFERENT: " + ", ".join(w.digest[:12] for w in ways),
        )
    )
    return out


def _uptime() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    import distributed

    numpy_s = import_numpy_s()
    print(f"bench size_dask (import numpy: {numpy_s * 1e3:.0f} ms)")
    scenario = _million()
    loads = [_uptime()]
    here = whole_here(scenario)  # before the cluster starts: its workers would share the cores
    loads.append(_uptime())
    with distributed.LocalCluster(
        n_workers=WORKERS,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",  # Dask binds 8787 even for None; any free port
    ) as cluster:
        loads.append(_uptime())
        there = whole_on(scenario, cluster.scheduler_address)
        loads.append(_uptime())
        show(
            f"the whole search of a 1,000,000-configuration space (load before each way: "
            f"{'; '.join(loads[:3])}; after: {loads[3]})",
            whole_rows([*here, there], loads[:3]),
            numpy_s,
        )
        show(f"a local {WORKERS}-worker Dask cluster", rows(cluster.scheduler_address), numpy_s)
