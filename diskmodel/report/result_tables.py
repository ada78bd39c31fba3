"""Report tables of the predicted results: one column per configuration, side by side: the
headline results, the service level, growth and the tier sweep.

Reads `Prediction`s only and formats with `diskmodel.report.display` and the result phrases
(`report.phrases`); a utilisation cell carries a warning level (above 70%) or a critical one
(above 90%) for the template to colour. Numbers are the prediction's own. The component,
allocation and tier tables are in `report.component_tables`.
"""

from __future__ import annotations

from collections.abc import Sequence

from diskmodel.prediction import Prediction, ScenarioPrediction
from diskmodel.report import display
from diskmodel.report.phrases import (
    DASH,
    bottleneck_text,
    headroom_text,
    limit_value_text,
    margin_text,
    ms_cell,
    population_count,
    spread_note,
    utilization_cell,
)
from diskmodel.report.view import Cell, Row, Table


def results_table(configs: Sequence[Prediction]) -> Table:
    """The headline results of each configuration at its planned load."""
    rows = [*_answer_rows(configs), *_population_rows(configs), *_input_range_rows(configs)]
    for name in _workload_names(configs):
        rows += _workload_rows(configs, name)
    return Table(
        key="results",
        caption="Results at the planned load",
        columns=("", *(p.name for p in configs)),
        rows=tuple(rows),
        note="Response times are averages over the I/O named, from the host adapter to the "
        "drives and back. The maximum to saturation is the total I/O rate at which the first "
        "component reaches 100% busy; the planning maximum is the highest rate at which every "
        "limit of the service level is met (the binding limit is the first one reached). "
        "Headroom is how much more load than planned fits under each.",
    )


def _row(header: str, cells: Sequence[Cell]) -> Row:
    return Row(header, tuple(cells))


def _answer_rows(configs: Sequence[Prediction]) -> list[Row]:
    """The answer at the planned load: the response time, the maxima and their headroom,
    what binds, the service level, NVS and destages."""
    return [
        _row("Planned load (IOPS)", [Cell(display.rate(p.planned_iops), "num") for p in configs]),
        _row("Response time (ms)", [ms_cell(p.response_time_ms) for p in configs]),
        _row(
            "Maximum to saturation (IOPS)",
            [Cell(display.rate_3sf(p.max_iops), "num") for p in configs],
        ),
        _row(
            "Headroom to saturation",
            [_headroom_cell(p.max_iops, p) for p in configs],
        ),
        _row("Bottleneck at saturation", [Cell(bottleneck_text(p)) for p in configs]),
        _row(
            "Planning maximum (IOPS)",
            [Cell(display.rate_3sf(p.service_level.max_iops), "num") for p in configs],
        ),
        _row(
            "Headroom to the planning maximum",
            [_headroom_cell(p.service_level.max_iops, p) for p in configs],
        ),
        _row("Binding limit", [Cell(p.service_level.binding) for p in configs]),
        _row(
            "IOPS at the response-time target",
            [
                Cell(
                    display.rate_3sf(p.service_level.iops_at_target)
                    if p.service_level.iops_at_target is not None
                    else "not reached",
                    "num",
                )
                for p in configs
            ],
        ),
        _row(
            "Service level at the planned load",
            [
                Cell(
                    "met" if p.service_level.met else "not met",
                    level="" if p.service_level.met else "critical",
                )
                for p in configs
            ],
        ),
        _row(
            "NVS full at the planned load",
            [
                Cell("yes" if p.nvs_full else "no", level="critical" if p.nvs_full else "")
                for p in configs
            ],
        ),
        _row(
            "Bottleneck carries destages",
            [Cell("yes" if p.destage_limited else "no") for p in configs],
        ),
    ]


def _population_rows(configs: Sequence[Prediction]) -> list[Row]:
    """A closed configuration's population, where any configuration is closed."""
    if not any(p.closed is not None for p in configs):
        return []
    cells = [
        Cell("{:,} ({})".format(*population_count(p)) if p.closed else "–", "num") for p in configs
    ]
    return [_row("Closed system: population", cells)]


def _input_range_rows(configs: Sequence[Prediction]) -> list[Row]:
    """The response time and the maximum over the inputs given as ranges, where any are."""
    if not any(p.band is not None for p in configs):
        return []
    maxima = [
        Cell(
            f"{display.rate_3sf(p.band.max_iops[0])} – {display.rate_3sf(p.band.max_iops[1])}",
            "num",
        )
        if p.band is not None
        else DASH
        for p in configs
    ]
    return [
        _row("Response time over the input ranges (ms)", [_band_cell(p) for p in configs]),
        _row("Maximum over the input ranges (IOPS)", maxima),
    ]


def _workload_rows(configs: Sequence[Prediction], name: str) -> list[Row]:
    """One workload's response times (all, reads, writes), I/O rate and read hit ratio used."""
    rows: list[Row] = []
    for label, attribute, io in (
        ("response time (ms)", "response_time_ms", ""),
        ("read response (ms)", "read_response_time_ms", "reads"),
        ("write response (ms)", "write_response_time_ms", "writes"),
    ):
        cells = []
        for p in configs:
            w = next((w for w in p.workloads if w.name == name), None)
            present = w is not None and (not io or getattr(w, io))
            cells.append(ms_cell(getattr(w, attribute)) if present else DASH)
        rows.append(_row(f"{name}: {label}", cells))
    rates, hits = [], []
    for p in configs:
        w = next((w for w in p.workloads if w.name == name), None)
        rates.append(Cell(display.rate(w.iops), "num") if w else DASH)
        hits.append(Cell(display.percent(w.read_hit_ratio), "num") if w else DASH)
    rows.append(_row(f"{name}: I/O rate (IOPS)", rates))
    rows.append(_row(f"{name}: read hit ratio used", hits))
    return rows


def _band_cell(p: Prediction) -> Cell:
    """Pessimistic – optimistic response time over the input ranges."""
    if p.band is None:
        return DASH
    worst, best = p.band.response_time_ms
    shown = [
        display.milliseconds(v) if v is not None else display.SATURATED_TEXT for v in (worst, best)
    ]
    return Cell(" – ".join(shown), "num")


def _headroom_cell(maximum: float, p: Prediction) -> Cell:
    if p.closed is not None:
        return Cell("– (closed)", "num")
    text = headroom_text(maximum, p.planned_iops)
    return Cell(text, "num", "critical" if text == "none" else "")


def _workload_names(configs: Sequence[Prediction]) -> list[str]:
    names: list[str] = []
    for p in configs:
        names.extend(w.name for w in p.workloads if w.name not in names)
    return names


def service_level_table(configs: Sequence[Prediction]) -> Table:
    """Each limit of the service level: its value at the planned load, whether it is met
    there and by how much, and the highest rate at which it is still met. With several
    configurations, each configuration's limits under its name (the table stays five columns
    wide)."""
    several = len(configs) > 1
    rows = []
    for p in configs:
        if several:
            rows.append(Row(p.name, (), group=True))
        for lim in p.service_level.limits:
            rows.append(
                Row(
                    lim.label,
                    (
                        Cell(limit_value_text(lim), "num"),
                        Cell(margin_text(lim), level="" if lim.met else "critical"),
                        Cell(
                            display.rate_3sf(lim.max_iops)
                            if lim.max_iops is not None
                            else "saturation",
                            "num",
                        ),
                        Cell(lim.component or ""),
                    ),
                )
            )
    return Table(
        key="service-level",
        caption="Service level",
        columns=(
            "limit",
            "at the planned load",
            "met?",
            "met up to (IOPS)",
            "first to reach it",
        ),
        rows=tuple(rows),
        note="A utilisation limit applies to every component of its kind; the last column "
        "names the component that reaches it first. The planning maximum is the lowest "
        "'met up to'.",
    )


def growth_table(configs: Sequence[Prediction]) -> Table:
    """Each configuration at its planned load scaled by each growth factor."""
    grown = [p for p in configs if p.growth]
    several = len(grown) > 1
    rows = []
    for p in grown:
        if several:
            rows.append(Row(p.name, (), group=True))
        for g in p.growth:
            level = (
                Cell("met")
                if g.meets_service_level
                else Cell(
                    f"not met ({display.broken_text(g.broken)})" if g.broken else "not met",
                    level="critical",
                )
            )
            rows.append(
                Row(
                    g.label or "× " + display.number(g.factor),
                    (
                        Cell(display.rate(g.iops), "num"),
                        ms_cell(g.response_time_ms if not g.saturated else None),
                        Cell(g.busiest),
                        utilization_cell(g.busiest_utilization),
                        level,
                    ),
                )
            )
    return Table(
        key="growth",
        caption="Growth",
        columns=(
            "load factor",
            "I/O rate (IOPS)",
            "response time (ms)",
            "busiest component",
            "its utilisation",
            "service level",
        ),
        rows=tuple(rows),
        note="'saturated': the load is above the configuration's maximum, so there is no "
        "steady response time. The service level column names what binds at that load, "
        "first what binds first: the saturated station, then every limit broken, in the order "
        "a rising load breaks them (the first is the one the planning maximum names). "
        + " ".join(f"{p.name}: {_first_break(p)}." for p in grown),
    )


def _first_break(p: Prediction) -> str:
    broken = next((g for g in p.growth if not g.meets_service_level), None)
    if broken is None:
        return "the service level holds at every step"
    name = broken.label or f"× {display.number(broken.factor)}"
    return f"first broken at {name} ({display.broken_text(broken.broken) or 'saturated'})"


def tier_sweep_table(prediction: ScenarioPrediction) -> Table:
    """The baseline with 0, 1, 2 ... more ranks of one drive type."""
    rows = tuple(
        Row(
            f"+{t.added}",
            (DASH,) * 6 + (Cell(t.error, "text", "critical"),)
            if t.error is not None
            else (
                Cell(display.rate_3sf(t.max_iops), "num"),
                Cell(display.rate_3sf(t.planning_max_iops), "num"),
                ms_cell(t.response_time_ms if not t.saturated else None),
                Cell(display.percent(t.tier_small_io_share), "num"),
                Cell(t.bottleneck),
                Cell(
                    "saturated at the planned load" if t.saturated else "",
                    level="critical" if t.saturated else "",
                ),
                Cell(spread_note(t.da_pair_spread)),
            ),
        )
        for t in prediction.tier_sweep
    )
    return Table(
        key="tier-sweep",
        caption=f"Ranks added to a pool of {prediction.baseline.name}",
        columns=(
            "ranks added",
            "maximum (IOPS)",
            "planning maximum (IOPS)",
            "response time at the planned load (ms)",
            "tier's share of small I/O",
            "bottleneck at the maximum",
            "at the planned load",
            "note",
        ),
        rows=rows,
        note=f"{SWEEP_PLACEMENT} Such a point is marked 'uneven' in the note column.",
    )


SWEEP_PLACEMENT = (
    "Every point places its ranks with system.rank_placement: balanced: each drive type spread "
    "over the DA pairs and the servers as evenly as its count allows. A count that cannot be "
    "even (an odd count over two DA pairs) leaves one pair and one server holding a rank more "
    "of the tier, which carries more of its hot I/O and can lower the maximum below that of "
    "fewer ranks."
)
"""What the tier sweep's table, chart and text say about where its ranks go."""
