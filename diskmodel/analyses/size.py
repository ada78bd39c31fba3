"""`diskmodel size`: the configurations a scenario's `analyses.size` offers, each tried against
the service level now and in every growth period, ranked by cost.

Every combination of the offered rank counts, DA pair counts, host port counts, processor
options and cache sizes is built as a scenario of its own (the chosen rank groups replace the
pool's groups of the same drive and RAID format) and validated against the hardware (a
combination the DA pairs or the data cannot take is reported as not possible, not dropped).
Each is then resolved and solved at the planned load and at each growth factor: the same
`Solver` operating points `diskmodel run` reports, so a configuration's numbers here are the
ones its own run would give. The schema bounds the space at `MAX_SIZING_CANDIDATES` (10^6);
a space beyond `size_batch.PER_CONFIGURATION_UP_TO` (512) is searched as arrays instead
(`size_batch`): bounds over all of it at once, only the survivors made into scenarios.

The search goes cheapest first and skips a configuration only where bounds from the queueing
core prove it can be neither on the Pareto front nor an answer (`size_bounds`, where the rule
and its proof are; open loads only, `analyses.size.prune: false` solves every one); what it
skips is listed with the bound that let it.

Cost: the scenario's prices (drives by name, DA pairs, host ports, cache, processor option),
or without them the drive count, then the drives' power (catalog `power_w`, each sourced or an
estimate); known before a configuration is solved.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from diskmodel.analyses import cluster, size_batch, size_profile
from diskmodel.analyses import size_bounds as bounds
from diskmodel.analyses.collections_paced import paced
from diskmodel.analyses.limits import limits
from diskmodel.analyses.size_batch import PER_CONFIGURATION_UP_TO, screen_limits
from diskmodel.analyses.size_front import SAME_RESPONSE, cheapest, pareto_front
from diskmodel.analyses.size_offers import (
    KeptSections,
    configuration_cost,
    current_choices,
    offered_choices,
    put_together,
)
from diskmodel.analyses.size_space import OfferedSpace
from diskmodel.analyses.size_try import (
    SizingContext,
    SizingJob,
    SizingRunner,
    checked,
    sized_configuration,
    sizing_context,
    why_not_bounded,
)
from diskmodel.catalog import Catalog
from diskmodel.configuration import Configuration, ServiceLevelConfig
from diskmodel.prediction import SizingCandidate, SizingPruned, SizingResult, no_more
from diskmodel.scenario import Scenario
from diskmodel.scenario.analyses import Prices
from diskmodel.scenario.files import scenario_catalog
from diskmodel.units import MS
from diskmodel.vocabulary import COMPONENT_KINDS

MAX_WORKERS = 8


def search_workers(configurations: int) -> int:
    """The processes a search of `configurations` is spread over by default: one for a search
    configuration by configuration (up to `PER_CONFIGURATION_UP_TO`), the cores, up to
    `MAX_WORKERS`, for a space searched in batches. Configuration by configuration, each job
    goes to a worker and back on its own, a worker solves its batch of `BATCH_PER_WORKER`
    where one process solves up to `SOLVED_AHEAD` together, and with more in flight the bounds
    skip less: over the two processes of a 2-core machine such a search took 1.5-1.8x the wall
    time of one process (2026-11-28, idle: 62 against 36 ms on ds8800-size-for-growth.yaml,
    225 against 145 ms on 240 configurations of it widened; without the bounds, level). The
    batched search sends tasks of many configurations, and there two processes pay (`_batched`:
    the large space in 34 s against 50-58 s)."""
    return min(os.cpu_count() or 1, MAX_WORKERS) if configurations > PER_CONFIGURATION_UP_TO else 1


def _service_level(scenario: Scenario) -> tuple[str, ...]:
    """The labels of the limits every period must meet (the resolved service level's)."""
    return tuple(limit.label for limit in limits(ServiceLevelConfig.of(scenario.service_level)))


BATCH_PER_WORKER = 4
"""Configurations solved per process between two looks at the bounds: the search skips a
configuration only against those already solved, so smaller batches skip more, larger ones
keep the processes busier."""
SOLVED_AHEAD = 32
"""In one process, the configurations solved together at most: a batch and those after it
that the bounds do not skip yet (`_search`; their open networks are solved in one pass,
`size_try.try_configurations`)."""


_ScreenInputs = tuple[
    list[size_profile.Profile],
    bounds.Space,
    tuple[size_profile.RankKind, ...],
    list[tuple[str, float, Any]],
]
"""What `size_bounds.screen` takes of one system model's configurations but the limits."""


def _screen(
    scenario: Scenario, context: SizingContext, variants: Sequence[Scenario | str]
) -> tuple[bounds.Bounded, dict[int, Configuration]]:
    """The bounds of every valid configuration (an invalid one gets no bound: inf, nothing
    proved), and the configurations resolved for them (by index: one per processor option and
    cache size, `_screen_model`). Each system model's configurations are bounded with that
    model's figures: the same drive is packaged, and so performs, differently in each. Where
    the bounds saturate none at the planned load (`size_bounds.unsaturated_responses`), only
    the response bounds are made before solving, the rest where the search asks for it."""
    n = len(variants)
    by_model: dict[str, list[tuple[int, Scenario]]] = {}
    for i, v in enumerate(variants):
        if not isinstance(v, str):
            by_model.setdefault(v.system.model, []).append((i, v))
    resolved: dict[int, Configuration] = {}
    parts: list[tuple[list[int], _ScreenInputs, bounds.PlannedResponse]] = []
    for model, members in sorted(by_model.items()):
        rows = [i for i, _ in members]
        inputs, configs = _screen_model(model, context, [v for _, v in members])
        resolved.update((rows[k], config) for k, config in configs.items())
        parts.append((rows, inputs, bounds.planned_response(*inputs)))

    def whole() -> bounds.Screen:
        return _whole_screen(n, parts, screen_limits(scenario, context.periods))

    response = np.full(n, np.inf)
    for rows, inputs, planned in parts:
        part = bounds.unsaturated_responses(*inputs, planned)
        if part is None:
            return bounds.Bounded.of(whole()), resolved
        response[rows] = part
    return bounds.Bounded(response, np.zeros(n, dtype=bool), whole), resolved


def _whole_screen(
    n: int,
    parts: Sequence[tuple[Sequence[int], _ScreenInputs, bounds.PlannedResponse]],
    limits: bounds.Limits,
) -> bounds.Screen:
    """`size_bounds.screen` of every system model's configurations (`parts`: their indices
    among `n`, the screen's inputs and their planned response), as one."""
    response = np.full(n, np.inf)
    saturated, fails = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    why, why_value = np.full(n, -1, dtype=np.int64), np.zeros(n)
    texts: tuple[str, ...] = ()
    utilization = np.zeros((len(COMPONENT_KINDS), n))
    for rows, inputs, planned in parts:
        part = bounds.screen(*inputs, limits, planned=planned)
        response[rows] = part.response_lb_s
        saturated[rows] = part.saturated
        fails[rows] = part.fails
        utilization[:, rows] = part.utilization_lb
        why[rows], why_value[rows] = part.why, part.why_value
        texts = part.texts  # the same limits, so the same texts, for every model
    return bounds.Screen(response, saturated, fails, why, why_value, texts, utilization)


def _screen_model(
    system: str, context: SizingContext, variants: Sequence[Scenario]
) -> tuple[_ScreenInputs, dict[int, Configuration]]:
    """What the bounds take of configurations of one system model (`_ScreenInputs`), and the
    configurations resolved for their profiles (by index in `variants`: the first of each
    processor option and cache size, as the search resolves it, `sized_configuration`)."""
    catalog = context.catalog
    kinds = sorted({(p.name, g.drive, g.raid) for v in variants for p in v.pools for g in p.ranks})
    figures = size_profile.rank_kinds(catalog, system, kinds)
    index = {kind: k for k, kind in enumerate(kinds)}
    keys: dict[tuple[float, float], int] = {}
    profiles: list[size_profile.Profile] = []
    n = len(variants)
    profile = np.zeros(n, dtype=np.int64)
    ports, pairs = np.ones(n), np.ones(n)
    ranks = np.zeros((n, len(kinds)))
    workloads: list[tuple[str, float, Any]] = []
    resolved: dict[int, Configuration] = {}
    for i, v in enumerate(variants):
        key = (float(v.system.processor_ways), float(v.system.cache_gb))
        if key not in keys:
            config = resolved[i] = sized_configuration(v, context)
            keys[key] = len(profiles)
            profiles.append(size_profile.profile(config, catalog, figures))
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
    space = bounds.Space(profile, ports, pairs, ranks)
    return (profiles, space, figures, workloads), resolved


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
    tally: size_batch.Tally | None = None,
) -> SizingResult:
    """Every configuration `scenario.analyses.size` offers (module docstring), the current one
    first; `advance(1)` is called after each (a progress bar). `workers`: processes to spread
    the configurations over (default `search_workers`: this process alone, configuration by
    configuration; the cores, up to `MAX_WORKERS`, for a space searched in batches).
    `scheduler`: a Dask distributed scheduler's address to run them on instead (a search that
    outgrows one machine). `prune`: skip what the bounds prove cannot be on the front nor an answer
    (default: `analyses.size.prune`).
    `tally(solved, skipped, left)`: the batched search's progress (a large space).
    Garbage is collected less often while it runs (`collections_paced`)."""
    with paced():
        return _size_scenario(
            scenario, catalog, base_dir, advance, workers, scheduler, prune, tally
        )


def _size_scenario(
    scenario: Scenario,
    catalog: Catalog | None,
    base_dir: Path | None,
    advance: Callable[[int], None] | None,
    workers: int | None,
    scheduler: str | None,
    prune: bool | None,
    tally: size_batch.Tally | None,
) -> SizingResult:
    if scheduler is not None:  # a mistyped address is refused before any work
        scheduler = cluster.scheduler_address(scheduler)
    catalog = scenario_catalog(scenario.catalog, base_dir, catalog)
    scenario = scenario.corner("central")  # inputs given as ranges at their middle
    size = scenario.analyses.size
    if size is None:
        raise ValueError("the scenario has no analyses.size section")
    prune = size.prune if prune is None else prune
    context = sizing_context(scenario, catalog, base_dir)
    why_not = why_not_bounded(scenario)
    if size.candidates > PER_CONFIGURATION_UP_TO:
        return _batched(context, prune and not why_not, why_not, workers, scheduler, tally)
    jobs, variants = _jobs(scenario, catalog, size.prices, context.shared, context.kept)
    if workers is None:
        workers = search_workers(len(jobs))
    screen = None
    if prune and not why_not:
        screen, resolved = _screen(scenario, context, variants)
        if workers == 1 and scheduler is None:
            # The configurations the screen resolved are solved here: each resolved once.
            # (Sent to other processes, a job goes without it: a configuration is more to
            # send than it is to resolve.)
            for i, config in resolved.items():
                jobs[i] = replace(jobs[i], config=config)
    results, skipped = _search(context, jobs, variants, screen, workers, scheduler, advance)
    kept = sorted(results)
    candidates = tuple(results[i] for i in kept)
    pruned = tuple(skipped[i] for i in sorted(skipped))
    return _result(context, candidates, pruned, _method(len(jobs), pruned, prune, why_not))


def _result(
    context: SizingContext,
    candidates: tuple[SizingCandidate, ...],
    pruned: tuple[SizingPruned, ...],
    method: str,
) -> SizingResult:
    """The answers of a search: its solved configurations (by index, the current one first)
    and the skipped ones."""
    scenario = context.scenario
    upgrades = [k for k, c in enumerate(candidates) if c.upgrade]
    return SizingResult(
        scenario=scenario.name,
        objective="price" if context.prices is not None else "drives",
        periods=context.periods,
        candidates=candidates,
        front=pareto_front(candidates),
        cheapest=cheapest(candidates, range(len(candidates))),
        cheapest_upgrade=cheapest(candidates, upgrades),
        method=method,
        service_level=_service_level(scenario),
        pruned=pruned,
    )


def _batched(
    context: SizingContext,
    prune: bool,
    why_not: str,
    workers: int | None,
    scheduler: str | None,
    tally: size_batch.Tally | None,
) -> SizingResult:
    """A space beyond `PER_CONFIGURATION_UP_TO`, searched by `size_batch` (bounds over the
    whole space at once, the survivors solved in batches)."""
    space = OfferedSpace(context.scenario)
    # Spread by default (measured on the 106,496-configuration space, 2 cores: 34 s wall over
    # two processes against 50-58 s in one, the same bytes out).
    workers = search_workers(len(space)) if workers is None else workers
    with SizingRunner(context, workers, scheduler) as runner:
        # The same batches every way (so the same configurations solved and skipped, and the
        # same bytes out); spread, each process or Dask worker gets TASKS_PER_WORKER of each.
        tasks = runner.slots * size_batch.TASKS_PER_WORKER if runner.slots > 1 else 0
        batch = size_batch.batch_size(len(space))
        settled = size_batch.batched_search(space, context, runner, prune, tally, batch, tasks)
    kept = sorted(settled.candidates)
    candidates = tuple(settled.candidates[i] for i in kept)
    pruned = tuple(settled.pruned[i] for i in sorted(settled.pruned))
    method = _method(len(space), pruned, prune, why_not)
    if prune and not why_not:
        method += "; bounds over the whole space in numpy, the rest solved in batches"
    return _result(context, candidates, pruned, method)


def _jobs(
    scenario: Scenario,
    catalog: Catalog,
    prices: Prices | None,
    shared: dict[str, Any] | None = None,
    kept: KeptSections | None = None,
) -> tuple[list[SizingJob], list[Scenario | str]]:
    """Every configuration offered as a job, the current one first, and its validated scenario
    (or why it is not possible); a valid one's job carries it and its cost, a refused one why.
    `shared`: the scenario's data with what no choice changes validated
    (`size_offers.validated_base`), `kept` its configurations' sections validated so far
    (`size_offers.KeptSections`, made with `shared`: each configuration's scenario put
    together from them, `KeptSections.made`); without them, the scenario's data and none."""
    names, options = offered_choices(scenario)
    current = current_choices(scenario, names)
    base = scenario.model_dump(mode="python") if shared is None else shared
    if shared is None or (kept is not None and not kept.assembles):
        kept = None
    combos = [dict(zip(names, values, strict=True)) for values in itertools.product(*options)]
    if current not in combos:
        combos.insert(0, current)
    else:
        combos.remove(current)
        combos.insert(0, current)
    here = tuple((k, current[k]) for k in names)
    # In phases, each over every configuration (its data, its scenario, its job): a phase's
    # code stays warm in the processor's caches, where one configuration at a time through
    # all three was a tenth slower.
    made = [put_together(base, scenario, chosen, kept) for chosen in combos]
    variants = [checked(m, data, catalog, kept) for m, data in made]
    jobs = []
    for chosen, v in zip(combos, variants, strict=True):
        choice = tuple((k, chosen[k]) for k in names)
        upgrade = no_more(here, choice)
        jobs.append(
            SizingJob({}, choice, upgrade, refused=v)
            if isinstance(v, str)
            else SizingJob({}, choice, upgrade, configuration_cost(v, catalog, prices), v)
        )
    return jobs, variants


def _search(
    context: SizingContext,
    jobs: Sequence[SizingJob],
    variants: Sequence[Scenario | str],
    screen: bounds.Bounded | None,
    workers: int,
    scheduler: str | None,
    advance: Callable[[int], None] | None,
) -> tuple[dict[int, SizingCandidate], dict[int, SizingPruned]]:
    """The jobs solved cheapest first, in batches, each job skipped where `screen`'s bounds
    prove it cannot be on the front nor an answer against those solved before it: the
    candidates and the skipped, by job index. In one process, the jobs after a batch that
    the bounds do not skip yet are solved with it (`SOLVED_AHEAD`): each job's answer is its
    own (`size_try.try_configurations`), so the batches, and what they solve and skip, are
    the same; an answer solved ahead for a job the bounds then skip is dropped. A job the
    cost rule might skip at its turn (`_maybe_beaten`) is not solved ahead but with its own
    batch, once the bounds have not skipped it there."""
    results: dict[int, SizingCandidate] = {}
    skipped: dict[int, SizingPruned] = {}
    # Cheapest first, so that what is solved can beat what comes later (size_bounds.skippable).
    keys = [
        (job.cost[2] if job.cost[2] is not None else float(job.cost[0]), job.cost[1])
        for job in jobs
    ]
    upgrades = [job.upgrade for job in jobs]
    order = sorted(range(len(jobs)), key=lambda i: (keys[i], i))
    solved = bounds.Solved(SAME_RESPONSE)
    batch_size = max(workers, 1) * BATCH_PER_WORKER if screen is not None else len(jobs)

    def why_skip(i: int) -> tuple[str, str] | None:
        if screen is None or i == 0 or isinstance(variants[i], str):
            return None
        return bounds.skippable(screen, i, keys, upgrades, solved)

    ahead: dict[int, SizingCandidate] = {}
    held = _maybe_beaten(screen, order, variants, batch_size) if screen is not None else set()
    with SizingRunner(context, workers, scheduler) as runner:
        solve_ahead = screen is not None and runner.slots == 1 and scheduler is None
        queue = list(order)
        while queue:
            batch: list[int] = []
            while queue and len(batch) < batch_size:
                i = queue.pop(0)
                why = why_skip(i)
                if why is None:
                    batch.append(i)
                else:
                    skipped[i] = SizingPruned(jobs[i].choice, *why)
                    if advance is not None:
                        advance(1)
            missing = [i for i in batch if i not in ahead]
            if missing:
                # The bounds only skip more as more is solved: a job they skip now is never
                # solved ahead.
                more: list[int] = []
                for j in queue if solve_ahead else ():
                    if len(missing) + len(more) >= SOLVED_AHEAD:
                        break
                    if j not in ahead and j not in held and why_skip(j) is None:
                        more.append(j)
                solving = missing + more
                ahead.update(zip(solving, runner.run([jobs[j] for j in solving]), strict=True))
            for i in batch:
                candidate = results[i] = ahead.pop(i)
                r = candidate.response_time_ms
                solved.add(i, None if r is None else r * MS, candidate.meets)
                if advance is not None:
                    advance(1)
    return results, skipped


def _maybe_beaten(
    screen: bounds.Bounded,
    order: Sequence[int],
    variants: Sequence[Scenario | str],
    batch_size: int,
) -> set[int]:
    """The jobs the bounds' second rule might skip once others are solved
    (`size_bounds.skippable`, rule B). A job c is judged against the jobs of the batches
    before its own (`_search`), so rule B can skip it only where some valid job d of an
    earlier batch, not proved saturated, has R_lb(d) (1 + s)^2 < R_lb(c): a solved d is at
    least that fast (R(d) >= R_lb(d)). Which batch a job falls in is known exactly up to the
    first job rule B might skip (only the saturated ones, rule A, are skipped before it, and
    they are known); from there on, every valid job before c counts as earlier. So a job
    rule B skips is always among these (the condition is necessary), and a job beaten only
    by one of its own batch is not held back: solved ahead, not in a pass of its own. Only
    what is solved ahead follows from this, never what is skipped."""
    margin = (1 + SAME_RESPONSE) ** 2
    out: set[int] = set()
    earlier = np.inf  # the least R_lb over the valid jobs of the batches before c's
    current = np.inf  # ... over those of c's batch before c
    taken = 0  # the jobs before c that take a place in a batch (while known exactly)
    exact = True
    for c in order:
        valid = not isinstance(variants[c], str)
        if valid and c != 0 and screen.saturated[c]:
            continue  # skipped by rule A, whatever is solved: no place in a batch
        if exact and taken % batch_size == 0:
            earlier, current = min(earlier, current), np.inf
        fastest = earlier if exact else min(earlier, current)
        # A job is never beaten by itself: (1 + s)^2 R_lb(c) >= R_lb(c) (1 - MARGIN). Job 0,
        # the current configuration, is never skipped (`why_skip`).
        if (
            c != 0
            and valid
            and fastest * margin < float(screen.response_lb_s[c]) * (1 - bounds.MARGIN)
        ):
            out.add(c)
            exact = False  # it may or may not take its place: the batches after are not known
        taken += 1
        if valid:
            current = min(current, float(screen.response_lb_s[c]))
    return out
