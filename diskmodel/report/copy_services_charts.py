"""Charts of the copy services, as Vega-Lite specifications (`distance_chart`,
`link_chart`: plain numbers in) and the report's `Chart`s drawn from a Prediction
(`copy_services_charts`): the Metro Mirror workloads' write response time against the
distance between the sites, and Global Mirror's link utilisation over its intervals.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup

from diskmodel.prediction import Prediction
from diskmodel.report.chart_marks import (
    CRITICAL_COLOUR,
    NOTE_COLOUR,
    ChartSpec,
    layered,
    line_layers,
    padded_top,
    rule,
    scale_axis,
)
from diskmodel.report.chart_svg import render
from diskmodel.report.view import Chart


def distance_chart(
    distances_km: Sequence[float],
    lines: Sequence[tuple[str, Sequence[float]]],
    baseline_km: float,
) -> ChartSpec:
    """Each Metro Mirror workload's write response time (ms) at each distance (km); the
    links' own distance as a vertical dashed rule. A distance without a steady state is left
    out of its line."""
    names = [name for name, _ in lines]
    drawn = []
    for name, values in lines:
        pairs = [(d, v) for d, v in zip(distances_km, values, strict=True) if math.isfinite(v)]
        drawn.append((name, [d for d, _ in pairs], [v for _, v in pairs], False))
    ys = [v for _, _, y, _ in drawn for v in y]
    top = padded_top([*ys, 0.0])
    layers = line_layers(drawn, names)
    hi = max(distances_km, default=1.0) or 1.0
    limits = (0.0, hi * 1.02)
    layers.append(rule("x", baseline_km, NOTE_COLOUR, (4, 3)))
    return ChartSpec(
        "Write response time against distance (Metro Mirror)",
        layered(
            layers,
            height=190,
            x=scale_axis("distance between the sites (km)", limits),
            y=scale_axis("write response time (ms)", (0.0, top)),
            legend=names if len(names) > 1 else [],
        ),
    )


def link_chart(utilization: Sequence[float], busy: Sequence[float], interval_s: float) -> ChartSpec:
    """The links' offered utilisation (write MB/s over their MB/s; above 1 they fall behind)
    and their busy fraction (the backlog they work off counted) in each interval, against the
    hours since the first; 100% as a rule."""
    hours = [i * interval_s / 3600.0 for i in range(len(utilization))]
    names = ["offered (writes / link rate)", "busy (backlog included)"]
    drawn = [
        (names[0], hours, list(utilization), False),
        (names[1], hours, list(busy), False),
    ]
    top = padded_top([*utilization, *busy, 1.0])
    layers = line_layers(drawn, names)
    right = max(hours[-1], 1e-9) if hours else 1.0
    layers.append(rule("y", 1.0, CRITICAL_COLOUR, (4, 3)))
    return ChartSpec(
        "Link utilisation over the intervals (Global Mirror)",
        layered(
            layers,
            height=190,
            x=scale_axis("hours since the first interval", (0.0, right)),
            y=scale_axis("link utilisation", (0.0, top), fmt=".0%"),
            legend=names,
        ),
    )


def copy_services_charts(p: Prediction) -> list[Chart]:
    """The copy services charts of one configuration, where it has something to show."""
    cs = p.inputs.copy_services
    if cs is None:
        return []
    out = []
    metro = [
        (w.name, w.replication.by_distance)
        for w in p.workloads
        if w.replication is not None and w.replication.by_distance
    ]
    if metro and cs.links is not None:
        distances = [pt.distance_km for pt in metro[0][1]]
        lines = [
            (
                name,
                [
                    math.inf if pt.write_response_ms is None else pt.write_response_ms
                    for pt in points
                ],
            )
            for name, points in metro
        ]
        svg = render("chart-distance", distance_chart(distances, lines, cs.links.distance_km))
        out.append(
            Chart(
                "chart-distance",
                f"Metro Mirror: write response time against distance ({p.name})",
                "Each replicated workload's mean write response time at the planned load with "
                "the sites as far apart as the axis says. Every replicated write waits one round "
                "trip of light in the fibre (about 10 us per km there and back), its links and "
                "the secondary's write; the stations' loads do not change with the distance, so "
                "the lines rise by that round trip alone. The dashed rule is the links' distance.",
                Markup(svg),
            )
        )
    gm = cs.global_mirror
    if gm is not None and len(gm.labels) > 1:
        svg = render("chart-links", link_chart(gm.offered_utilization, gm.busy, gm.interval_s))
        out.append(
            Chart(
                "chart-links",
                f"Global Mirror: link utilisation over the intervals ({p.name})",
                f"Each interval's writes over the links' {gm.capacity_mb_s:,.1f} MB/s "
                f"({gm.source}, {gm.interval_s / 60:g}-minute intervals from {gm.labels[0]}). "
                "Above the red 100% rule the writes fall behind and a backlog builds; the busy "
                "line stays at 100% until the links have worked it off.",
                Markup(svg),
            )
        )
    return out
