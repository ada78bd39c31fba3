"""Report tables that describe the inputs: configuration, workloads and catalog assumptions.

Each function takes the configurations being compared, as `(name, Scenario)` pairs with the
baseline first, and returns a `view.Table` with one column per configuration, so that the
alternatives read side by side. Nothing here models anything: the numbers are the scenario's
own and the catalog's, formatted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from diskmodel.catalog import Catalog, Drive, Sourced
from diskmodel.report import display
from diskmodel.report.view import Cell, CellKind, Row, Table
from diskmodel.scenario import RankPlacement, Scenario, Workload, expand_ranks, pool_capacity_gb

Configurations = Sequence[tuple[str, Scenario]]
TIERS = ("ssd", "enterprise", "nearline")


def configuration_table(configs: Configurations, catalog: Catalog) -> Table:
    """The hardware of each configuration: model, processors, cache, ports, DA pairs, ranks,
    drives and usable capacity."""
    columns: list[list[str]] = [_configuration_column(s, catalog) for _, s in configs]
    headers = [
        "Storage system",
        "Processors",
        "Cache (NVS)",
        "Host ports",
        "DA pairs",
        "Ranks per DA pair",
        "Ranks per tier",
        "Ranks per server",
        "Drives",
        "RAID formats",
        "Extent pools",
        "Usable capacity",
    ]
    rows = tuple(
        Row(header, tuple(Cell(column[i]) for column in columns))
        for i, header in enumerate(headers)
    )
    return Table(
        key="configuration",
        caption="Configuration",
        columns=("", *(name for name, _ in configs)),
        rows=rows,
        note="Usable capacity counts data drives only (parity and spares excluded), in decimal "
        "GB as drive vendors count.",
    )


def _configuration_column(scenario: Scenario, catalog: Catalog) -> list[str]:
    cfg = scenario.system
    system = catalog.systems[cfg.model]
    option = system.processor_option(cfg.processor_ways)
    adapter = system.host_adapter(cfg.host_adapter)
    ranks = expand_ranks(scenario)
    nvs_gb = cfg.cache_gb * system.nvs_fraction
    per_pair = Counter(r.da_pair for r in ranks)
    per_tier = Counter[str](catalog.drives[r.drive].tier for r in ranks)
    per_server = Counter(r.server for r in ranks)
    drives = Counter[str]()
    raids = Counter[str]()
    for rank in ranks:
        drives[rank.drive] += catalog.raid_formats[rank.raid].drives
        raids[rank.raid] += 1
    usable = sum(pool_capacity_gb(p, catalog) for p in scenario.pools)
    return [
        f"{system.family} {system.machine_type}-{system.model} ({system.name})",
        f"{system.servers} servers × {cfg.processor_ways}-way, {display.number(option.clock_ghz)}"
        f" GHz",
        f"{display.number(cfg.cache_gb)} GB ({display.number(nvs_gb)} GB NVS)",
        f"{cfg.host_ports} × {display.number(adapter.port_gbps)} Gb/s ({adapter.name})",
        f"{cfg.da_pairs} ({system.device_adapter.name})",
        ", ".join(f"DA {pair}: {per_pair[pair]}" for pair in range(cfg.da_pairs)),
        ", ".join(f"{tier}: {per_tier[tier]}" for tier in TIERS if per_tier[tier]),
        ", ".join(f"server {s}: {per_server[s]}" for s in range(system.servers)),
        ", ".join(f"{n} × {_drive_text(catalog.drives[d])}" for d, n in sorted(drives.items())),
        ", ".join(f"{n} × {r}" for r, n in sorted(raids.items())),
        "; ".join(
            f"{p.name} (Easy Tier {p.easy_tier.mode}, "
            f"{display.capacity_gb(pool_capacity_gb(p, catalog))})"
            for p in scenario.pools
        ),
        display.capacity_gb(usable),
    ]


def _drive_text(drive: Drive) -> str:
    if drive.kind == "ssd":
        return f"{drive.name} ({display.number(drive.capacity_gb)} GB SSD)"
    return f"{drive.name} ({display.number(drive.capacity_gb)} GB {drive.rpm / 1000:g}K rpm)"


def workload_table(configs: Configurations) -> Table:
    """Each workload of the baseline, and of an alternative where it differs from the baseline.

    Columns are workloads (an alternative's changed workload gets its own column named
    "workload (alternative)"); rows are the workload's properties.
    """
    base_name, base = configs[0]
    columns: list[tuple[str, Workload]] = [(w.name, w) for w in base.workloads]
    baseline = {w.name: w for w in base.workloads}
    for alt_name, scenario in configs[1:]:
        for w in scenario.workloads:
            if baseline.get(w.name) != w:
                columns.append((f"{w.name} ({alt_name})", w))
    headers = [
        "Pool",
        "Planned load",
        "Reads",
        "Read hit ratio",
        "Destages per write",
        "Transfer size (read / write)",
        "Sequential (reads / writes)",
        "Capacity",
        "Skew",
        "Placement",
    ]
    cells = [_workload_column(w) for _, w in columns]
    rows = tuple(
        Row(header, tuple(Cell(column[i], _kind(i)) for column in cells))
        for i, header in enumerate(headers)
    )
    return Table(
        key="workloads",
        caption="Workloads",
        columns=("", *(name for name, _ in columns)),
        rows=rows,
        note=f"Workloads of {base_name}; an alternative's workload has its own column only where "
        "it differs. Destages per write: back-end destages per host write after write folding.",
    )


def _kind(row: int) -> CellKind:
    return "num" if row in {2, 3, 4, 7} else "text"


def _workload_column(w: Workload) -> list[str]:
    return [
        w.pool,
        _planned_load(w),
        display.percent(w.read_fraction),
        display.percent(w.read_hit_ratio),
        display.number(w.destage_ratio),
        f"{display.number(w.read_size_kib)} KiB / {display.number(w.write_size_kib)} KiB",
        f"{display.percent(w.read_sequential_fraction)} / "
        f"{display.percent(w.write_sequential_fraction)}",
        display.capacity_gb(w.capacity_gb),
        _skew_text(w),
        f"pinned to {w.pin_tier}" if w.pin_tier else "by the pool's Easy Tier setting",
    ]


def _planned_load(w: Workload) -> str:
    parts = []
    if w.iops is not None:
        parts.append(f"{display.rate(w.iops)} IOPS")
    if w.queue_depth is not None:
        parts.append(f"host queue depth {w.queue_depth}")
    if w.users is not None:
        parts.append(f"{w.users} users, think time {display.milliseconds(w.think_time_ms)} ms")
    return ", ".join(parts)


def _skew_text(w: Workload) -> str:
    if w.skew is None:
        return "none given (uniform)"
    if w.skew.level is not None:
        named = f"{w.skew.level} = " if isinstance(w.skew.level, str) else ""
        return f"level {named}{display.number(w.skew.level_value or 0.0)}"
    if w.skew.points is not None:
        return ", ".join(
            f"{display.percent(c)} of capacity → {display.percent(f)} of I/O"
            for c, f in w.skew.points
        )
    return f"heat map {w.skew.heatmap}"


# --------------------------------------------------------------------------- assumptions

_SYSTEM_FIGURES = ("nvs_fraction",)
_ADAPTER_FIGURES = ("port_bandwidth_mb_s", "per_io_overhead_us")
_DA_FIGURES = ("per_op_us", "bandwidth_mb_s")
_PROCESSOR_FIGURES = (
    "read_hit_us",
    "read_miss_us",
    "write_us",
    "sequential_read_us",
    "destage_us",
)
_HDD_FIGURES = (
    "avg_seek_read_ms",
    "avg_seek_write_ms",
    "rpm",
    "media_transfer_mb_s",
    "controller_overhead_ms",
    "command_queue_depth",
)
_SSD_FIGURES = ("ssd_read_service_ms", "ssd_write_service_ms")
_RAID_FIGURES = (
    "data_drives",
    "read_miss_ops",
    "random_write_reads",
    "random_write_writes",
    "sequential_write_ops_per_data_op",
)


def catalog_figures(configs: Configurations, catalog: Catalog) -> list[tuple[str, str, str]]:
    """(figure, value, source) of every catalog figure the configurations' performance rests on,
    each entry once, in the order system, host adapter, device adapter, processor, drives, RAID.
    """
    entries: list[tuple[str, Sourced, tuple[str, ...]]] = []
    for _, scenario in configs:
        system = catalog.systems[scenario.system.model]
        option = system.processor_option(scenario.system.processor_ways)
        entries.append((system.name, system, _SYSTEM_FIGURES))
        entries.append((f"{system.name} {option.ways}-way", option, ("clock_ghz",)))
        adapter = system.host_adapter(scenario.system.host_adapter)
        entries.append((f"{system.name} host adapter {adapter.name}", adapter, _ADAPTER_FIGURES))
        da = system.device_adapter
        entries.append((f"{system.name} device adapter pair {da.name}", da, _DA_FIGURES))
        entries.append((f"{system.name} processor", system.processor_costs, _PROCESSOR_FIGURES))
    used = _ranks_of(configs)
    for name in sorted({r.drive for r in used}):
        drive = catalog.drives[name]
        figures = _SSD_FIGURES if drive.kind == "ssd" else _HDD_FIGURES
        entries.append((f"drive {name}", drive, figures))
    for name in sorted({r.raid for r in used}):
        entries.append((f"RAID {name}", catalog.raid_formats[name], _RAID_FIGURES))
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for label, entry, keys in entries:
        if label in seen:
            continue
        seen.add(label)
        for key in keys:
            value = getattr(entry, key)
            provenance = entry.provenance.get(key)
            source = provenance.text() if provenance else "no source recorded"
            out.append((f"{label}: {key}", display.number(float(value)), source))
    return out


def _ranks_of(configs: Configurations) -> list[RankPlacement]:
    return [r for _, scenario in configs for r in expand_ranks(scenario)]


def assumptions_table(
    configs: Configurations, catalog: Catalog, model_assumptions: Sequence[tuple[str, str]]
) -> Table:
    """The model's assumptions (given by the model as (topic, text)) and then every catalog
    figure used, each with its source or the basis it was derived on."""
    rows = [
        Row(topic, (Cell(text, "text"), Cell("model", "source")))
        for topic, text in model_assumptions
    ]
    rows += [
        Row(figure, (Cell(value, "num"), Cell(source, "source")))
        for figure, value, source in catalog_figures(configs, catalog)
    ]
    return Table(
        key="assumptions",
        caption="Assumptions and catalog figures",
        columns=("", "value", "source or basis"),
        rows=tuple(rows),
        note="A figure marked 'basis' is derived or estimated rather than published; a "
        "prediction resting on it is as good as that estimate.",
    )


def ssd_rank_balance(scenario: Scenario, catalog: Catalog) -> tuple[int, int] | None:
    """SSD ranks owned by server 0 and server 1, or None when the system has no SSD ranks."""
    counts: defaultdict[int, int] = defaultdict(int)
    for rank in expand_ranks(scenario):
        if catalog.drives[rank.drive].kind == "ssd":
            counts[rank.server] += 1
    if not counts:
        return None
    return counts[0], counts[1]
