"""`diskmodel size`: the configurations a scenario's `analyses.size` offers, each tried against
the service level now and in every growth period, ranked by cost.

Every combination of the offered rank counts, DA pair counts and host port counts is built as
a scenario of its own (the chosen rank groups replace the pool's groups of the same drive and
RAID format), validated against the hardware (a combination the DA pairs or the data cannot
take is reported as not possible, not dropped), resolved and solved at the planned load and at
each growth factor: the same `Solver` operating points `diskmodel run` reports, so a
configuration's numbers here are the ones its own run would give. The search is exhaustive
(the schema bounds it at `MAX_SIZING_CANDIDATES`); nothing is pruned, so nothing on the front
can be missed.

Cost: the scenario's prices (drives by name, DA pairs, host ports), or without them the drive
count, then the drives' power (catalog `power_w`, each sourced or an estimate).
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from diskmodel.analyses.limits import first_broken, limits
from diskmodel.catalog import Catalog
from diskmodel.configuration import (
    COMPONENT_KINDS,
    Configuration,
    ServiceLevel,
    projected_hit_ratios,
    resolve,
)
from diskmodel.errors import InputError
from diskmodel.model.operating import OperatingPoint, Solver
from diskmodel.prediction import SizingCandidate, SizingResult
from diskmodel.scenario import Scenario, apply_settings
from diskmodel.scenario.files import scenario_catalog
from diskmodel.scenario.schema import SYSTEM_CHOICES

MS = 1e-3
PARALLEL_FROM = 24
"""Configurations from which a search is spread over processes by default (below it, starting
the processes costs more than it saves)."""
MAX_WORKERS = 8
DASK_CONNECT_TIMEOUT_S = 10
"""How long `--scheduler` waits for a Dask scheduler to answer before saying it did not."""


def _label(pool: str, drive: str, raid: str) -> str:
    return f"{pool}: {drive} {raid}"


def _choices(scenario: Scenario) -> tuple[list[str], list[list[float]]]:
    """What is chosen (names) and the options of each."""
    size = scenario.analyses.size
    assert size is not None
    names: list[str] = []
    options: list[list[float]] = []
    for group in size.ranks:
        names.append(_label(group.pool, group.drive, group.raid))
        options.append(sorted(set(group.counts)))
    for key, values in size.system_options().items():
        names.append(key)
        options.append(values)
    return names, options


def _current(scenario: Scenario, names: Sequence[str]) -> dict[str, float]:
    """The scenario's own value of every choice (0 for a rank kind it does not have)."""
    out: dict[str, float] = {}
    for pool in scenario.pools:
        for g in pool.ranks:
            key = _label(pool.name, g.drive, g.raid)
            out[key] = out.get(key, 0) + g.count
    for key in SYSTEM_CHOICES:
        out[key] = getattr(scenario.system, key)
    return {name: out.get(name, 0) for name in names}


def _variant(base: dict[str, Any], scenario: Scenario, chosen: dict[str, float]) -> dict[str, Any]:
    """The scenario's data with the chosen counts in place."""
    size = scenario.analyses.size
    assert size is not None
    settings: dict[str, Any] = {}
    for p, pool in enumerate(scenario.pools):
        sized = [g for g in size.ranks if g.pool == pool.name]
        if not sized:
            continue
        kinds = {(g.drive, g.raid) for g in sized}
        ranks = [g for g in base["pools"][p]["ranks"] if (g["drive"], g["raid"]) not in kinds]
        for g in sized:
            count = chosen[_label(pool.name, g.drive, g.raid)]
            if count > 0:
                ranks.append({"drive": g.drive, "raid": g.raid, "count": count, "da_pair": None})
        settings[f"pools.{p}.ranks"] = ranks
    for key in SYSTEM_CHOICES:
        if key in chosen:
            settings[f"system.{key}"] = chosen[key]
    data = apply_settings(base, settings)
    data["analyses"] = {"curve": {"points": 2}}
    return data


def _cost(config: Configuration, scenario: Scenario) -> tuple[int, float, float | None]:
    """Installed drives, their power (W) and the price by the scenario's prices."""
    drives = sum(r.raid.drives for r in config.ranks)
    power = sum(r.raid.drives * r.drive.power_w for r in config.ranks)
    size = scenario.analyses.size
    prices = size.prices if size is not None else None
    if prices is None:
        return drives, power, None
    hw = config.hardware
    price = sum(r.raid.drives * prices.drives.get(r.drive.name, 0.0) for r in config.ranks)
    price += hw.da_pairs * prices.da_pair + hw.host_ports * prices.host_port
    price += hw.cache_gb * prices.cache_gb
    price += prices.processor_ways.get(str(hw.processor.ways), 0.0)
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
    """One configuration to try: its scenario data, its choice, whether it only adds."""

    data: dict[str, Any]
    choice: tuple[tuple[str, float], ...]
    upgrade: bool


@dataclass(frozen=True)
class _Context:
    """What every configuration of one search is tried against."""

    scenario: Scenario
    catalog: Catalog
    base_dir: Path | None
    periods: tuple[str, ...]
    factors: tuple[float, ...]


def _try(job: _Job, context: _Context) -> SizingCandidate:
    """One configuration against the service level in every period (module docstring)."""
    scenario, catalog = context.scenario, context.catalog
    choice, upgrade = job.choice, job.upgrade
    try:
        variant = Scenario.model_validate(job.data, context={"catalog": catalog})
    except ValidationError as exc:
        problem = "; ".join(
            str(e["msg"]).replace("\n", "; ") for e in exc.errors(include_url=False)
        )
        return SizingCandidate(choice, error=problem, upgrade=upgrade)
    # A cache size of its own projects the hit ratios to it, as an alternative's does.
    hits = projected_hit_ratios(scenario, variant, {})
    config = resolve(variant, catalog, context.base_dir, hit_ratios=hits)
    drives, power, price = _cost(config, scenario)
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
    )


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
        a = [count for _, count in candidates[j].choice]
        b = [count for _, count in candidates[i].choice]
        return all(x <= y for x, y in zip(a, b, strict=True)) and a != b

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
            sum(count for _, count in candidates[i].choice),
            candidates[i].response_time_ms,
        ),
    )


def _run(
    jobs: Sequence[_Job],
    context: _Context,
    workers: int,
    advance: Callable[[int], None] | None,
    scheduler: str | None = None,
) -> list[SizingCandidate]:
    """Every job's candidate, in order: in this process, over `workers` processes, or on the
    Dask cluster at `scheduler` (each configuration is independent, so the results are the
    same every way)."""
    if scheduler is not None:
        return _on_dask(jobs, context, scheduler, advance)
    if workers <= 1:
        return _in_order((_try(job, context) for job in jobs), advance)
    from concurrent.futures import ProcessPoolExecutor

    # The context (scenario, catalog) goes to each process once, not with every job.
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_set_worker_context, initargs=(context,)
    ) as pool:
        futures = [pool.submit(_try_in_worker, job) for job in jobs]
        return _in_order((future.result() for future in futures), advance)


_worker_context: list[_Context] = []
"""The search's context in a worker process (set once by `_set_worker_context`)."""


def _set_worker_context(context: _Context) -> None:
    _worker_context[:] = [context]


def _try_in_worker(job: _Job) -> SizingCandidate:
    return _try(job, _worker_context[0])


def _in_order(
    candidates: Iterable[SizingCandidate], advance: Callable[[int], None] | None
) -> list[SizingCandidate]:
    """The candidates as they come (in the jobs' order), the progress advanced for each."""
    out = []
    for candidate in candidates:
        out.append(candidate)
        if advance is not None:
            advance(1)
    return out


def _on_dask(
    jobs: Sequence[_Job],
    context: _Context,
    scheduler: str,
    advance: Callable[[int], None] | None,
) -> list[SizingCandidate]:
    """The jobs on a Dask distributed cluster (the optional extra `diskmodel[dask]`): the
    shared context sent to every worker once, one task per configuration."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--scheduler needs Dask distributed: pip install 'diskmodel[dask]'"
        ) from None
    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT_S)
    except OSError as exc:
        raise InputError(f"--scheduler {scheduler}: no Dask scheduler answered ({exc})") from None
    try:
        shared = client.scatter(context, broadcast=True)
        futures = client.map(_try, jobs, context=shared, pure=False)
        return _in_order((future.result() for future in futures), advance)
    finally:
        client.close()


def _service_level(scenario: Scenario) -> tuple[str, ...]:
    """The labels of the limits every period must meet (the resolved service level's)."""
    level = scenario.service_level
    resolved = ServiceLevel(
        response_time_ms=level.response_time_ms,
        read_response_time_ms=level.read_response_time_ms,
        utilization={kind: float(getattr(level.utilization, kind)) for kind in COMPONENT_KINDS},
    )
    return tuple(limit.label for limit in limits(resolved))


def size_scenario(
    scenario: Scenario,
    catalog: Catalog | None = None,
    base_dir: Path | None = None,
    advance: Callable[[int], None] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> SizingResult:
    """Every configuration `scenario.analyses.size` offers (module docstring), the current one
    first; `advance(1)` is called after each (a progress bar). `workers`: processes to spread
    the configurations over (default: the cores, up to `MAX_WORKERS`, from `PARALLEL_FROM`
    configurations on; 1 solves them here). `scheduler`: a Dask distributed scheduler's
    address to run them on instead (a search that outgrows one machine)."""
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    scenario = scenario.corner("central")  # inputs given as ranges at their middle
    size = scenario.analyses.size
    if size is None:
        raise ValueError("the scenario has no analyses.size section")
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
    jobs = [
        _Job(
            _variant(base, scenario, chosen),
            tuple((k, chosen[k]) for k in names),
            all(chosen[k] >= current[k] for k in names),
        )
        for chosen in combos
    ]
    context = _Context(scenario, catalog, base_dir, periods, factors)
    if workers is None:
        workers = min(os.cpu_count() or 1, MAX_WORKERS) if len(jobs) >= PARALLEL_FROM else 1
    candidates = tuple(_run(jobs, context, workers, advance, scheduler))
    upgrades = [i for i, c in enumerate(candidates) if c.upgrade]
    return SizingResult(
        scenario=scenario.name,
        objective="price" if size.prices is not None else "drives",
        periods=periods,
        candidates=candidates,
        front=pareto_front(candidates),
        cheapest=_cheapest(candidates, range(len(candidates))),
        cheapest_upgrade=_cheapest(candidates, upgrades),
        method="exhaustive, none pruned",
        service_level=_service_level(scenario),
    )
