"""A readable terminal summary of a `ScenarioPrediction` (what `diskmodel run` prints).

Per configuration: the answer in a few lines (the planned load and its response time, or
"saturated"; the service level and the planning maximum with the limit that binds; the
maximum to saturation and what limits it; the headroom to each), the busiest component of
each kind, the workloads with their response time broken down by component, the tiers, and
growth. Then the comparison of alternatives and the tier sweep. Reads the prediction only;
numbers shown by the shared display rules (`diskmodel.report.display`), tables drawn by
`diskmodel.report.table` (the terminal's width, plain text when not a terminal). The
application and its logs are drawn by `report.application_text`, the configurations side by
side by `report.comparison_text`; here one configuration's summary and the whole.
"""

from __future__ import annotations

import dataclasses

from diskmodel.prediction import (
    BandResult,
    CalibrationResult,
    ComponentResult,
    Prediction,
    ScenarioPrediction,
)
from diskmodel.report import display
from diskmodel.report.application_text import (
    application_lines,
    application_table,
    log_headline,
    log_table,
)
from diskmodel.report.calibration_view import verdict
from diskmodel.report.comparison_text import application_comparison, comparison, tier_sweep
from diskmodel.report.component_tables import component_groups, shows_allocation
from diskmodel.report.copy_services_text import copy_services_parts
from diskmodel.report.phrases import catalog_band_sentence, headroom_text, ms_text
from diskmodel.report.rmf_tables import has_zos, rmf_text_table
from diskmodel.report.size_text import sizing_parts
from diskmodel.report.table import Output, TextTable, table, to_text
from diskmodel.vocabulary import KIND_TABLE

_BREAKDOWN_KINDS = KIND_TABLE
"""The component kinds of a workload's response-time breakdown, in the order of its path."""


def _headline(p: Prediction) -> str:
    lines = [f"== {p.name} ({p.system})"]
    level = p.service_level
    if p.application is not None:
        lines.extend(application_lines(p.application))
    elif p.closed is not None:
        kind = p.closed.population_kind
        how = (
            f"{p.closed.population:,} users, think time "
            f"{display.milliseconds(p.closed.think_time_ms)} ms"
            if kind == "users"
            else f"host queue depth {p.closed.population:,}"
        )
        lines.append(
            f"closed system ({how}): {display.rate(p.closed.iops)} IOPS at "
            f"{display.milliseconds(p.closed.response_time_ms)} ms"
            + ("  [destage path saturated: NVS full]" if p.closed.destage_limited else "")
        )
    elif p.saturated or p.response_time_ms is None:
        lines.append(
            f"planned load: {display.rate(p.planned_iops)} IOPS: SATURATED (above the maximum)"
        )
    else:
        lines.append(
            f"planned load: {display.rate(p.planned_iops)} IOPS at "
            f"{ms_text(p.response_time_ms)} ms response time"
        )
    target = display.number(p.inputs.service_level.response_time_ms)
    at_target = (
        f"{display.rate_3sf(level.iops_at_target)} IOPS"
        if level.iops_at_target is not None
        else "not reached"
    )
    broken = f" ({display.broken_text(level.broken)})" if level.broken else ""
    lines.append(
        f"service level: {'met' if level.met else 'NOT MET'} at the planned load{broken}; "
        f"planning maximum {display.rate_3sf(level.max_iops)} IOPS ({level.binding} binds); "
        f"at {target} ms: {at_target}"
    )
    limit = f"maximum: {display.rate_3sf(p.max_iops)} IOPS to saturation, limited by {p.bottleneck}"
    if p.destage_limited:
        limit += " (it also absorbs destages: at this rate NVS fills and writes wait)"
    lines.append(limit)
    if p.closed is None:
        lines.append(
            f"headroom: {headroom_text(level.max_iops, p.planned_iops)} to the planning maximum, "
            f"{headroom_text(p.max_iops, p.planned_iops)} to saturation"
        )
    if p.nvs_full and p.closed is None:
        lines.append("NVS full: destages cannot keep up at the planned load; writes wait")
    for f in p.curve_falls:
        why = (
            "Easy Tier places the data for each load and moves it to a slower tier here"
            if f.placement
            else "no placement change explains it"
        )
        lines.append(
            f"curve: the response time falls from {ms_text(f.from_response_time_ms)} ms at "
            f"{display.rate(f.from_iops)} IOPS to {ms_text(f.to_response_time_ms)} ms at "
            f"{display.rate(f.to_iops)} IOPS as the load rises ({why}; the report's chart)"
        )
    if p.band is not None:
        lines.append(band_sentence(p.band))
    if p.catalog_band is not None:
        reach = catalog_band_sentence(p.catalog_band)
        if reach is not None:
            lines.append(f"catalog estimates: {reach[0].lower()}{reach[1:]}")
    return "\n".join(lines)


def band_sentence(band: BandResult) -> str:
    """The range the inputs given as ranges span, pessimistic to optimistic."""
    given = ", ".join(
        f"{key.removeprefix('workloads.')} {lo:g}-{hi:g}" for key, lo, hi in band.inputs
    )
    worst, best = band.response_time_ms
    response = f"{ms_text(worst)} to {ms_text(best)} ms" if best is not None else "saturated"
    return (
        f"input ranges ({given}): response {response}, maximum "
        f"{display.rate_3sf(band.max_iops[0])} to {display.rate_3sf(band.max_iops[1])} IOPS, "
        f"planning maximum {display.rate_3sf(band.planning_max_iops[0])} to "
        f"{display.rate_3sf(band.planning_max_iops[1])} IOPS (pessimistic to optimistic"
        + (", over a sample: an inner estimate" if band.sampled else "")
        + "; the figures above are at the middle of every range)"
    )


def _busiest(components: tuple[ComponentResult, ...]) -> TextTable:
    rows = []
    for title, members in component_groups(components):
        top = max(members, key=lambda c: c.utilization)
        rows.append(
            [
                title,
                str(len(members)),
                display.percent(top.utilization),
                top.name,
                ms_text(top.service_time_ms),
                ms_text(top.wait_time_ms),
            ]
        )
    return table(
        ["component", "count", "busiest", "which", "service ms", "wait ms"],
        rows,
        title="Components at the planned load (busiest of each kind)",
    )


def _workloads(p: Prediction) -> TextTable:
    rows = [
        [
            w.name,
            w.pool,
            display.rate(w.iops),
            ms_text(w.response_time_ms),
            ms_text(w.read_response_time_ms) if w.reads else "-",
            ms_text(w.write_response_time_ms) if w.writes else "-",
            display.percent(w.read_hit_ratio),
            *(ms_text(w.breakdown_ms.get(k.key)) for k in _BREAKDOWN_KINDS),
        ]
        for w in p.workloads
    ]
    return table(
        [
            "workload",
            "pool",
            "IOPS",
            "resp ms",
            "read ms",
            "write ms",
            "read hits",
            *(k.short for k in _BREAKDOWN_KINDS),
        ],
        rows,
        title="Workloads (response time and its breakdown by component, ms)",
    )


def _allocation(p: Prediction) -> TextTable:
    rows = [
        [
            w.name,
            a.tier,
            display.capacity_gb(a.capacity_gb),
            display.percent(a.small_io_share),
            display.percent(a.mb_share),
        ]
        for w in p.workloads
        for a in w.allocation
    ]
    return table(
        ["workload", "tier", "data", "its small I/O", "its MB/s"],
        rows,
        title="Each workload's data on its pool's tiers",
    )


def _tiers(p: Prediction) -> TextTable:
    rows = [
        [
            t.pool,
            t.tier,
            str(t.ranks),
            display.capacity_gb(t.used_gb),
            display.capacity_gb(t.capacity_gb),
            display.percent(t.small_io_share),
            display.percent(t.mb_share),
            display.rate(t.backend_iops),
            display.percent(t.utilization),
        ]
        for t in p.tiers
    ]
    return table(
        [
            "pool",
            "tier",
            "ranks",
            "used",
            "capacity",
            "small I/O",
            "MB/s",
            "back-end ops/s",
            "busy",
        ],
        rows,
        title="Tiers",
    )


def first_break(p: Prediction) -> str:
    """When growth first breaks the service level, and by which limit (a sentence)."""
    broken = next((g for g in p.growth if not g.meets_service_level), None)
    if broken is None:
        return "the service level holds at every growth step"
    why = display.broken_text(broken.broken) or "saturated"
    load = f"{broken.factor:.3g}x the load"
    where = f"{broken.label} ({load})" if _is_period(broken.label) else load
    return f"the service level first breaks at {where}: {why}"


def _is_period(label: str) -> bool:
    """A growth label that names a period ("year 3"), not a bare factor."""
    return bool(label) and not label.startswith("\u00d7")


_GROWTH_COLUMNS = ("load", "IOPS", "resp ms", "busiest", "busy", "service level")


def _growth(p: Prediction) -> TextTable:
    periods = any(_is_period(g.label) for g in p.growth)
    rows = [
        [
            *([g.label] if periods else []),
            f"{g.factor:.3g}x",
            display.rate(g.iops),
            ms_text(g.response_time_ms if not g.saturated else None),
            g.busiest,
            display.percent(g.busiest_utilization),
            "met"
            if g.meets_service_level
            else f"not met: {display.broken_text(g.broken) or 'saturated'}",
        ]
        for g in p.growth
    ]
    return table(
        [*(["period"] if periods else []), *_GROWTH_COLUMNS],
        rows,
        title=f"Growth ({first_break(p)})",
    )


def prediction_parts(p: Prediction) -> list[str | TextTable]:
    """One configuration's summary, as lines and tables."""
    parts: list[str | TextTable] = [_headline(p), _busiest(p.components), _workloads(p)]
    if has_zos(p):
        parts.append(rmf_text_table(p))
    if p.application is not None:
        parts.append(application_table(p.application))
    if p.tiers:
        parts.append(_tiers(p))
    if shows_allocation(p):
        parts.append(_allocation(p))
    shown: list[tuple[str, TextTable]] = []
    for log in p.logs:
        parts.append(log_headline(log))
        drawn = log_table(log)
        same = next((name for name, t in shown if t.rows == drawn.rows), None)
        if same is None:
            parts.append(drawn)
            shown.append((log.name, drawn))
        else:
            parts.append(f"(commit times by pages and stripes as for log {same})")
    if p.growth:
        parts.append(_growth(p))
    parts.extend(copy_services_parts(p))
    parts.extend(f"note: {n}" for n in p.notes)
    return parts


def calibration_line(c: CalibrationResult) -> str:
    """The calibration the scenario carries: its verdict, and the first finding that fails
    its gate (the report's calibration section has every one)."""
    line = verdict(c)
    failing = next((f for f in c.findings if f.fails), None)
    if failing is not None:
        line += f" First: {failing.subject}: {failing.cause}; remedy: {failing.remedy}."
    return line


def render(prediction: ScenarioPrediction, output: Output | None = None) -> str:
    """The whole terminal summary of a scenario's prediction (`output`: where it goes; by
    default stdout, detected)."""
    parts: list[str | TextTable] = [f"Scenario: {prediction.scenario}"]
    if prediction.calibration is not None:
        parts.append(calibration_line(prediction.calibration))
    for p in prediction.configurations:
        parts.extend(prediction_parts(p))
    if prediction.alternatives:
        if prediction.baseline.application is not None:
            parts.append(application_comparison(prediction))
        parts.append(comparison(prediction))
    if prediction.tier_sweep:
        parts.append(tier_sweep(prediction))
    if prediction.sizing is not None:
        parts.extend(sizing_parts(prediction.sizing))
    defaults = prediction.baseline.inputs.defaults
    if defaults:
        listed = table(
            ["input left out", "value used"],
            [[d.key, d.value] for d in defaults],
            title="Defaults applied (why: diskmodel check, or the report's appendix)",
        )
        parts.append(dataclasses.replace(listed, unwrapped=(0,)))
    return to_text(parts, output)
