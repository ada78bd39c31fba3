"""How much computing a scenario asks for, estimated before any of it is done.

Every input is bounded on its own (`limits`), but the analyses multiply: alternatives x
(curve points + growth factors) x the cost of one operating point, which itself grows with
the square of the workloads sharing an Easy Tier pool (each placement ranks every workload's
extents against every other's) and, for a closed system, with the population. Hostile testing
found valid scenarios inside every single bound that ran for minutes (issue 17 item 6). So a
scenario is refused, when it is loaded (`diskmodel.api.load_scenario` hands `work_problems` to
the scenario's validation) and before any model is solved, when the estimate exceeds
`MAX_WORK_S`; the message names the multipliers to lower.

The budget counts the analyses' own loops, so it lives beside them and takes their sizes from
them: the closed sweep's (`growth.CLOSED_SWEEP`, `CLOSED_REACH`), the application's
(`application.APPLICATION_SWEEP`, `APPLICATION_REACH`) and the band's samples
(`band.sample_count`). What it measures per unit of work is its own.

The estimate is in CPU seconds of the 2-core development machine, from the costs measured by
`python -m bench.worst_case` (its table is in docs/SECURITY.md). It is meant as an upper
bound: each constant is the largest per-unit cost seen over the measured shapes, so a
scenario that is refused may in fact have run in somewhat less than a minute, never the
other way round by much.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from diskmodel.analyses.application import APPLICATION_REACH, APPLICATION_SWEEP
from diskmodel.analyses.band import sample_count
from diskmodel.analyses.growth import CLOSED_REACH, CLOSED_SWEEP
from diskmodel.catalog import Catalog
from diskmodel.scenario import Scenario
from diskmodel.scenario.hardware import closed_population
from diskmodel.vocabulary import easy_tier_follows_load

MAX_WORK_S = 60.0
"""A scenario estimated to need more computing than this is refused (issue 17: the worst case
must stay under a minute on 2 cores)."""

SOLVE_S = 12e-3
"""One operating point of one configuration: its network built and solved (measured: 5 ms with
Easy Tier off, 8-12 ms with it on, a pool of one workload, on a machine shared with other
work)."""
PLACEMENT_S = 33e-6
"""Per operating point, per tier and per pair of workloads in a pool whose Easy Tier placement
follows the load (measured: 64 workloads in one three-tier pool, 0.4 s a point)."""
CLOSED_STATION_S = 4.5e-3
"""Per closed solution, per station of the network (host ports, servers, DA pairs, ranks): the
rounds of placement and closed solution a population takes to settle. With `CLOSED_CUSTOMER_S`
fitted to the worst shape (`bench worst_case`: a three-tier pool of 22 ranks behind 128 ports
and 8 DA pairs, 160 stations, Easy Tier's ceilings binding), measured as the CPU seconds of one
`Solver.closed_point` on a fresh solver (its drives' tables warmed by another), on a shared
2-core machine at load 6: 0.23 s at 64 customers, 0.77 s at 256, 1.55 s at 1,024, 2.24 s at
2,048 and 2.62 s at 4,096; a two-tier pool of 18 ranks behind 8 ports (30 stations) 0.05 s at
500 and 0.26 s at 4,000. The cost is concave in the population (the saddle point past the
exact budget), so the line is set through the steepest part: 1.3-1.4 times the measured cost
at 256 and 1,024 customers, more elsewhere. (Fitted at 15 ms and 12 us before the closed
solution became 1.5-4.5 times faster: 0.35 s at 64 customers, 2.5 s at 256, 5.2 s at 2,048;
0.23 s and 1.0 s for the two-tier pool.)"""
CLOSED_CUSTOMER_S = 8.5e-6
"""Per closed solution, per station and per customer (the exact MVA's cost grows with both)."""
CLOSED_STATIC = 0.2
"""Share of the closed cost left when no placement follows the load (measured: 11 s against
61-76 s for 4,096 customers)."""
LIMIT_POINTS = 40
"""Operating points of the saturation search and the service-level limits, per configuration."""
STARTUP_S = 3.0
"""Importing, reading the catalog and the scenario, and the tables built once per run (the
drives' command-queueing simulation): 2-3 s of CPU on a shared machine."""


@dataclass(frozen=True)
class WorkEstimate:
    """Estimated CPU seconds, and what multiplies them."""

    seconds: float
    configurations: int
    points_per_configuration: int
    population: int

    @property
    def too_much(self) -> bool:
        return self.seconds > MAX_WORK_S


def _point_s(scenario: Scenario, catalog: Catalog) -> tuple[float, bool]:
    """Seconds for one operating point of `scenario`'s configuration, and whether any of its
    placements follow the load (an Easy Tier pool of more than one tier)."""
    pairs = 0.0
    follows = False
    system = catalog.systems[scenario.system.model]
    for pool in scenario.pools:
        tiers = {catalog.drives[g.drive].tier for g in pool.ranks}
        auto = pool.easy_tier.mode == "auto"
        if not easy_tier_follows_load(auto, pool.easy_tier.generation_on(system), len(tiers)):
            continue
        follows = True
        sharing = sum(1 for w in scenario.model_workloads if w.pool == pool.name)
        pairs += len(tiers) * sharing * sharing
    return SOLVE_S + PLACEMENT_S * pairs, follows


def geometric_sum(top: float, count: int) -> float:
    """Sum of `count` populations spaced geometrically from 1 to `top` (a sweep)."""
    if count <= 1 or top <= 1:
        return float(top) * max(count, 1)
    ratio = top ** (1.0 / (count - 1))
    return float((ratio**count - 1.0) / (ratio - 1.0))


def _configuration_s(
    scenario: Scenario, catalog: Catalog, points: int, factors: tuple[float, ...]
) -> float:
    point_s, follows = _point_s(scenario, catalog)
    seconds = (points + len(factors) + LIMIT_POINTS + 1) * point_s
    population = closed_population(scenario)
    if population:
        # The planned population, each growth factor's, and the sweep: the closed sweep, or
        # the application's (in customers: its users' streams) reaching past the planned one.
        solves = 1 + len(factors)
        customers = population + sum(population * f for f in factors)
        if scenario.application is None:
            solves += CLOSED_SWEEP + 1
            customers += geometric_sum(CLOSED_REACH * population, CLOSED_SWEEP) + population
        else:
            solves += APPLICATION_SWEEP
            customers += geometric_sum(APPLICATION_REACH * population, APPLICATION_SWEEP)
        stations = _stations(scenario)
        closed_s = stations * (CLOSED_STATION_S * solves + CLOSED_CUSTOMER_S * customers)
        seconds += closed_s * (1.0 if follows else CLOSED_STATIC)
    return seconds


def _sizing_s(scenario: Scenario, catalog: Catalog, factors: tuple[float, ...]) -> float:
    """One configuration of a sizing search: resolved, then solved at the planned load and at
    each growth factor (no curve, no saturation search)."""
    point_s, follows = _point_s(scenario, catalog)
    seconds = (1 + len(factors)) * point_s
    population = closed_population(scenario)
    if population:
        customers = population * (1 + sum(factors))
        closed_s = _stations(scenario) * (
            CLOSED_STATION_S * (1 + len(factors)) + CLOSED_CUSTOMER_S * customers
        )
        seconds += closed_s * (1.0 if follows else CLOSED_STATIC)
    return seconds


def planned_point_s(scenario: Scenario, catalog: Catalog) -> float:
    """One planned operating point of `scenario`'s configuration, resolved and solved (what
    each of calibration's model evaluations does once per interval it fits)."""
    return _sizing_s(scenario, catalog, ())


SATURATION_POINTS = 12
"""Placements of one saturation search, at most (measured: up to 9 over the shipped
scenarios' configurations)."""


def _band_s(scenario: Scenario, catalog: Catalog, points: int) -> float:
    """One configuration's band, at each of its two ends: whole predictions, each with a curve
    at the central curve's loads (one where every range moves the work one way; where some are
    sampled, at most three: the middle sample and the two extremes), and each sample's planned
    point (as a sizing candidate's) and saturation search."""
    samples = sample_count(scenario)
    whole = min(samples, 3) * _configuration_s(scenario, catalog, 2 * points, ())
    if samples == 1:
        return 2 * whole
    point_s, _ = _point_s(scenario, catalog)
    screen = _sizing_s(scenario, catalog, ()) + SATURATION_POINTS * point_s
    return 2 * (whole + samples * screen)


def _stations(scenario: Scenario) -> int:
    """Stations of the network: host ports, the two servers, DA pairs and ranks."""
    system = scenario.system
    ranks = sum(g.count for p in scenario.pools for g in p.ranks)
    return system.host_ports + 2 + system.da_pairs + ranks


def estimate(scenario: Scenario, catalog: Catalog) -> WorkEstimate:
    """The computing `diskmodel run` will do for `scenario` (its alternatives and tier sweep
    included), in CPU seconds of the development machine."""
    analyses = scenario.analyses
    points = analyses.curve.points
    factors = tuple(analyses.growth.multipliers) if analyses.growth else ()
    configurations = [s for _, s in scenario.alternatives(catalog)]
    seconds = STARTUP_S + sum(_configuration_s(s, catalog, points, factors) for s in configurations)
    if scenario.ranges:
        seconds += len(configurations) * _band_s(scenario, catalog, points)
    sweep = analyses.tier_sweep
    if sweep is not None:
        # Each count is the baseline with ranks added, solved with a short curve, no growth.
        seconds += len(sweep.counts) * _configuration_s(scenario, catalog, min(points, 12), ())
    size = analyses.size
    if size is not None:
        # `diskmodel size`: each configuration at the planned load and every growth factor.
        seconds += size.candidates * _sizing_s(scenario, catalog, factors)
    return WorkEstimate(
        seconds=seconds,
        configurations=len(configurations) + (len(sweep.counts) if sweep else 0),
        points_per_configuration=points + len(factors),
        population=closed_population(scenario),
    )


def work_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """One message when the scenario asks for more computing than `MAX_WORK_S`."""
    work = estimate(scenario, catalog)
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
    yield (
        f"analyses: this scenario asks for about {work.seconds:,.0f} s of computing "
        f"({'; '.join(asked)}); diskmodel runs at most about {MAX_WORK_S:.0f} s. Lower "
        "analyses.curve.points, the number of compare alternatives, growth factors or "
        "tier_sweep counts, the sizing choices, the closed population, or the workloads "
        "sharing an Easy Tier pool"
    )
