"""Report tables of the inputs as the model used them: configuration, workloads, service level,
and the appendix (assumptions, defaults applied, catalog figures with their sources).

Everything comes from `Prediction.inputs`: the hardware as configured, every default filled in,
the hit ratio the model used (with its basis), each catalog figure with its provenance. Nothing
here reads a scenario or the catalog, and nothing is computed but sums and counts for display.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from diskmodel.prediction import Inputs, Prediction, WorkloadInput
from diskmodel.report import display
from diskmodel.report.view import Cell, CellKind, Row, SourceNote, Table
from diskmodel.vocabulary import STATION_KINDS, TIERS

KIND_WORD = {kind.key: kind.plural for kind in STATION_KINDS}


def configuration_table(configs: Sequence[Prediction]) -> Table:
    """The hardware of each configuration, one column each."""
    columns = [_configuration_column(p.inputs) for p in configs]
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
        columns=("", *(p.name for p in configs)),
        rows=rows,
        note="Usable capacity counts data drives only (parity and spares excluded), in decimal "
        "GB as drive vendors count.",
    )


def _configuration_column(inputs: Inputs) -> list[str]:
    s = inputs.system
    per_pair: Counter[int] = Counter()
    per_server: Counter[int] = Counter()
    per_tier: Counter[str] = Counter()
    drives: Counter[str] = Counter()
    raids: Counter[str] = Counter()
    for g in inputs.ranks:
        for pair, n in g.ranks_per_da_pair:
            per_pair[pair] += n
        for server, n in g.ranks_per_server:
            per_server[server] += n
        per_tier[g.tier] += g.count
        drives[f"{g.drive} ({g.drive_label})"] += g.drives
        raids[g.raid] += g.count
    usable = sum(g.capacity_gb for g in inputs.ranks)
    return [
        f"{s.label} ({s.model})",
        f"{s.servers} servers × {s.processor_ways}-way {s.processor}, "
        f"{display.number(s.clock_ghz)} GHz",
        f"{display.number(s.cache_gb)} GB ({display.number(s.nvs_gb)} GB NVS)",
        f"{s.host_ports} × {display.number(s.port_gbps)} Gb/s ({s.host_adapter})",
        f"{s.da_pairs} ({s.device_adapter})",
        ", ".join(f"DA {pair}: {per_pair[pair]}" for pair in range(s.da_pairs)),
        ", ".join(f"{tier}: {per_tier[tier]}" for tier in _tiers(per_tier)),
        ", ".join(f"server {i}: {per_server[i]}" for i in range(s.servers)),
        ", ".join(f"{n} × {d}" for d, n in sorted(drives.items())),
        ", ".join(f"{n} × {r}" for r, n in sorted(raids.items())),
        "; ".join(
            f"{pool.name} (Easy Tier {pool.easy_tier}"
            + (
                f", tiers kept under {display.percent(pool.utilization_target, 0)} busy"
                if pool.placement_follows_load
                else ""
            )
            + (
                ", first generation: by I/O density only"
                if pool.easy_tier == "auto" and pool.easy_tier_generation == 1
                else ""
            )
            + (", placed by the host's read counts" if pool.host_tiering else "")
            + f", {display.capacity_gb(sum(pool.tier_capacity_gb))})"
            for pool in inputs.pools
        ),
        display.capacity_gb(usable),
    ]


def _tiers(counts: Counter[str]) -> list[str]:
    return [t for t in TIERS if counts[t]] + sorted(t for t in counts if t not in TIERS)


def workload_table(configs: Sequence[Prediction]) -> Table:
    """Each workload of the baseline, and of an alternative where it differs from the baseline.

    Columns are workloads (an alternative's changed workload gets its own column named
    "workload (alternative)"); rows are the workload's properties as the model used them.
    """
    base = configs[0]
    columns: list[tuple[str, WorkloadInput]] = [(w.name, w) for w in base.inputs.workloads]
    baseline = {w.name: w for w in base.inputs.workloads}
    for p in configs[1:]:
        for w in p.inputs.workloads:
            if baseline.get(w.name) != w:
                columns.append((f"{w.name} ({p.name})", w))
    headers = [
        "Pool",
        "Planned load",
        "Reads",
        "Read hit ratio used",
        "Destages per write",
        "Transfer size (read / write)",
        "Sequential (reads / writes)",
        "Capacity",
        "Skew",
        "Placement",
    ]
    cells = [_workload_column(w) for _, w in columns]
    numeric = {2, 4, 7}
    rows = tuple(
        Row(header, tuple(Cell(column[i], _kind(i in numeric)) for column in cells))
        for i, header in enumerate(headers)
    )
    return Table(
        key="workloads",
        caption="Workloads",
        columns=("", *(name for name, _ in columns)),
        rows=rows,
        note=f"Workloads of {base.name}, every default filled in; an alternative's workload "
        "has its own column only where it differs. Destages per write: back-end destages per "
        "host write after write folding.",
    )


def _kind(numeric: bool) -> CellKind:
    return "num" if numeric else "text"


def _workload_column(w: WorkloadInput) -> list[str]:
    return [
        w.pool,
        _planned_load(w),
        display.percent(w.read_fraction),
        f"{display.percent(w.read_hit_ratio)} ({w.read_hit_ratio_basis})",
        display.number(w.destage_ratio),
        f"{display.number(w.read_size_kib)} KiB / {display.number(w.write_size_kib)} KiB"
        + (
            f"; back-end ops {display.number(w.backend_kib)} KiB"
            if w.backend_kib is not None
            else ""
        ),
        f"{display.percent(w.read_sequential_fraction)} / "
        f"{display.percent(w.write_sequential_fraction)}",
        display.capacity_gb(w.capacity_gb),
        w.skew,
        f"pinned to {w.pin_tier}"
        if w.pin_tier
        else f"{w.pin} pinned, the rest by the pool's Easy Tier setting"
        if w.pin
        else "by the pool's Easy Tier setting",
    ]


def _planned_load(w: WorkloadInput) -> str:
    if w.load == "iops" or w.population is None:
        return f"{display.rate(w.iops or 0.0)} IOPS"
    if w.load == "application":
        return f"the application's {w.population:,} users ({w.population_basis})"
    if w.load == "users":
        return f"{w.population:,} users, think time {display.milliseconds(w.think_time_ms)} ms"
    if w.population_basis:
        return f"host queue depth {w.population:,} ({w.population_basis})"
    return f"host queue depth {w.population:,}"


def service_level_inputs_table(configs: Sequence[Prediction]) -> Table:
    """The limits each configuration is planned to: response-time targets, utilisation
    ceilings per component kind."""
    levels = [p.inputs.service_level for p in configs]
    kinds: list[str] = []
    for level in levels:
        kinds.extend(k for k in level.utilization if k not in kinds)
    rows = [
        Row(
            "Mean response time at most",
            tuple(Cell(f"{display.milliseconds(lv.response_time_ms)} ms", "num") for lv in levels),
        )
    ]
    if any(lv.read_response_time_ms is not None for lv in levels):
        rows.append(
            Row(
                "Read response time at most",
                tuple(
                    Cell(
                        f"{display.milliseconds(lv.read_response_time_ms)} ms"
                        if lv.read_response_time_ms is not None
                        else "–",
                        "num",
                    )
                    for lv in levels
                ),
            )
        )
    for kind in kinds:
        rows.append(
            Row(
                f"Utilisation of {KIND_WORD.get(kind, kind)} at most",
                tuple(
                    Cell(
                        display.percent(lv.utilization[kind], 0) if kind in lv.utilization else "–",
                        "num",
                    )
                    for lv in levels
                ),
            )
        )
    return Table(
        key="service-level-inputs",
        caption="Service level planned to",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
    )


# --------------------------------------------------------------------------- appendix


def assumptions_table(configs: Sequence[Prediction]) -> Table:
    """The model's assumptions and notes, each once, with the configurations they apply to."""
    seen: dict[str, list[str]] = {}
    for p in configs:
        for text in (*p.inputs.assumptions, *p.notes):
            seen.setdefault(text, []).append(p.name)
    everyone = len(configs)
    rows = tuple(
        Row(
            str(i),
            (Cell(text), Cell("all" if len(names) == everyone else ", ".join(names))),
        )
        for i, (text, names) in enumerate(seen.items(), 1)
    )
    return Table(
        key="assumptions",
        caption="Assumptions",
        columns=("", "assumption", "applies to"),
        rows=rows,
    )


def defaults_table(configs: Sequence[Prediction]) -> Table:
    """Every input a scenario left out: the value used and why, each once."""
    seen: dict[tuple[str, str, str], list[str]] = {}
    for p in configs:
        for d in p.inputs.defaults:
            seen.setdefault((d.key, d.value, d.basis), []).append(p.name)
    everyone = len(configs)
    rows = tuple(
        Row(
            key,
            (
                Cell(value, "num"),
                Cell(basis, "source"),
                Cell("all" if len(names) == everyone else ", ".join(names)),
            ),
        )
        for (key, value, basis), names in seen.items()
    )
    return Table(
        key="defaults",
        caption="Defaults applied",
        columns=("input", "value used", "why", "applies to"),
        rows=rows,
        note="Inputs the scenario did not give; set them in the scenario to change them.",
    )


def catalog_figures(configs: Sequence[Prediction]) -> tuple[Table, tuple[SourceNote, ...]]:
    """Every catalog figure the configurations rest on, each (entry, key) once, with a numbered
    reference to its source or basis; the distinct source texts are listed once below it."""
    numbers: dict[str, int] = {}
    rows: list[Row] = []
    seen: set[tuple[str, str]] = set()
    for p in configs:
        for f in p.inputs.figures:
            if (f.entry, f.key) in seen:
                continue
            seen.add((f.entry, f.key))
            number = numbers.setdefault(f.provenance, len(numbers) + 1)
            rows.append(
                Row(
                    f"{f.entry} · {f.key}",
                    (Cell(display.number(f.value), "num"), Cell(f"[{number}]", "source")),
                )
            )
    table = Table(
        key="catalog-figures",
        caption="Catalog figures used",
        columns=("figure", "value", "source"),
        rows=tuple(rows),
        note="A figure whose note says 'basis' is derived or bounded rather than published; a "
        "prediction resting on it is as good as that estimate.",
    )
    return table, tuple(SourceNote(n, text) for text, n in numbers.items())
