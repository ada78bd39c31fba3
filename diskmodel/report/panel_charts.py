"""Charts of two plots side by side, as Vega-Lite specifications (`diskmodel.report.charts`
says how the report's charts are written): a closed system's throughput and response time
against its population, and the response time and utilisation as the load grows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from diskmodel.report import display
from diskmodel.report.chart_marks import (
    NOTE_COLOUR,
    PANEL_WIDTH,
    RATE_FORMAT,
    SHAPES,
    TARGET_COLOUR,
    WARN_COLOUR,
    X_SHAPE,
    ChartSpec,
    Spec,
    keyed_points,
    label_end,
    labelled_rule,
    layered,
    line_layers,
    padded_top,
    palette_colour,
    rule,
    scale_axis,
    side_by_side,
)
from diskmodel.report.charts import Series, below_top, finite_points, response_axis_top


@dataclass(frozen=True)
class GrowthLine:
    """One configuration's growth steps: at each factor its response time (inf where
    saturated), the utilisation of its binding component kind (0..1) and whether the service
    level is met."""

    name: str
    factors: tuple[float, ...]
    response_ms: tuple[float, ...]
    utilization: tuple[float, ...]
    met: tuple[bool, ...]


def closed_system_chart(
    throughput: Sequence[Series],
    response: Sequence[Series],
    planned_population: float | None,
    population_label: str,
    y_labels: tuple[str, str] = ("throughput (IOPS)", "response time (ms)"),
    title: str = "Throughput and response time",
) -> ChartSpec:
    """Throughput and response time against the number of users or the queue depth, side by
    side, one line per alternative, the planned population marked (an application's:
    transactions per second and transaction response time, `y_labels`)."""
    names = [s.name for s in throughput]
    panels = []
    for lines, y_label in zip((throughput, response), y_labels, strict=True):
        drawn = [(s.name, *finite_points(s.x, s.y), False) for s in lines]
        xs = [v for _, x, _, _ in drawn for v in x]
        if planned_population is not None:
            xs.append(planned_population)
        ys = [v for _, _, y, _ in drawn for v in y]
        layers = line_layers(drawn, names)
        if planned_population is not None:
            layers.append(rule("x", planned_population, TARGET_COLOUR, (4, 3)))
        panels.append(
            layered(
                layers,
                height=180,
                width=PANEL_WIDTH,
                x=scale_axis(population_label, (0.0, padded_top(xs)), fmt=RATE_FORMAT),
                y=scale_axis(y_label, (0.0, padded_top(ys)), fmt=RATE_FORMAT),
                legend=names if len(names) > 1 else [],
            )
        )
    return ChartSpec(
        f"{title} against {population_label}",
        side_by_side(panels),
    )


def growth_chart(
    lines: Sequence[GrowthLine],
    target_ms: float | None,
    ceilings: Sequence[tuple[str, float]],
    x_label: str = "load factor (× the planned load)",
    utilization_label: str = "utilisation of the binding component",
) -> ChartSpec:
    """Two panels against the growth factor, one line per configuration: the response time
    with the service level's target, and the utilisation of the binding component kind with
    its ceiling (`ceilings`: label and fraction). A factor that breaks the service level is
    ringed in both; one at which a configuration is saturated (no response time) is a cross
    in a band above the response-time lines, inside the frame, a row per configuration. The
    response axis always reaches past the target."""
    series = [Series(g.name, g.factors, g.response_ms) for g in lines]
    top = response_axis_top(series, [], target_ms, stretch=math.inf)
    if target_ms is not None:
        # The target is always drawn: how far below it the lines run is the answer.
        top = max(top, 1.15 * target_ms)
    saturating = [
        i for i, g in enumerate(lines) if any(not math.isfinite(v) for v in g.response_ms)
    ]
    band = 0.09 * len(saturating)  # room above `top` for the crosses, a row per configuration
    broken = any(not met for g in lines for met in g.met)
    keys = _growth_legend([g.name for g in lines], broken, bool(saturating))
    x, limits = _factor_axis(lines, x_label)
    marks = _growth_marks(lines, top, saturating)
    ring = {
        "type": "point",
        "shape": "circle",
        "size": 160,
        "strokeWidth": 1.2,
        "filled": False,
        "clip": True,
    }
    response_layers = _response_layers(
        lines, series, marks, ring, keys, top, band, target_ms, limits
    )
    busy_axis = scale_axis(utilization_label, (0.0, 1.08), fmt=".0%")
    busy_axis["axis"]["values"] = [0.0, 0.25, 0.5, 0.75, 1.0]
    busy_layers = _utilisation_layers(lines, marks, ring, keys, ceilings, limits)
    legend = keys.entries if len(keys.entries) > 1 else []
    response = layered(
        response_layers,
        height=190,
        width=PANEL_WIDTH,
        x=x,
        y=scale_axis("response time (ms)", (0.0, top * (1 + band))),
        legend=legend,
        colours=keys.colours,
        shapes=keys.shapes,
    )
    busy = layered(
        busy_layers,
        height=190,
        width=PANEL_WIDTH,
        x=x,
        y=busy_axis,
        legend=legend,
        colours=keys.colours,
        shapes=keys.shapes,
    )
    return ChartSpec(
        "Response time and utilisation as the load grows",
        side_by_side([response, busy]),
    )


@dataclass(frozen=True)
class _GrowthLegend:
    """The growth chart's legend entries (the configurations, then the marks' meanings) with
    the colour and the shape of each."""

    entries: list[str]
    colours: list[str]
    shapes: list[str]


def _growth_legend(names: Sequence[str], broken: bool, saturating: bool) -> _GrowthLegend:
    """One entry per configuration, then "service level not met" (a ring) where a factor
    breaks it and "saturated" (a cross) where one saturates."""
    extra = [
        *(["service level not met"] if broken else []),
        *(["saturated (no response time)"] if saturating else []),
    ]
    entries = [*names, *extra]
    colours = [palette_colour(i) for i in range(len(names))] + [NOTE_COLOUR] * len(extra)
    shapes = [SHAPES[i % len(SHAPES)] for i in range(len(names))]
    shapes += (["circle"] if broken else []) + ([X_SHAPE] if saturating else [])
    return _GrowthLegend(entries, colours, shapes)


def _factor_axis(lines: Sequence[GrowthLine], x_label: str) -> tuple[Spec, tuple[float, float]]:
    """The growth factors' axis, a tick at each factor ("1.5×"), and its limits (padded by a
    twentieth of the span)."""
    factors = sorted({x for g in lines for x in g.factors})
    lo, hi = factors[0], factors[-1]
    pad = 0.05 * (hi - lo) if hi > lo else 0.05 * max(abs(hi), 1.0)
    limits = (lo - pad, hi + pad)
    x = scale_axis(x_label, limits)
    x["axis"].update(values=factors, labelExpr="format(datum.value, '~g') + '×'")
    return x, limits


@dataclass(frozen=True)
class _GrowthMarks:
    """The points marked on the growth chart: rings where the service level is broken (on
    the response lines, `rings`, and on the utilisation lines, `busy_rings`) and crosses
    where a configuration saturates or runs off the response axis."""

    rings: list[dict[str, Any]]
    busy_rings: list[dict[str, Any]]
    crosses: list[dict[str, Any]]


def _growth_marks(lines: Sequence[GrowthLine], top: float, saturating: list[int]) -> _GrowthMarks:
    """Each factor that breaks the service level ringed, each past `top` (or saturated) a
    cross in its configuration's row of the band above `top`."""
    rings, busy_rings, crosses = [], [], []
    for i, g in enumerate(lines):
        for f, ms, u, met in zip(g.factors, g.response_ms, g.utilization, g.met, strict=True):
            if not met:
                busy_rings.append({"x": f, "y": u, "k": "service level not met"})
                if math.isfinite(ms) and ms <= top:
                    rings.append({"x": f, "y": ms, "k": "service level not met"})
            if not math.isfinite(ms) or ms > top:
                row = saturating.index(i) if i in saturating else 0
                crosses.append({"x": f, "y": top * (1 + 0.09 * (row + 0.5)), "k": g.name})
    return _GrowthMarks(rings, busy_rings, crosses)


def _response_layers(
    lines: Sequence[GrowthLine],
    series: Sequence[Series],
    marks: _GrowthMarks,
    ring: Spec,
    keys: _GrowthLegend,
    top: float,
    band: float,
    target_ms: float | None,
    limits: tuple[float, float],
) -> list[Spec]:
    """The response-time panel's layers: the lines below `top`, the rings, the crosses over
    a dotted rule at `top`, and the target."""
    names = [g.name for g in lines]
    response_layers = line_layers(
        [(g.name, *below_top(g.factors, g.response_ms, top)) for g in lines], names
    )
    if marks.rings:
        response_layers.append(keyed_points(marks.rings, ring, keys.entries, keys.colours))
    if marks.crosses:
        response_layers.append(
            keyed_points(
                marks.crosses,
                {"type": "point", "shape": X_SHAPE, "size": 60, "strokeWidth": 2, "filled": False},
                keys.entries,
                keys.colours,
            )
        )
        response_layers.append(rule("y", top, "#999999", (2, 2)))
    if target_ms is not None and target_ms <= top:
        response_layers += labelled_rule(
            target_ms,
            f"target {display.number(target_ms)} ms",
            TARGET_COLOUR,
            (2, 2),
            label_end(target_ms, top * (1 + band), [(s.name, s.x, s.y, False) for s in series]),
            limits,
        )
    return response_layers


def _utilisation_layers(
    lines: Sequence[GrowthLine],
    marks: _GrowthMarks,
    ring: Spec,
    keys: _GrowthLegend,
    ceilings: Sequence[tuple[str, float]],
    limits: tuple[float, float],
) -> list[Spec]:
    """The utilisation panel's layers: the lines, the rings and each ceiling."""
    busy_lines = [(g.name, list(g.factors), list(g.utilization), False) for g in lines]
    busy_layers = line_layers(busy_lines, [g.name for g in lines])
    if marks.busy_rings:
        busy_layers.append(keyed_points(marks.busy_rings, ring, keys.entries, keys.colours))
    for label, ceiling in ceilings:
        busy_layers += labelled_rule(
            ceiling, label, WARN_COLOUR, (4, 3), label_end(ceiling, 1.08, busy_lines), limits
        )
    return busy_layers
