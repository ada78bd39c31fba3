"""Bar charts of a sizing report as Vega-Lite specifications (`diskmodel.report.charts`
says how the report's charts are written): a response time split by component, the
utilisation of every component, a calibration's model against its measurements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from diskmodel.report import display
from diskmodel.report.chart_marks import (
    CRITICAL_COLOUR,
    NOTE_COLOUR,
    WARN_COLOUR,
    ChartSpec,
    Spec,
    band_axis,
    colour_scale,
    frame,
    legend_chars,
    rule,
    scale_axis,
    text_mark,
    wrap,
)
from diskmodel.report.charts import CRITICAL_UTILIZATION, WARN_UTILIZATION


@dataclass(frozen=True)
class StackedBar:
    """One horizontal bar made of named parts (e.g. a response time split by component, ms)."""

    label: str
    parts: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class BarGroup:
    """One component's utilisation (0..1) in each alternative, in the order of `alternatives`."""

    label: str
    values: tuple[float | None, ...]


def stacked_bar_chart(bars: Sequence[StackedBar], unit: str = "ms", title: str = "") -> ChartSpec:
    """Horizontal stacked bars, one per label, each part a component's share of the total,
    the total written at each bar's end."""
    parts = _ordered_part_names(bars)
    labels = [wrap(b.label, 34) for b in bars]
    rows = [
        {"bar": label, "part": part, "ms": value, "order": parts.index(part)}
        for b, label in zip(bars, labels, strict=True)
        for part, value in b.parts
    ]
    sums = [sum(v for _, v in b.parts) for b in bars]
    totals = [
        {"bar": label, "ms": total, "t": f"{display.milliseconds(total)} {unit}"}
        for label, total in zip(labels, sums, strict=True)
    ]
    most = max(sums, default=0.0)
    x = scale_axis(f"response time ({unit})", (0.0, most * 1.22 if most > 0 else 1.0), field="ms")
    y = {"field": "bar", "type": "nominal", "sort": labels, "title": None, "axis": band_axis()}
    bars_layer = {
        "data": {"values": rows},
        "mark": {"type": "bar", "stroke": "#ffffff", "strokeWidth": 0.5, "height": 14},
        "encoding": {
            "x": {**x, "stack": "zero"},
            "y": y,
            "color": colour_scale("part", parts),
            "order": {"field": "order", "type": "quantitative"},
        },
    }
    text = {
        "data": {"values": totals},
        "mark": text_mark(NOTE_COLOUR, "left", dx=4, baseline="middle"),
        "encoding": {"x": x, "y": y, "text": {"field": "t"}},
    }
    return ChartSpec(
        title or "Response time by component",
        frame(
            [bars_layer, text],
            height={"step": 6 + 11 * _lines(labels)},
            legend_of=parts,
            beside=labels,
        ),
    )


def utilization_chart(groups: Sequence[BarGroup], alternatives: Sequence[str]) -> ChartSpec:
    """Utilisation of every component as horizontal bars, alternatives side by side, with the
    70% and 90% thresholds drawn and each bar's value written at its end."""
    labels = [wrap(g.label, 34) for g in groups]
    names = [wrap(a, legend_chars(labels)) for a in alternatives]
    rows = [
        {"group": label, "alt": names[a], "u": v, "t": display.percent(v)}
        for g, label in zip(groups, labels, strict=True)
        for a, v in enumerate(g.values[: len(names)])
        if v is not None
    ]
    x = scale_axis("utilisation at the planned load", (0.0, 1.12), field="u", fmt=".0%")
    x["axis"]["values"] = [0, 0.25, 0.5, WARN_UTILIZATION, CRITICAL_UTILIZATION, 1.0]
    y = {"field": "group", "type": "nominal", "sort": labels, "title": None, "axis": band_axis()}
    offset = {"field": "alt", "type": "nominal", "sort": names, "scale": {"paddingInner": 0.1}}
    encoding = {"x": x, "y": y, "yOffset": offset, "color": colour_scale("alt", names)}
    layers: list[Spec] = [
        {"data": {"values": rows}, "mark": {"type": "bar"}, "encoding": encoding},
        {
            "data": {"values": rows},
            "mark": text_mark(NOTE_COLOUR, "left", dx=3, baseline="middle", size=9),
            "encoding": {**encoding, "text": {"field": "t"}, "color": {"value": NOTE_COLOUR}},
        },
    ]
    for threshold, colour in (
        (WARN_UTILIZATION, WARN_COLOUR),
        (CRITICAL_UTILIZATION, CRITICAL_COLOUR),
    ):
        layers.append(rule("x", threshold, colour, (4, 3), field="u"))
    step = 11  # a bar: the step of a grouped chart is its bars'
    return ChartSpec(
        "Utilisation of each component",
        frame(
            layers,
            height={"step": step},
            legend_of=names if len(names) > 1 else [],
            beside=labels,
        ),
    )


def residual_chart(
    intervals: Sequence[str],
    series: Sequence[str],
    errors: Sequence[Sequence[float | None]],
    threshold: float,
) -> ChartSpec:
    """A calibration's model against its measurements: one group of horizontal bars per
    interval, one bar per measured figure (`series`, in the legend) from 0 to its relative
    error (model / measured - 1; `errors[interval][series]`, None where not measured, inf
    where the model saturates: "saturated" written at 0), with the quality gate's threshold
    either side as dashed lines and each bar's value written at its end."""
    labels = [wrap(label, 34) for label in intervals]
    names = [wrap(s, legend_chars(labels)) for s in series]
    finite = [abs(e) for row in errors for e in row if e is not None and math.isfinite(e)]
    reach = max([threshold * 1.5, *finite]) * 1.25
    bars, words = [], []
    for label, row in zip(labels, errors, strict=True):
        for j, e in enumerate(row[: len(names)]):
            if e is None:
                continue
            if not math.isfinite(e):
                words.append({"i": label, "s": names[j], "e": 0.0, "t": "saturated", "a": "left"})
                continue
            bars.append({"i": label, "s": names[j], "e": e, "zero": 0.0})
            words.append(
                {
                    "i": label,
                    "s": names[j],
                    "e": e,
                    "t": f"{100 * e:+.1f}%",
                    "a": "left" if e >= 0 else "right",
                }
            )
    x = scale_axis("model against measurement (model / measured - 1)", (-reach, reach), field="e")
    x["axis"]["labelExpr"] = "datum.value == 0 ? '0' : format(datum.value, '+.0%')"
    y = {"field": "i", "type": "nominal", "sort": labels, "title": None, "axis": band_axis()}
    offset = {"field": "s", "type": "nominal", "sort": names}
    encoding = {"x": x, "y": y, "yOffset": offset}
    layers: list[Spec] = [
        {
            "data": {"values": bars},
            "mark": {"type": "bar"},
            "encoding": {**encoding, "x2": {"field": "zero"}, "color": colour_scale("s", names)},
        },
        {
            "data": {"values": words},
            "mark": {**text_mark(NOTE_COLOUR, "left", baseline="middle", size=9), "dx": 3},
            "transform": [{"filter": "datum.a == 'left'"}],
            "encoding": {**encoding, "text": {"field": "t"}},
        },
        {
            "data": {"values": words},
            "mark": {**text_mark(NOTE_COLOUR, "right", baseline="middle", size=9), "dx": -3},
            "transform": [{"filter": "datum.a == 'right'"}],
            "encoding": {**encoding, "text": {"field": "t"}},
        },
        rule("x", -threshold, CRITICAL_COLOUR, (4, 3), field="e"),
        rule("x", threshold, CRITICAL_COLOUR, (4, 3), field="e"),
        rule("x", 0.0, "#000000", (1, 0), field="e"),
    ]
    step = 11  # a bar: the step of a grouped chart is its bars'
    return ChartSpec(
        "Model against measurement, per interval",
        frame(
            layers,
            height={"step": step},
            legend_of=names if len(names) > 1 else [],
            beside=labels,
        ),
    )


def _ordered_part_names(bars: Sequence[StackedBar]) -> list[str]:
    """Every part name in first-seen order, so the colours follow the path of an I/O."""
    names: list[str] = []
    for bar in bars:
        for name, _ in bar.parts:
            if name not in names:
                names.append(name)
    return names


def _lines(labels: Sequence[str]) -> int:
    """The most lines a (wrapped) label takes."""
    return max((label.count("\n") + 1 for label in labels), default=1)
