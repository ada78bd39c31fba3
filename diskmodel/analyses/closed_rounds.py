"""Whether a closed operating point settles on its first placement, known before it is solved:
the rounds of placement and closed solution it takes, which `analyses.budget` prices.

`model.closed_point.settled` solves the closed class on the placement for no closed load,
giving a throughput g(0), then on the placement for g(0). Where no Easy Tier ceiling binds at
g(0), that placement is the one that ignores the load (each pool's data by heat to capacity):
the network is the same, its closed solutions are read back (kept by their inputs) and the
fixed point x = g(x) is met. Two rounds, the second solving nothing: what a closed point costs
with Easy Tier off, and one placement more. Where a ceiling binds, the placement follows the
rate and regula falsi places and solves again until the two agree: 5-15 rounds counted on the
worst-case bench's three-tier pool (`bench budget`).

Which it will be is decided by two rates, both known without a closed solution:

- the closed class's throughput bound: customers over their think time and host CPU time per
  host I/O (Little's law on the whole cycle, N = X (Z + R) where a customer's residence R
  holds at least its own CPU service D_cpu, one CPU serving it, so X <= N / (Z + D_cpu)) and
  the host CPUs' capacity (the utilisation law, X D_cpu <= cpus), whichever is lower; g(0) is
  a closed throughput, so it is under this bound;
- the free rate: the rate of the closed mix up to which no Easy Tier pool needs a ceiling
  (`model.layout.free_headroom`: with the placement that ignores the load, every tier's and DA
  pair's work grows in proportion to the rate, so the first tier to reach the pool's
  utilisation target fixes it). It takes one placement of the configuration, the load-free
  one, which its own solution makes again.

A point whose bound is under the free rate settles at once. Closed workloads with no think
time nor host (queue depths) have no such bound: their points are priced as if a ceiling binds.

The catalog band solves the baseline's planned point again on configurations with catalog
estimates at the ends of their ranges (`analyses.catalog_band`), each its own free rate. At the
free placement each term of the free rate (a tier's drives' target work over their work per
host I/O, a DA pair's target over its busy time) is monotone in each catalog figure, and a
figure enters the terms of its own part only; so the lowest free rate over every mix of ends
is the one with each estimate at the end that lowers it alone (`band_free_iops`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce

from diskmodel.analyses.catalog_band import estimates
from diskmodel.catalog import Catalog
from diskmodel.configuration import Configuration, resolve
from diskmodel.model.closed_point import closed_load
from diskmodel.model.layout import free_headroom
from diskmodel.model.operating import Solver
from diskmodel.scenario import Scenario

BOUND_MARGIN = 0.01
"""How far under the free rate the throughput bound must be. The bound is worked out at the
planned population's think time per host I/O and applied to every population priced: an
application's users with parallel I/Os are rounded to whole streams (`components.host.
customers`), which moves that think time by under half a stream over all users; and the
model places loads within 1e-6 of the free rate by its search (`model.operating`)."""


@dataclass(frozen=True)
class ClosedReach:
    """What decides whether a closed point of one configuration settles at once: its think
    time and host CPU time per host I/O, the host CPUs' most host I/O per second (inf without
    a host) and the free rate of the closed mix (host I/O per second)."""

    think_s: float
    cpu_s: float
    cpu_iops: float
    free_iops: float

    def bound_iops(self, customers: float) -> float:
        """The most host I/O per second `customers` can pass: N / (Z + D_cpu), and the host
        CPUs' capacity."""
        cycle_s = self.think_s + self.cpu_s
        by_cycle = customers / cycle_s if cycle_s > 0 else math.inf
        return min(by_cycle, self.cpu_iops)

    def settles_at_once(self, customers: float, free_iops: float | None = None) -> bool:
        """Whether a point at `customers` settles on its first placement (at `free_iops`
        where the configuration solved is another one's, e.g. the band's: its lowest)."""
        free = self.free_iops if free_iops is None else free_iops
        return self.bound_iops(customers) * (1 + BOUND_MARGIN) <= free


def closed_reach(scenario: Scenario, catalog: Catalog) -> ClosedReach | None:
    """The reach of `scenario`'s closed points, or None where it cannot be known beforehand:
    no closed load, open workloads beside the closed ones (the mix then changes with the
    closed rate), a workload skewed by a heat map or copy services (read from files relative
    to the scenario's folder, which the estimate is not given), or no think time nor host."""
    if any(w.skew is not None and w.skew.heatmap is not None for w in scenario.workloads):
        return None
    if scenario.copy_services is not None:
        return None
    config = resolve(scenario, catalog, shown=False)
    if not config.has_closed or any(not w.is_closed for w in config.workloads):
        return None
    solver = Solver(config)
    _, think_s, host = closed_load(config, solver.closed_population())
    cpu_s = host.demand_s if host is not None else 0.0
    cpu_iops = host.cpus / cpu_s if host is not None and cpu_s > 0 else math.inf
    if think_s + cpu_s <= 0:
        return None
    return ClosedReach(think_s, cpu_s, cpu_iops, free_iops(config, solver))


def free_iops(config: Configuration, solver: Solver | None = None) -> float:
    """The closed mix's free rate in `config` (module docstring), host I/O per second."""
    solver = solver or Solver(config)
    weights = solver.closed_weights()
    return float(weights.sum()) * free_headroom(config, weights, solver.costs)


def band_free_iops(scenario: Scenario, catalog: Catalog) -> float:
    """The lowest free rate over the catalog band's configurations: each estimate at each end
    of its range alone, and every estimate at the end that lowers the free rate (module
    docstring). Two load-free placements an estimate, resolved again: 28-32 ms for the 23
    estimates of scenarios/ds8800-oltp-application.yaml (measured 2026-11-28 17:20), asked
    only where the central configuration's point settles at once."""
    central = resolve(scenario, catalog, shown=False)
    lowest = free_iops(central)
    lower_ends = []
    for estimate in estimates(central, catalog):
        at_ends = [
            (free_iops(resolve(scenario, estimate.put(catalog, end), shown=False)), end)
            for end in estimate.ends
        ]
        rate, end = min(at_ends)
        lowest = min(lowest, rate)
        lower_ends.append((estimate, end))
    corner = reduce(lambda cat, e: e[0].put(cat, e[1]), lower_ends, catalog)
    return min(lowest, free_iops(resolve(scenario, corner, shown=False)))
