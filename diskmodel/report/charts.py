"""Charts of a sizing report as Vega-Lite specifications: plain numbers in, SVG text out.

Each chart is one function that says what it shows as data, marks and encodings: a
`ChartSpec` (a title and a Vega-Lite specification, written with the marks of
`diskmodel.report.chart_marks`), rendered to static SVG by `diskmodel.report.chart_svg`
(`vl-convert-python`). No chart draws: scales, axes, ticks, legends and the layout of the
marks are Vega's. The line charts are here, the bar charts in `diskmodel.report.bar_charts`,
the charts of two plots side by side in `diskmodel.report.panel_charts`.

Why static SVG with no script: the report must open with no network and print legibly. SVG is
vector (sharp on paper at any size), its text stays selectable and searchable in the page.

What the specifications decide, and Vega cannot: which numbers are shown (a saturated point
has no response time and is left out, marked as a cross instead), where a response-time axis
stops (`response_axis_top`: past the knee a curve tells nothing but "saturating"; a line that
rises past it ends in an arrowhead), and on which side of a mark its label goes, so that every
word stays inside the plot.

Every function here takes plain numbers and names (never a `Prediction`); the same numbers
give the same bytes. Names from the scenario reach the SVG as escaped text only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from diskmodel.report import display
from diskmodel.report.chart_marks import (
    NOTE_COLOUR,
    PALETTE,
    RATE_FORMAT,
    TARGET_COLOUR,
    TIER_COLOURS,
    WIDTH,
    X_SHAPE,
    ChartSpec,
    Spec,
    area,
    colour_scale,
    fits_right,
    foot_note,
    keyed_points,
    label_end,
    labelled_rule,
    layered,
    line_layers,
    note_mark,
    padded_top,
    palette_colour,
    planned_vertical,
    point_mark,
    scale_axis,
    span,
    wrap,
)

WARN_UTILIZATION = 0.70
"""Utilisation above which a component is flagged: queueing delay grows quickly past it."""

CRITICAL_UTILIZATION = 0.90
"""Utilisation above which a component is near saturation: queueing dominates its response."""


@dataclass(frozen=True)
class Series:
    """One named line: x and y of equal length (y may hold inf past saturation)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]


@dataclass(frozen=True)
class Band:
    """A shaded range around the first line: at each x the optimistic (low) and pessimistic
    (high) response time, inf where that end saturates."""

    x: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True)
class Marker:
    """One point to mark on a line chart, with a short label (e.g. the planned load)."""

    series: str
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class TierSpan:
    """The capacity fractions [start, end) of a pool that one tier holds, and its share of I/O."""

    tier: str
    start_fraction: float
    end_fraction: float
    io_share: float


# --------------------------------------------------------------------------- charts


def response_time_chart(
    series: Sequence[Series],
    markers: Sequence[Marker],
    planned_iops: float | None,
    x_label: str = "host I/O rate (IOPS)",
    target_ms: float | None = None,
    band: Band | None = None,
    saturated_at: Sequence[tuple[str, float]] = (),
    spans: Sequence[tuple[float, float, str]] = (),
) -> ChartSpec:
    """Response time (ms) against I/O rate, one line per alternative, the planned load marked.

    The y axis stops at `response_axis_top`; a line is drawn up to its last point under it and
    ends there in an upward arrowhead. `target_ms`, the service level's response-time target,
    is a horizontal dotted line. `band`, shaded in the first line's colour, is the range of the
    inputs given as ranges. `saturated_at`: (line, load) of a configuration saturated at the
    planned load, a cross near the top of the frame there, labelled "saturated", a row per
    line. `spans`: (from, to, label) stretches of load shaded and labelled at the foot of the
    plot (where a line's response time falls as Easy Tier re-places data).
    """
    top = response_axis_top(series, markers, target_ms)
    lines = [(s.name, *below_top(s.x, s.y, top)) for s in series]
    shown = [m for m in markers if math.isfinite(m.x) and math.isfinite(m.y) and m.y <= top]
    xs = [v for _, x, _, _ in lines for v in x] + [m.x for m in shown]
    if band is not None:
        xs += [v for v in band.x if math.isfinite(v)]
    # The planned load and the saturated points on it are always inside the frame.
    xs += [x for _, x in saturated_at if math.isfinite(x)]
    if planned_iops is not None and math.isfinite(planned_iops):
        xs.append(planned_iops)
    right = padded_top(xs)
    names = [s.name for s in series]
    layers: list[Spec] = []
    if band is not None and band.x:
        rows = [
            {"x": x, "low": min(lo, top), "high": min(hi, top)}
            for x, lo, hi in zip(band.x, band.low, band.high, strict=True)
            if math.isfinite(x)
        ]
        layers.append(area(rows, PALETTE[0]))
    for lo, hi, label in spans:
        layers.append(span(lo, hi, NOTE_COLOUR, 0.1))
        layers.append(foot_note(label, (lo + hi) / 2 / right))
    layers += line_layers(lines, names)
    crowded = len({m.x for m in markers}) < len(markers)  # labels would overlap: leave them
    far = max([m.x for m in shown] + [v for _, x, _, _ in lines for v in x] + [0.0])
    for m in shown:
        colour = palette_colour(_index_of(names, m.series))
        layers.append(point_mark([{"x": m.x, "y": m.y}], "circle", colour, 80, fill="#ffffff"))
        if not crowded:
            near_end = far > 0 and m.x > 0.85 * far
            layers.append(
                note_mark(
                    [{"x": m.x, "y": m.y, "t": m.label}],
                    colour,
                    "right" if near_end else "left",
                    dx=-6 if near_end else 6,
                    dy=12,
                )
            )
    for row, (name, at) in enumerate(saturated_at):
        colour = palette_colour(_index_of(names, name))
        y = top * (0.9 - 0.08 * row)
        layers.append(point_mark([{"x": at, "y": y}], X_SHAPE, colour, 70, stroke_width=2))
        left = fits_right("saturated", at / right, WIDTH)
        layers.append(
            note_mark(
                [{"x": at, "y": y, "t": "saturated"}],
                colour,
                "left" if left else "right",
                dx=8 if left else -8,
                baseline="middle",
            )
        )
    if target_ms is not None and target_ms <= top:
        layers += labelled_rule(
            target_ms,
            f"target {display.number(target_ms)} ms",
            TARGET_COLOUR,
            (2, 2),
            label_end(target_ms, top, lines),
            (0.0, right),
        )
    if planned_iops is not None:
        layers += planned_vertical(planned_iops, right, top, lines)
    return ChartSpec(
        "Response time against I/O rate",
        layered(
            layers,
            height=220,
            x=scale_axis(x_label, (0.0, right), fmt=RATE_FORMAT),
            y=scale_axis("response time (ms)", (0.0, top)),
            legend=names if len(names) > 1 else [],
        ),
    )


def skew_chart(
    curve_c: Sequence[float],
    curve_f: Sequence[float],
    spans: Sequence[TierSpan],
    title: str = "",
) -> ChartSpec:
    """The skew curve F(c) (I/O share of the hottest capacity fraction c) with each tier's
    capacity as a shaded band, its legend entry giving the tier's shares of data and I/O."""
    labels = [
        wrap(
            f"{span.tier}: {display.percent(span.end_fraction - span.start_fraction)} of the "
            f"data, {display.percent(span.io_share)} of the I/O"
        )
        for span in spans
    ]
    entries = [*labels, "skew curve F(c)", "no skew"]
    colours = [TIER_COLOURS.get(s.tier, "#999999") for s in spans] + ["#000000", "#999999"]
    colour = colour_scale("k", entries, colours)
    rects = [
        {"x": s.start_fraction, "x2": s.end_fraction, "k": label}
        for s, label in zip(spans, labels, strict=True)
    ]
    curve = [
        {"x": c, "y": f, "k": "skew curve F(c)"} for c, f in zip(curve_c, curve_f, strict=True)
    ]
    diagonal = [{"x": 0.0, "y": 0.0, "k": "no skew"}, {"x": 1.0, "y": 1.0, "k": "no skew"}]
    layers: list[Spec] = [
        {
            "data": {"values": rects},
            "mark": {"type": "rect", "opacity": 0.18},
            "encoding": {
                "x": {"field": "x", "type": "quantitative"},
                "x2": {"field": "x2"},
                "color": colour,
            },
        },
        {
            "data": {"values": curve + diagonal},
            "mark": {"type": "line", "strokeWidth": 1.5, "clip": True},
            "encoding": {
                "detail": {"field": "k"},
                "color": colour,
                "strokeDash": {
                    "field": "k",
                    "type": "nominal",
                    "scale": {"domain": ["skew curve F(c)", "no skew"], "range": [[1, 0], [4, 3]]},
                    "legend": None,
                },
            },
        },
    ]
    return ChartSpec(
        title or "Easy Tier skew curve and tier capacities",
        layered(
            layers,
            height=180,
            x=scale_axis("hottest fraction of the data", (0.0, 1.0), fmt=".0%"),
            y=scale_axis("fraction of the back-end I/O", (0.0, 1.02), fmt=".0%"),
            legend=entries,
            colours=colours,
            shapes=["square"] * len(labels) + ["stroke", "stroke"],
        ),
    )


def placement_chart(
    x: Sequence[float],
    shares: Sequence[tuple[str, Sequence[float]]],
    planned_iops: float | None,
    title: str = "",
) -> ChartSpec:
    """Each tier's share of the pool's small random back-end I/O (0..1) against the host I/O
    rate: how Easy Tier's placement moves as the load grows. One line per tier."""
    finite = [v for v in x if math.isfinite(v)]
    if planned_iops is not None:
        finite.append(planned_iops)
    right = padded_top(finite)
    tiers = [tier for tier, _ in shares]
    lines = [
        (
            tier,
            [a for a, b in zip(x, v, strict=True) if math.isfinite(a) and math.isfinite(b)],
            [b for a, b in zip(x, v, strict=True) if math.isfinite(a) and math.isfinite(b)],
            False,
        )
        for tier, v in shares
    ]
    colours = [TIER_COLOURS.get(t, palette_colour(i)) for i, t in enumerate(tiers)]
    layers = line_layers(lines, tiers, colours)
    if planned_iops is not None:
        layers += planned_vertical(planned_iops, right, 1.02, lines)
    return ChartSpec(
        title or "Easy Tier placement against load",
        layered(
            layers,
            height=160,
            x=scale_axis("host I/O rate (IOPS)", (0.0, right), fmt=RATE_FORMAT),
            y=scale_axis("share of small back-end I/O", (0.0, 1.02), fmt=".0%"),
            legend=tiers,
            colours=colours,
        ),
    )


def sweep_chart(
    added: Sequence[float],
    lines: Sequence[tuple[str, Sequence[float]]],
    planned_iops: float | None,
    x_label: str,
    notes: dict[float, str] | None = None,
) -> ChartSpec:
    """Maximum rates (to saturation, to the service level) against the number of ranks added;
    the planned load as a horizontal dashed line. `notes` label some counts (an uneven
    placement): a ring around the first line's point and the note under or above it."""
    names = [name for name, _ in lines]
    ys = [v for _, values in lines for v in values if math.isfinite(v)]
    if planned_iops is not None:
        ys.append(planned_iops)
    top = padded_top(ys)
    drawn = [(name, *finite_points(added, values), False) for name, values in lines]
    layers = line_layers(drawn, names)
    for x, note in (notes or {}).items():
        y = next((v for a, v in zip(added, lines[0][1], strict=True) if a == x), None)
        if y is None or not math.isfinite(y):
            continue
        layers.append(point_mark([{"x": x, "y": y}], "circle", NOTE_COLOUR, 160, fill=None))
        above = y < 0.85 * top
        layers.append(
            note_mark([{"x": x, "y": y, "t": note}], NOTE_COLOUR, "center", dy=-12 if above else 18)
        )
    lo, hi = (min(added), max(added)) if added else (0.0, 1.0)
    pad = 0.05 * (hi - lo) if hi > lo else 0.5
    limits = (lo - pad, hi + pad)
    if planned_iops is not None:
        label = f"planned load {display.rate(planned_iops)} IOPS"
        layers += labelled_rule(
            planned_iops, label, NOTE_COLOUR, (4, 3), label_end(planned_iops, top, drawn), limits
        )
    across = scale_axis(x_label, limits)
    across["axis"].update(values=list(added), labelExpr="'+' + format(datum.value, '~g')")
    return ChartSpec(
        "Maximum I/O rate as ranks are added",
        layered(
            layers,
            height=190,
            x=across,
            y=scale_axis("host I/O rate (IOPS)", (0.0, top), fmt=RATE_FORMAT),
            legend=names if len(names) > 1 else [],
        ),
    )


def sizing_chart(
    points: Sequence[tuple[float, float, bool]],
    front: Sequence[tuple[float, float]],
    marked: Sequence[tuple[str, float, float]],
    cost_label: str,
) -> ChartSpec:
    """Every configuration tried as a point (cost, response time now; a circle where it meets
    the service level through the last period, a cross where not), the Pareto front as a line,
    and the named configurations (current, cheapest) ringed and labelled."""
    entries = ["meets the service level", "does not", "Pareto front"]
    colours = [PALETTE[0], PALETTE[1], PALETTE[2]]
    xs = [x for x, _, _ in points] + [x for x, _ in front] + [x for _, x, _ in marked]
    ys = [y for _, y, _ in points] + [y for _, y in front] + [y for _, _, y in marked]
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    pad = 0.05 * (hi - lo) if hi > lo else 0.5
    rows = [{"x": x, "y": y, "k": entries[0] if ok else entries[1]} for x, y, ok in points]
    layers: list[Spec] = [
        keyed_points(
            rows,
            {"type": "point", "size": 40, "filled": False, "strokeWidth": 1.5},
            entries,
            colours,
            shapes=["circle", X_SHAPE, "stroke"],
        ),
        {
            "data": {"values": [{"x": x, "y": y, "k": entries[2]} for x, y in front]},
            "mark": {"type": "line", "strokeWidth": 1.2},
            "encoding": {"color": colour_scale("k", entries, colours, legend=False)},
        },
    ]
    right = max((x for x, _, _ in points), default=1.0)
    for name, x, y in marked:
        layers.append(point_mark([{"x": x, "y": y}], "circle", NOTE_COLOUR, 130, fill=None))
        near_end = x > 0.85 * right
        layers.append(
            note_mark(
                [{"x": x, "y": y, "t": name}],
                NOTE_COLOUR,
                "right" if near_end else "left",
                dx=-7 if near_end else 7,
                dy=-5,
            )
        )
    return ChartSpec(
        "Cost against response time of every configuration tried",
        layered(
            layers,
            height=200,
            x=scale_axis(cost_label, (lo - pad, hi + pad), fmt=RATE_FORMAT),
            y=scale_axis("response time now (ms)", (0.0, padded_top(ys))),
            legend=entries,
            colours=colours,
            shapes=["circle", X_SHAPE, "stroke"],
        ),
    )


def _index_of(names: Sequence[str], name: str) -> int:
    return names.index(name) if name in names else 0


def finite_points(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    """The points where both coordinates are finite (a saturated point has no response time)."""
    pairs = [(a, b) for a, b in zip(x, y, strict=True) if math.isfinite(a) and math.isfinite(b)]
    return [a for a, _ in pairs], [b for _, b in pairs]


def below_top(
    x: Sequence[float], y: Sequence[float], top: float
) -> tuple[list[float], list[float], bool]:
    """The finite points of a line up to its first point above `top` (excluded), and whether
    the line was cut there (it goes on rising towards saturation)."""
    xs: list[float] = []
    ys: list[float] = []
    for a, b in zip(x, y, strict=True):
        if not (math.isfinite(a) and math.isfinite(b)):
            continue
        if b > top:
            return xs, ys, True
        xs.append(a)
        ys.append(b)
    return xs, ys, False


def response_axis_top(
    series: Sequence[Series],
    markers: Sequence[Marker],
    target_ms: float | None = None,
    stretch: float = 6.0,
) -> float:
    """Top of a response-time axis: `stretch` times the lightest-load response time of the
    fastest alternative, raised to show every marked point and the target, never above the
    largest finite value (5% above it, so that the highest point is not on the frame).

    Six times the no-load response time is where an M/M/1-like curve is at 83% utilisation,
    well past the knee a planner needs to see; a line that rises past it ends in an arrowhead.
    """
    finite = [v for s in series for v in s.y if math.isfinite(v) and v > 0]
    if not finite:
        return max(1.0, 1.25 * target_ms) if target_ms else 1.0
    lightest = min(
        min((v for v in s.y if math.isfinite(v) and v > 0), default=math.inf) for s in series
    )
    top = stretch * lightest
    marked = [m.y for m in markers if math.isfinite(m.y)]
    if marked:
        top = max(top, 1.4 * max(marked))
    if target_ms is not None:
        top = max(top, 1.25 * target_ms)
    return min(top, 1.05 * max(finite))
