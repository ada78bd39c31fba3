"""Report tables of the predicted results: one column per configuration, side by side.

Reads `Prediction`s only and formats with `diskmodel.report.display`; a utilisation cell
carries a warning level (above 70%) or a critical one (above 90%) for the template to colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import Prediction, ScenarioPrediction
from diskmodel.report import display
from diskmodel.report.charts import CRITICAL_UTILIZATION, WARN_UTILIZATION
from diskmodel.report.view import Cell, Row, Table
from diskmodel.scenario import Scenario


def _ms(value: float | None) -> Cell:
    return Cell(display.milliseconds(value) if value is not None else display.SATURATED_TEXT, "num")


def _utilization(value: float | None) -> Cell:
    if value is None:
        return Cell("–", "num")
    if value >= CRITICAL_UTILIZATION:
        return Cell(display.percent(value), "num", "critical")
    if value >= WARN_UTILIZATION:
        return Cell(display.percent(value), "num", "warning")
    return Cell(display.percent(value), "num")


def results_table(configs: Sequence[Prediction]) -> Table:
    """The headline results of each configuration at its planned load."""
    rows = [
        Row(
            "Planned load (IOPS)", tuple(Cell(display.rate(p.planned_iops), "num") for p in configs)
        ),
        Row("Response time (ms)", tuple(_ms(p.response_time_ms) for p in configs)),
        Row("Saturation (IOPS)", tuple(Cell(display.rate_3sf(p.max_iops), "num") for p in configs)),
        Row("Headroom above the planned load", tuple(_headroom(p) for p in configs)),
        Row("Bottleneck", tuple(Cell(p.bottleneck) for p in configs)),
        Row(
            "NVS full at the planned load",
            tuple(
                Cell("yes" if p.nvs_full else "no", level="critical" if p.nvs_full else "")
                for p in configs
            ),
        ),
        Row(
            "Bottleneck carries destages",
            tuple(Cell("yes" if p.destage_limited else "no") for p in configs),
        ),
    ]
    if any(p.closed is not None for p in configs):
        rows.append(
            Row(
                "Closed system: population",
                tuple(
                    Cell(f"{p.closed.population:,}" if p.closed else "–", "num") for p in configs
                ),
            )
        )
        rows.append(
            Row(
                "Closed system: throughput (IOPS)",
                tuple(
                    Cell(display.rate(p.closed.iops) if p.closed else "–", "num") for p in configs
                ),
            )
        )
    names = _workload_names(configs)
    for name in names:
        for label, attribute in (
            ("response time (ms)", "response_time_ms"),
            ("read response (ms)", "read_response_time_ms"),
            ("write response (ms)", "write_response_time_ms"),
        ):
            cells = []
            for p in configs:
                w = next((w for w in p.workloads if w.name == name), None)
                cells.append(_ms(getattr(w, attribute)) if w is not None else Cell("–", "num"))
            rows.append(Row(f"{name}: {label}", tuple(cells)))
        cells = []
        for p in configs:
            w = next((w for w in p.workloads if w.name == name), None)
            cells.append(Cell(display.rate(w.iops), "num") if w else Cell("–", "num"))
        rows.append(Row(f"{name}: I/O rate (IOPS)", tuple(cells)))
    return Table(
        key="results",
        caption="Results at the planned load",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="Response times are averages over the I/O named, from the host adapter to the "
        "drives and back. Saturation is the total I/O rate at which the first component "
        "reaches 100% busy, with the same mix of workloads.",
    )


def _headroom(p: Prediction) -> Cell:
    if p.saturated or p.planned_iops <= 0:
        return Cell("none", "num", "critical")
    return Cell(display.percent(max(0.0, p.max_iops / p.planned_iops - 1.0), 0), "num")


def _workload_names(configs: Sequence[Prediction]) -> list[str]:
    names: list[str] = []
    for p in configs:
        names.extend(w.name for w in p.workloads if w.name not in names)
    return names


def components_table(configs: Sequence[Prediction]) -> Table:
    """Every component: utilisation, service, wait and response time per visit."""
    names: list[tuple[str, str]] = []
    for p in configs:
        for c in p.components:
            if (c.name, c.kind) not in names:
                names.append((c.name, c.kind))
    several = len(configs) > 1
    columns = ["component"]
    for p in configs:
        prefix = f"{p.name}: " if several else ""
        columns += [f"{prefix}utilisation", f"{prefix}service (ms)", f"{prefix}response (ms)"]
    rows = []
    for name, kind in names:
        cells: list[Cell] = []
        for p in configs:
            found = next((c for c in p.components if c.name == name and c.kind == kind), None)
            if found is None:
                cells += [Cell("–", "num")] * 3
                continue
            cells += [
                _utilization(found.utilization),
                Cell(display.milliseconds(found.service_time_ms), "num"),
                _ms(found.response_time_ms if not found.saturated else None),
            ]
        rows.append(Row(name, tuple(cells)))
    return Table(
        key="components",
        caption="Components at the planned load",
        columns=tuple(columns),
        rows=tuple(rows),
        note="Utilisation is the busy fraction of one server of the station (for a rank, of one "
        "of its drives). Service and response are per visit of one operation; response = "
        "service + queueing wait. Amber: above 70% busy; red: above 90%.",
    )


def tiers_table(configs: Sequence[Prediction]) -> Table:
    """Each pool's tiers: ranks, capacity, data placed there and the share of small I/O."""
    keys: list[tuple[str, str]] = []
    for p in configs:
        keys.extend((t.pool, t.tier) for t in p.tiers if (t.pool, t.tier) not in keys)
    several = len(configs) > 1
    columns = ["pool · tier"]
    for p in configs:
        prefix = f"{p.name}: " if several else ""
        columns += [
            f"{prefix}ranks",
            f"{prefix}data / capacity",
            f"{prefix}share of small I/O",
            f"{prefix}back-end IOPS",
        ]
    rows = []
    for pool, tier in keys:
        cells: list[Cell] = []
        for p in configs:
            t = next((t for t in p.tiers if t.pool == pool and t.tier == tier), None)
            if t is None:
                cells += [Cell("–", "num")] * 4
                continue
            over = t.used_gb > t.capacity_gb * (1 + 1e-9)
            cells += [
                Cell(str(t.ranks), "num"),
                Cell(
                    f"{display.capacity_gb(t.used_gb)} / {display.capacity_gb(t.capacity_gb)}",
                    "num",
                    "critical" if over else "",
                ),
                Cell(display.percent(t.small_io_share), "num"),
                Cell(display.rate(t.backend_iops), "num"),
            ]
        rows.append(Row(f"{pool} · {tier}", tuple(cells)))
    return Table(
        key="tiers",
        caption="Tiers and their load",
        columns=tuple(columns),
        rows=tuple(rows),
        note="Back-end IOPS are drive operations after cache hits, write folding and the RAID "
        "write penalty.",
    )


def growth_table(prediction: ScenarioPrediction) -> Table:
    """The baseline at its planned load scaled by each growth factor."""
    rows = tuple(
        Row(
            f"× {display.number(g.factor)}",
            (
                Cell(display.rate(g.iops), "num"),
                _ms(g.response_time_ms if not g.saturated else None),
                _utilization(g.bottleneck_utilization),
            ),
        )
        for g in prediction.growth
    )
    return Table(
        key="growth",
        caption=f"Growth of {prediction.baseline.name}",
        columns=("load factor", "I/O rate (IOPS)", "response time (ms)", "bottleneck busy"),
        rows=rows,
    )


def tier_sweep_table(prediction: ScenarioPrediction) -> Table:
    """The baseline with 0, 1, 2 ... more ranks of one drive type (`analyses.tier_sweep`)."""
    rows = tuple(
        Row(
            f"+{t.added}",
            (Cell("–", "num"),) * 4 + (Cell(t.error, "text", "critical"),)
            if t.error is not None
            else (
                Cell(display.rate(t.max_iops), "num"),
                _ms(t.response_time_ms if not t.saturated else None),
                Cell(display.percent(t.tier_small_io_share), "num"),
                Cell(t.bottleneck),
                Cell(""),
            ),
        )
        for t in prediction.tier_sweep
    )
    return Table(
        key="tier-sweep",
        caption=f"Ranks added to a pool of {prediction.baseline.name}",
        columns=(
            "ranks added",
            "max I/O rate (IOPS)",
            "response time at the planned load (ms)",
            "tier's share of small I/O",
            "bottleneck at the maximum",
            "note",
        ),
        rows=rows,
    )


def model_assumptions(
    configs: Sequence[Prediction], scenarios: Sequence[Scenario]
) -> list[tuple[str, str]]:
    """What the model assumed, as (topic, text): how loads were solved, cache behaviour, skew,
    and each configuration's own notes from the model."""
    out = [
        (
            "Queueing model",
            "Each component is a queueing station solved in closed form at the planned load; "
            "a closed system (host queue depth or users) is solved by mean value analysis.",
        ),
        (
            "Cache",
            "Read hit ratio and destages per host write (after write folding) as given in the "
            "workload table; cache hits do not reach the back end.",
        ),
        (
            "Thresholds",
            f"A component is flagged above {display.percent(WARN_UTILIZATION, 0)} busy and "
            f"critical above {display.percent(CRITICAL_UTILIZATION, 0)}.",
        ),
    ]
    for scenario in scenarios[:1]:
        for w in scenario.workloads:
            if w.skew is not None:
                out.append((f"Skew of {w.name}", _skew_assumption(w.skew.level, w.skew.points)))
    for p in configs:
        out.extend((f"Model note ({p.name})", note) for note in p.notes)
    return out


def _skew_assumption(
    level: float | str | None, points: Sequence[tuple[float, float]] | None
) -> str:
    if level is not None:
        return (
            f"skew level {level}: diskmodel reads a level as the ratio of the hottest extents' "
            "I/O density to the average, with the density falling exponentially from the "
            "hottest extent to the coldest."
        )
    if points is not None:
        return "straight lines between the given (capacity, I/O) points."
    return "from the measured heat map."
