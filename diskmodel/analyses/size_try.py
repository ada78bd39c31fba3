"""One configuration of a sizing tried (`analyses.size`): its scenario validated, resolved and
solved at the planned load and at each growth factor, the same `Solver` operating points
`diskmodel run` reports, against the service level in every period; and the configurations
solved in this process, over processes, or on a Dask cluster (`SizingRunner`).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import ValidationError

from diskmodel.analyses import cluster
from diskmodel.analyses.collections_paced import paced
from diskmodel.analyses.limits import Limit, first_broken_each, first_broken_over, limits
from diskmodel.analyses.size_offers import (
    Cost,
    KeptSections,
    base_scenario,
    configuration_cost,
    put_together,
    validated_base,
)
from diskmodel.catalog import Catalog
from diskmodel.configuration import (
    Configuration,
    ServiceLevelConfig,
    projected_hit_ratios,
    resolve,
)
from diskmodel.configuration.shared import SharedParts
from diskmodel.model.network import Network
from diskmodel.model.operating import (
    LoadGroups,
    OperatingPoint,
    Solver,
    open_loads_together,
    open_responses,
)
from diskmodel.prediction import Choice, SizingCandidate
from diskmodel.scenario import Scenario
from diskmodel.scenario.analyses import Prices
from diskmodel.scenario.schema import refusal, scenario_problems
from diskmodel.units import MS

FloatArray = NDArray[np.float64]


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
class SizingJob:
    """One configuration to try: its scenario data (or the scenario, once validated), its
    choice, whether it only adds, and its cost (drives, power, price)."""

    data: dict[str, Any]
    choice: Choice
    upgrade: bool
    cost: Cost = (0, 0.0, None)
    variant: Scenario | None = None  # validated already (then `data` is not needed)
    offered: bool = False  # only the choice is given: the data, validation and cost follow
    refused: str | None = None  # validated already: why it is not possible (`validated`)
    config: Configuration | None = None  # `variant` resolved already (`sized_configuration`)


@dataclass(frozen=True)
class SizingContext:
    """What every configuration of one search is tried against."""

    scenario: Scenario
    catalog: Catalog
    base_dir: Path | None
    periods: tuple[str, ...]
    factors: tuple[float, ...]
    prices: Prices | None = None
    base: dict[str, Any] | None = None  # the scenario's data, for a configuration's own
    shared: dict[str, Any] | None = None  # `base` with what no choice changes validated
    kept: KeptSections | None = None  # the sections of `shared`'s configurations validated
    parts: SharedParts | None = None  # what its configurations' resolutions share (made here)

    def __post_init__(self) -> None:
        if self.parts is None:  # frozen: set once, here
            object.__setattr__(self, "parts", SharedParts(self.catalog))

    @property
    def configuration_base(self) -> dict[str, Any]:
        """What a configuration's data is made from (`variant_data`, with `kept`): `shared`
        where the search knows it valid, else `base`."""
        base = self.shared if self.shared is not None else self.base
        assert base is not None
        return base


def sizing_context(scenario: Scenario, catalog: Catalog, base_dir: Path | None) -> SizingContext:
    """The context of a search of `scenario.analyses.size` (the scenario at its central
    inputs): its periods (now and each growth period), growth factors, prices and data, and
    the data with the sections no choice changes validated once (`size_offers.validated_base`),
    from which each configuration's data is made, its chosen sections validated once each
    (`size_offers.KeptSections`)."""
    size = scenario.analyses.size
    growth = scenario.analyses.growth
    base = scenario.model_dump(mode="python")
    whole = None if size is None else base_scenario(base, catalog)
    shared = None if whole is None else validated_base(base, scenario, catalog, whole)
    return SizingContext(
        scenario,
        catalog,
        base_dir,
        ("now", *(growth.labels if growth else ())),
        tuple(growth.multipliers) if growth else (),
        prices=size.prices if size is not None else None,
        base=base,
        shared=shared,
        kept=None if shared is None else KeptSections(catalog, shared, whole),
    )


def why_not_bounded(scenario: Scenario) -> str:
    """Why the sizing bounds cannot judge `scenario`'s configurations ("" when they can)."""
    if any(w.is_closed for w in scenario.model_workloads) or scenario.application is not None:
        return "closed workloads: the bounds are for open loads"
    return ""


def validated(job: SizingJob, catalog: Catalog, kept: KeptSections | None = None) -> Scenario | str:
    """The job's scenario, or why it is not possible (the validation's messages). `kept`: the
    sections its data was made with (`variant_data`); where they are all models, the scenario
    is assembled from them (`KeptSections.assembled`) and only the checks that span its
    sections run (`checked`)."""
    made = None if kept is None else kept.assembled(job.data)
    return checked(made, job.data, catalog, kept)


def checked(
    made: Scenario | None, data: dict[str, Any], catalog: Catalog, kept: KeptSections | None
) -> Scenario | str:
    """A configuration's scenario, or why it is not possible (the validation's messages):
    `made` (its sections validated, `KeptSections.assembled` or `made`) with the checks that
    span its sections run (`scenario_problems`, each once for the sections it reads over the
    search: `KeptSections.checks`), which is all its validation would do: the same scenario,
    or the same message; else (None, or checks that fail their own way) its `data`
    validated."""
    if made is not None:
        try:
            problems = (
                kept.checks.problems(made)
                if kept is not None and kept.catalog is catalog
                else scenario_problems(made, catalog)
            )
        except (ValueError, AssertionError):  # what validation reports its own way
            problems = None
        if problems is not None:
            return made if not problems else _one_line(refusal(problems))
    try:
        return Scenario.model_validate(data, context={"catalog": catalog})
    except ValidationError as exc:
        return "; ".join(_one_line(str(e["msg"])) for e in exc.errors(include_url=False))


def _one_line(message: str) -> str:
    """A validation message on one line (a candidate's `error`)."""
    return message.replace("\n", "; ")


def sized_configuration(variant: Scenario, context: SizingContext) -> Configuration:
    """A configuration of the search resolved; a cache size of its own projects the hit
    ratios to it, as an alternative's does. What the search's configurations share in their
    resolution is the search's (`context.parts`): its skew curves built once, and ranked once
    for every placement of every configuration; each rank as installed; the workloads as
    resolved for each cache size. Without the report's inputs (`shown=False`): a candidate is
    solved and summed up, never reported with its catalog figures and defaults, and listing
    them was two thirds of its resolution."""
    hits = projected_hit_ratios(context.scenario, variant, {})
    return resolve(
        variant,
        context.catalog,
        context.base_dir,
        hit_ratios=hits,
        shown=False,
        parts=context.parts,
    )


def try_configuration(job: SizingJob, context: SizingContext) -> SizingCandidate:
    """One configuration against the service level in every period (module docstring)."""
    return try_configurations([job], context)[0]


@dataclass(frozen=True)
class _Trial:
    """A configuration of the search resolved, costed and given its solver, to be solved."""

    job: SizingJob
    config: Configuration
    cost: Cost
    solver: Solver


SOLVED_TOGETHER = 64
"""Configurations whose open networks are solved in one pass at most (`try_configurations`):
the fixed cost of a pass is shared well before this, and a batch of the large space (up to
1,024 configurations, `size_batch.batch_size`) is not held as networks all at once."""


def try_configurations(jobs: Sequence[SizingJob], context: SizingContext) -> list[SizingCandidate]:
    """Configurations against the service level in every period, each as `try_configuration`
    tries it alone, to the bit: each validated, resolved and placed at its loads on its own,
    then the open networks of all of them solved together, as arrays, every period of a
    configuration in one ask (`model.operating.open_loads_together`), `SOLVED_TOGETHER` at a
    time, and each one's limits read over its loads as arrays (`_read_loads`); a
    configuration with closed workloads is solved on its own, point by point."""
    if len(jobs) > SOLVED_TOGETHER:
        return [
            candidate
            for k in range(0, len(jobs), SOLVED_TOGETHER)
            for candidate in try_configurations(jobs[k : k + SOLVED_TOGETHER], context)
        ]
    trials: list[_Trial | SizingCandidate] = [_trial(job, context) for job in jobs]
    open_trials = [t for t in trials if isinstance(t, _Trial) and not t.config.has_closed]
    asks: list[tuple[Solver, FloatArray]] = []
    for trial in open_trials:
        # Every period's load in one ask: a load's figures do not depend on the loads solved
        # beside it (`model.network.per_load`), so the planned load may share its network's
        # solve with the growth loads that share its placement.
        planned = trial.solver.planned_rates()[:, None]
        asks.append((trial.solver, planned * [1.0, *context.factors]))
    solved = iter(open_loads_together(asks))
    loads: dict[int, LoadGroups] = {id(trial): next(solved) for trial in open_trials}
    levels: list[tuple[ServiceLevelConfig, tuple[Limit, ...]]] = []
    alike: dict[int, tuple[tuple[Limit, ...], list[_Trial]]] = {}  # by service level
    for trial in open_trials:
        level = _limits(trial.config.service_level, levels)
        alike.setdefault(id(level), (level, []))[1].append(trial)
    reads: dict[int, _Read] = {}
    for level, group in alike.values():
        read = _read_loads([loads[id(t)] for t in group], level, len(context.periods))
        reads.update(zip(map(id, group), read, strict=True))
    return [
        t
        if isinstance(t, SizingCandidate)
        else _candidate(
            t,
            reads[id(t)]
            if id(t) in reads
            else _read_points(
                _points(t.solver, context.factors), _limits(t.config.service_level, levels)
            ),
            context,
        )
        for t in trials
    ]


def _limits(
    level: ServiceLevelConfig, made: list[tuple[ServiceLevelConfig, tuple[Limit, ...]]]
) -> tuple[Limit, ...]:
    """`limits(level)`, taken from `made` where made there for an equal service level (the
    configurations of a search share theirs; its labels were a tenth of a candidate's time)."""
    for known, kept in made:
        if known == level:
            return kept
    made.append((level, limits(level)))
    return made[-1][1]


def _trial(job: SizingJob, context: SizingContext) -> _Trial | SizingCandidate:
    """The job's configuration resolved, costed and given its solver; or, where it is not
    possible, its candidate saying why."""
    catalog = context.catalog
    choice, upgrade = job.choice, job.upgrade
    if job.offered:  # the batched search sends the choice only (`size_batch`)
        variant = _offered(choice, context)
    elif job.refused is not None:
        return SizingCandidate(choice, error=job.refused, upgrade=upgrade)
    else:
        variant = job.variant if job.variant is not None else validated(job, catalog, context.kept)
    if isinstance(variant, str):
        return SizingCandidate(choice, error=variant, upgrade=upgrade)
    config = job.config if job.config is not None else sized_configuration(variant, context)
    costed = job.variant is not None  # the per-configuration search costs it first
    cost = job.cost if costed else configuration_cost(variant, catalog, context.prices)
    return _Trial(job, config, cost, Solver(config))


def _offered(choice: Choice, context: SizingContext) -> Scenario | str:
    """The scenario of a configuration the batched search sends by its choice alone, or why
    it is not possible: put together from the search's sections (`KeptSections.made`) where
    the search keeps them, else validated from its data (`size_offers.put_together`)."""
    kept = context.kept
    made, data = put_together(context.configuration_base, context.scenario, dict(choice), kept)
    return checked(made, data, context.catalog, kept)


@dataclass(frozen=True)
class _Read:
    """What a configuration's candidate reports of its loads, per period (now, then each
    growth period): the first limit broken (None: all met) and the mean response in ms; and
    the busiest station at the planned load with its utilisation (at most 1)."""

    broken: list[Limit | None]
    response_ms: tuple[float | None, ...]
    busiest: str
    busiest_utilization: float


def _read_points(points: Sequence[OperatingPoint], level: Sequence[Limit]) -> _Read:
    """`_Read` from the operating point of each period (a configuration with closed
    workloads)."""
    planned = points[0]
    return _Read(
        first_broken_each(points, level),
        tuple(_response_ms(p.saturated, p.response_s) for p in points),
        *_busiest(planned.network, planned.utilization),
    )


def _read_loads(solved: Sequence[LoadGroups], level: Sequence[Limit], periods: int) -> list[_Read]:
    """`_Read` of each of several configurations of one service level (`level`) from its
    open loads as solved (`open_loads_together`: per network, the periods solved on it and
    their points as arrays, the planned load's group first and its first column), every load
    of all of them read at once (`operating.open_responses`, `limits.first_broken_over`),
    with no operating point made."""
    many = [loads for groups in solved for _, loads in groups]
    responses = open_responses(many)
    broken = iter(first_broken_over(many, level, responses))
    saturated = iter(np.concatenate([loads.saturated for loads in many]).tolist())
    response = iter(responses)
    out = []
    for groups in solved:
        first: list[Limit | None] = [None] * periods
        by_period: list[float | None] = [None] * periods
        for columns, _ in groups:
            for p in columns:
                first[p] = next(broken)
                by_period[p] = _response_ms(next(saturated), next(response))
        planned = groups[0][1]
        out.append(
            _Read(first, tuple(by_period), *_busiest(planned.network, planned.utilization[:, 0]))
        )
    return out


def _busiest(network: Network, utilization: FloatArray) -> tuple[str, float]:
    """The busiest station of `network` at a load whose stations are `utilization` busy
    (`OperatingPoint.busiest`), and how busy, at most 1."""
    k = int(utilization.argmax())
    return network.stations[k].name, float(min(utilization[k], 1.0))


def _candidate(trial: _Trial, read: _Read, context: SizingContext) -> SizingCandidate:
    """A configuration's answer from what its loads read (`_Read`: the planned one, then each
    growth period's) against the limits of its service level."""
    config, job = trial.config, trial.job
    drives, power, price = trial.cost
    broken = zip(context.periods, read.broken, strict=True)
    first = next(((name, lim) for name, lim in broken if lim is not None), None)
    return SizingCandidate(
        job.choice,
        error=None,
        drives=drives,
        power_w=power,
        price=price,
        response_time_ms=read.response_ms[0],
        busiest=read.busiest,
        busiest_utilization=read.busiest_utilization,
        meets=first is None,
        broken_in=None if first is None else first[0],
        binding=None if first is None else first[1].label,
        upgrade=job.upgrade,
        response_by_period_ms=read.response_ms,
        uneven=uneven_placement(config),
    )


def _response_ms(saturated: bool, response_s: float) -> float | None:
    """A mean response (`response_s`) in ms; None where its point is saturated or it has no
    steady state (it is not read there)."""
    if saturated:
        return None
    return response_s / MS if math.isfinite(response_s) else None


def uneven_placement(config: Configuration) -> str:
    """The rank kinds whose ranks are not spread evenly over the DA pairs or the servers, with
    their counts per pair and per server ("" when all are even). Ranks are dealt round-robin
    over the DA pairs and alternate between the servers (`scenario.expand_ranks`), so each
    kind is as even as its count allows unless a group names its DA pair; what is left is
    named, since a rank more on one DA pair can lower the maximum (issue 14)."""
    hw = config.hardware
    servers = hw.system.servers
    # Per kind, its ranks on each DA pair and on each server, counted in one pass.
    kinds: dict[tuple[str, str, str], tuple[list[int], list[int]]] = {}
    for rank in config.ranks:
        key = (rank.pool, rank.drive.name, rank.raid.name)
        counts = kinds.get(key)
        if counts is None:
            counts = kinds[key] = ([0] * hw.da_pairs, [0] * servers)
        if 0 <= rank.da_pair < hw.da_pairs:  # validated: every rank is on one of them
            counts[0][rank.da_pair] += 1
        counts[1][rank.server % servers] += 1
    parts = []
    drives = [drive for _, drive, _ in kinds]
    for (_, drive, raid), (pairs, owners) in kinds.items():
        uneven = []
        if max(pairs) > min(pairs):
            uneven.append("DA " + "/".join(map(str, pairs)))
        if max(owners) > min(owners):
            uneven.append("servers " + "/".join(map(str, owners)))
        if uneven:
            name = drive if drives.count(drive) == 1 else f"{drive} {raid}"
            parts.append(f"{name}: " + ", ".join(uneven))
    return "; ".join(parts)


class SizingRunner:
    """Solves batches of jobs, in order: in this process, over `workers` processes, or on the
    Dask cluster at `scheduler` (each configuration is independent, so the results are the
    same every way). The processes or the cluster connection are kept for every batch of
    one search, and the search's context goes to each of them once."""

    def __init__(self, context: SizingContext, workers: int, scheduler: str | None) -> None:
        self.context = context
        self.workers = workers
        self.scheduler = scheduler
        self._stack = contextlib.ExitStack()
        self._pool: Any = None
        self._client: Any = None
        self._shared: Any = None
        self._working: tuple[str, ...] = ()
        self._slots = 1
        self._deadline = 0.0

    def __enter__(self) -> SizingRunner:
        if self.scheduler is not None:
            self._client, self._shared = self._stack.enter_context(
                cluster.dask_client(self.scheduler, self.context)
            )
            self._working, self._slots = cluster.working_workers(self._client)
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

    @property
    def slots(self) -> int:
        """How many configurations are solved at once: the cluster's cores its working
        workers run on (`cluster.working_workers`), the processes, or one."""
        if self._client is not None:
            return self._slots
        return self.workers if self._pool is not None else 1

    @property
    def _on_working(self) -> dict[str, Any]:
        """`Client.map`'s arguments for a task of the search: its context, not cached by
        value, on the working workers only (`cluster.working_workers`; on any where none
        could say where it sits)."""
        return {"context": self._shared, "pure": False, "workers": list(self._working) or None}

    def run(
        self,
        jobs: Sequence[SizingJob],
        chunks: int = 0,
        together: Callable[[SizingJob], Hashable] | None = None,
    ) -> Iterable[SizingCandidate]:
        """Every job's candidate, in the jobs' order; `chunks` > 0 sends the jobs to the
        processes or the cluster as that many tasks (one task per job costs a round trip
        each, more than a job takes): of consecutive jobs, or, given `together` (a key of the
        work jobs share in a process, such as their back end), with the jobs of one key in one
        task (`_parts`)."""
        if chunks > 0 and (self._client is not None or self._pool is not None):
            rows = _parts(jobs, chunks, together)
            parts = [[jobs[k] for k in part] for part in rows]
            if self._client is not None:
                assert self.scheduler is not None
                futures = self._client.map(try_chunk, parts, **self._on_working)
                done = cluster.gathered(self.scheduler, futures, self._deadline)
            else:
                done = (f.result() for f in [self._pool.submit(_chunk_in_worker, p) for p in parts])
            if together is None:  # consecutive parts: the answers come in the jobs' order
                return (c for part in done for c in part)
            answers: list[SizingCandidate | None] = [None] * len(jobs)
            for part, candidates in zip(rows, done, strict=True):
                for k, candidate in zip(part, candidates, strict=True):
                    answers[k] = candidate
            return iter([c for c in answers if c is not None])
        if self._client is not None:
            assert self.scheduler is not None
            futures = self._client.map(try_configuration, jobs, **self._on_working)
            return cluster.gathered(self.scheduler, futures, self._deadline)
        if self._pool is not None:
            return (f.result() for f in [self._pool.submit(_try_in_worker, job) for job in jobs])
        return iter(try_configurations(jobs, self.context))


def _parts(
    jobs: Sequence[SizingJob], chunks: int, together: Callable[[SizingJob], Hashable] | None
) -> list[list[int]]:
    """The jobs (by index) split into at most `chunks` tasks: consecutive runs of equal size,
    or, given `together`, the jobs of each key kept in one task, the largest groups first,
    each to the task with the fewest jobs so far, each task's jobs in the jobs' order. A
    process solving a task shares what its jobs share (`model.layout.placements_for`: the
    Easy Tier layouts of one back end), as one process solving them all would; split in
    consecutive runs, the configurations of a back end, far apart in the cost order, went
    to every task, each worker placing the back end again (measured on the first 384
    survivors of bench/bench_size_dask.py's 10^6 space, 86 back ends over 8 tasks: 10-11
    per task against 17-48, and the tasks' CPU 0.127-0.140 s against 0.143-0.165 s, one
    process 0.128 s)."""
    if together is None:
        size = max(1, -(-len(jobs) // chunks))
        return [list(range(k, min(k + size, len(jobs)))) for k in range(0, len(jobs), size)]
    groups: dict[Hashable, list[int]] = {}
    for k, job in enumerate(jobs):
        groups.setdefault(together(job), []).append(k)
    parts: list[list[int]] = [[] for _ in range(min(chunks, len(groups)))]
    for group in sorted(groups.values(), key=len, reverse=True):  # stable: ties in job order
        min(parts, key=len).extend(group)
    return [sorted(part) for part in parts]


def try_chunk(jobs: Sequence[SizingJob], context: SizingContext) -> list[SizingCandidate]:
    """Consecutive jobs tried in one task (a process's or a Dask worker's), together
    (`try_configurations`), garbage collected less often meanwhile (`collections_paced`)."""
    with paced():
        return try_configurations(jobs, context)


_worker_context: list[SizingContext] = []
"""The search's context in a worker process (set once by `_set_worker_context`)."""


def _set_worker_context(context: SizingContext) -> None:
    _worker_context[:] = [context]


def _try_in_worker(job: SizingJob) -> SizingCandidate:
    return try_configuration(job, _worker_context[0])


def _chunk_in_worker(jobs: Sequence[SizingJob]) -> list[SizingCandidate]:
    return try_chunk(jobs, _worker_context[0])
