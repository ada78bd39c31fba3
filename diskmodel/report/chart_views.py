"""Which charts a report shows, and the numbers each is drawn from.

Reads `Prediction`s (and, for the skew curve, the scenario's skew) and hands plain series to
`diskmodel.report.charts`; returns `view.Chart` records with a title and a caption that says
how to read the chart. A chart appears only when it has something to show: the skew chart
for a pool with two or more tiers, the closed-system chart for a closed system.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from markupsafe import Markup

from diskmodel.prediction import Prediction, TierLoad
from diskmodel.report import charts, display
from diskmodel.report.view import Chart
from diskmodel.scenario import Scenario, Workload
from diskmodel.tiering.skew import PiecewiseSkew, SkewCurve, skew_from_level

TIER_ORDER = ("ssd", "enterprise", "nearline")
"""Fastest first: Easy Tier fills the tiers with the hottest data in this order."""

GROUP_ABOVE = 6
"""A kind with more components than this shows as 'busiest' and 'average' bars (all of them
stay in the components table), so that the chart stays readable with 48 ranks."""

KIND_LABEL = {
    "host_adapter": "host port",
    "processor": "processor",
    "device_adapter": "DA pair",
    "rank": "rank",
}


def charts_for(configs: Sequence[Prediction], inputs: Sequence[Scenario | None]) -> list[Chart]:
    """Every chart of the report, in reading order."""
    out = [_response_chart(configs), _breakdown_chart(configs), _utilization_chart(configs)]
    out.extend(_skew_charts(configs, inputs))
    closed = _closed_chart(configs, inputs)
    if closed is not None:
        out.append(closed)
    return out


# --------------------------------------------------------------------------- response curve


def _response_chart(configs: Sequence[Prediction]) -> Chart:
    """Open configurations plot their load curve; a closed one the (throughput, response)
    pairs its population sweep traces, so that its operating point lies on its own line."""
    series = [_response_series(p) for p in configs]
    markers = [
        charts.Marker(
            p.name,
            p.planned_iops,
            p.response_time_ms,
            f"{display.milliseconds(p.response_time_ms)} ms",
        )
        for p in configs
        if p.response_time_ms is not None and not p.saturated
    ]
    planned = {p.planned_iops for p in configs if p.closed is None}
    planned_iops = (
        planned.pop() if len(planned) == 1 and all(p.closed is None for p in configs) else None
    )
    svg = charts.response_time_chart("chart-response", series, markers, planned_iops)
    limits = "; ".join(
        f"{p.name} saturates at {display.rate_3sf(p.max_iops)} IOPS"
        for p in configs
        if p.closed is None
    )
    parts = ["Average response time of all host I/O as the load grows towards saturation."]
    if planned_iops is not None:
        parts.append(
            "The dashed line is the planned load; each circle is a configuration's response "
            "time there."
        )
    else:
        parts.append("Each circle is a configuration's operating point.")
    if any(p.closed is not None for p in configs):
        parts.append(
            "A closed system's line is traced by raising its queue depth (or users) from 1 to "
            "the scenario's value."
        )
    if limits:
        parts.append(f"{limits}.")
    return Chart(
        "chart-response",
        "Response time against I/O rate",
        " ".join(parts),
        Markup(svg),
    )


def _response_series(p: Prediction) -> charts.Series:
    if p.closed is not None:
        return charts.Series(
            p.name,
            tuple(pt.iops for pt in p.closed.curve),
            tuple(pt.response_time_ms for pt in p.closed.curve),
        )
    return charts.Series(
        p.name,
        tuple(pt.iops for pt in p.curve),
        tuple(
            pt.response_time_ms
            if pt.response_time_ms is not None and not pt.saturated
            else math.inf
            for pt in p.curve
        ),
    )


# --------------------------------------------------------------------------- breakdown


def _breakdown_chart(configs: Sequence[Prediction]) -> Chart:
    bars: list[charts.StackedBar] = []
    several = len(configs) > 1
    for p in configs:
        many_workloads = len(p.workloads) > 1
        for w in p.workloads:
            prefix = " · ".join(
                part for part, keep in ((p.name, several), (w.name, many_workloads)) if keep
            )
            bars.append(_bar(prefix or "all I/O", w.breakdown_ms))
            for io in w.io_types:
                if io.fraction > 0:
                    io_name = io.io_type.replace("_", " ")
                    label = f"{prefix + ' · ' if prefix else ''}{io_name} " + (
                        f"({display.percent(io.fraction, 0)})"
                    )
                    bars.append(_bar(label, io.breakdown_ms))
    svg = charts.stacked_bar_chart("chart-breakdown", bars)
    return Chart(
        "chart-breakdown",
        "Response time by component",
        "Where the time of an average I/O goes at the planned load, overall and for each I/O "
        "type (its share of the I/O in brackets). A part missing from a bar is a component "
        "that I/O type does not visit, or one that is saturated.",
        Markup(svg),
    )


def _bar(label: str, breakdown_ms: dict[str, float | None]) -> charts.StackedBar:
    parts = tuple(
        (KIND_LABEL.get(kind, kind.replace("_", " ")), value)
        for kind, value in breakdown_ms.items()
        if value is not None and value > 0
    )
    return charts.StackedBar(label, parts)


# --------------------------------------------------------------------------- utilisation


def _utilization_chart(configs: Sequence[Prediction]) -> Chart:
    names = [p.name for p in configs]
    groups: list[charts.BarGroup] = []
    kinds: list[str] = []
    for p in configs:
        for c in p.components:
            if c.kind not in kinds:
                kinds.append(c.kind)
    for kind in kinds:
        members = [[c for c in p.components if c.kind == kind] for p in configs]
        if max(len(m) for m in members) > GROUP_ABOVE:
            label = KIND_LABEL.get(kind, kind)
            groups.append(
                charts.BarGroup(
                    f"{label}s: busiest",
                    tuple(max((c.utilization for c in m), default=None) for m in members),
                )
            )
            groups.append(
                charts.BarGroup(
                    f"{label}s: average",
                    tuple(sum(c.utilization for c in m) / len(m) if m else None for m in members),
                )
            )
            continue
        order: list[str] = []
        for m in members:
            order.extend(c.name for c in m if c.name not in order)
        for name in order:
            groups.append(
                charts.BarGroup(
                    name,
                    tuple(
                        next((c.utilization for c in m if c.name == name), None) for m in members
                    ),
                )
            )
    svg = charts.utilization_chart("chart-utilization", groups, names)
    return Chart(
        "chart-utilization",
        "Utilisation of each component",
        "How busy each component is at the planned load. Above 70% (amber line) queueing "
        "delay grows quickly; above 90% (red line) the component is close to saturation. "
        f"Kinds with more than {GROUP_ABOVE} components show their busiest and their average; "
        "the components table lists every one.",
        Markup(svg),
    )


# --------------------------------------------------------------------------- Easy Tier skew


def _skew_charts(configs: Sequence[Prediction], inputs: Sequence[Scenario | None]) -> list[Chart]:
    out: list[Chart] = []
    for i, (p, scenario) in enumerate(zip(configs, inputs, strict=True)):
        pools: list[str] = []
        for t in p.tiers:
            if t.pool not in pools:
                pools.append(t.pool)
        for pool in pools:
            tiers = sorted(
                (t for t in p.tiers if t.pool == pool and t.used_gb > 0),
                key=lambda t: TIER_ORDER.index(t.tier) if t.tier in TIER_ORDER else 99,
            )
            if len(tiers) < 2:
                continue
            out.append(_skew_chart(f"chart-skew-{i}-{len(out)}", p, pool, tiers, scenario))
    return out


def _skew_chart(
    key: str, p: Prediction, pool: str, tiers: Sequence[TierLoad], scenario: Scenario | None
) -> Chart:
    total = sum(t.used_gb for t in tiers)
    spans = []
    start = 0.0
    for t in tiers:
        end = start + t.used_gb / total
        spans.append(charts.TierSpan(t.tier, start, min(end, 1.0), t.small_io_share))
        start = end
    workload = _skewed_workload(scenario, pool)
    curve = _skew_curve(workload) if workload is not None else None
    c = np.linspace(0.0, 1.0, 201)
    f = curve.share(c) if curve is not None else np.array([])
    title = f"Easy Tier: skew and tiers of pool {pool} ({p.name})"
    svg = charts.skew_chart(
        key,
        c.tolist() if curve is not None else [],
        f.tolist(),
        spans,
        title=title,
    )
    about = (
        f"The curve is the skew of workload {workload.name}: the hottest fraction of its "
        "capacity (across) receives the fraction of its small random back-end I/O (up)."
        if workload is not None and curve is not None
        else "No skew curve was given for this pool's workloads (or it comes from a heat map)."
    )
    return Chart(
        key,
        title,
        f"{about} Easy Tier places the hottest data on the fastest tier up to its capacity; "
        "each band is the data one tier holds, and the legend gives its share of the I/O as "
        "the model placed it.",
        Markup(svg),
    )


def _skewed_workload(scenario: Scenario | None, pool: str) -> Workload | None:
    if scenario is None:
        return None
    for w in scenario.workloads:
        if w.pool == pool and w.skew is not None and w.skew.heatmap is None:
            return w
    return None


def _skew_curve(workload: Workload) -> SkewCurve | None:
    skew = workload.skew
    if skew is None:
        return None
    if skew.level is not None:
        return skew_from_level(skew.level)
    if skew.points is not None:
        return PiecewiseSkew.from_points([list(point) for point in skew.points])
    return None


# --------------------------------------------------------------------------- closed systems


def _closed_chart(configs: Sequence[Prediction], inputs: Sequence[Scenario | None]) -> Chart | None:
    closed = [(p, p.closed) for p in configs if p.closed is not None]
    if not closed:
        return None
    throughput = [
        charts.Series(
            p.name,
            tuple(float(pt.population) for pt in c.curve),
            tuple(pt.iops for pt in c.curve),
        )
        for p, c in closed
    ]
    response = [
        charts.Series(
            p.name,
            tuple(float(pt.population) for pt in c.curve),
            tuple(pt.response_time_ms for pt in c.curve),
        )
        for p, c in closed
    ]
    users = any(
        s is not None and any(w.users is not None for w in s.workloads) for s in inputs
    ) or any(c.think_time_ms > 0 for _, c in closed)
    label = "users" if users else "host queue depth (I/Os in flight)"
    populations = {c.population for _, c in closed}
    planned = float(populations.pop()) if len(populations) == 1 else None
    svg = charts.closed_system_chart("chart-closed", throughput, response, planned, label)
    settles = "; ".join(
        f"{p.name}: {display.rate(c.iops)} IOPS at {display.milliseconds(c.response_time_ms)} ms"
        for p, c in closed
    )
    return Chart(
        "chart-closed",
        f"Throughput and response time against {label.split(' (')[0]}",
        "A closed system: a fixed number of I/Os in flight (or users who think, then issue the "
        "next I/O). Throughput levels off at the bottleneck's limit while response time keeps "
        f"growing. The dashed line is the scenario's population; there {settles}.",
        Markup(svg),
    )
