"""How much computing a scenario asks for, estimated before any of it is done.

Every input is bounded on its own (`limits`), but the analyses multiply: alternatives x (curve
points + growth factors) x the cost of one operating point, which itself grows with the
workloads sharing an Easy Tier pool (each placement places every workload's extents) and, for a
closed system, with the stations and the population (up to the population past which the closed
solution costs no more) and the rounds of placement and closed solution it takes to settle: two
where its load cannot reach a tier's ceiling, which is known beforehand
(`analyses.closed_rounds`), else as many as the worst case's; the band over the catalog's
estimates solves the baseline again for each estimate it tries. Hostile testing found valid
scenarios inside every single bound that ran for minutes (issue 17 item 6). So a scenario is
refused, when it is loaded (`diskmodel.api.load_scenario` hands `work_problems` to the
scenario's validation) and before any model is solved, when the estimate exceeds `MAX_WORK_S`;
the message names the multipliers to lower.

The budget counts the analyses' own loops, so it lives beside them and takes their sizes from
them: the closed sweep's (`growth.CLOSED_SWEEP`, `CLOSED_REACH`), the application's
(`application.APPLICATION_SWEEP`, `APPLICATION_REACH`), the band's samples
(`band.sample_count`) and the catalog's estimates the catalog band tries (its own rule of what
counts as one). What it measures per unit of work is its own.

The estimate is in CPU seconds of the 2-core development machine, from the costs measured by
`python -m bench budget` (issue 30 item 6), whose table compares it with the CPU seconds of
whole runs in fresh processes: each constant is set at 1.3-2 times the per-unit cost seen
over those cases under load, so that the estimate stays above the work (a run it accepts
finishes within the bound) and within 3 times it (a run it refuses would really have taken
too long). The batched sizing search's two constants are its measured costs: its margin is
the count it is priced at (`_size_search_s`). `tests/analyses/test_budget_counts.py` checks
that the estimate is never below the operating points a prediction counts, priced at these
constants (a closed point by the rounds it took); `test_budget_rounds.py` that a closed point
the estimate says settles at once takes two rounds and one whose load passes a ceiling takes
more; `test_budget_sizing.py` and `test_budget_band_front.py` that what the estimate says
shares its layouts does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from diskmodel.analyses.application import APPLICATION_REACH, APPLICATION_SWEEP
from diskmodel.analyses.band import sample_count

# What counts as an estimate is the band's own rule.
from diskmodel.analyses.catalog_band import _ranged as ranged
from diskmodel.analyses.closed_rounds import ClosedReach, band_free_iops, closed_reach
from diskmodel.analyses.growth import CLOSED_REACH, CLOSED_SWEEP
from diskmodel.catalog import Catalog
from diskmodel.scenario import Scenario
from diskmodel.scenario.hardware import closed_population
from diskmodel.vocabulary import easy_tier_follows_load

MAX_WORK_S = 60.0
"""A scenario estimated to need more computing than this is refused (issue 17: the worst case
must stay under a minute on 2 cores)."""

# The constants below are CPU seconds on the shared 2-core development machine, measured by
# `python -m bench budget` (issue 30 item 6; the table is in its docstring) and set at about
# 1.3-2 times the cost measured under load, so that the estimate stays above the work when
# the machine is busier and within 3 times it when it is idle.

SOLVE_S = 2.5e-3
"""One operating point of one configuration: its network built and solved, placed for the
load where Easy Tier's placement follows it. Measured 2026-11-29 03:40 (load average 1.0,
`python -m bench budget_terms`, the worst-case bench's pool, the layouts forgotten before each:
the costliest a point can be): the planned point on a fresh solver 1.1 ms with Easy Tier off,
1.7 ms for one workload in a three-tier pool (0.3 of it priced by `PLACEMENT_S`), 3.7 ms for 8
and 20.6 ms for 64 (1.5 ms and `PLACEMENT_S` per tier and workload, to within 5%); a point at
a load of its own on a solver that has placed before, 0.4 ms, 1.5, 2.6 and 5.9 ms; a curve's
points that share a placement about 0.1-0.9 ms. Under load the point from nothing costs more:
1.98 ms for one workload at load average 3 (05:06), and a calibration evaluation of one
workload, its resolution and such a point, 3.0-3.75 ms at load average 4 against 2.76 ms at 3
(`bench budget`'s evaluation rows). Set at 2.5 ms, 1.25-2.3 times the point from nothing for
one workload, so that the evaluation (priced 4.1 ms) stays above it: at 2 ms it fell under
it (0.97x) in a busy hour. 3 ms until then (2.5 ms measured on 2026-11-28), when the shipped
scenarios' rows had reached 2.9-3.1x their cost."""
PLACEMENT_S = 1e-4
"""Per operating point, per tier and per workload sharing a pool whose Easy Tier placement
follows the load: the placement's ceiling searches and the network's flows grow with the
workloads (measured, as `SOLVE_S`: 4.6 ms a point for 8 workloads in one three-tier pool,
18.6 ms for 64, 15 ms for 64 in 8 pools: about 85 us per tier and workload; once 33 us per
tier and pair of workloads, when a placement ranked every workload against every other in a
pieces x workloads table). Lowered from 1.5e-4 when work identical between workloads came to
be made once (64 workloads 1.35 -> 0.60 s a prediction): the 64-workload band case had
reached 3.4x its cost.)"""
CLOSED_STATION_S = 1.2e-3
"""Per closed operating point, per station of the network (host ports, servers, DA pairs,
ranks): the rounds of placement and closed solution a population takes to settle once a
tier's ceiling binds (5-15 on the worst case's pool; `CLOSED_SETTLED` where none can; measured:
85 ms a point at 64 customers behind 160 stations, Easy Tier placing; 1.5e-3 until the
shared work between workloads, when 64 closed workloads' calibration point reached 3.4x)."""
CLOSED_CUSTOMER_S = 8.5e-6
"""Per closed operating point, per station and per customer up to `CLOSED_EXACT_CUSTOMERS`
(the exact solution's cost grows with both; measured: 0.93 s a point at 2,048 customers
behind 160 stations, Easy Tier placing, about 6e-6 s per station and customer over the sweep's
populations; 1e-5 until the shared work between workloads)."""
CLOSED_EXACT_CUSTOMERS = 2048
"""Customers past which a closed solution costs no more: the exact method is held to a time
budget and the saddle point solves the populations above it at a cost that does not grow with
them (`queueing.closed_network`: exact up to the affordable population, 1,024-1,088 on the
worst case's networks of 160 stations by its cost model, never below `MIN_EXACT_POPULATION`,
1,024). Counted in-process 2026-11-28 17:40 (load average 2.5), the worst case's points with
Easy Tier placing: 0.99 s at 619 customers (12 rounds), 2.63 s at 1,805 (13), then 2.70-2.91 s
from 5,270 to 131,072 (13 rounds each); 64 closed workloads' 4,096 customers 1.93 s (9). Set
where the price, 4.37 s a point behind 160 stations, is 1.5 times the costliest of them. It
was 4,096 (5.76 s a point, 2 to 3 times them), which put 64 closed workloads' calibration
evaluation at 3.06 times its cost. Counted again 2026-11-29 03:41 (load average 1.4,
`python -m bench budget_terms`, one planned point, the layouts forgotten): with Easy Tier
placing 1.80 s at 4,096 customers in one workload, 1.93 s at 100,000, 1.76 s for 8 workloads
of 512, 1.45 s for 64 of 64 (0.12-0.77 s at 64-1,024); with it off 0.15-0.17 s from 4,096 on.
By the same rule (the price 1.5 times the costliest, 1.93 s) 1,991 customers: 2,048, 2.98 s a
point behind 160 stations. At 3,072, 64 closed workloads' calibration evaluation had reached
3.03-3.15x its cost."""
CLOSED_STATIC = 0.08
"""Share of the closed cost left when no placement follows the load (measured: 0.10 s a point
at 100,000 customers with Easy Tier off, against 1.3 s with it on)."""
CLOSED_SETTLED = 0.44
"""Share of the closed cost left when the point is known to settle on its first placement
(`analyses.closed_rounds`: its throughput bound under the free rate): one closed solution
and a second placement, where `CLOSED_STATION_S` and `CLOSED_CUSTOMER_S` price the 5-15
rounds of placement and closed solution the worst case's points take once a ceiling binds.
Measured 2026-11-28 17:20 in-process on scenarios/ds8800-oltp-application.yaml, whose 27
closed points all settle in two rounds: 5-13 ms a point up to 288 customers (0.14-0.3 of
the price), 25-60 ms at its 500 (0.15-0.37), 0.10 s at 894 (0.39) and 0.27 s at 1,575 (0.49
of the price of the 2,000 its sweep is priced at: a 16-CPU host station costs the closed
solution more than the worst case's stations, whose per-station price this is a share of);
0.88 s for all 27 against 5.3 s priced at the worst case (0.17). Set at 1.2 times the
costliest point's share (0.6 then). Measured again 2026-11-29 02:50 (load average 1.3, three
runs, `Solver.closed_point` timed in-process after the sizing and solve work of that day):
10-25 ms a point at 500 customers (0.07-0.15), 41-43 ms at 894 (0.16), 159-160 ms at 1,575
(0.362-0.365); 0.42 s for all 27 against 3.56 s priced. Set at 1.2 times 0.365: 0.44; the
application's row of `bench budget` had reached 3.31x.)"""
LIMIT_POINTS = 40
"""Operating points of the saturation search and the service-level limits, per configuration."""
STARTUP_S = 1.5
"""Importing, reading the catalog and the scenario, the tables built once per run (the
drives' command-queueing simulation) and writing the report: 1.0-1.2 s of CPU for a
one-workload scenario with Easy Tier off on a shared machine (`bench budget`)."""
STARTUP_WORKLOAD_S = 2e-2
"""Per workload of the scenario, beyond `STARTUP_S`: its part of the file read and checked,
of the report's tables and charts, and of the points' flows when no placement follows the
load (measured 2026-11-29 03:43, load average 2.6, `python -m bench budget_terms`: the whole
`diskmodel run`, Easy Tier off, open, 2 curve points, 1.02 s for one workload, 1.15 s for 8,
1.45-1.62 s for 32 and 1.90-1.92 s for 64, the file as JSON or as block YAML: 14 ms a
workload). Without it 64 open workloads with Easy Tier off were estimated at 1.70 s for
2.11 s of work, below it."""
SATURATION_POINTS = 12
"""Placements of one saturation search, at most (measured: up to 9 over the shipped
scenarios' configurations; 7-10 for the worst-case bench's three-tier pool of 1-64
workloads)."""
PROBE_PLACEMENT_S = 3e-5
"""One probe of a saturation search (`Solver.saturation`: the data placed for a load and the
network's utilisations there, no response solved), per tier and workload sharing a pool whose
Easy Tier placement follows the load, beyond `SOLVE_S` (measured 2026-11-28 12:53, the
worst-case bench's three-tier pool, the layouts forgotten: 2.7 ms a probe for one workload,
3.5 ms for 8, 4.8 ms for 64 identical ones, and a whole beginning, planned point and search,
34, 40 and 67 ms: about 2e-5 s per tier and workload). `PLACEMENT_S`, measured on a
prediction's solved points, also holds the response solved for each workload's class, which
a probe does not solve; priced at it, the catalog band's beginnings of 64 workloads were 289 ms
each for 67 ms of work (`bench budget`'s 64-workload band case at 3.1-3.4 times its cost)."""
BAND_SCREEN_POINTS = 3
"""Operating points of the catalog band's screen of one end of an estimate's range: the
response at the planned rates (a point) and whether the placements for the maximum -/+ the
threshold carry it (two saturation probes, `Solver.carries`; `analyses.catalog_band`), on a
configuration resolved again."""
RESOLVE_S = 1e-3
"""One configuration resolved again (a sizing candidate, a calibration's evaluation, the
catalog band's screens) with a fresh solver. Measured 2026-11-29 03:40 (load average 1.0,
`python -m bench budget_terms`): 0.35 ms for one workload, 0.47 ms for 8, 1.3 ms for 64 (about
15 us a workload); set at 1e-3 and `RESOLVE_WORKLOAD_S` 4e-5, 2.5-3 times those, as the
catalog band's screens were priced at 3-4 times their cost (`bench budget`'s shipped rows at
2.9-3.1x). Before, 3 ms and 2e-4 a workload: 2026-11-28 12:38 on the worst-case
bench's pool, the layouts forgotten each time: the resolution and the solver 0.9 ms for one
workload, 1.0 ms for 8, 2.5 ms for 64, the planned point on it 3.0, 4.0 and 18.4 ms (about
`_point_s`); `bench budget`'s calibration rows, under load, 4.6 ms for the two together with
one workload, 6.5 ms with 8, 27 ms with 64. Set at 3 ms and `RESOLVE_WORKLOAD_S` per workload
so that the resolution and `_point_s` together stay above those rows (1.4-1.5 times them).
4 ms and 0.6 ms per workload until the resolution and the solver's start were measured
apart from the point: they priced the catalog band's 73 resolutions of 64 workloads at 3.1 s,
which took 0.1 s (`bench budget`'s 64-workload band case at 3.4 times its cost)."""
RESOLVE_WORKLOAD_S = 4e-5
"""Per workload of a configuration resolved again (see `RESOLVE_S`)."""
SEARCH_SOLVE_SHARE = 0.047
"""A configuration solved by the batched sizing search (a space beyond 512 configurations)
whose back end's Easy Tier layouts its process has made already (`model.layout.placements_for`,
`size_batch.FRONT_END_CHOICES`), as a share of `_sizing_s` (a configuration resolved and solved
on a fresh solver): validated, resolved and solved at the planned load and each growth
factor, the drives' tables and operation costs kept across configurations. Measured directly
2026-11-29 05:00 (load average 2.0-2.6; `diskmodel size`'s search of
scenarios/sizing/ds8800-size-large-space.yaml in one process, 9.47 s CPU, each of its 95
batches' CPU fitted by least squares to its configurations and its back ends new to the
process: 0.52-0.55 ms a configuration and 2.0-2.35 ms more a back end, against `_sizing_s`'s
11.84 ms: 0.044-0.046 and 0.17-0.20; set at 0.047). Until then the shares were scaled by
the whole search's measured speed-up after each change to it (from 0.3 and 0.8 on 2026-11-28
to 0.062 and 0.31), which let them drift from the cost: the large space's `bench budget` row
reached 3.03x in a quiet hour."""
SEARCH_BACK_END_SHARE = 0.29
"""Per back end among the configurations a batched sizing search may solve: its Easy Tier
layouts made by the first configuration of it a process solves, beyond `SEARCH_SOLVE_SHARE`,
as a share of `_sizing_s`. Measured as `SEARCH_SOLVE_SHARE`: 2.35 ms a back end new to the
process (0.17-0.20); and a back end is placed more than once, by each process it is sent to and
again when the layouts kept (`layout._BACK_ENDS_KEPT`) have let it go: over the two
processes the search uses by default, 1,878 placements for the 1,288 back ends of the 9,968
configurations solved (1.46 each, 2026-11-28 12:27; a batch now keeps each back end's
configurations in one task, `size_batch.back_end`): 0.20 x 1.46 = 0.29."""
SCREEN_S = 3e-6
"""Per configuration of a batched sizing search's space: its bounds in numpy, its cost and
its place in the order (measured: 0.11-0.13 s for 106,496 configurations, 1.2 us each)."""
BAND_PASSING = 0.35
"""Share of the catalog's estimates whose screen passes, each then solved at both ends of its
range (measured: 1 of 26 with Easy Tier off, 4-7 of 23-26 with it on, over the bench's
cases and the shipped scenarios)."""


@dataclass(frozen=True)
class WorkEstimate:
    """Estimated CPU seconds, and what multiplies them."""

    seconds: float
    configurations: int
    points_per_configuration: int
    population: int
    spread_s: float = 0.0
    """The part of `seconds` a sizing search spreads over `workers` processes."""
    workers: int = 1
    band_s: float = 0.0
    """The part of `seconds` the band over the catalog's estimates takes (on by default)."""

    @property
    def wall_s(self) -> float:
        """The seconds the run takes on the cores it uses: the spread part shared by them."""
        return self.seconds - self.spread_s + self.spread_s / self.workers

    @property
    def too_much(self) -> bool:
        return self.wall_s > MAX_WORK_S


def _point_s(scenario: Scenario, catalog: Catalog) -> tuple[float, bool]:
    """Seconds for one operating point of `scenario`'s configuration, and whether any of its
    placements follow the load (an Easy Tier pool of more than one tier)."""
    placing, follows = _placing(scenario, catalog)
    return SOLVE_S + PLACEMENT_S * placing, follows


def _probe_s(scenario: Scenario, catalog: Catalog) -> float:
    """Seconds for one probe of a saturation search (`PROBE_PLACEMENT_S`)."""
    placing, _ = _placing(scenario, catalog)
    return SOLVE_S + PROBE_PLACEMENT_S * placing


def _saturation_s(scenario: Scenario, catalog: Catalog) -> float:
    """One saturation search: at most `SATURATION_POINTS` probes where a placement follows the
    load; else one, as the network's scale gives the maximum at once
    (`model.saturation.station_load`)."""
    _, follows = _placing(scenario, catalog)
    return (SATURATION_POINTS if follows else 1) * _probe_s(scenario, catalog)


def _placing(scenario: Scenario, catalog: Catalog) -> tuple[float, bool]:
    """Tiers x workloads summed over the pools whose Easy Tier placement follows the load, and
    whether there is any."""
    placing = 0.0
    follows = False
    system = catalog.systems[scenario.system.model]
    for pool in scenario.pools:
        tiers = {catalog.drives[g.drive].tier for g in pool.ranks}
        auto = pool.easy_tier.mode == "auto"
        if not easy_tier_follows_load(auto, pool.easy_tier.generation_on(system), len(tiers)):
            continue
        follows = True
        sharing = sum(1 for w in scenario.model_workloads if w.pool == pool.name)
        placing += len(tiers) * sharing
    return placing, follows


def startup_s(scenario: Scenario) -> float:
    """Seconds before and after the model's own work: `STARTUP_S` and `STARTUP_WORKLOAD_S`
    per workload."""
    return STARTUP_S + STARTUP_WORKLOAD_S * len(scenario.workloads)


def _resolve_s(scenario: Scenario) -> float:
    """A configuration of `scenario` resolved again, with a fresh solver (`RESOLVE_S`)."""
    return RESOLVE_S + RESOLVE_WORKLOAD_S * len(scenario.workloads)


def _closed_point_s(
    scenario: Scenario, population: float, follows: bool, settles: bool = False
) -> float:
    """One closed operating point at `population` customers (`CLOSED_STATION_S`); `settles`:
    known to settle on its first placement (`CLOSED_SETTLED`)."""
    customers = min(population, CLOSED_EXACT_CUSTOMERS)
    seconds = _stations(scenario) * (CLOSED_STATION_S + CLOSED_CUSTOMER_S * customers)
    if not follows:
        return seconds * CLOSED_STATIC
    return seconds * (CLOSED_SETTLED if settles else 1.0)


def _reach(scenario: Scenario, catalog: Catalog, follows: bool) -> ClosedReach | None:
    """Where the closed points of `scenario`'s own configuration may settle at once."""
    if not follows or not closed_population(scenario):
        return None
    return closed_reach(scenario, catalog)


def _populations(top: float, count: int) -> list[float]:
    """`count` populations spaced geometrically from 1 to `top` (a sweep)."""
    if count <= 1 or top <= 1:
        return [float(top)] * max(count, 1)
    ratio = top ** (1.0 / (count - 1))
    return [ratio**i for i in range(count)]


def _configuration_s(
    scenario: Scenario,
    catalog: Catalog,
    points: int,
    factors: tuple[float, ...],
    own: bool = False,
) -> float:
    """A whole prediction of one configuration. `own`: the configuration is `scenario`'s own,
    so its closed points' rounds may be told beforehand (`analyses.closed_rounds`); else (a
    tier sweep's counts, a band's samples) each is priced as if a ceiling binds."""
    point_s, follows = _point_s(scenario, catalog)
    reach = _reach(scenario, catalog, follows) if own else None
    seconds = (points + len(factors) + LIMIT_POINTS + 1) * point_s
    population = closed_population(scenario)
    if population:
        # The planned population (twice: the planned point and the curve's), each growth
        # factor's, and the sweep: the closed sweep, or the application's (in customers: its
        # users' streams) reaching past the planned one.
        solved = [population, population] + [population * f for f in factors]
        if scenario.application is None:
            solved += _populations(CLOSED_REACH * population, CLOSED_SWEEP)
        else:
            solved += _populations(APPLICATION_REACH * population, APPLICATION_SWEEP)
        seconds += sum(
            _closed_point_s(scenario, n, follows, reach is not None and reach.settles_at_once(n))
            for n in solved
        )
    return seconds


def _sizing_s(scenario: Scenario, catalog: Catalog, factors: tuple[float, ...]) -> float:
    """One configuration of a sizing search: resolved, then solved at the planned load and at
    each growth factor (no curve, no saturation search), on a fresh solver."""
    point_s, follows = _point_s(scenario, catalog)
    seconds = _resolve_s(scenario) + (1 + len(factors)) * point_s
    population = closed_population(scenario)
    if population:
        solved = [population] + [population * f for f in factors]
        seconds += sum(_closed_point_s(scenario, n, follows) for n in solved)
    return seconds


def planned_point_s(scenario: Scenario, catalog: Catalog) -> float:
    """One planned operating point of `scenario`'s configuration, resolved and solved (what
    each of calibration's model evaluations does once per interval it fits), its data placed
    from nothing: an evaluation changes the workloads, so the layouts, the pools timed and
    the drives' work at their targets that a prediction's points share are made again
    (`model.layout.forget_placements`), one placement more than `_point_s` prices (counted
    in-process 2026-11-28 17:36, load average 3.9, 64 workloads in one three-tier pool: the
    resolution 3.2 ms and the point 39 ms against `_sizing_s`'s 15.8 and 22.2; `bench
    budget`'s 64-workload evaluation row came to 0.99 of its estimate without it)."""
    placing, _ = _placing(scenario, catalog)
    return _sizing_s(scenario, catalog, ()) + PLACEMENT_S * placing


def _band_s(scenario: Scenario, catalog: Catalog, points: int) -> float:
    """One configuration's band, at each of its two ends: whole predictions, each with a curve
    at the central curve's loads (one where every range moves the work one way; where some are
    sampled, at most three: the middle sample and the two extremes), and each sample's planned
    point (as a sizing candidate's) and saturation search."""
    samples = sample_count(scenario)
    whole = min(samples, 3) * _configuration_s(scenario, catalog, 2 * points, ())
    if samples == 1:
        return 2 * whole
    screen = _sizing_s(scenario, catalog, ()) + _saturation_s(scenario, catalog)
    return 2 * (whole + samples * screen)


def catalog_estimates(scenario: Scenario, catalog: Catalog) -> int:
    """The catalog's ranged estimates the scenario's baseline may use (`catalog_band.estimates`,
    counted before the scenario is resolved: every host adapter of its system, as it may name
    any)."""
    system = catalog.systems[scenario.system.model]
    count = sum(len(list(ranged(part))) for part in (system, system.device_adapter))
    count += front_end_estimates(scenario, catalog)
    for name in sorted({g.drive for pool in scenario.pools for g in pool.ranks}):
        drive = catalog.drives[name]
        count += len(list(ranged(drive)))
        packaging = drive.packaging.get(system.name)
        if packaging is not None:
            count += len(list(ranged(packaging)))
    return count


def front_end_estimates(scenario: Scenario, catalog: Catalog) -> int:
    """Of `catalog_estimates`, those of the front end: the processor option's costs and a host
    adapter's figures (the most of any of the system's adapters). Set to an end of its range,
    such a figure leaves the back end as it was, so the band's screen of it reads the layouts
    the central configuration placed at the same rates (`model.layout.placements_for`): it
    places nothing (measured 2026-11-28 12:38, 64 workloads in one Easy Tier pool: the 9 front
    end estimates' screens 16-17 ms each, the 15 others' 30 ms)."""
    system = catalog.systems[scenario.system.model]
    count = len(list(ranged(system.processor_costs)))
    return count + max(len(list(ranged(adapter))) for adapter in system.host_adapters)


def _catalog_band_s(scenario: Scenario, catalog: Catalog) -> float:
    """The band over the catalog's estimates (`analyses.catalog_band`): both ends of each
    estimate screened on a configuration resolved again (a front-end estimate's screen solving
    the network only, its layouts read: `front_end_estimates`), a share of them
    (`BAND_PASSING`) solved at both ends, and the centre and the two corners, each the
    planned point and the saturation search (its probes at `PROBE_PLACEMENT_S`) of a fresh
    solver."""
    estimates = catalog_estimates(scenario, catalog)
    front = front_end_estimates(scenario, catalog)
    point_s, follows = _point_s(scenario, catalog)
    begins = 3 + 2 * BAND_PASSING * estimates
    # A beginning's planned point: an open point, or for a closed system the closed point,
    # whose rounds place and solve (`_closed_point_s`).
    population = closed_population(scenario)
    planned_s = point_s
    if population:
        # Each configuration the band solves has its own free rate: the lowest of them
        # decides (`closed_rounds.band_free_iops`), worked out only where the central one
        # settles at once.
        reach = _reach(scenario, catalog, follows)
        settles = reach is not None and reach.settles_at_once(population)
        if reach is not None and settles:
            settles = reach.settles_at_once(population, band_free_iops(scenario, catalog))
        planned_s = _closed_point_s(scenario, population, follows, settles)
    begin_s = planned_s + _saturation_s(scenario, catalog)
    resolve_s = _resolve_s(scenario)
    # A screen: the response at the planned rates, then whether two loads are carried (two
    # saturation probes); a front-end estimate's reads all three placements.
    probes_s = (BAND_SCREEN_POINTS - 1) * _probe_s(scenario, catalog)
    screens = 2 * (estimates - front) * (resolve_s + point_s + probes_s)
    screens += 2 * front * (resolve_s + BAND_SCREEN_POINTS * SOLVE_S)
    return begins * (resolve_s + begin_s) + screens


def _size_search_s(scenario: Scenario, catalog: Catalog, factors: tuple[float, ...]) -> float:
    """`diskmodel size`: each configuration at the planned load and every growth factor; in a
    large space (`size_batch`), the bounds over all of it and, solved, the configurations
    the bounds alone leave open (`size_batch.open_to_solve`, a count the size of what the
    search solves: 2.2 times it on scenarios/sizing/ds8800-size-large-space.yaml, 3.4 times
    on the test's 10,368-configuration subset), each at `SEARCH_SOLVE_SHARE` of a fresh
    solve, and their back ends, each placed at `SEARCH_BACK_END_SHARE` of one
    (configurations that differ only in host ports or processor option share the first one's
    layouts). The large space's screen is run here, as the search runs it (0.1-0.3 s)."""
    from diskmodel.analyses.size_batch import open_to_solve  # the sizing search imports budget

    size = scenario.analyses.size
    assert size is not None
    per = _sizing_s(scenario, catalog, factors)
    left = open_to_solve(scenario, catalog)
    if left is None:
        return size.candidates * per
    # The current configuration is solved whatever the bounds say: one more of each.
    solved = (1 + left.configurations) * SEARCH_SOLVE_SHARE
    placed = (1 + left.back_ends) * SEARCH_BACK_END_SHARE
    return size.candidates * SCREEN_S + (solved + placed) * per


def _stations(scenario: Scenario) -> int:
    """Stations of the network: host ports, the two servers, DA pairs and ranks."""
    system = scenario.system
    ranks = sum(g.count for p in scenario.pools for g in p.ranks)
    return system.host_ports + 2 + system.da_pairs + ranks


def estimate(scenario: Scenario, catalog: Catalog, cluster: int | None = None) -> WorkEstimate:
    """The computing `diskmodel run` will do for `scenario` (its alternatives and tier sweep
    included), in CPU seconds of the development machine. `cluster`: the tasks the Dask cluster
    a sizing search is sent to runs at once (`diskmodel size --scheduler`,
    `cluster.workers_at`), which it is spread over instead of this machine's processes."""
    analyses = scenario.analyses
    points = analyses.curve.points
    factors = tuple(analyses.growth.multipliers) if analyses.growth else ()
    configurations = [s for _, s in scenario.alternatives(catalog)]
    seconds = startup_s(scenario) + sum(
        _configuration_s(s, catalog, points, factors, own=True) for s in configurations
    )
    band_s = _catalog_band_s(scenario, catalog) if analyses.catalog_band else 0.0
    seconds += band_s
    if scenario.ranges:
        seconds += len(configurations) * _band_s(scenario, catalog, points)
    sweep = analyses.tier_sweep
    if sweep is not None:
        # Each count is the baseline with ranks added, solved with a short curve, no growth.
        seconds += len(sweep.counts) * _configuration_s(scenario, catalog, min(points, 12), ())
    size = analyses.size
    spread_s, workers = 0.0, 1
    if size is not None:
        search_s = _size_search_s(scenario, catalog, factors)
        seconds += search_s
        # The batched search of a large space is spread over the cores by default.
        from diskmodel.analyses.size import PER_CONFIGURATION_UP_TO, search_workers

        if cluster is not None:
            spread_s, workers = search_s, cluster
        elif size.candidates > PER_CONFIGURATION_UP_TO:
            spread_s, workers = search_s, search_workers(size.candidates)
    return WorkEstimate(
        seconds=seconds,
        configurations=len(configurations) + (len(sweep.counts) if sweep else 0),
        points_per_configuration=points + len(factors),
        population=closed_population(scenario),
        spread_s=spread_s,
        workers=workers,
        band_s=band_s,
    )


def work_problems(
    scenario: Scenario, catalog: Catalog, cluster: int | None = None
) -> Iterable[str]:
    """One message when the scenario asks for more computing than `MAX_WORK_S` (a sizing
    search sent to a cluster of `cluster` workers: spread over them)."""
    work = estimate(scenario, catalog, cluster)
    if not work.too_much:
        return
    analyses = scenario.analyses
    asked = [
        f"{work.configurations} configuration(s) (the baseline, {len(analyses.compare)} "
        f"compare alternative(s), {len(analyses.tier_sweep.counts) if analyses.tier_sweep else 0}"
        " tier_sweep count(s))",
        f"{analyses.curve.points} curve points",
    ]
    if analyses.growth:
        asked.append(f"{len(analyses.growth.multipliers)} growth factors each")
    if work.population:
        asked.append(f"a closed population of {work.population:,}")
    if analyses.size is not None:
        asked.append(f"{analyses.size.candidates:,} sizing configurations")
    if work.band_s:
        asked.append(
            f"the band over the catalog's {catalog_estimates(scenario, catalog)} estimates, "
            f"about {work.band_s:,.0f} s of it"
        )
    over = (
        f"{work.workers} cores of cluster workers"
        if cluster is not None
        else f"{work.workers} processes"
    )
    spread = f", {work.wall_s:,.0f} s over {over}" if work.workers > 1 else ""
    yield (
        f"analyses: this scenario asks for about {work.seconds:,.0f} s of computing{spread} "
        f"({'; '.join(asked)}); diskmodel runs at most about {MAX_WORK_S:.0f} s. Lower "
        "analyses.curve.points, the number of compare alternatives, growth factors or "
        "tier_sweep counts, the sizing choices, the closed population, or the workloads "
        "sharing an Easy Tier pool"
        + (", or set analyses.catalog_band: false" if work.band_s else "")
    )
