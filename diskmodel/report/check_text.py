"""`diskmodel check`: a validated scenario summarised as a planner would read it.

CLI text for another input than a prediction: it reads the validated scenario and the catalog
(the report modules that render a prediction read only the prediction;
tests/report/test_report_imports.py keeps the two apart). Tables are drawn by
`diskmodel.report.table`: the terminal's width, plain text when not a terminal.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Sequence

from diskmodel.catalog import Catalog, load_catalog
from diskmodel.prediction import DefaultUsed
from diskmodel.report.spread import counts_text, uneven_text
from diskmodel.report.table import Output, TextTable, table, to_text
from diskmodel.scenario import RankPlacement, Scenario, expand_ranks
from diskmodel.vocabulary import TIERS


def render_check(
    scenario: Scenario,
    catalog: Catalog | None = None,
    output: Output | None = None,
    defaults: Sequence[DefaultUsed] = (),
) -> str:
    """Configuration summary: capacity per tier, ranks per DA pair, drives per server, the
    workloads, the inputs given as ranges and the defaults applied."""
    catalog = catalog or load_catalog()
    ranks = expand_ranks(scenario)
    parts: list[str | TextTable] = [
        _hardware(scenario, catalog, ranks),
        _capacity_per_tier(ranks, catalog),
        _extent_pools(scenario, ranks, catalog),
        _ranks_per_da_pair(scenario, ranks, catalog),
        _drives_per_server(ranks, catalog),
        *_ssd_spread(scenario, ranks, catalog),
        _workloads(scenario),
    ]
    if scenario.system.ficon is not None:
        parts.extend(_zos(scenario))
    if defaults:
        parts.append(_defaults_applied(defaults))
    if scenario.ranges:
        parts.append(_ranges_sentence(scenario))
    return to_text(parts, output)


def _zos(scenario: Scenario) -> tuple[str, TextTable]:
    """The z/OS attachment: the channels, and per LCU its PAV mode, aliases and the base
    volumes the workloads put in it."""
    ficon = scenario.system.ficon
    assert ficon is not None
    volumes = {lcu.name: 0 for lcu in scenario.system.lcus}
    users: dict[str, list[str]] = {lcu.name: [] for lcu in scenario.system.lcus}
    for w in scenario.workloads:
        if w.zos is None:
            continue
        each, extra = divmod(w.zos.volumes, len(w.zos.lcus))
        for i, name in enumerate(w.zos.lcus):
            if name in volumes:
                volumes[name] += each + (1 if i < extra else 0)
                users[name].append(w.name)
    mode = "zHPF" if ficon.zhpf else "command mode"
    ports = ficon.host_ports or scenario.system.host_ports
    rows = [
        [lcu.name, lcu.pav, str(lcu.aliases), str(volumes[lcu.name]), ", ".join(users[lcu.name])]
        for lcu in scenario.system.lcus
    ]
    # The channels in a line of their own: as the table's title they would wrap at its width.
    return (
        f"z/OS: {ficon.channels} {ficon.channel} channels ({mode}) to {ports} FICON ports",
        table(["LCU", "PAV", "aliases", "base volumes", "workloads"], rows, title="z/OS LCUs"),
    )


def _hardware(scenario: Scenario, catalog: Catalog, ranks: Sequence[RankPlacement]) -> str:
    """The verdict and the hardware in one line: the system, its processors, cache, host
    ports, DA pairs and ranks."""
    cfg = scenario.system
    system = catalog.systems[cfg.model]
    adapter = cfg.host_adapter or system.default_host_adapter
    return (
        f"{scenario.name}: valid\n"
        f"{system.family} {system.machine_type}-{system.model} ({cfg.model}), "
        f"{cfg.processor_ways}-way, {cfg.cache_gb:g} GB cache, {cfg.host_ports} host ports "
        f"({adapter}), {cfg.da_pairs} DA pairs, {len(ranks)} ranks"
    )


def _capacity_per_tier(ranks: Sequence[RankPlacement], catalog: Catalog) -> TextTable:
    """Ranks, drives and usable capacity of each tier installed."""
    usable: dict[str, float] = defaultdict(float)
    rank_count: dict[str, int] = defaultdict(int)
    drive_count: dict[str, int] = defaultdict(int)
    for rank in ranks:
        drive, raid = catalog.drives[rank.drive], catalog.raid_formats[rank.raid]
        usable[drive.tier] += raid.data_drives * drive.capacity_gb
        rank_count[drive.tier] += 1
        drive_count[drive.tier] += raid.drives
    return table(
        ["tier", "ranks", "drives", "usable GB"],
        [[t, rank_count[t], drive_count[t], f"{usable[t]:,.0f}"] for t in TIERS if rank_count[t]],
        title="Capacity per tier",
    )


def _extent_pools(
    scenario: Scenario, ranks: Sequence[RankPlacement], catalog: Catalog
) -> TextTable:
    """Each extent pool: its Easy Tier mode, ranks, tiers, usable capacity and the capacity
    its workloads ask for ("-" where no workload uses it)."""
    pool_of = {w.pool for w in scenario.workloads}
    demand: dict[str, float] = defaultdict(float)
    for w in scenario.workloads:
        demand[w.pool] += w.capacity_gb
    pool_rows = []
    for pool in scenario.pools:
        members = [r for r in ranks if r.pool == pool.name]
        capacity = sum(
            catalog.raid_formats[r.raid].data_drives * catalog.drives[r.drive].capacity_gb
            for r in members
        )
        tiers = sorted({catalog.drives[r.drive].tier for r in members}, key=TIERS.index)
        pool_rows.append(
            [
                pool.name,
                pool.easy_tier.mode,
                len(members),
                "+".join(tiers),
                f"{capacity:,.0f}",
                f"{demand[pool.name]:,.0f}" if pool.name in pool_of else "-",
            ]
        )
    return table(
        ["pool", "easy tier", "ranks", "tiers", "usable GB", "workload GB"],
        pool_rows,
        title="Extent pools",
    )


def _ranks_per_da_pair(
    scenario: Scenario, ranks: Sequence[RankPlacement], catalog: Catalog
) -> TextTable:
    """Ranks, and SSD ranks among them, on each DA pair."""
    per_pair = [
        [
            pair,
            sum(1 for r in ranks if r.da_pair == pair),
            sum(1 for r in ranks if r.da_pair == pair and catalog.drives[r.drive].kind == "ssd"),
        ]
        for pair in range(scenario.system.da_pairs)
    ]
    return table(["DA pair", "ranks", "SSD ranks"], per_pair, title="Ranks per DA pair")


def _drives_per_server(ranks: Sequence[RankPlacement], catalog: Catalog) -> TextTable:
    """Ranks, drives and SSD ranks owned by each of the two servers."""
    per_server = []
    for server in (0, 1):
        mine = [r for r in ranks if r.server == server]
        per_server.append(
            [
                server,
                len(mine),
                sum(catalog.raid_formats[r.raid].drives for r in mine),
                sum(1 for r in mine if catalog.drives[r.drive].kind == "ssd"),
            ]
        )
    return table(["server", "ranks", "drives", "SSD ranks"], per_server, title="Drives per server")


def _workloads(scenario: Scenario) -> TextTable:
    """Each workload's pool, rate, population, mix, hit ratio and capacity (a range where
    given as one)."""
    workload_rows = [
        [
            w.name,
            w.pool,
            _rate(w.iops) if w.iops is not None else "-",
            w.queue_depth if w.queue_depth is not None else (w.users or "-"),
            _percent(w.read_fraction),
            _percent(w.read_hit_ratio),
            f"{w.capacity_gb:,.0f}",
        ]
        for w in scenario.workloads
    ]
    return table(
        ["workload", "pool", "iops", "queue/users", "reads", "read hits", "GB"],
        workload_rows,
        title="Workloads",
    )


def _defaults_applied(defaults: Sequence[DefaultUsed]) -> TextTable:
    """The inputs left out, the value used for each and why."""
    listed = table(
        ["input left out", "value used", "why"],
        [[d.key, d.value, d.basis] for d in defaults],
        title="Defaults applied",
    )
    return dataclasses.replace(listed, unwrapped=(0,), narrow=(1,))


def _ranges_sentence(scenario: Scenario) -> str:
    """The inputs given as ranges, and how the report turns them into its band."""
    given = "; ".join(f"{key} {lo:g} to {hi:g}" for key, lo, hi in scenario.ranges)
    how = (
        "the report adds the band: the read and sequential fractions sampled (they move "
        "the answer either way), each sample with the other ranges at their pessimistic "
        "and at their optimistic end (the JSON's band.method says how many)."
        if scenario.sampled_ranges
        else "the report adds the band from every range at its pessimistic end to every "
        "range at its optimistic end."
    )
    return (
        f"Inputs given as ranges: {given}. The prediction is at the middle of every range; " + how
    )


def _ssd_spread(scenario: Scenario, ranks: Sequence[RankPlacement], catalog: Catalog) -> list[str]:
    """Each pool's SSD ranks over the DA pairs and the servers, judged as the report judges
    them (`report.spread.uneven_text`)."""
    lines = []
    for pool in scenario.pools:
        ssd = [r for r in ranks if r.pool == pool.name and catalog.drives[r.drive].kind == "ssd"]
        if not ssd:
            continue
        per_pair = [sum(1 for r in ssd if r.da_pair == i) for i in range(scenario.system.da_pairs)]
        per_server = [sum(1 for r in ssd if r.server == i) for i in (0, 1)]
        uneven = uneven_text(per_pair, per_server)
        placement = scenario.system.rank_placement.replace("_", "-")
        lines.append(
            f"SSD ranks of pool {pool.name}: {len(ssd)}, "
            + (
                f"NOT spread evenly ({uneven}): the DA pair and server holding more carry "
                "more of the hot I/O"
                if uneven
                else f"spread evenly (DA pairs {counts_text(per_pair)}, servers "
                f"{counts_text(per_server)})"
            )
            + f"; placement {placement}"
        )
    return lines


def _rate(value: float | tuple[float, float]) -> str:
    """An I/O rate, or a range of them."""
    if isinstance(value, tuple):
        return f"{value[0]:,.0f}-{value[1]:,.0f}"
    return f"{value:,.0f}"


def _percent(value: float | tuple[float, float]) -> str:
    """A fraction as a percentage, or a range of them."""
    if isinstance(value, tuple):
        return f"{value[0]:.0%}-{value[1]:.0%}"
    return f"{value:.0%}"
