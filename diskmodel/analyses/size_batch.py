"""The sizing search over a large space (`analyses.size` beyond `PER_CONFIGURATION_UP_TO`
configurations): bounds for every configuration at once in numpy, the survivors solved in
full, cheapest first, in batches, until every configuration is settled.

**Settled** means solved in full (the same `try_configuration` the per-configuration search
and `diskmodel run` use: validated, resolved, placed by Easy Tier, solved at the planned load
and every growth factor) or skipped by a bound that proves it can be neither on the Pareto
front nor an answer. The bounds are `size_bounds.screen`'s (utilisation, saturation and
no-queueing response bounds that hold for every placement Easy Tier can make), computed for
every configuration of the space as arrays: the space is never made into scenarios, only the
configurations that are solved are; the drives' utilisation is also bounded by the busy
share of the fastest drive the model allows (`size_bounds.busy_at_least`). The rules are
`size_bounds.skippable`'s, (A) saturated at the planned load, (B) the configuration breaks
the service level or a strictly cheaper solved one meets it, and a solved one beats it on
the front whatever its exact response; (B) here in the wider form B' (size_bounds' docstring):
a solved configuration strictly cheaper within the front's 1% of the bound, or one no dearer
faster than the bound beyond it. They are applied to every unsettled configuration after each
batch (`_beaten`), with the solved set summarised by cost level: the fastest solved response
at or below each (cost, power) level and strictly below it, and the cheapest level that meets
(and that meets as an upgrade). A skipped configuration is never validated, so one the
hardware could not take is listed as skipped, not as "not possible": either way it is no
answer.

When nothing is unsettled, the skipped configurations that could still beat a member of the
solved front are solved (`_front_threats`), until none could: the front and the cheapest are
then those of the exhaustive search (size_bounds' proof; tests/analyses/test_sizing_batch.py
compares them on a 10,368-configuration space with every configuration solved).

The batches are the same however they are solved (`batch_size`: a function of the space
only), so one process, several, or a Dask cluster solve and skip the same configurations and
give the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from diskmodel.analyses import size_bounds as bounds
from diskmodel.analyses import size_profile
from diskmodel.analyses.size_front import SAME_RESPONSE, pareto_front
from diskmodel.analyses.size_space import OfferedSpace, SpaceCost, ranks_by_kind, space_cost
from diskmodel.analyses.size_try import (
    SizingContext,
    SizingJob,
    SizingRunner,
    sized_configuration,
    sizing_context,
    validated,
    why_not_bounded,
)
from diskmodel.catalog import Catalog
from diskmodel.prediction import Choice, SizingCandidate, SizingPruned
from diskmodel.scenario import Scenario, apply_settings
from diskmodel.units import MS
from diskmodel.vocabulary import COMPONENT_KINDS

PER_CONFIGURATION_UP_TO = 512
"""Spaces up to this are searched one configuration at a time (`size._search`: every one
validated first, the impossible ones listed as such); larger ones here."""

BATCH = 96
"""Configurations solved between two applications of the bounds, in one process, over
processes or on a cluster alike (the batches decide what is solved and what skipped, so the
result is the same bytes every way): smaller batches skip more (each solved configuration
can beat what comes after it), larger ones keep more workers busy and pay the bounds' pass
over the unsettled less often."""


def batch_size(configurations: int) -> int:
    """The batch for a space: `BATCH`, or a thousandth of the space up to 1,024 (a space of
    10^6 in about a thousand batches: tasks large enough for a cluster's round trips), the
    same for every runner."""
    return min(max(BATCH, configurations // 1000), 1024)


TASKS_PER_WORKER = 2
"""Tasks each process or Dask worker gets per batch (two: one runs while the next comes)."""

Tally = Callable[[int, int, int], None]
"""Called as the search goes: (solved, skipped, left), a progress bar's figures."""


@dataclass(frozen=True)
class Settled:
    """The outcome of the search, by configuration index: the solved ones' candidates and the
    skipped ones' bounds."""

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
    scenario, catalog = context.scenario, context.catalog
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
    limits = screen_limits(scenario, context.periods)
    for model in sorted(set(models.tolist())):
        # A kind the model does not offer: its configurations are not possible, no bound.
        offered = [k for k, kind in enumerate(kinds) if model in catalog.drives[kind[1]].packaging]
        others = [k for k in range(len(kinds)) if k not in offered]
        in_model = (models == model) & ~(ranks[:, others] > 0).any(axis=1)
        figures = size_profile.rank_kinds(catalog, model, [kinds[k] for k in offered])
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
            profiles.append(size_profile.profile(config, catalog, figures))
            workloads = [
                (wl.pool, wl.capacity_gb, None if wl.preference is not None else wl.skew)
                for wl in config.workloads
            ]
        rows = np.flatnonzero(profile >= 0)
        if rows.size == 0:
            continue
        part = bounds.screen(
            profiles,
            bounds.Space(profile[rows], ports[rows], pairs[rows], ranks[rows][:, offered]),
            figures,
            workloads,
            limits,
            drive_busy=True,
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
    key, power = cost.key, cost.power
    order = np.lexsort((power, key))
    k, p = key[order], power[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = (k[1:] != k[:-1]) | (p[1:] != p[:-1])
    levels = np.empty(len(order), dtype=np.int64)
    levels[order] = np.cumsum(new) - 1
    return levels


class _Solved:
    """What the rules need of the configurations solved so far, by cost level: the fastest
    response (s) at or below each level and strictly below it, and the lowest level that meets
    the service level (and that meets it as an upgrade of the current configuration)."""

    def __init__(self, levels: int) -> None:
        self.fastest_at = np.full(levels, np.inf)
        self.fastest_upto = np.full(levels, np.inf)
        self.fastest_below = np.full(levels, np.inf)
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
        self.fastest_below = np.concatenate([[np.inf], self.fastest_upto[:-1]])


def _beaten(
    rows: NDArray[np.int64],
    screen: bounds.Screen,
    levels: NDArray[np.int64],
    upgrade: NDArray[np.bool_],
    solved: _Solved,
) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.float64]]:
    """Which of `rows` rule (B') skips, by which bound (1: service level, 2: cost), and the
    solved response that beats each. Beaten: a solved configuration strictly cheaper is no
    slower than the bound beyond the front's margin, R(d) <= R_lb(c) (1 + s), or one no
    dearer is faster than the bound by it, R(d) (1 + s) < R_lb(c); either way d beats c on
    the front (`size_front.pareto_front`), whatever c's exact response."""
    s = 1 + SAME_RESPONSE
    level = levels[rows]
    r_lb = screen.response_lb_s[rows] * (1 - bounds.MARGIN)
    below, upto = solved.fastest_below[level], solved.fastest_upto[level]
    by_below = below <= r_lb * s
    beaten = by_below | (upto * s < r_lb)
    fails = screen.fails[rows]
    cheaper = level > solved.meets_from
    cheaper_upgrade = ~upgrade[rows] | (level > solved.upgrade_meets_from)
    skip = beaten & (fails | (cheaper & cheaper_upgrade))
    return skip, np.where(fails, 1, 2), np.where(by_below, below, upto)


BOUNDS = ("saturation", "service level", "cost")


def _front_threats(
    candidates: dict[int, SizingCandidate],
    skipped: NDArray[np.int64],
    screen: bounds.Screen,
    levels: NDArray[np.int64],
) -> NDArray[np.int64]:
    """The skipped configurations (not saturated) that could beat a member of the front of
    the solved ones: no dearer than it, and a bound no slower than its response beyond the
    front's margin. Rule B' skips only a configuration that is beaten itself, but the front's
    relation is not transitive: a skipped one might be what keeps a configuration off the
    exhaustive front. When none is left, the solved front is the exhaustive one (module
    docstring)."""
    kept = sorted(candidates)
    solved = [candidates[i] for i in kept]
    front = [kept[k] for k in pareto_front(solved)]
    if not front or skipped.size == 0:
        return np.zeros(0, dtype=np.int64)
    s = 1 + SAME_RESPONSE
    # Per level, the slowest front member at or above it (a skipped configuration at that
    # level is no dearer than each of them).
    slowest_at = np.full(int(levels.max()) + 1, -np.inf)
    for i in front:
        r = candidates[i].response_time_ms
        assert r is not None
        slowest_at[levels[i]] = max(slowest_at[levels[i]], r * MS)
    slowest_from = np.maximum.accumulate(slowest_at[::-1])[::-1]
    reach = slowest_from[levels[skipped]] * s * (1 + bounds.MARGIN)
    return skipped[screen.response_lb_s[skipped] <= reach]


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
    order = np.lexsort((np.arange(n), cost.power, cost.key))
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
        jobs = [
            SizingJob({}, choice, up, offered=True)
            for choice, up in zip(space.choices(take), upgrade[take].tolist(), strict=True)
        ]
        solving = runner.run(jobs, chunks, together=back_end)
        for i, candidate in zip(take.tolist(), solving, strict=True):
            results[i] = candidate
            r = candidate.response_time_ms
            solved.add(int(levels[i]), None if r is None else r * MS, candidate.meets, upgrade[i])
        open_[take] = False
        queue = queue[batch:]
        if screen is not None and queue.size:
            solved.close()
            skip, which, by = _beaten(queue, screen, levels, upgrade, solved)
            skip &= queue != 0
            gone = queue[skip]
            bound[gone] = which[skip]
            witness[gone] = by[skip]
            open_[gone] = False
            queue = queue[~skip]
        if screen is not None and not queue.size:
            # Everything is settled: solve the skipped ones that could still beat a member of
            # the front (usually none), and go on until none could.
            back = _front_threats(results, np.flatnonzero(bound >= 1), screen, levels)
            bound[back] = -1
            queue = order[np.isin(order, back)]
        if tally is not None:
            tally(len(results), int((bound >= 0).sum()), int(queue.size))
    if screen is None:
        return Settled(results, {})
    gone = np.flatnonzero(bound >= 0)
    rules, witnesses = bound[gone].tolist(), witness[gone].tolist()
    named = zip(gone.tolist(), space.choices(gone), rules, witnesses, strict=True)
    return Settled(results, {i: _pruned(c, screen, i, rule, by) for i, c, rule, by in named})


def _pruned(
    choice: Choice, screen: bounds.Screen, i: int, rule: int, witness_s: float
) -> SizingPruned:
    """Configuration `i` (its `choice`) skipped by `BOUNDS[rule]`, with the bound's figures."""
    if rule == 0:
        return SizingPruned(choice, BOUNDS[0], screen.reason_of(i))
    beaten = (
        f"at least {float(screen.response_lb_s[i]) * 1e3:.4g} ms now against "
        f"{witness_s * 1e3:.4g} ms of a configuration solved (cheaper and within the front's "
        "1%, or no dearer and faster beyond it)"
    )
    if rule == 1:
        return SizingPruned(choice, BOUNDS[1], f"{screen.reason_of(i)}; {beaten}")
    return SizingPruned(
        choice, BOUNDS[2], f"a cheaper configuration meets the service level; {beaten}"
    )


def screen_limits(scenario: Scenario, periods: tuple[str, ...]) -> bounds.Limits:
    """The service level and growth the bounds screen against, over the named `periods` (the
    per-configuration search's and the batched search's alike)."""
    level = scenario.service_level
    growth = scenario.analyses.growth
    return bounds.Limits(
        level.response_time_ms * MS,
        level.utilization.host_adapter,
        level.utilization.processor,
        level.utilization.device_adapter,
        level.utilization.rank,
        tuple(growth.multipliers) if growth else (),
        periods,
    )


FRONT_END_CHOICES = ("host_ports", "processor_ways")
"""The choices a configuration's Easy Tier layouts do not depend on (`model.layout.placements_for`
reads the pools, ranks, workloads, DA pairs and what the operation costs come from: the
system model and the cache, through the hit ratios, are in them; the host ports and the
processor option are not): configurations that differ only in these share a back end, whose
layouts the search's process makes for the first of them and reads for the others."""


def back_end(job: SizingJob) -> Choice:
    """A job's choices but the front end's (`FRONT_END_CHOICES`): jobs equal in it share their
    Easy Tier layouts in a process, so a batch spread over processes keeps them in one task
    (`SizingRunner.run`)."""
    return tuple((name, value) for name, value in job.choice if name not in FRONT_END_CHOICES)


@dataclass(frozen=True)
class OpenSpace:
    """What the bounds alone leave open in a large space: its configurations (neither
    saturated at the planned load nor proven to break the service level) and their distinct
    back ends (`FRONT_END_CHOICES`)."""

    configurations: int
    back_ends: int


def open_to_solve(scenario: Scenario, catalog: Catalog) -> OpenSpace | None:
    """What the bounds alone leave open in `scenario`'s large space (`analyses.size` beyond
    `PER_CONFIGURATION_UP_TO`, bounds on): `space_screen`, the pass the search itself starts
    with (about 0.1-0.3 s for 10^5 configurations). `analyses.budget` prices a batched search
    by it. It is not a bound on what the search solves, only a count of the same size: the
    search skips an open configuration that a cheaper one solved beats, and solves one proven
    to break the service level that none beats (it may be on the Pareto front); measured on
    scenarios/sizing/ds8800-size-large-space.yaml, 21,870 open over 2,835 back ends, 9,968
    solved over 1,288 (2,509 of them open); on the 10,368-configuration subset of
    tests/analyses/test_sizing_batch.py, 7,100 open over 639 back ends, 2,112 solved. None
    where the search is per configuration or unbounded."""
    central = scenario.corner("central")
    size = central.analyses.size
    if (
        size is None
        or size.candidates <= PER_CONFIGURATION_UP_TO
        or not size.prune
        or why_not_bounded(central)
    ):
        return None
    space = OfferedSpace(central)
    screen = space_screen(space, sizing_context(central, catalog, None))
    open_ = ~(screen.saturated | screen.fails)
    back = [a for a, name in enumerate(space.names) if name not in FRONT_END_CHOICES]
    back_ends = np.unique(space.index[open_][:, back], axis=0) if back else space.index[open_][:1]
    return OpenSpace(int(open_.sum()), len(back_ends))
