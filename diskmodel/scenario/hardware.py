"""Checks that span the scenario and the catalog: what the hardware offers and holds.

Each problem is one line starting with the key path it is about (`pools[0].ranks[1].raid: ...`),
so that the loader can add the file and line. The pydantic models check each value; these
check the values together: drives and RAID formats the system offers, ranks per DA pair,
processor and cache options, names that must be unique, data that must fit its pool and the
tier it is pinned to, closed populations that must stay within what is solved exactly, and
the z/OS workloads' volumes, LCUs and FICON ports (`zos_rules`).
"""

from __future__ import annotations

import difflib
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from diskmodel.catalog import Catalog, StorageSystem
from diskmodel.components.host import customers
from diskmodel.scenario.limits import MAX_POPULATION
from diskmodel.scenario.ranks import pool_capacity_gb, ranks_per_da_pair
from diskmodel.scenario.values import clip, either, listed
from diskmodel.scenario.zos_rules import zos_problems

if TYPE_CHECKING:
    from diskmodel.scenario.schema import Scenario
    from diskmodel.scenario.storage import Pool, SystemConfig
    from diskmodel.scenario.workloads import Workload


def hardware_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Every way `scenario` asks for what the hardware does not offer, one message each,
    starting with the key path it is about."""
    yield from system_problems(scenario.system, catalog)
    yield from pool_problems(scenario, catalog)
    yield from workload_problems(scenario, catalog)
    yield from pinned_problems(scenario, catalog)
    yield from zos_problems(scenario, catalog)
    yield from analyses_problems(scenario)
    yield from sizing_problems(scenario, catalog)


def system_problems(cfg: SystemConfig, catalog: Catalog) -> Iterable[str]:
    """The system section's options the catalog's system does not offer: processor, cache,
    host adapter, host ports, DA pairs."""
    system = catalog.systems[cfg.model]
    options = {o.ways: o for o in system.processor_options}
    if cfg.processor_ways not in options:
        yield (
            f"system.processor_ways: {system.name} is offered {either(sorted(options))}-way, "
            f"not {cfg.processor_ways}-way"
        )
    else:
        offered = options[cfg.processor_ways].cache_gb_options
        if not any(math.isclose(cfg.cache_gb, c) for c in offered):
            yield (
                f"system.cache_gb: {cfg.cache_gb:g} GB is not offered on a "
                f"{cfg.processor_ways}-way {system.name} (allowed: {listed(offered)})"
            )
    adapters = {h.name: h for h in system.host_adapters}
    adapter_name = cfg.host_adapter or system.default_host_adapter
    if adapter_name not in adapters:
        close = difflib.get_close_matches(adapter_name, list(adapters), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        yield (
            f"system.host_adapter: '{adapter_name}' is not offered on {system.name}{hint} "
            f"(allowed: {listed(adapters)})"
        )
    if cfg.host_ports > system.max_host_ports:
        yield (
            f"system.host_ports: {cfg.host_ports} is more than the {system.max_host_ports} "
            f"host ports a {system.name} takes"
        )
    if cfg.da_pairs > system.max_da_pairs:
        yield (
            f"system.da_pairs: {cfg.da_pairs} is more than the {system.max_da_pairs} "
            f"DA pairs a {system.name} takes"
        )


def analyses_problems(scenario: Scenario) -> Iterable[str]:
    """Compared alternatives not named as the scenario is, a tier sweep of a pool that
    exists."""
    for i, alt in enumerate(scenario.analyses.compare):
        if alt.name == scenario.name:
            yield (
                f"analyses.compare[{i}].name: '{clip(alt.name)}' is the scenario's own name, "
                "which the baseline is shown under; give the alternative another"
            )
    sweep = scenario.analyses.tier_sweep
    pools = [p.name for p in scenario.pools]
    if sweep is not None and sweep.pool not in pools:
        close = difflib.get_close_matches(sweep.pool, pools, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        yield (
            f"analyses.tier_sweep.pool: no pool named '{sweep.pool}'{hint} (pools: {listed(pools)})"
        )


def sizing_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """The sizing search's pools exist, its drives are offered, and each rank kind is chosen
    once; DA pair and port counts within what the system takes. Where the search offers
    several models, within what one of them takes: a configuration another cannot take is
    tried and reported as not possible."""
    size = scenario.analyses.size
    if size is None:
        return
    models = sorted({scenario.system.model, *size.model})
    systems = [catalog.systems[name] for name in models]
    named = " or ".join(s.name for s in systems)
    offered = sorted({drive for s in systems for drive in s.drives})
    pools = [p.name for p in scenario.pools]
    seen: set[tuple[str, str, str]] = set()
    for i, group in enumerate(size.ranks):
        where = f"analyses.size.ranks[{i}]"
        if group.pool not in pools:
            yield f"{where}.pool: no pool named '{group.pool}' (pools: {listed(pools)})"
        if group.drive not in offered:
            yield (
                f"{where}.drive: {group.drive} is not offered on {named} "
                f"(offered: {listed(offered)})"
            )
        key = (group.pool, group.drive, group.raid)
        if key in seen:
            yield f"{where}: {group.drive} {group.raid} in pool '{group.pool}' is chosen twice"
        seen.add(key)
    max_da_pairs = max(s.max_da_pairs for s in systems)
    max_host_ports = max(s.max_host_ports for s in systems)
    for count in size.da_pairs:
        if count > max_da_pairs:
            yield (
                f"analyses.size.da_pairs: {count} is more than the {max_da_pairs} DA pairs "
                f"a {named} takes"
            )
    for count in size.host_ports:
        if count > max_host_ports:
            yield (
                f"analyses.size.host_ports: {count} is more than the {max_host_ports} "
                f"host ports a {named} takes"
            )
    if size.prices is not None:
        for ways in size.prices.processor_ways:
            if ways not in ("2", "4"):
                yield (
                    f"analyses.size.prices.processor_ways: '{clip(ways)}' is not a processor "
                    "option (2 or 4)"
                )
        for name in size.prices.drives:
            if name not in catalog.drives:
                yield f"analyses.size.prices.drives: no drive named '{clip(name)}' in the catalog"
        for name in size.prices.model:
            if name not in catalog.systems:
                yield (
                    f"analyses.size.prices.model: no storage system named '{clip(name)}' in the "
                    f"catalog (systems: {listed(sorted(catalog.systems))})"
                )


def pool_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Names unique, drives and RAID formats offered, ranks within what the DA pairs take."""
    system = catalog.systems[scenario.system.model]
    yield from pool_name_problems(scenario.pools)
    for p, pool in enumerate(scenario.pools):
        yield from rank_group_problems(p, pool, system, scenario.system.da_pairs, catalog)
    yield from rank_count_problems(scenario, system)


def pool_name_problems(pools: Sequence[Pool]) -> Iterable[str]:
    """Pool names used more than once."""
    for name, n in _repeated(p.name for p in pools):
        yield f"pools: the name '{name}' is used by {n} pools; pool names must be unique"


def rank_group_problems(
    p: int, pool: Pool, system: StorageSystem, da_pairs: int, catalog: Catalog
) -> Iterable[str]:
    """What `system` (with `da_pairs` DA pairs) does not offer of the pool `pools[p]`: Easy
    Tier's first generation over three tiers, no rank group holding the data, drives and RAID
    formats not offered or not filling an array site, RAID-6 on SSD, a named DA pair that
    does not exist (`da_pairs` is read only there)."""
    # The tiers matter to Easy Tier's first generation alone (it manages two).
    if pool.easy_tier.mode == "auto" and pool.easy_tier.generation_on(system) == 1:
        tiers = {catalog.drives[g.drive].tier for g in pool.ranks if g.drive in catalog.drives}
        if len(tiers) > 2:
            yield (
                f"pools[{p}].easy_tier.generation: Easy Tier's first generation manages two "
                f"tiers and pool '{pool.name}' has three ({listed(tiers)}); use generation 2 "
                "or split the pool"
                + (
                    ""
                    if pool.easy_tier.generation
                    else f" (the {system.name} shipped with the first)"
                )
            )
    if all(group.added for group in pool.ranks):
        yield (
            f"pools[{p}].ranks: every rank group is marked 'added'; at least one must hold "
            "the pool's data before the others are added"
        )
    for g, group in enumerate(pool.ranks):
        where = f"pools[{p}].ranks[{g}]"
        drive = catalog.drives[group.drive]
        raid = catalog.raid_formats[group.raid]
        if group.drive not in system.drives:
            yield (
                f"{where}.drive: {group.drive} is not offered on {system.name} "
                f"(offered: {listed(system.drives)})"
            )
        if group.raid not in system.raid_formats:
            yield (
                f"{where}.raid: {group.raid} is not offered on {system.name} "
                f"(offered: {listed(system.raid_formats)})"
            )
        if raid.drives != raid.array_site_drives:
            yield (
                f"{where}.raid: {group.raid} uses {raid.drives} drives but an array site "
                f"holds {raid.array_site_drives}"
            )
        if drive.kind == "ssd" and raid.level == 6:
            yield f"{where}.raid: RAID-6 is not offered for SSD ranks (use RAID-5 or RAID-10)"
        if group.da_pair is not None and group.da_pair >= da_pairs:
            yield (
                f"{where}.da_pair: {group.da_pair} does not exist; the system has "
                f"{da_pairs} DA pairs, numbered 0 to {da_pairs - 1}"
            )


def rank_count_problems(scenario: Scenario, system: StorageSystem) -> Iterable[str]:
    """More ranks than `system` (the scenario's, from the catalog) holds, or than one of its
    DA pairs serves."""
    total = sum(g.count for pool in scenario.pools for g in pool.ranks)
    most = system.max_da_pairs * system.max_ranks_per_da_pair
    if total > most:
        yield f"pools: {total:,} ranks in all; a {system.name} holds at most {most}"
        return
    if _dealt_within(scenario, total, system.max_ranks_per_da_pair):
        return
    pairs = scenario.system.da_pairs
    if scenario.system.rank_placement == "balanced" and any(
        g.da_pair is not None and g.da_pair >= pairs for pool in scenario.pools for g in pool.ranks
    ):
        return  # a DA pair the system lacks (`rank_group_problems`): no ranks to deal onto it
    per_pair = ranks_per_da_pair(scenario)  # counted, not placed (a search checks thousands)
    for index, count in sorted(per_pair.items()):
        if count > system.max_ranks_per_da_pair:
            yield (
                f"pools: DA pair {index} would serve {count} ranks; a {system.name} DA pair "
                f"serves at most {system.max_ranks_per_da_pair}"
            )


def _dealt_within(scenario: Scenario, total: int, most: int) -> bool:
    """Whether `total` ranks dealt round-robin (`scenario.ranks.expand_ranks`), none on a
    named DA pair, leave each DA pair at most `most`: one deal over all the groups, each
    pair gets total // pairs or one more, so none gets more than their ceiling (known without
    counting pair by pair; a sizing search checks each configuration)."""
    cfg = scenario.system
    if cfg.rank_placement != "round_robin":
        return False
    if any(g.da_pair is not None for pool in scenario.pools for g in pool.ranks):
        return False
    return -(-total // cfg.da_pairs) <= most


def _repeated(names: Iterable[str]) -> list[tuple[str, int]]:
    """Each name given more than once, with how often, in the order first given (a set first:
    names are nearly always unique, and the count is only needed where they are not)."""
    given = list(names)
    if len(set(given)) == len(given):
        return []
    return [(name, n) for name, n in Counter(given).items() if n > 1]


def closed_population(scenario: Scenario) -> int:
    """Customers of the closed solution: queue depths, users, and the application's users as
    the concurrent streams they keep in flight (`components.host.customers`)."""
    population = sum((w.queue_depth or 0) + (w.users or 0) for w in scenario.workloads)
    app = scenario.application
    if app is not None:
        population += customers(app.users, app.parallel_ios)
    return population


def application_problems(scenario: Scenario) -> Iterable[str]:
    """An application drives the workloads that give ios_per_transaction, and only those are
    closed: one closed class, the application's."""
    app = scenario.application
    driven = [(i, w) for i, w in enumerate(scenario.workloads) if w.ios_per_transaction is not None]
    if app is None:
        for i, w in driven:
            yield (
                f"workloads[{i}].ios_per_transaction: the scenario has no 'application' section "
                f"to drive workload '{w.name}' (give application: {{users, think_time_ms, "
                "cpu_ms_per_transaction, cpus}, or give this workload 'iops')"
            )
        return
    if not driven:
        yield (
            "application: no workload gives ios_per_transaction, so the application issues no "
            "I/O; give each workload it drives its host I/Os per transaction"
        )
    for i, w in enumerate(scenario.workloads):
        if w.queue_depth is not None or w.users is not None:
            yield (
                f"workloads[{i}]: workload '{w.name}' is closed (queue_depth, luns or users) "
                "beside the application; with an application the closed load is the "
                "application's: give this workload 'iops' or 'ios_per_transaction'"
            )


def workload_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Names unique, pools that exist, closed populations within bounds, data that fits."""
    pools = {p.name: p for p in scenario.pools}
    located = scenario.located_workloads()
    for name, n in _repeated(w.name for _, w in located):
        yield (
            f"workloads: the name '{name}' is used by {n} workloads and logs; names must be unique"
        )
    demand: dict[str, float] = dict.fromkeys(pools, 0.0)
    for where, workload in located:
        if workload.pool not in pools:
            close = difflib.get_close_matches(workload.pool, list(pools), n=1)
            hint = f"; did you mean '{close[0]}'?" if close else ""
            yield f"{where}.pool: no pool named '{workload.pool}'{hint} (pools: {listed(pools)})"
            continue
        demand[workload.pool] += workload.capacity_gb
        tiers = {catalog.drives[g.drive].tier for g in pools[workload.pool].ranks}
        if workload.pin_tier is not None and workload.pin_tier not in tiers:
            yield (
                f"{where}.pin_tier: pool '{workload.pool}' has no {workload.pin_tier} ranks "
                f"(its tiers: {listed(tiers)})"
            )
    yield from application_problems(scenario)
    population = closed_population(scenario)
    if population > MAX_POPULATION:
        yield (
            f"workloads: the closed workloads hold {population:,} I/Os or users in all "
            f"(queue_depth + users + the application's users x the I/O streams each keeps "
            f"in flight); diskmodel solves at most {MAX_POPULATION:,}"
        )
    growth = scenario.analyses.growth
    closed = [(w.queue_depth or 0) + (w.users or 0) for w in scenario.workloads]
    if scenario.application is not None:
        closed.append(population)
    if growth is not None and population and population <= MAX_POPULATION:
        # Growth multiplies closed populations (analyses._closed_growth rounds each, at least
        # 1): queue_depth 64 x factor 1000 asked for 64,000 and 30 GB (found by fuzzing).
        factor = max(growth.multipliers)
        grown = sum(max(1, round(n * factor)) for n in closed if n)
        if grown > MAX_POPULATION:
            yield (
                f"{'analyses.growth' if growth.rate is not None else 'analyses.growth.factors'}: "
                f"{factor:g} x the closed population {population:,} "
                f"is {grown:,}; diskmodel solves at most {MAX_POPULATION:,}"
            )
    for pool_name, needed in demand.items():
        usable = pool_capacity_gb(pools[pool_name], catalog)
        if needed > usable * (1 + 1e-9):
            yield (
                f"workloads: the workloads in pool '{pool_name}' need {needed:,.0f} GB but its "
                f"ranks hold {usable:,.0f} GB usable"
            )


def tier_capacity_gb(pool: Pool, catalog: Catalog) -> dict[str, float]:
    """Usable GB of each tier in `pool` (the same sum as `pool_capacity_gb`, split by tier)."""
    out: dict[str, float] = defaultdict(float)
    for g in pool.ranks:
        drive = catalog.drives[g.drive]
        out[drive.tier] += g.count * catalog.raid_formats[g.raid].data_drives * drive.capacity_gb
    return dict(out)


def pinned_problems(scenario: Scenario, catalog: Catalog) -> Iterable[str]:
    """Workloads pinned to a tier must fit in it, all of them together.

    The placement gives pinned workloads their tier first, then spreads the others over what
    is left; the pool's total is checked in `workload_problems`, so pinned data that fits its
    tier leaves room for the rest. Found in hostile testing: a workload pinned to an SSD tier
    smaller than its data passed `check` and ended `run` in a traceback.
    """
    pools = {p.name: p for p in scenario.pools}
    pinned: dict[tuple[str, str], list[tuple[str, Workload]]] = defaultdict(list)
    for where, workload in scenario.located_workloads():
        if workload.pool not in pools:
            continue
        if workload.pin_tier is not None:
            pinned[(workload.pool, workload.pin_tier)].append((where, workload))
        if workload.pin is not None:
            pinned[(workload.pool, workload.pin.tier)].append((where, workload))
            tiers = tier_capacity_gb(pools[workload.pool], catalog)
            if workload.pin.tier not in tiers:
                yield (
                    f"{where}.pin.tier: pool '{workload.pool}' has no {workload.pin.tier} "
                    f"ranks (its tiers: {listed(tiers)})"
                )
    for (pool_name, tier), members in pinned.items():
        held = tier_capacity_gb(pools[pool_name], catalog).get(tier)
        if held is None:
            continue  # no such tier in the pool: reported by workload_problems
        needed = sum(w.pin.capacity_gb if w.pin else w.capacity_gb for _, w in members)
        if needed > held * (1 + 1e-9) and not math.isclose(needed, held, rel_tol=1e-9):
            names = ", ".join(f"'{clip(w.name, 30)}'" for _, w in members)
            who = f"the workload {names} needs" if len(members) == 1 else f"{names} together need"
            key = "pin.capacity_gb" if members[-1][1].pin is not None else "pin_tier"
            yield (
                f"{members[-1][0]}.{key}: pinned to {tier} in pool '{pool_name}', "
                f"{who} {needed:,.0f} GB but its {tier} ranks hold {held:,.0f} GB usable"
            )
