"""The vocabulary the report's Vega-Lite specifications are written in: lines, points, rules,
notes, axes, legends and the frame around them, as plain dicts (`diskmodel.report.charts` says
what each chart shows with them; `diskmodel.report.chart_svg` renders them).

Nothing here draws or places by pixel: marks are placed by Vega in data coordinates, and the
only judgements made here are which side of a mark a note goes, so that it stays inside the
plot (text widths estimated generously: `CHAR_EM`).
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from diskmodel.report import display

Spec = dict[str, Any]
"""A Vega-Lite specification, or a part of one (a layer, an encoding)."""

Line = tuple[str, Sequence[float], Sequence[float], bool]
"""A line to draw: its name, x, y (finite) and whether it was cut at the top of the axis."""


@dataclass(frozen=True)
class ChartSpec:
    """One chart: its title (the SVG's accessible name) and its Vega-Lite specification."""

    title: str
    spec: Spec


# Okabe-Ito: distinguishable with every common form of colour blindness; each series also
# gets its own marker and line style so that a black-and-white print still tells them apart.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
SHAPES = ("circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-right")
DASHES = ((1, 0), (6, 3), (6, 2, 1, 2), (1.5, 2))
TIER_COLOURS = {"ssd": "#009E73", "enterprise": "#0072B2", "nearline": "#E69F00"}
WARN_COLOUR = "#E69F00"
CRITICAL_COLOUR = "#D55E00"
TARGET_COLOUR = "#555555"
NOTE_COLOUR = "#333333"
X_SHAPE = "M-1,-1L1,1M-1,1L1,-1"
"""A saturation mark: an 'x' (Vega's own 'cross' is a plus sign)."""

CHART_WIDTH = 540
"""A chart's width in pixels, axes and legend included: every chart of a page as wide, so
that their text is drawn at one size when the page scales them to its width."""
WIDTH = 440
"""A plot's width in pixels (about; Vega fits it to `CHART_WIDTH`): where a note's room is
judged. Each of two plots side by side is `PANEL_WIDTH` wide."""
PANEL_WIDTH = 190
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
FONT_PX = 11
NOTE_PX = 10
CHAR_EM = 0.6
"""A generous estimate of a character's width (em): where a note's room is judged."""
LINES = "split(datum.label, '\\n')"
"""A label's lines: names are wrapped (`wrap`) into lines joined by a newline."""
RATE_FORMAT = ",.4~r"
"""Tick labels of a rate or a count: thousands separated, no needless decimals (12,000; 2.5)."""
LABEL_CHARS = 60
"""Legend entries and bar labels longer than this wrap onto further lines."""
LEGEND_WIDTH = 520
"""Room under the plot for a legend's columns."""


# --------------------------------------------------------------------------- marks


def line_layers(
    lines: Sequence[tuple[str, Sequence[float], Sequence[float], bool]],
    names: Sequence[str],
    colours: Sequence[str] | None = None,
) -> list[Spec]:
    """One line per (name, x, y, cut), each with its colour, dash and markers (at most about
    a dozen a line); a line cut at the top of the axis ends in an upward arrowhead."""
    rows = [
        {"x": a, "y": b, "k": wrap(name), "i": j}
        for name, x, y, _ in lines
        for j, (a, b) in enumerate(zip(x, y, strict=True))
    ]
    every = {wrap(name): max(1, len(x) // 12) for name, x, _, _ in lines}
    marked = [
        {"x": a, "y": b, "k": wrap(name)}
        for name, x, y, _ in lines
        for j, (a, b) in enumerate(zip(x, y, strict=True))
        if j % every[wrap(name)] == 0
    ]
    ends = [{"x": x[-1], "y": y[-1], "k": wrap(name)} for name, x, y, cut in lines if cut and x]
    keys = [wrap(n) for n in names]
    colour = colour_scale("k", keys, colours)
    dash = {
        "field": "k",
        "type": "nominal",
        "scale": {"domain": keys, "range": [DASHES[i % len(DASHES)] for i in range(len(keys))]},
        "legend": None,
    }
    shape = shape_scale(keys)
    out: list[Spec] = [
        {
            "data": {"values": rows},
            "mark": {"type": "line", "strokeWidth": 1.6, "clip": True},
            "encoding": {"color": colour, "strokeDash": dash, "order": {"field": "i"}},
        },
        {
            "data": {"values": marked},
            "mark": {"type": "point", "filled": True, "size": 22, "clip": True},
            "encoding": {"color": colour, "shape": shape},
        },
    ]
    if ends:
        out.append(
            {
                "data": {"values": ends},
                "mark": {"type": "point", "shape": "triangle-up", "filled": True, "size": 70},
                "encoding": {"color": {**colour, "legend": None}},
            }
        )
    return out


def keyed_points(
    rows: list[dict[str, Any]],
    mark: Spec,
    entries: Sequence[str],
    colours: Sequence[str],
    shapes: Sequence[str] | None = None,
) -> Spec:
    """Points coloured (and shaped) by their legend entry `k`."""
    encoding: Spec = {"color": colour_scale("k", entries, colours)}
    if shapes is not None:
        encoding["shape"] = {
            "field": "k",
            "type": "nominal",
            "scale": {"domain": list(entries), "range": list(shapes)},
        }
    return {"data": {"values": rows}, "mark": mark, "encoding": encoding}


def point_mark(
    rows: list[dict[str, Any]],
    shape: str,
    colour: str,
    size: float,
    fill: str | None = None,
    stroke_width: float = 2.0,
) -> Spec:
    mark: Spec = {
        "type": "point",
        "shape": shape,
        "size": size,
        "stroke": colour,
        "strokeWidth": stroke_width,
        "filled": fill is not None,
        "opacity": 1,
    }
    if fill is not None:
        mark["fill"] = fill
    return {"data": {"values": rows}, "mark": mark}


def note_mark(
    rows: list[dict[str, Any]],
    colour: str,
    align: str,
    dx: float = 0,
    dy: float = 0,
    baseline: str = "alphabetic",
) -> Spec:
    """A short text at a data point, offset by (dx, dy) pixels (dy down)."""
    mark = {**text_mark(colour, align, baseline=baseline), "dx": dx, "dy": dy}
    return {"data": {"values": rows}, "mark": mark, "encoding": {"text": {"field": "t"}}}


def text_mark(
    colour: str, align: str, dx: float = 0, baseline: str = "alphabetic", size: int = NOTE_PX
) -> Spec:
    return {
        "type": "text",
        "align": align,
        "baseline": baseline,
        "dx": dx,
        "fontSize": size,
        "color": colour,
        "font": FONT,
    }


def rule(
    channel: str, value: float, colour: str, dash: Sequence[float], field: str | None = None
) -> Spec:
    """A line across the plot at `value` on `channel` ("x": vertical, "y": horizontal)."""
    name = field or channel
    return {
        "data": {"values": [{name: value}]},
        "mark": {"type": "rule", "color": colour, "strokeDash": list(dash), "strokeWidth": 1.1},
        "encoding": {channel: {"field": name, "type": "quantitative"}},
    }


def labelled_rule(
    value: float,
    text: str,
    colour: str,
    dash: Sequence[float],
    place: tuple[bool, bool],
    x_range: tuple[float, float],
) -> list[Spec]:
    """A horizontal line at `value`, labelled just above it (or under it) at the left end of
    `x_range` (or the right one), the plot's x domain: `place` = (at_left, above)."""
    at_left, above = place
    row = {"y": value, "t": text, "x": x_range[0] if at_left else x_range[1]}
    mark = {
        **text_mark(colour, "left" if at_left else "right"),
        "dx": 4 if at_left else -4,
        "dy": -3 if above else 11,
    }
    label = {"data": {"values": [row]}, "mark": mark, "encoding": {"text": {"field": "t"}}}
    return [rule("y", value, colour, dash), label]


def label_end(
    y: float, top: float, lines: Sequence[tuple[str, Sequence[float], Sequence[float], bool]]
) -> tuple[bool, bool]:
    """Where a horizontal line's label crosses none of `lines`: above it at the left, under it
    at the left, above it at the right, under it at the right, the first that is clear (the
    first if none is). The label is taken as a third of the plot wide and a tenth high."""
    xs = [a for _, x, _, _ in lines for a in x if math.isfinite(a)]
    if not xs or top <= 0:
        return (True, True)
    lo, hi = min(xs), max(xs)
    span = (hi - lo) or 1.0
    for at_left, above in ((True, True), (True, False), (False, True), (False, False)):
        low, high = (y, y + 0.1 * top) if above else (y - 0.1 * top, y)
        if not above and low < 0:
            continue
        if above and high > top:
            continue
        clear = True
        for _, x, ys, _ in lines:
            for a, b in zip(x, ys, strict=True):
                if not (math.isfinite(a) and math.isfinite(b)):
                    continue
                where = (a - lo) / span
                if (where <= 0.4 if at_left else where >= 0.6) and low <= b <= high:
                    clear = False
        if clear:
            return (at_left, above)
    return (True, True)


def planned_vertical(
    planned_iops: float, right: float, top: float, lines: Sequence[Line] = ()
) -> list[Spec]:
    """The planned load: a dashed vertical line on an axis from 0 to `right`, labelled at its
    top on the side with room, or at its foot where a line of `lines` crosses the label at the
    top (the first of those that fits and crosses none; the first that fits if none is clear)."""
    text = f"planned load {display.rate(planned_iops)} IOPS"
    where = planned_iops / right
    width = len(text) * CHAR_EM * NOTE_PX / WIDTH * right
    candidates = [
        (at_right, at_top)
        for at_top in (True, False)
        for at_right in (True, False)
        if (fits_right(text, where, WIDTH) if at_right else fits_right(text, 1 - where, WIDTH))
    ] or [(False, True)]

    def clear(at_right: bool, at_top: bool) -> bool:
        lo, hi = (
            (planned_iops, planned_iops + width)
            if at_right
            else (planned_iops - width, planned_iops)
        )
        low, high = (0.86 * top, top) if at_top else (0.0, 0.14 * top)
        return not any(lo <= a <= hi and low <= b <= high for a, b in sampled(lines))

    at_right, at_top = next((c for c in candidates if clear(*c)), candidates[0])
    row = {"x": planned_iops, "y": top if at_top else 0.0, "t": text}
    return [
        rule("x", planned_iops, TARGET_COLOUR, (4, 3)),
        note_mark(
            [row],
            NOTE_COLOUR,
            "left" if at_right else "right",
            dx=4 if at_right else -4,
            dy=12 if at_top else -4,
        ),
    ]


def sampled(lines: Sequence[Line], per_segment: int = 10) -> list[tuple[float, float]]:
    """Points along each line, `per_segment` to each of its segments: where it runs."""
    out: list[tuple[float, float]] = []
    for _, x, y, _ in lines:
        pts = list(zip(x, y, strict=True))
        out += pts[-1:]
        for (xa, ya), (xb, yb) in itertools.pairwise(pts):
            out += [
                (xa + (xb - xa) * k / per_segment, ya + (yb - ya) * k / per_segment)
                for k in range(per_segment)
            ]
    return out


def span(lo: float, hi: float, colour: str, opacity: float) -> Spec:
    return {
        "data": {"values": [{"x": lo, "x2": hi}]},
        "mark": {"type": "rect", "color": colour, "opacity": opacity},
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "x2": {"field": "x2"}},
    }


def foot_note(text: str, where: float) -> Spec:
    """A note just above the plot's foot at the fraction `where` of its width, aligned so
    that it stays inside the plot."""
    room = len(text) * CHAR_EM * NOTE_PX / WIDTH
    align = "left" if where < room / 2 else "right" if where > 1 - room / 2 else "center"
    x = {"left": 0.0, "right": 1.0, "center": where}[align]
    return {
        "data": {"values": [{"t": text}]},
        "mark": {
            **text_mark(NOTE_COLOUR, align),
            "dy": -4,
            "dx": {"left": 3, "right": -3}.get(align, 0),
        },
        "encoding": {
            "x": {"value": {"expr": f"width * {x!r}"}},
            "y": {"value": {"expr": "height"}},
            "text": {"field": "t"},
        },
    }


def area(rows: list[dict[str, Any]], colour: str) -> Spec:
    return {
        "data": {"values": rows},
        "mark": {"type": "area", "color": colour, "opacity": 0.15},
        "encoding": {"y": {"field": "low", "type": "quantitative"}, "y2": {"field": "high"}},
    }


# --------------------------------------------------------------------------- frame


def scale_axis(
    title: str, domain: tuple[float, float], fmt: str | None = None, field: str | None = None
) -> Spec:
    axis: Spec = {"title": title, "tickCount": 6, "grid": True}
    if fmt is not None:
        axis["format"] = fmt
    out: Spec = {
        "type": "quantitative",
        "scale": {"domain": list(domain), "nice": False, "zero": False},
        "axis": axis,
    }
    if field is not None:
        out["field"] = field
    return out


def band_axis() -> Spec:
    return {"labelLimit": 0, "labelExpr": LINES, "ticks": False}


def layered(
    layers: list[Spec],
    height: int,
    x: Spec,
    y: Spec,
    legend: Sequence[str],
    width: int = WIDTH,
    colours: Sequence[str] | None = None,
    shapes: Sequence[str] | None = None,
) -> Spec:
    """A plot of `layers` on shared x and y scales (fields "x" and "y" of each layer, but a
    rule's or a shaded span's other channel, which spans the plot), every colour and shape
    keyed by field "k" on one scale: the entries of `legend` (`colours`, `shapes` in order,
    the palette's by default), listed under the plot when there are any."""
    for layer in layers:
        encoding = layer.setdefault("encoding", {})
        spans_plot = layer["mark"]["type"] in ("rule", "rect")
        for channel, scale in (("x", x), ("y", y)):
            if channel in encoding and "field" not in encoding[channel]:
                continue
            if spans_plot and channel not in encoding:
                continue
            encoding[channel] = {"field": channel, **scale, **encoding.get(channel, {})}
    keys = [wrap(k) for k in legend]
    spec = frame(layers, height=height, width=width, legend_of=keys)
    if not keys:
        for layer in layers:
            if "color" in layer["encoding"]:
                layer["encoding"]["color"] = {**layer["encoding"]["color"], "legend": None}
    else:
        colour = colour_scale("k", keys, colours)
        shape = shape_scale(keys, shapes)
        for layer in layers:
            encoding = layer["encoding"]
            if encoding.get("color", {}).get("field") == "k":
                # one legend, the legend layer's: a layer's own `legend: null` would win it
                encoding["color"] = {k: v for k, v in colour.items() if k != "legend"}
            if encoding.get("shape", {}).get("field") == "k":
                encoding["shape"]["scale"] = shape["scale"]
        layers.append(
            {
                "name": LEGEND_LAYER,
                "data": {"values": [{"k": k} for k in keys]},
                "transform": [{"filter": "false"}],
                "mark": {"type": "point", "filled": False, "strokeWidth": 1.6},
                "encoding": {"color": colour, "shape": shape},
            }
        )
    return spec


LEGEND_LAYER = "legend"
"""The name of the empty layer that carries a plot's legend (every entry, in order)."""


def frame(
    layers: list[Spec],
    height: int | Spec,
    legend_of: Sequence[str],
    width: int = WIDTH,
    beside: Sequence[str] = (),
) -> Spec:
    """The top-level specification: fixed plot width and height, fonts and axis style, the
    legend (of `legend_of`, or none) under the plot in as many columns as fit right of the
    labels `beside` the plot (a bar chart's: the legend starts under the plot, not under them)."""
    legend: Spec = (
        {
            "orient": "bottom",
            "title": None,
            "direction": "horizontal",
            "columns": legend_columns(legend_of, LEGEND_WIDTH - label_room(beside)),
            "labelLimit": 0,
            "labelExpr": LINES,
        }
        if legend_of
        else {"disable": True}
    )
    fit = {"autosize": {"type": "fit-x", "contains": "padding"}} if width == WIDTH else {}
    return {
        **fit,
        "width": CHART_WIDTH if width == WIDTH else width,
        "height": height,
        "background": "#ffffff",
        "padding": 6,
        "layer": layers,
        "config": {
            # the chart is one image to assistive technology (`chart_svg`: role="img" and
            # its title); Vega's description of every point was 40% of a report's bytes
            "aria": False,
            "font": FONT,
            "view": {"stroke": "#000000", "strokeWidth": 0.8},
            "axis": {
                "labelFontSize": FONT_PX - 1,
                "titleFontSize": FONT_PX,
                "titleFontWeight": "normal",
                "gridColor": "#dddddd",
                "labelColor": "#000000",
                "titleColor": "#000000",
            },
            "legend": {
                **legend,
                "labelFontSize": FONT_PX - 1,
                "symbolSize": 60,
                "rowPadding": 4,
                "columnPadding": 14,
            },
        },
    }


def side_by_side(plots: list[Spec]) -> Spec:
    """Two plots side by side under one legend (the first's), each with its own y axis."""
    first = plots[0]
    top = {k: v for k, v in first.items() if k not in ("layer", "width", "height")}
    inner = [{k: p[k] for k in ("layer", "width", "height")} for p in plots]
    for plot in inner[1:]:
        plot["layer"] = [layer for layer in plot["layer"] if layer.get("name") != LEGEND_LAYER]
    resolve = {"scale": {"x": "independent", "y": "independent"}}
    # room right of the second plot for its axis title, which is centred under a narrow plot
    padding = {"left": 6, "top": 6, "bottom": 6, "right": 14}
    return {**top, "hconcat": inner, "spacing": 40, "resolve": resolve, "padding": padding}


def colour_scale(
    field: str, keys: Sequence[str], colours: Sequence[str] | None = None, legend: bool = True
) -> Spec:
    range_ = list(colours) if colours is not None else [palette_colour(i) for i in range(len(keys))]
    out: Spec = {
        "field": field,
        "type": "nominal",
        "scale": {"domain": list(keys), "range": range_[: len(keys)] or ["#000000"]},
    }
    # a wrapped name is drawn on as many lines (the legend's configuration cannot say so)
    out["legend"] = {"labelExpr": LINES} if legend else None
    return out


def shape_scale(keys: Sequence[str], shapes: Sequence[str] | None = None) -> Spec:
    """Markers by field "k": `shapes` in the order of `keys`, Vega's in turn by default."""
    range_ = list(shapes) if shapes is not None else list(SHAPES)
    return {
        "field": "k",
        "type": "nominal",
        "scale": {
            "domain": list(keys),
            "range": [range_[i % len(range_)] for i in range(len(keys))],
        },
        "legend": None,
    }


def label_room(labels: Sequence[str]) -> float:
    """The width that labels left of a plot take (none: 0)."""
    if not labels:
        return 0.0
    widest = max(len(line) for label in labels for line in label.split("\n"))
    return widest * CHAR_EM * (FONT_PX - 1) + 16


def legend_chars(beside: Sequence[str]) -> int:
    """The characters a legend entry's line may take right of the labels `beside` a plot."""
    room = LEGEND_WIDTH - label_room(beside) - 30
    return max(20, min(LABEL_CHARS, int(room / (CHAR_EM * (FONT_PX - 1)))))


def legend_columns(labels: Sequence[str], room: float = LEGEND_WIDTH) -> int:
    """As many legend columns as fit `LEGEND_WIDTH` with the widest entry (names wrapped at
    `LABEL_CHARS`): no legend is wider than the chart."""
    if not labels:
        return 1
    widest = max(len(line) for label in labels for line in wrap(label).split("\n"))
    entry = widest * CHAR_EM * (FONT_PX - 1) + 30
    return max(1, min(len(labels), int(room // entry)))


# --------------------------------------------------------------------------- numbers


def fits_right(text: str, where: float, width: float) -> bool:
    """Whether `text` written from the fraction `where` of a plot `width` wide stays in it."""
    return where * width + 8 + len(text) * CHAR_EM * NOTE_PX <= width


def padded_top(values: Sequence[float]) -> float:
    """5% above the largest value (1 when there is none): the top of an axis from 0."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return 1.0
    lo, hi = min(min(finite), 0.0), max(finite)
    return hi + 0.05 * (hi - lo) if hi > lo else max(1.0, abs(hi) * 1.05)


def wrap(text: str, width: int = LABEL_CHARS) -> str:
    return "\n".join(textwrap.wrap(text, width)) if len(text) > width else text


def palette_colour(i: int) -> str:
    return PALETTE[i % len(PALETTE)]
