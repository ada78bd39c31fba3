"""`diskmodel size`: the configurations a scenario's `analyses.size` offers, each tried against
the service level now and in every growth period, ranked by cost.

Every combination of the offered rank counts, DA pair counts, host port counts, processor
options and cache sizes is built as a scenario of its own (the chosen rank groups replace the
pool's groups of the same drive and RAID format) and validated against the hardware (a
combination the DA pairs or the data cannot take is reported as not possible, not dropped).
Each is then resolved and solved at the planned load and at each growth factor: the same
`Solver` operating points `diskmodel run` reports, so a configuration's numbers here are the
ones its own run would give. The schema bounds the space at `MAX_SIZING_CANDIDATES`.

The search goes cheapest first and skips a configuration only where bounds from the queueing
core prove it can be neither on the Pareto front nor an answer (`size_bounds`, where the rule
and its proof are; open loads only, `analyses.size.prune: false` solves every one); what it
skips is listed with the bound that let it.

Cost: the scenario's prices (drives by name, DA pairs, host ports, cache, processor option),
or without them the drive count, then the drives' power (catalog `power_w`, each sourced or an
estimate); known before a configuration is solved.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from diskmodel.analyses import cluster
from diskmodel.analyses import size_bounds as bounds
from diskmodel.analyses.limits import first_broken, limits
from diskmodel.catalog import Catalog
from diskmodel.configuration import (
    Configuration,
    Rank,
    ServiceLevelConfig,
    projected_hit_ratios,
    resolve,
)
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import Choice, SizingCandidate, SizingPruned, SizingResult, no_more
from diskmodel.scenario import Scenario, apply_settings
from diskmodel.scenario.files import scenario_catalog
from diskmodel.scenario.schema import SYSTEM_CHOICES, Prices
from diskmodel.units import MS
from diskmodel.vocabulary import COMPONENT_KINDS

PARALLEL_FROM = 24
"""Configurations from which a search is spread over processes by default (below it, starting
the processes costs more than it saves)."""
MAX_WORKERS = 8


def _label(pool: str, drive: str, raid: str) -> str:
    return f"{pool}: {drive} {raid}"


def _choices(scenario: Scenario) -> tuple[list[str], list[list[float | str]]]:
    """What is chosen (names) and the options of each."""
    size = scenario.analyses.size
    assert size is not None
    names: list[str] = []
    options: list[list[float | str]] = []
    for group in size.ranks:
        names.append(_label(group.pool, group.drive, group.raid))
        options.append(sorted(set(group.counts)))
    for key, values in size.system_options().items():
        names.append(key)
        options.append(values)
    return names, options


def _current(scenario: Scenario, names: Sequence[str]) -> dict[str, float | str]:
    """The scenario's own value of every choice (0 for a rank kind it does not have)."""
    ranks: dict[str, int] = {}
    for pool in scenario.pools:
        for g in pool.ranks:
            key = _label(pool.name, g.drive, g.raid)
            ranks[key] = ranks.get(key, 0) + g.count
    out: dict[str, float | str] = dict(ranks)
    for key in SYSTEM_CHOICES:
        out[key] = getattr(scenario.system, key)
    return {name: out.get(name, 0) for name in names}


def _variant(
    base: dict[str, Any], scenario: Scenario, chosen: dict[str, float | str]
) -> dict[str, Any]:
    """The scenario's data with the chosen counts in place."""
    size = scenario.analyses.size
    assert size is not None
    settings: dict[str, Any] = {}
    for p, pool in enumerate(scenario.pools):
        sized = [g for g in size.ranks if g.pool == pool.name]
        if not sized:
            continue
        kinds = {(g.drive, g.raid) for g in sized}
        # A sized kind keeps the place of its first group in the file, so that the current
        # configuration is the file's own (the same ranks in the same order: its results are
        # those `run` gives to the last bit); kinds the file does not have come after.
        ranks, done = [], set()
        in_file = [((g["drive"], g["raid"]), g) for g in base["pools"][p]["ranks"]]
        for kind, group in [*in_file, *(((g.drive, g.raid), None) for g in sized)]:
            if kind not in kinds:
                ranks.append(group)
            elif kind not in done:
                done.add(kind)
                count = chosen[_label(pool.name, *kind)]
                if not isinstance(count, str) and count > 0:
                    drive, raid = kind
                    ranks.append({"drive": drive, "raid": raid, "count": count, "da_pair": None})
        settings[f"pools.{p}.ranks"] = ranks
    for key in SYSTEM_CHOICES:
        if key in chosen:
            settings[f"system.{key}"] = chosen[key]
    data = apply_settings(base, settings)
    data["analyses"] = {"curve": {"points": 2}}
    return data


Cost = tuple[int, float, float | None]


def _cost(variant: Scenario, catalog: Catalog, prices: Prices | None) -> Cost:
    """Installed drives, their power (W) and the price by the scenario's prices, of a validated
    configuration (known before it is solved, so that the search can go cheapest first)."""
    system = variant.system
    ranks = [
        (catalog.installed_drive(system.model, g.drive), catalog.raid_formats[g.raid], g.count)
        for pool in variant.pools
        for g in pool.ranks
    ]
    drives = sum(raid.drives * count for _, raid, count in ranks)
    power = sum(raid.drives * count * drive.power_w for drive, raid, count in ranks)
    if prices is None:
        return drives, power, None
    price = sum(
        raid.drives * count * prices.drives.get(drive.name, 0.0) for drive, raid, count in ranks
    )
    price += system.da_pairs * prices.da_pair + system.host_ports * prices.host_port
    price += system.cache_gb * prices.cache_gb
    price += prices.processor_ways.get(str(system.processor_ways), 0.0)
    price += prices.model.get(system.model, 0.0)
    return drives, power, price


def _points(solver: Solver, factors: Sequence[float]) -> list[OperatingPoint]:
    """The planned point, then the point at each growth factor (as `predict` grows a load)."""
    planned = solver.planned_point()
    out = [planned]
    if solver.config.has_closed:
        population = solver.closed_population()
        out += [solver.closed_point(max(1, round(population * f)), open_scale=f) for f in factors]
    else:
        out += solver.open_points(planned.rates[:, None] * list(factors)) if factors else []
    return out


@dataclass(frozen=True)
class _Job:
    """One configuration to try: its scenario data (or the scenario, once validated), its
    choice, whether it only adds, and its cost (drives, power, price)."""

    data: dict[str, Any]
    choice: Choice
    upgrade: bool
    cost: Cost = (0, 0.0, None)
    variant: Scenario | None = None  # validated already (then `data` is not needed)


@dataclass(frozen=True)
class _Context:
    """What every configuration of one search is tried against."""

    scenario: Scenario
    catalog: Catalog
    base_dir: Path | None
    periods: tuple[str, ...]
    factors: tuple[float, ...]


def _validated(job: _Job, catalog: Catalog) -> Scenario | str:
    """The job's scenario, or why it is not possible (the validation's messages)."""
    try:
        return Scenario.model_validate(job.data, context={"catalog": catalog})
    except ValidationError as exc:
        return "; ".join(str(e["msg"]).replace("\n", "; ") for e in exc.errors(include_url=False))


def _configuration(variant: Scenario, context: _Context) -> Configuration:
    """A configuration of the search resolved; a cache size of its own projects the hit
    ratios to it, as an alternative's does."""
    hits = projected_hit_ratios(context.scenario, variant, {})
    return resolve(variant, context.catalog, context.base_dir, hit_ratios=hits)


def _try(job: _Job, context: _Context) -> SizingCandidate:
    """One configuration against the service level in every period (module docstring)."""
    catalog = context.catalog
    choice, upgrade = job.choice, job.upgrade
    variant = job.variant if job.variant is not None else _validated(job, catalog)
    if isinstance(variant, str):
        return SizingCandidate(choice, error=variant, upgrade=upgrade)
    config = _configuration(variant, context)
    drives, power, price = job.cost
    level = limits(config.service_level)
    points = _points(Solver(config), context.factors)
    periods = context.periods
    broken = [(name, first_broken(p, level)) for name, p in zip(periods, points, strict=True)]
    first = next(((name, lim) for name, lim in broken if lim is not None), None)
    planned = points[0]
    r = planned.response_s
    by_period = tuple(
        p.response_s / MS if math.isfinite(p.response_s) and not p.saturated else None
        for p in points
    )
    busiest = planned.busiest
    return SizingCandidate(
        choice,
        error=None,
        drives=drives,
        power_w=power,
        price=price,
        response_time_ms=r / MS if math.isfinite(r) and not planned.saturated else None,
        busiest=planned.network.stations[busiest].name,
        busiest_utilization=float(min(planned.utilization[busiest], 1.0)),
        meets=first is None,
        broken_in=None if first is None else first[0],
        binding=None if first is None else first[1].label,
        upgrade=upgrade,
        response_by_period_ms=by_period,
        uneven=uneven_placement(config),
    )


def uneven_placement(config: Configuration) -> str:
    """The rank kinds whose ranks are not spread evenly over the DA pairs or the servers, with
    their counts per pair and per server ("" when all are even). Ranks are dealt round-robin
    over the DA pairs and alternate between the servers (`scenario.expand_ranks`), so each
    kind is as even as its count allows unless a group names its DA pair; what is left is
    named, since a rank more on one DA pair can lower the maximum (issue 14)."""
    hw = config.hardware
    servers = hw.system.servers
    kinds: dict[tuple[str, str, str], list[Rank]] = {}
    for rank in config.ranks:
        kinds.setdefault((rank.pool, rank.drive.name, rank.raid.name), []).append(rank)
    parts = []
    drives = [drive for _, drive, _ in kinds]
    for (_, drive, raid), ranks in kinds.items():
        pairs = [sum(r.da_pair == d for r in ranks) for d in range(hw.da_pairs)]
        owners = [sum(r.server % servers == s for r in ranks) for s in range(servers)]
        uneven = []
        if max(pairs) > min(pairs):
            uneven.append("DA " + "/".join(map(str, pairs)))
        if max(owners) > min(owners):
            uneven.append("servers " + "/".join(map(str, owners)))
        if uneven:
            name = drive if drives.count(drive) == 1 else f"{drive} {raid}"
            parts.append(f"{name}: " + ", ".join(uneven))
    return "; ".join(parts)


def _cost_key(c: SizingCandidate) -> tuple[float, float]:
    return (c.price if c.price is not None else float(c.drives), c.power_w)


# Response times within this (relative) count as equal on the front: closer than that is below
# the model's own precision, and would put a dearer configuration on the front for a
# microsecond (a second DA pair where the DA pairs were never the bottleneck).
SAME_RESPONSE = 0.01


def pareto_front(candidates: Sequence[SizingCandidate]) -> tuple[int, ...]:
    """Indices of the candidates no other beats on cost and response time at the planned load
    (possible and not saturated ones only; responses within `SAME_RESPONSE` count as equal),
    cheapest first."""
    ok = [i for i, c in enumerate(candidates) if c.error is None and c.response_time_ms is not None]

    def beats(j: int, i: int) -> bool:
        cj, ci = _cost_key(candidates[j]), _cost_key(candidates[i])
        rj = candidates[j].response_time_ms or 0.0
        ri = candidates[i].response_time_ms or 0.0
        no_worse = cj <= ci and rj <= ri * (1 + SAME_RESPONSE)
        better = cj < ci or rj * (1 + SAME_RESPONSE) < ri
        # At the same cost and response, the configuration with no more of anything (a part
        # the prices do not count, such as a DA pair without a price) is the one to show.
        smaller = cj == ci and ri <= rj * (1 + SAME_RESPONSE) and _fewer(j, i)
        return no_worse and (better or smaller)

    def _fewer(j: int, i: int) -> bool:
        a, b = candidates[j].choice, candidates[i].choice
        return no_more(a, b) and a != b

    front = [i for i in ok if not any(beats(j, i) for j in ok if j != i)]
    return tuple(sorted(front, key=lambda i: (_cost_key(candidates[i]), i)))


def _cheapest(candidates: Sequence[SizingCandidate], among: Sequence[int]) -> int | None:
    """The cheapest that meets the service level; at the same cost, the one with the least of
    everything chosen (the current configuration before an upgrade that adds only unpriced
    parts), then the faster."""
    meeting = [i for i in among if candidates[i].meets]
    if not meeting:
        return None
    return min(
        meeting,
        key=lambda i: (
            _cost_key(candidates[i]),
            sum(count for _, count in candidates[i].choice if not isinstance(count, str)),
            candidates[i].response_time_ms,
        ),
    )


class _Runner:
    """Solves batches of jobs, in order: in this process, over `workers` processes, or on the
    Dask cluster at `scheduler` (each configuration is independent, so the results are the
    same every way). The processes or the cluster connection are kept for every batch of
    one search, and the search's context goes to each of them once."""

    def __init__(self, context: _Context, workers: int, scheduler: str | None) -> None:
        self.context = context
        self.workers = workers
        self.scheduler = scheduler
        self._stack = contextlib.ExitStack()
        self._pool: Any = None
        self._client: Any = None
        self._shared: Any = None
        self._deadline = 0.0

    def __enter__(self) -> _Runner:
        if self.scheduler is not None:
            self._client, self._shared = self._stack.enter_context(
                cluster.dask_client(self.scheduler, self.context)
            )
            self._deadline = time.monotonic() + cluster.DASK_RESULTS_TIMEOUT_S
        elif self.workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = self._stack.enter_context(
                ProcessPoolExecutor(
                    max_workers=self.workers,
                    initializer=_set_worker_context,
                    initargs=(self.context,),
                )
            )
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def run(self, jobs: Sequence[_Job]) -> Iterable[SizingCandidate]:
        """Every job's candidate, in the jobs' order, as they come."""
        if self._client is not None:
            assert self.scheduler is not None
            futures = self._client.map(_try, jobs, context=self._shared, pure=False)
            return cluster.gathered(self.scheduler, futures, self._deadline)
        if self._pool is not None:
            return (f.result() for f in [self._pool.submit(_try_in_worker, job) for job in jobs])
        return (_try(job, self.context) for job in jobs)


_worker_context: list[_Context] = []
"""The search's context in a worker process (set once by `_set_worker_context`)."""


def _set_worker_context(context: _Context) -> None:
    _worker_context[:] = [context]


def _try_in_worker(job: _Job) -> SizingCandidate:
    return _try(job, _worker_context[0])


def _service_level(scenario: Scenario) -> tuple[str, ...]:
    """The labels of the limits every period must meet (the resolved service level's)."""
    return tuple(limit.label for limit in limits(ServiceLevelConfig.of(scenario.service_level)))


BATCH_PER_WORKER = 4
"""Configurations solved per process between two looks at the bounds: the search skips a
configuration only against those already solved, so smaller batches skip more, larger ones
keep the processes busier."""


def _screen(
    scenario: Scenario, context: _Context, variants: Sequence[Scenario | str]
) -> bounds.Screen:
    """The bounds of every valid configuration (an invalid one gets no bound: inf, nothing
    proved). Each system model's configurations are bounded with that model's figures: the
    same drive is packaged, and so performs, differently in each."""
    n = len(variants)
    response = np.full(n, np.inf)
    saturated, fails = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    reason = [""] * n
    utilization = np.zeros((len(COMPONENT_KINDS), n))
    by_model: dict[str, list[tuple[int, Scenario]]] = {}
    for i, v in enumerate(variants):
        if not isinstance(v, str):
            by_model.setdefault(v.system.model, []).append((i, v))
    for model, members in sorted(by_model.items()):
        rows = [i for i, _ in members]
        part = _screen_model(model, scenario, context, [v for _, v in members])
        response[rows] = part.response_lb_s
        saturated[rows] = part.saturated
        fails[rows] = part.fails
        utilization[:, rows] = part.utilization_lb
        for i, text in zip(rows, part.reason, strict=True):
            reason[i] = text
    return bounds.Screen(response, saturated, fails, tuple(reason), utilization)


def _screen_model(
    system: str, scenario: Scenario, context: _Context, variants: Sequence[Scenario]
) -> bounds.Screen:
    """The bounds of configurations of one system model."""
    catalog = context.catalog
    kinds = sorted({(p.name, g.drive, g.raid) for v in variants for p in v.pools for g in p.ranks})
    figures = bounds.rank_kinds(catalog, system, kinds)
    index = {kind: k for k, kind in enumerate(kinds)}
    keys: dict[tuple[float, float], int] = {}
    profiles: list[bounds.Profile] = []
    n = len(variants)
    profile = np.zeros(n, dtype=np.int64)
    ports, pairs = np.ones(n), np.ones(n)
    ranks = np.zeros((n, len(kinds)))
    workloads: list[tuple[str, float, Any]] = []
    for i, v in enumerate(variants):
        key = (float(v.system.processor_ways), float(v.system.cache_gb))
        if key not in keys:
            config = _configuration(v, context)
            keys[key] = len(profiles)
            profiles.append(bounds.profile(config, catalog, figures))
            if not workloads:
                workloads = [
                    (w.pool, w.capacity_gb, None if w.preference is not None else w.skew)
                    for w in config.workloads
                ]
        profile[i] = keys[key]
        ports[i], pairs[i] = v.system.host_ports, v.system.da_pairs
        for pool in v.pools:
            for g in pool.ranks:
                ranks[i, index[(pool.name, g.drive, g.raid)]] += g.count
    level = scenario.service_level
    growth = scenario.analyses.growth
    return bounds.screen(
        profiles,
        bounds.Space(profile, ports, pairs, ranks),
        figures,
        workloads,
        bounds.Limits(
            level.response_time_ms * MS,
            level.utilization.host_adapter,
            level.utilization.processor,
            level.utilization.device_adapter,
            level.utilization.rank,
            tuple(growth.multipliers) if growth else (),
            context.periods,
        ),
    )


def _method(total: int, pruned: Sequence[SizingPruned], prune: bool, why_not: str) -> str:
    if not prune:
        return "exhaustive, none pruned"
    if why_not:
        return f"exhaustive, none pruned ({why_not})"
    if not pruned:
        return "cheapest first with bounds; none could be skipped"
    by = {
        name: sum(p.bound == name for p in pruned)
        for name in ("saturation", "service level", "cost")
    }
    parts = [f"{count} by {name}" for name, count in by.items() if count]
    return (
        f"cheapest first with bounds: {total - len(pruned)} solved, "
        f"{len(pruned)} skipped ({', '.join(parts)})"
    )


def size_scenario(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    advance: Callable[[int], None] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    prune: bool | None = None,
) -> SizingResult:
    """Every configuration `scenario.analyses.size` offers (module docstring), the current one
    first; `advance(1)` is called after each (a progress bar). `workers`: processes to spread
    the configurations over (default: the cores, up to `MAX_WORKERS`, from `PARALLEL_FROM`
    configurations on; 1 solves them here). `scheduler`: a Dask distributed scheduler's
    address to run them on instead (a search that outgrows one machine). `prune`: skip what
    the bounds prove cannot be on the front nor an answer (default: `analyses.size.prune`)."""
    if scheduler is not None:  # a mistyped address is refused before any work
        scheduler = cluster.scheduler_address(scheduler)
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    scenario = scenario.corner("central")  # inputs given as ranges at their middle
    size = scenario.analyses.size
    if size is None:
        raise ValueError("the scenario has no analyses.size section")
    prune = size.prune if prune is None else prune
    names, options = _choices(scenario)
    current = _current(scenario, names)
    growth = scenario.analyses.growth
    factors = tuple(growth.multipliers) if growth else ()
    periods = ("now", *(growth.labels if growth else ()))
    base = scenario.model_dump(mode="python")
    combos = [dict(zip(names, values, strict=True)) for values in itertools.product(*options)]
    if current not in combos:
        combos.insert(0, current)
    else:
        combos.remove(current)
        combos.insert(0, current)
    context = _Context(scenario, catalog, base_dir, periods, factors)
    here = tuple((k, current[k]) for k in names)
    jobs = [
        _Job(
            _variant(base, scenario, chosen),
            choice := tuple((k, chosen[k]) for k in names),
            no_more(here, choice),
        )
        for chosen in combos
    ]
    variants = [_validated(job, catalog) for job in jobs]
    jobs = [
        job
        if isinstance(v, str)
        else replace(job, data={}, variant=v, cost=_cost(v, catalog, size.prices))
        for job, v in zip(jobs, variants, strict=True)
    ]
    why_not = (
        "closed workloads: the bounds are for open loads"
        if any(w.is_closed for w in scenario.model_workloads) or scenario.application is not None
        else ""
    )
    screen = _screen(scenario, context, variants) if prune and not why_not else None
    if workers is None:
        workers = min(os.cpu_count() or 1, MAX_WORKERS) if len(jobs) >= PARALLEL_FROM else 1
    results: dict[int, SizingCandidate] = {}
    skipped: dict[int, SizingPruned] = {}
    # Cheapest first, so that what is solved can beat what comes later (size_bounds.skippable).
    keys = [
        (job.cost[2] if job.cost[2] is not None else float(job.cost[0]), job.cost[1])
        for job in jobs
    ]
    order = sorted(range(len(jobs)), key=lambda i: (keys[i], i))
    solved: list[tuple[int, float | None, bool]] = []
    batch_size = max(workers, 1) * BATCH_PER_WORKER if screen is not None else len(jobs)
    with _Runner(context, workers, scheduler) as runner:
        queue = list(order)
        while queue:
            batch: list[int] = []
            while queue and len(batch) < batch_size:
                i = queue.pop(0)
                why = None
                if screen is not None and i != 0 and not isinstance(variants[i], str):
                    why = bounds.skippable(
                        screen, i, keys, [job.upgrade for job in jobs], solved, SAME_RESPONSE
                    )
                if why is None:
                    batch.append(i)
                else:
                    skipped[i] = SizingPruned(jobs[i].choice, *why)
                    if advance is not None:
                        advance(1)
            for i, candidate in zip(batch, runner.run([jobs[i] for i in batch]), strict=True):
                results[i] = candidate
                r = candidate.response_time_ms
                solved.append((i, None if r is None else r * MS, candidate.meets))
                if advance is not None:
                    advance(1)
    kept = sorted(results)
    candidates = tuple(results[i] for i in kept)
    pruned = tuple(skipped[i] for i in sorted(skipped))
    upgrades = [k for k, c in enumerate(candidates) if c.upgrade]
    return SizingResult(
        scenario=scenario.name,
        objective="price" if size.prices is not None else "drives",
        periods=periods,
        candidates=candidates,
        front=pareto_front(candidates),
        cheapest=_cheapest(candidates, range(len(candidates))),
        cheapest_upgrade=_cheapest(candidates, upgrades),
        method=_method(len(jobs), pruned, prune, why_not),
        service_level=_service_level(scenario),
        pruned=pruned,
    )
