"""The sizing search over a large space (`analyses.size` beyond `PER_CONFIGURATION_UP_TO`
configurations): bounds for every configuration at once in numpy, the survivors solved in
full, cheapest first, in batches, until every configuration is settled.

**Settled** means solved in full (the same `try_configuration` the per-configuration search
and `diskmodel run` use: validated, resolved, placed by Easy Tier, solved at the planned load
and every growth factor) or skipped by a bound that proves it can be neither on the Pareto
front nor an answer. The bounds are `size_bounds.screen`'s (utilisation, saturation and
no-queueing response bounds that hold for every placement Easy Tier can make), computed for
every configuration of the space as arrays: the space is never made into scenarios, only the
configurations that are solved are. The rules are `size_bounds.skippable`'s, (A) saturated at
the planned load, (B) some solved configuration no dearer is faster than the bound by the
front's squared margin and the configuration breaks the service level or a strictly cheaper
solved one meets it; here they are applied to every unsettled configuration after each batch
(`_beaten`), with the solved set summarised by cost level: the fastest solved response at or
below each (cost, power) level, and the cheapest level that meets (and that meets as an
upgrade). A skipped configuration is never validated, so one the hardware could not take is
listed as skipped, not as "not possible": either way it is no answer.

The search stops when nothing is unsettled: the front and the cheapest are then those of the
exhaustive search (size_bounds' proof; tests/analyses/test_sizing_batch.py compares them on a
10,000-configuration space with every configuration solved).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.analyses import size_bounds as bounds
from diskmodel.analyses import size_profile
from diskmodel.analyses.size_front import SAME_RESPONSE
from diskmodel.analyses.size_space import OfferedSpace, SpaceCost, ranks_by_kind, space_cost
from diskmodel.analyses.size_try import (
    SizingContext,
    SizingJob,
    SizingRunner,
    sized_configuration,
    validated,
)
from diskmodel.prediction import SizingCandidate, SizingPruned
from diskmodel.scenario import Scenario, apply_settings
from diskmodel.units import MS
from diskmodel.vocabulary import COMPONENT_KINDS

PER_CONFIGURATION_UP_TO = 512
"""Spaces up to this are searched one configuration at a time (`size._search`: every one
validated first, the impossible ones listed as such); larger ones here."""

BATCH = 48
"""Configurations solved between two applications of the bounds in one process: smaller
batches skip more (each solved configuration can beat what comes after it), larger ones pay
the bounds' pass over the unsettled less often."""

CHUNK = 24
"""Configurations per task when the batches are spread over processes or a Dask cluster (a
task costs a round trip and the unpickling of its jobs; one configuration takes 3-10 ms)."""

TASKS_PER_WORKER = 2
"""Tasks each process or Dask worker gets per batch (two: one runs while the next comes)."""

Tally = Callable[[int, int, int], None]
"""Called as the search goes: (solved, skipped, left), a progress bar's figures."""


@dataclass(frozen=True)
class Settled:
    """The outcome of the search, by configuration index: the solved ones' candidates and the
    skipped ones' bounds; `solved_order` is the order they were solved in."""

    candidates: dict[int, SizingCandidate]
    pruned: dict[int, SizingPruned]


def _representative(scenario: Scenario, context: SizingContext, settings: dict) -> Scenario | None:
    """The scenario with `settings` (a system model, processor and cache option) and its own
    ranks, validated, for the bounds' per-I/O figures (which do not depend on the ranks); None
    when the hardware refuses it (then its configurations get no bound and are solved)."""
    assert context.base is not None
    data = apply_settings(context.base, settings)
    data["analyses"] = {"curve": {"points": 2}}
    v = validated(SizingJob(data, (), False), context.catalog)
    return None if isinstance(v, str) else v


def space_screen(space: OfferedSpace, context: SizingContext) -> bounds.Screen:
    """`size_bounds.screen` over every configuration of `space`, one system model at a time
    (the same drive is packaged, and performs, differently in each); a configuration whose
    system options the hardware refuses gets no bound (0 s, nothing proved)."""
    scenario = context.scenario
    n = len(space)
    kinds, ranks = ranks_by_kind(space)
    models = space.system("model")
    ways = space.system("processor_ways").astype(np.float64)
    cache = space.system("cache_gb").astype(np.float64)
    ports = space.system("host_ports").astype(np.float64)
    pairs = space.system("da_pairs").astype(np.float64)
    response = np.zeros(n)
    saturated, fails = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    why, why_value = np.full(n, -1, dtype=np.int64), np.zeros(n)
    texts: tuple[str, ...] = ()
    utilization = np.zeros((len(COMPONENT_KINDS), n))
    level = scenario.service_level
    growth = scenario.analyses.growth
    limits = bounds.Limits(
        level.response_time_ms * MS,
        level.utilization.host_adapter,
        level.utilization.processor,
        level.utilization.device_adapter,
        level.utilization.rank,
        tuple(growth.multipliers) if growth else (),
        context.periods,
    )
    for model in sorted(set(models.tolist())):
        in_model = models == model
        figures = size_profile.rank_kinds(context.catalog, model, kinds)
        keys = sorted(set(zip(ways[in_model].tolist(), cache[in_model].tolist(), strict=True)))
        profiles: list[size_profile.Profile] = []
        profile = np.full(n, -1, dtype=np.int64)
        workloads: list = []
        for w, c in keys:
            settings = {
                "system.model": model,
                "system.processor_ways": int(w),
                "system.cache_gb": c,
            }
            v = _representative(scenario, context, settings)
            if v is None:
                continue
            config = sized_configuration(v, context)
            rows = in_model & (ways == w) & (cache == c)
            profile[rows] = len(profiles)
            profiles.append(size_profile.profile(config, context.catalog, figures))
            workloads = [
                (wl.pool, wl.capacity_gb, None if wl.preference is not None else wl.skew)
                for wl in config.workloads
            ]
        rows = np.flatnonzero(profile >= 0)
        if rows.size == 0:
            continue
        part = bounds.screen(
            profiles,
            bounds.Space(profile[rows], ports[rows], pairs[rows], ranks[rows]),
            figures,
            workloads,
            limits,
        )
        response[rows] = part.response_lb_s
        saturated[rows], fails[rows] = part.saturated, part.fails
        why[rows], why_value[rows] = part.why, part.why_value
        utilization[:, rows] = part.utilization_lb
        texts = part.texts
    return bounds.Screen(response, saturated, fails, why, why_value, texts, utilization)


def cost_levels(cost: SpaceCost) -> NDArray[np.int64]:
    """Every configuration's rank among the distinct (cost, power) pairs: level(d) <= level(c)
    exactly when d's (cost, power) is no greater than c's, compared as the search compares
    them (cost first, then power)."""
    order = np.lexsort((cost.power_w, cost.key))
    k, p = cost.key[order], cost.power_w[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (k[1:] != k[:-1]) | (p[1:] != p[:-1])
    levels = np.empty(len(order), dtype=np.int64)
    levels[order] = np.cumsum(new) - 1
    return levels


class _Solved:
    """What the rules need of the configurations solved so far, by cost level: the fastest
    response (s) at or below each level, and the lowest level that meets the service level
    (and that meets it as an upgrade of the current configuration)."""

    def __init__(self, levels: int) -> None:
        self.fastest_at = np.full(levels, np.inf)
        self.fastest_upto = np.full(levels, np.inf)
        self.meets_from = levels  # no level
        self.upgrade_meets_from = levels

    def add(self, level: int, response_s: float | None, meets: bool, upgrade: bool) -> None:
        if response_s is not None:
            self.fastest_at[level] = min(self.fastest_at[level], response_s)
        if meets:
            self.meets_from = min(self.meets_from, level)
            if upgrade:
                self.upgrade_meets_from = min(self.upgrade_meets_from, level)

    def close(self) -> None:
        self.fastest_upto = np.minimum.accumulate(self.fastest_at)


def _beaten(
    rows: NDArray[np.int64],
    screen: bounds.Screen,
    levels: NDArray[np.int64],
    upgrade: NDArray[np.bool_],
    solved: _Solved,
) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """Which of `rows` rule (B) skips, and by which bound (1: service level, 2: cost)."""
    margin = (1 + SAME_RESPONSE) ** 2
    level = levels[rows]
    fastest = solved.fastest_upto[level]
    beaten = fastest * margin < screen.response_lb_s[rows] * (1 - bounds.MARGIN)
    fails = screen.fails[rows]
    cheaper = level > solved.meets_from
    cheaper_upgrade = ~upgrade[rows] | (level > solved.upgrade_meets_from)
    skip = beaten & (fails | (cheaper & cheaper_upgrade))
    return skip, np.where(fails, 1, 2)


BOUNDS = ("saturation", "service level", "cost")


def batched_search(
    space: OfferedSpace,
    context: SizingContext,
    runner: SizingRunner,
    prune: bool,
    tally: Tally | None = None,
    batch: int = BATCH,
    chunks: int = 0,
) -> Settled:
    """Every configuration of `space` settled (module docstring): solved by `runner` in
    batches of `batch` (as `chunks` tasks each when it spreads them), cheapest first, or
    skipped by a proven bound."""
    n = len(space)
    cost = space_cost(space, context.catalog)
    levels = cost_levels(cost)
    upgrade = space.upgrade()
    screen = space_screen(space, context) if prune else None
    order = np.lexsort((np.arange(n), cost.power_w, cost.key))
    open_ = np.ones(n, dtype=bool)
    bound = np.full(n, -1, dtype=np.int64)  # the rule that skipped each: index into BOUNDS
    witness = np.zeros(n)  # the solved response (s) a configuration was beaten by
    if screen is not None:
        first = screen.saturated.copy()
        first[0] = False  # the current configuration is always solved
        bound[first] = 0
        open_ &= ~first
    solved = _Solved(int(levels.max()) + 1 if n else 0)
    results: dict[int, SizingCandidate] = {}
    queue = order[open_[order]]
    while queue.size:
        take = queue[:batch]
        jobs = [SizingJob({}, space.choice(int(i)), bool(upgrade[i]), offered=True) for i in take]
        for i, candidate in zip(take.tolist(), runner.run(jobs, chunks), strict=True):
            results[i] = candidate
            r = candidate.response_time_ms
            solved.add(int(levels[i]), None if r is None else r * MS, candidate.meets, upgrade[i])
        open_[take] = False
        queue = queue[batch:]
        if screen is not None and queue.size:
            solved.close()
            skip, which = _beaten(queue, screen, levels, upgrade, solved)
            skip &= queue != 0
            gone = queue[skip]
            bound[gone] = which[skip]
            witness[gone] = solved.fastest_upto[levels[gone]]
            open_[gone] = False
            queue = queue[~skip]
        if tally is not None:
            tally(len(results), int((bound >= 0).sum()), int(queue.size))
    pruned = {
        int(i): _pruned(space, screen, int(i), int(bound[i]), float(witness[i]))
        for i in np.flatnonzero(bound >= 0)
        if screen is not None
    }
    return Settled(results, pruned)


def _pruned(
    space: OfferedSpace, screen: bounds.Screen, i: int, rule: int, witness_s: float
) -> SizingPruned:
    """Configuration `i` skipped by `BOUNDS[rule]`, with the bound's figures."""
    choice = space.choice(i)
    if rule == 0:
        return SizingPruned(choice, BOUNDS[0], screen.reason_of(i))
    beaten = (
        f"at least {float(screen.response_lb_s[i]) * 1e3:.4g} ms now against "
        f"{witness_s * 1e3:.4g} ms of a configuration no dearer (faster beyond the margin "
        "1.01^2)"
    )
    if rule == 1:
        return SizingPruned(choice, BOUNDS[1], f"{screen.reason_of(i)}; {beaten}")
    return SizingPruned(
        choice, BOUNDS[2], f"a cheaper configuration meets the service level; {beaten}"
    )
